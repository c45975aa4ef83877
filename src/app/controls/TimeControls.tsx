// Play / pause, speed on a log scale, step to the next event, and a timeline to scrub. Scrubbing
// back replays deterministically from checkpoints; acting after a scrub forks a new future.
import { useRef } from 'react';
import { useLab, useLabFrame, useLabShallow } from '../../store/context';
import { setText } from '../../ui/domWrites';
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
  const { playing, speed, horizonMs, togglePlay, setSpeed, stepEvent, seek } = useLabShallow((s) => ({
    playing: s.playing,
    speed: s.speed,
    horizonMs: Math.ceil(s.horizonMs / 1000) * 1000,
    togglePlay: s.togglePlay,
    setSpeed: s.setSpeed,
    stepEvent: s.stepEvent,
    seek: s.seek,
  }));
  const nowSec = useLab((s) => Math.floor(s.snapshot.nowMs / 100) / 10);
  const scrub = useRef<HTMLInputElement>(null);
  const clock = useRef<HTMLOutputElement>(null);
  // The timeline's thumb and the clock move every frame: written directly, not re-rendered.
  const thumbAt = useRef(-1);
  useLabFrame((s) => {
    // Moving the thumb repaints the slider: only when it moves by a thousandth of the timeline,
    // finer than any slider is wide, rather than on every frame.
    const el = scrub.current;
    const now = s.frame.nowMs;
    if (el && document.activeElement !== el && Math.abs(now - thumbAt.current) * 1000 >= Math.max(1, s.horizonMs)) {
      el.value = String(now);
      thumbAt.current = now;
    }
    if (clock.current) setText(clock.current, `${(s.frame.nowMs / 1000).toFixed(1)} s`);
  });
  return (
    <div className="time-controls" role="group" aria-label="Time">
      <button type="button" className="btn" onClick={togglePlay} aria-label={playing ? 'Pause' : 'Play'} data-testid="play">
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
        <input
          ref={scrub}
          type="range"
          aria-label="Timeline"
          aria-valuetext={`${nowSec} seconds`}
          min={0}
          max={Math.max(horizonMs, 1000)}
          step={100}
          defaultValue={0}
          onChange={(e) => seek(Number(e.target.value))}
          data-testid="timeline"
        />
      </label>
      <output ref={clock} className="mono sim-clock" aria-label="Simulated time" data-testid="sim-time">
        {nowSec.toFixed(1)} s
      </output>
      <ShareButton />
    </div>
  );
}
