// The chart redraws over up to maxSamples samples several times a second; reading the engine's scattered
// sample objects is memory-bound, so each chart (no module state) copies its fields into typed columns.
import type { Sample, SimEvent } from '../../src/engine';
import type { RunView } from '../../src/store/backend';

export const SERIES_FIELDS = [
  'leaderCount',
  'leaderCountObserved',
  'fencingRejections',
  'leaderTransitions',
  'renewalLatencyMs',
  'msWithoutLeader',
  // Only ZooKeeper's samples carry these (Sample.watchNotifications); 0 in every other run.
  'watchNotifications',
  'watchReads',
  // Only a run with clients carries these (Sample.clientErrors); 0 in every other run.
  'clientErrors',
  'clientServed',
  'clientWaitedMs',
] as const;
export type SeriesField = (typeof SERIES_FIELDS)[number];

export type FaultEvent = Extract<SimEvent, { type: 'fault' }>;

export interface Columns {
  length: number;
  atMs: Float64Array;
  values: Record<SeriesField, Float64Array>;
}

/** Fault annotations kept per chart; older ones drop off the front. */
export const MAX_FAULTS = 2000;

/** What the cache reads from the engine (a Simulation fits). */
export type SampleSource = Pick<RunView, 'samples' | 'samplesTotal' | 'events' | 'eventsTotal'>;

/**
 * How far an engine output array was read: it appends, trims its front, cuts its tail on a seek; totals count
 * from the start. The last item read is compared by identity: gone or replaced, all is read again.
 */
class Cursor<T> {
  private source: readonly T[] | null = null;
  private lastItem: T | undefined;
  private readTotal = 0;

  /** Where to continue reading in items, or -1 to read everything again. */
  resume(items: readonly T[], total: number): number {
    if (items !== this.source || this.readTotal === 0 || total < this.readTotal) return -1;
    const pos = this.readTotal - 1 - (total - items.length);
    return pos >= 0 && items[pos] === this.lastItem ? pos + 1 : -1;
  }

  done(items: readonly T[], total: number): void {
    this.source = items;
    this.readTotal = total;
    this.lastItem = items[items.length - 1];
  }
}

function grown(a: Float64Array, need: number): Float64Array {
  if (a.length >= need) return a;
  const b = new Float64Array(Math.max(need, a.length * 2, 1024));
  b.set(a);
  return b;
}

export class ChartCache {
  readonly columns: Columns = {
    length: 0,
    atMs: new Float64Array(0),
    values: Object.fromEntries(SERIES_FIELDS.map((f) => [f, new Float64Array(0)])) as Record<
      SeriesField,
      Float64Array
    >,
  };
  /** Applied faults in time order: they outlive the event log's trims (with many clients, far sooner). */
  faults: FaultEvent[] = [];
  private samplesRead = new Cursor<Sample>();
  private eventsRead = new Cursor<SimEvent>();

  /** Copy in what is new if the run moved forward; a jump back's re-read waits for the chart's own sync(). */
  follow(src: SampleSource): void {
    if (this.samplesRead.resume(src.samples, src.samplesTotal) >= 0) this.sync(src);
  }

  sync(src: SampleSource): this {
    this.syncSamples(src.samples, src.samplesTotal);
    const { events, eventsTotal } = src;
    let from = this.eventsRead.resume(events, eventsTotal);
    if (from < 0) {
      this.faults = [];
      from = 0;
    }
    for (let i = from; i < events.length; i++) {
      const ev = events[i];
      if (ev.type === 'fault' && !ev.skipped) this.faults.push(ev);
    }
    if (this.faults.length > MAX_FAULTS) this.faults.splice(0, this.faults.length - MAX_FAULTS);
    this.eventsRead.done(events, eventsTotal);
    return this;
  }

  private syncSamples(samples: readonly Sample[], total: number): void {
    const c = this.columns;
    const n = samples.length;
    let from = this.samplesRead.resume(samples, total);
    if (from < 0) {
      from = 0;
    } else if (c.length > from) {
      // The engine dropped samples from the front: shift the columns to match.
      const drop = c.length - from;
      c.atMs.copyWithin(0, drop, c.length);
      for (const f of SERIES_FIELDS) c.values[f].copyWithin(0, drop, c.length);
    }
    c.atMs = grown(c.atMs, n);
    for (const f of SERIES_FIELDS) c.values[f] = grown(c.values[f], n);
    const { atMs } = c;
    const {
      leaderCount,
      leaderCountObserved,
      fencingRejections,
      leaderTransitions,
      renewalLatencyMs,
      msWithoutLeader,
      watchNotifications,
      watchReads,
      clientErrors,
      clientServed,
      clientWaitedMs,
    } = c.values;
    // Named loads, not s[field]: this loop reads every sample after a seek.
    for (let i = from; i < n; i++) {
      const s = samples[i];
      atMs[i] = s.atMs;
      leaderCount[i] = s.leaderCount;
      leaderCountObserved[i] = s.leaderCountObserved;
      fencingRejections[i] = s.fencingRejections;
      leaderTransitions[i] = s.leaderTransitions;
      renewalLatencyMs[i] = s.renewalLatencyMs;
      msWithoutLeader[i] = s.msWithoutLeader;
      watchNotifications[i] = s.watchNotifications ?? 0;
      watchReads[i] = s.watchReads ?? 0;
      clientErrors[i] = s.clientErrors ?? 0;
      clientServed[i] = s.clientServed ?? 0;
      clientWaitedMs[i] = s.clientWaitedMs ?? 0;
    }
    c.length = n;
    this.samplesRead.done(samples, total);
  }
}
