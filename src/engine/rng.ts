/**
 * Seeded randomness (docs/RULES.md §0). No generator state is ever stored in a MatchState: every draw
 * sequence is derived from (seed, round, purpose), so a replay needs nothing but the config and inputs.
 */
import seedrandom from 'seedrandom';

/**
 * A deterministic uniform [0, 1) generator for one purpose in one round.
 * Uses seedrandom's Tyche-i generator seeded with the string `${seed}:${round}:${purpose}`; it is created
 * lazily on the first draw, so handing an rng to a policy that never draws costs nothing.
 *
 * @param seed the match seed (integer ≥ 0)
 * @param round the round the draws belong to (0 for world generation)
 * @param purpose a label such as 'world', 'shocks', 'policy:lab_1', 'shock:capacity_failure'
 */
export function rng(seed: number, round: number, purpose: string): () => number {
  let gen: (() => number) | null = null;
  return () => {
    if (gen === null) gen = seedrandom.tychei(`${seed}:${round}:${purpose}`);
    return gen();
  };
}
