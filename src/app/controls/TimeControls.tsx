// Play / pause, speed on a log scale, step and a timeline to scrub, each shown only when the backend can.
// Acting after a scrub back forks a new future, which ForkNote says before it happens.
import { useEffect, useRef } from 'react';
import { useLabShallow, useLabUpdate } from '../../store/context';
import { setAttr, setText } from '../../ui/domWrites';
import { MAX_SPEED, MIN_SPEED } from '../../store/labStore';
import { ForkNote } from './ForkNote';
import { ShareButton } from './ShareButton';

const LOG_MIN = Math.log10(MIN_SPEED);
const LOG_MAX = Math.log10(MAX_SPEED);
// One arrow-key step (about 12%) must survive speedFromSlider's rounding (up to 5%): a 0.01 step (2.3%)
// rounded straight back to the same speed. A whole number of steps spans the range, so End reaches MAX_SPEED.
const LOG_STEP = (LOG_MAX - LOG_MIN) / 56;

export function speedFromSlider(v: number): number {
  const raw = 10 ** v;
  return raw >= 10 ? Math.round(raw) : raw >= 1 ? Math.round(raw * 10) / 10 : Math.round(raw * 100) / 100;
}

/**
 * Whether a pointer holds the timeline's thumb: only then does it stop following the run. Stopping it
 * whenever the slider had focus froze it after any click, and the next arrow key jumped back there.
 */
function useHeldByPointer(el: React.RefObject<HTMLInputElement | null>): React.RefObject<boolean> {
  const held = useRef(false);
  useEffect(() => {
    const input = el.current;
    if (!input) return;
    const stop = new AbortController();
    const on = { signal: stop.signal };
    const up = () => (held.current = false);
    input.addEventListener('pointerdown', () => (held.current = true), on);
    window.addEventListener('pointerup', up, on);
    window.addEventListener('pointercancel', up, on);
    return () => stop.abort();
  }, [el]);
  return held;
}

export function TimeControls() {
  const { playing, speed, togglePlay, setSpeed, stepEvent, seek, can } = useLabShallow((s) => ({
    playing: s.playing,
    speed: s.speed,
    togglePlay: s.togglePlay,
    setSpeed: s.setSpeed,
    stepEvent: s.stepEvent,
    seek: s.seek,
    can: s.can,
  }));
  const scrub = useRef<HTMLInputElement>(null);
  const clock = useRef<HTMLSpanElement>(null);
  const out = useRef<HTMLOutputElement>(null);
  const held = useHeldByPointer(scrub);
  // The clock and timeline follow the snapshot (up to 10 Hz), written directly: a re-render rewrites both
  // sliders' attributes (React sets an input's type and name on every update), restyling and laying out.
  const thumbAt = useRef(-1);
  useLabUpdate((s) => {
    const now = s.snapshot.nowMs;
    const el = scrub.current;
    if (el) {
      const max = Math.max(Math.ceil(s.horizonMs / 1000) * 1000, 1000);
      setAttr(el, 'max', String(max));
      // Moving the thumb repaints the slider: only by a thousandth of the timeline, finer than any slider.
      if (!held.current && Math.abs(now - thumbAt.current) * 1000 >= max) {
        el.value = String(now);
        thumbAt.current = now;
      }
      setAttr(el, 'aria-valuetext', `${Math.floor(now / 100) / 10} seconds`);
    }
    if (clock.current) setText(clock.current, `${(now / 1000).toFixed(1)} s`);
    // The exact moment, for tests that compare the page with the same run replayed headless.
    if (out.current) setAttr(out.current, 'data-now-ms', String(now));
  });
  return (
    <div className="time-controls" role="group" aria-label="Time">
      <button
        type="button"
        className="btn"
        onClick={togglePlay}
        aria-label={playing ? 'Pause' : 'Play'}
        data-testid="play"
      >
        {playing ? '❚❚ Pause' : '▶ Play'}
      </button>
      {can.step && (
        <button type="button" className="btn" onClick={stepEvent} aria-label="Step to the next event">
          Step ⇥
        </button>
      )}
      {can.speed && (
        <label className="speed">
          <span>Speed</span>
          <input
            type="range"
            aria-label="Speed"
            aria-valuetext={`${speed}x`}
            min={LOG_MIN}
            max={LOG_MAX}
            step={LOG_STEP}
            value={Math.log10(speed)}
            onChange={(e) => setSpeed(speedFromSlider(Number(e.target.value)))}
          />
          <span className="mono" data-testid="speed-value">
            {speed}x
          </span>
        </label>
      )}
      {can.seek && (
        <label className="timeline">
          <span className="visually-hidden">Timeline</span>
          <span className="timeline-track">
            <input
              ref={scrub}
              type="range"
              aria-label="Timeline"
              min={0}
              max={1000}
              step={100}
              defaultValue={0}
              onChange={(e) => seek(Number(e.target.value))}
              data-testid="timeline"
            />
          </span>
        </label>
      )}
      <output ref={out} className="mono sim-clock" aria-label="Simulated time" data-testid="sim-time">
        <span ref={clock} className="sim-clock-face">
          0.0 s
        </span>
      </output>
      {/* A share link and a fork replay the run from its commands: a simulated run only. */}
      {can.replay && <ShareButton />}
      {can.seek && can.replay && <ForkNote />}
    </div>
  );
}
