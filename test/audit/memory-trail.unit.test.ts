/**
 * The embedded store's audit trail in memory: bounded, and chained.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openMemoryTrail } from '../../src/audit/memory-trail.ts';
import { verifyEntries } from '../../src/audit/verify.ts';
import { entry } from './file/trail-files.ts';

test('memory keeps only the latest entries, and they chain', async () => {
  const trail = await openMemoryTrail({ keep: 50 });
  await Promise.all(Array.from({ length: 500 }, (_, i) => trail.record(entry(i))));
  await trail.flush();
  const kept = trail.kept();
  assert.equal(kept.length, 50);
  assert.deepEqual(
    kept.map((e) => e.requestId),
    Array.from({ length: 50 }, (_, i) => `r-${450 + i}`),
  );
  // The first kept entry anchors the rest.
  const [anchor, ...rest] = kept;
  assert.deepEqual(await verifyEntries(rest, anchor.hash), { ok: true, entries: 49 });
  const report = await trail.userActivity({ from: '1970-01-01', to: '2999-12-31' });
  assert.equal(
    Object.values(report)
      .flatMap((days) => Object.values(days))
      .reduce((a, b) => a + b, 0),
    50,
    'the report counts what is kept',
  );
  await trail.close();
});
