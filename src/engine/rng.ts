/**
 * Seeded randomness (docs/RULES.md §0). No generator state is ever stored in a MatchState: every draw
 * sequence is derived from (seed, round, purpose), so a replay needs nothing but the config and inputs.
 */

/**
 * seedrandom's Tyche-i generator (seedrandom/lib/tychei.js, string seeds) written out: the same draws bit
 * for bit (test/engine/rng.test.ts compares it with `seedrandom.tychei` draw for draw), without the
 * package's per-generator closures and property writes. An rng is made for every scripted seat at every
 * round close, and its seeding (one mixing step per character, then 20 more) cost more than its draws.
 */
class TycheI {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: string) {
    let a = 0;
    let b = 0;
    let c = 2654435769 | 0;
    let d = 1367130551;
    // Mix in the string (charCodeAt past its end is NaN, and NaN | 0 is 0), then discard 20 values.
    const n = seed.length + 20;
    for (let k = 0; k < n; k++) {
      b ^= k < seed.length ? seed.charCodeAt(k) : 0;
      b = (b << 25) ^ (b >>> 7) ^ c;
      c = (c - d) | 0;
      d = (d << 24) ^ (d >>> 8) ^ a;
      a = (a - b) | 0;
      b = (b << 20) ^ (b >>> 12) ^ c;
      c = (c - d) | 0;
      d = (d << 16) ^ (c >>> 16) ^ a;
      a = (a - b) | 0;
    }
    this.a = a;
    this.b = b;
    this.c = c;
    this.d = d;
  }

  /** The next draw in [0, 1): seedrandom's `prng()` ((next int32 >>> 0) / 2³²). */
  next(): number {
    let b = this.b;
    let c = this.c;
    let d = this.d;
    let a = this.a;
    b = (b << 25) ^ (b >>> 7) ^ c;
    c = (c - d) | 0;
    d = (d << 24) ^ (d >>> 8) ^ a;
    a = (a - b) | 0;
    this.b = b = (b << 20) ^ (b >>> 12) ^ c;
    this.c = c = (c - d) | 0;
    this.d = (d << 16) ^ (c >>> 16) ^ a;
    this.a = a = (a - b) | 0;
    return (a >>> 0) / 0x100000000;
  }
}

/**
 * A deterministic uniform [0, 1) generator for one purpose in one round.
 * Uses seedrandom's Tyche-i generator seeded with the string `${seed}:${round}:${purpose}` (see
 * {@link TycheI}); it is created lazily on the first draw, so handing an rng to a policy that never
 * draws costs nothing.
 *
 * @param seed the match seed (an integer ≥ 0, or a 32-hex-digit match secret; types.ts `Seed`)
 * @param round the round the draws belong to (0 for world generation)
 * @param purpose a label such as 'world', 'shocks', 'policy:lab_1', 'shock:capacity_failure'
 */
export function rng(seed: number | string, round: number, purpose: string): () => number {
  let gen: TycheI | null = null;
  return () => {
    if (gen === null) gen = new TycheI(`${seed}:${round}:${purpose}`);
    return gen.next();
  };
}
