/**
 * The statistics the benchmark's comparisons give: medians, and ratios' geometric means with
 * their intervals.
 */
export const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/** Below this many ratios an interval would rest on too little. */
const INTERVAL_MIN_COUNT = 6;

/**
 * The geometric mean of ratios, and from INTERVAL_MIN_COUNT of them its 95% interval: Student's t on
 * their logarithms, the quantile from its Cornish-Fisher expansion (within 1% of the table from 5
 * degrees of freedom on).
 */
export function geometricMean(ratios: readonly number[]) {
  const logs = ratios.filter((ratio) => ratio > 0 && Number.isFinite(ratio)).map(Math.log);
  const count = logs.length;
  if (!count) return undefined;
  const mean = logs.reduce((sum, x) => sum + x, 0) / count;
  if (count < INTERVAL_MIN_COUNT) return { mean: Math.exp(mean), count, interval: undefined };
  const sd = Math.sqrt(logs.reduce((sum, x) => sum + (x - mean) ** 2, 0) / (count - 1));
  const z = 1.959964;
  const df = count - 1;
  const t = z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df ** 2);
  const half = (t * sd) / Math.sqrt(count);
  return { mean: Math.exp(mean), count, interval: { low: Math.exp(mean - half), high: Math.exp(mean + half) } };
}
