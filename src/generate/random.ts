/**
 * A small, fast, seeded pseudo-random generator for the synthetic data
 * generator: sfc32 (Chris Doty-Humphrey's Small Fast Counting generator, 128
 * bits of state), seeded from a string by the cyrb128 hash.
 *
 * Only 32-bit integer arithmetic and exactly rounded floating-point operations
 * are used (no Math.random, no transcendental functions), so a seed gives the
 * same stream on every platform and Node version.
 *
 * `Random.derive(seed, index)` gives an independent stream per index, so the
 * generator can rebuild any record from its position alone.
 */

/** 128 bits of seed material. */
export type Seed = readonly [number, number, number, number];

/** Hashes a string to 128 bits (cyrb128). */
export function hashSeed(text: string): Seed {
  let h1 = 1779033703;
  let h2 = 3144134277;
  let h3 = 1013904242;
  let h4 = 2773480762;
  for (let i = 0; i < text.length; i++) {
    const k = text.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  h1 ^= h2 ^ h3 ^ h4;
  h2 ^= h1;
  h3 ^= h1;
  h4 ^= h1;
  return [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0];
}

/** A 32-bit finaliser (from MurmurHash3 / "lowbias32"): spreads an integer over all bits. */
function mix32(x: number): number {
  x = Math.imul(x ^ (x >>> 16), 0x7feb352d);
  x = Math.imul(x ^ (x >>> 15), 0x846ca68b);
  return (x ^ (x >>> 16)) >>> 0;
}

const TWO_POW_32 = 4294967296;

export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: Seed) {
    this.a = seed[0] | 0;
    this.b = seed[1] | 0;
    this.c = seed[2] | 0;
    this.d = seed[3] | 0;
    for (let i = 0; i < 12; i++) this.next();
  }

  /** A generator seeded from a string. */
  static fromString(text: string): Random {
    return new Random(hashSeed(text));
  }

  /** An independent stream for `index` (a non-negative integer) under `seed`. */
  static derive(seed: Seed, index: number): Random {
    const low = index >>> 0;
    const high = Math.floor(index / TWO_POW_32) >>> 0;
    return new Random([
      seed[0] ^ mix32(low),
      seed[1] ^ mix32(low ^ 0x9e3779b9),
      seed[2] ^ mix32(high ^ 0x85ebca6b),
      seed[3] ^ mix32(low + 0x6a09e667),
    ]);
  }

  /** The next unsigned 32-bit integer. */
  next(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** A float in [0, 1). */
  float(): number {
    return this.next() / TWO_POW_32;
  }

  /** An integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.float() * (max - min + 1));
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.float() < p;
  }

  /** A uniformly chosen item. */
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.float() * items.length)];
  }

  /** An item of a weighted list, chosen in proportion to its weight. */
  weighted<T>(list: Weighted<T>): T {
    return list.items[list.index(this.float())];
  }

  /**
   * A bell-shaped value in [min, max] (mean of three uniforms, the Irwin-Hall
   * distribution): cheap, bounded, and free of transcendental functions.
   */
  bell(min: number, max: number): number {
    return min + Math.floor(((this.float() + this.float() + this.float()) / 3) * (max - min + 1));
  }
}

/** Items with weights, for `Random.weighted`; built once, picked from in O(log n). */
export class Weighted<T> {
  readonly items: readonly T[];
  private readonly cumulative: Float64Array;
  private readonly total: number;

  constructor(entries: readonly (readonly [T, number])[]) {
    if (entries.length === 0) throw new Error('Weighted: no items');
    this.items = entries.map(([item]) => item);
    this.cumulative = new Float64Array(entries.length);
    let total = 0;
    entries.forEach(([, weight], i) => {
      if (!(weight >= 0)) throw new Error(`Weighted: bad weight ${weight}`);
      total += weight;
      this.cumulative[i] = total;
    });
    if (!(total > 0)) throw new Error('Weighted: the weights sum to zero');
    this.total = total;
  }

  /**
   * Items in order of how common they are, the first the commonest: the item
   * at rank i has weight 1 / (i + offset), a Zipf-like spread in which a larger
   * offset makes the list flatter.
   */
  static ranked<T>(items: readonly T[], offset = 10): Weighted<T> {
    return new Weighted(items.map((item, i) => [item, 1 / (i + offset)] as const));
  }

  /** The index chosen by a uniform float `u` in [0, 1). */
  index(u: number): number {
    const target = u * this.total;
    const cumulative = this.cumulative;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cumulative[mid] > target) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }
}
