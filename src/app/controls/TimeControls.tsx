// Play / pause, speed on a log scale, step to the next event, and a timeline to scrub. Scrubbing
// back replays deterministically from checkpoints; acting after a scrub forks a new future.
import { useRef } from 'react';
import { useLabShallow, useLabUpdate } from '../../store/context';
import { setAttr, setText } from '../../ui/domWrites';
import { MAX_SPEED, MIN_SPEED } from '../../store/labStore';
import { ShareButton } from './ShareButton';

const LOG_MIN = Math.log10(MIN_SPEED);
const LOG_MAX = Math.log10(MAX_SPEED);
// One arrow-key step (about 12%) must survive speedFromSlider's rounding (up to 5%), or the
// keyboard gets stuck: a 0.01 step (2.3%) rounded straight back to the same speed. A whole
// number of steps spans the range, so End reaches exactly MAX_SPEED.
const LOG_STEP = (LOG_MAX - LOG_MIN) / 56;

export function speedFromSlider(v: number): number {
  const raw = 10 ** v;
  return raw >= 10 ? Math.round(raw) : raw >= 1 ? Math.round(raw * 10) / 10 : Math.round(raw * 100) / 100;
}

export function TimeControls() {
  const { playing, speed, togglePlay, setSpeed, stepEvent, seek } = useLabShallow((s) => ({
    playing: s.playing,
    speed: s.speed,
    togglePlay: s.togglePlay,
    setSpeed: s.setSpeed,
    stepEvent: s.stepEvent,
    seek: s.seek,
  }));
  const scrub = useRef<HTMLInputElement>(null);
  const clock = useRef<HTMLSpanElement>(null);
  // The clock, and the timeline's range, thumb and spoken value, follow the snapshot (up to ten
  // times a second while playing) and are written directly: a re-render of this group rewrites
  // both sliders' attributes (React sets an input's type and name on every update), which had
  // the browser restyle and lay them out on every snapshot. Ten updates a second is as fast as
  // a clock's tenths can be read.
  const thumbAt = useRef(-1);
  useLabUpdate((s) => {
    const now = s.snapshot.nowMs;
    const el = scrub.current;
    if (el) {
      const max = Math.max(Math.ceil(s.horizonMs / 1000) * 1000, 1000);
      setAttr(el, 'max', String(max));
      // Moving the thumb repaints the slider: only when it moves by a thousandth of the
      // timeline, finer than any slider is wide, and never under a dragging finger.
      if (document.activeElement !== el && Math.abs(now - thumbAt.current) * 1000 >= max) {
        el.value = String(now);
        thumbAt.current = now;
      }
      setAttr(el, 'aria-valuetext', `${Math.floor(now / 100) / 10} seconds`);
    }
    if (clock.current) setText(clock.current, `${(now / 1000).toFixed(1)} s`);
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
      <button type="button" className="btn" onClick={stepEvent} aria-label="Step to the next event">
        Step ⇥
      </button>
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
      <output className="mono sim-clock" aria-label="Simulated time" data-testid="sim-time">
        <span ref={clock} className="sim-clock-face">
          0.0 s
        </span>
      </output>
      <ShareButton />
    </div>
  );
}
