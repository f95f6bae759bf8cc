import assert from 'node:assert/strict';
import { test } from 'node:test';
import { geometricMean, median } from '../../bench/lib/stats.ts';

test('median: the middle value, or the mean of the two middle ones', () => {
  assert.equal(median([3, 1, 2]), 2);
  assert.equal(median([4, 1, 3, 2]), 2.5);
});

test('geometricMean: ratios that balance out average to 1, and below six ratios there is no interval', () => {
  const mean = geometricMean([2, 0.5, 4, 0.25]);
  assert.ok(mean);
  assert.ok(Math.abs(mean.mean - 1) < 1e-12);
  assert.equal(mean.count, 4);
  assert.equal(mean.interval, undefined);
});

test("geometricMean: the interval is Student's t on the logarithms, within 1% of the table's quantile", () => {
  // Logarithms ±d alternate: mean 0, sample standard deviation d·sqrt(n/(n-1)).
  for (const [n, tableQuantile] of [
    [6, 2.571],
    [10, 2.262],
    [30, 2.045],
    [60, 2.001],
  ] as const) {
    const d = 0.1;
    const ratios = Array.from({ length: n }, (_, i) => Math.exp(i % 2 ? d : -d));
    const mean = geometricMean(ratios);
    assert.ok(mean?.interval);
    const half = Math.log(mean.interval.high);
    const expected = (tableQuantile * d * Math.sqrt(n / (n - 1))) / Math.sqrt(n);
    assert.ok(Math.abs(half / expected - 1) < 0.01, `n=${n}: half-width ${half} against ${expected}`);
    assert.ok(Math.abs(Math.log(mean.interval.low) + half) < 1e-12, 'symmetric about the mean on the log scale');
  }
});

test('geometricMean: what is not a positive finite ratio is left out', () => {
  assert.equal(geometricMean([NaN, 0, -1, Infinity]), undefined);
  assert.equal(geometricMean([NaN, 2])?.count, 1);
});
