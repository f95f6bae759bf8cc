/** The bound of a load's heap follows its input: the ids seen grow with the records, the rest does not. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadHeapMb } from '../../src/load/in-worker.ts';

test("a load's heap: a base, more for a bigger input, a guard when the size is unknown", () => {
  assert.equal(loadHeapMb(0), 160);
  // A million births are about 1.6 GB: room for 1.6 million ids.
  assert.equal(loadHeapMb(1_600_000_000), 160 + Math.ceil(32 * 1.6));
  assert.ok(loadHeapMb(16_000_000_000) > loadHeapMb(1_600_000_000));
  // Past the first file, positions are numbers of their own: more room a record.
  assert.equal(loadHeapMb(1_600_000_000, 2), 160 + Math.ceil(80 * 1.6));
  assert.equal(loadHeapMb(undefined), 1024);
});
