// "Bully is chatty" as a number: election messages per election, as docs/model.md prints them
// (npm run messages). Fewer seeds here than the table's 20; the claims hold for every seed count.
import { describe, expect, it } from 'vitest';
import { messagesPerElection, table } from '../../src/cli/messages';

describe('election messages per election', () => {
  it('grows with the square of the cluster for Bully and linearly for the Ring', () => {
    const bully = [3, 5, 7, 9].map((n) => messagesPerElection('bully', n, 5));
    const ring = [3, 5, 7, 9].map((n) => messagesPerElection('ring', n, 5));
    // Bully at 9 nodes sends about twice what the Ring does.
    expect(bully[3]).toBeGreaterThan(1.6 * ring[3]);
    // Tripling the cluster (3 -> 9) multiplies Bully's count by far more than three; the Ring's by about three.
    expect(bully[3] / bully[0]).toBeGreaterThan(8);
    expect(ring[3] / ring[0]).toBeLessThan(5);
  });

  it('prints a row per algorithm and a column per size', () => {
    const lines = table(1).split('\n');
    expect(lines[0]).toBe('| algorithm | 3 nodes | 5 nodes | 7 nodes | 9 nodes |');
    expect(lines.slice(2).map((l) => l.split('|')[1].trim())).toEqual(['Raft', 'Bully', 'Ring']);
  });
});
