// The chart's columns for a one-off array of samples, as a chart's cache would hold them.
import type { Sample } from '../../src/engine';
import { ChartCache, type Columns } from '../../scenes/MetricLineScene/sampleColumns';

export function columnsOf(samples: readonly Sample[]): Columns {
  return new ChartCache().sync({ samples, samplesTotal: samples.length, events: [], eventsTotal: 0 }).columns;
}
