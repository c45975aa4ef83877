import { useEffect, useRef, useState } from 'react';
import { Simulation, type Snapshot } from '../engine';

// A minimal live view of the engine: nodes, roles and terms, advancing in real time.
export function App() {
  const simRef = useRef<Simulation | null>(null);
  const [snap, setSnap] = useState<Snapshot | null>(null);
  useEffect(() => {
    const sim = new Simulation({ seed: 1 });
    simRef.current = sim;
    let last = performance.now();
    let raf = 0;
    const tick = (t: number) => {
      sim.runUntil(sim.nowMs + Math.round(t - last));
      last = t;
      setSnap(sim.snapshot());
      raf = requestAnimationFrame(tick);
    };
    raf = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(raf);
  }, []);
  if (!snap) return null;
  return (
    <main>
      <h1>Leader Election Lab</h1>
      <p>{(snap.nowMs / 1000).toFixed(1)} s</p>
      <ul>
        {snap.nodes.map((n) => (
          <li key={n.id}>
            {n.id}: {n.alive ? n.role : 'dead'}, term {n.term}
          </li>
        ))}
      </ul>
    </main>
  );
}
