/**
 * Expectation-maximisation of the Fellegi-Sunter m probabilities (vocabulary.ts) from pairs of
 * records whose truth is unknown: each pair a comparison vector (one level per detail), the u
 * probabilities held as the register gives them, and m and the share of pairs that match
 * re-estimated in turn until they settle. How the documented defaults are checked against a
 * register's own candidate pairs (`npm run bench:suggest`), and what a test holds near the truth on
 * generated pairs.
 */

/** A pair as compared: each detail's level, by its index among the detail's levels. */
export type Comparison = readonly number[];

interface Estimate {
  /** By detail, each level's m. */
  readonly m: number[][];
  /** The share of the pairs that match. */
  readonly matchShare: number;
  readonly iterations: number;
}

/**
 * @param pairs comparison vectors
 * @param u by detail, each level's u (held)
 * @param start by detail, each level's m to start from
 */
export function estimateM(
  pairs: readonly Comparison[],
  u: readonly (readonly number[])[],
  start: readonly (readonly number[])[],
  matchShare = 0.1,
  maxIterations = 200,
): Estimate {
  let m = start.map((levels) => [...levels]);
  let share = matchShare;
  let iterations = 0;
  for (; iterations < maxIterations; iterations++) {
    const sums = m.map((levels) => levels.map(() => 0));
    let matched = 0;
    for (const pair of pairs) {
      let pm = share;
      let pu = 1 - share;
      pair.forEach((level, detail) => {
        pm *= m[detail][level];
        pu *= u[detail][level];
      });
      const posterior = pm / (pm + pu);
      matched += posterior;
      pair.forEach((level, detail) => (sums[detail][level] += posterior));
    }
    const next = sums.map((levels) => levels.map((sum) => Math.max(sum / matched, 1e-6)));
    const moved = Math.max(
      Math.abs(matched / pairs.length - share),
      ...next.flatMap((levels, d) => levels.map((value, l) => Math.abs(value - m[d][l]))),
    );
    m = next;
    share = matched / pairs.length;
    if (moved < 1e-7) break;
  }
  return { m, matchShare: share, iterations };
}
