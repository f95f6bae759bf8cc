/** The bound of a load's heap follows its input: the ids seen grow with the records, the rest does not. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadHeapMb } from '../../src/load/in-worker.ts';

test("a load's heap: a base, more for a bigger input, a guard when the size is unknown", () => {
  assert.equal(loadHeapMb(0), 192);
  // A million births are about 1.6 GB: room for 1.6 million ids.
  assert.equal(loadHeapMb(1_600_000_000), 192 + Math.ceil(48 * 1.6));
  assert.ok(loadHeapMb(16_000_000_000) > loadHeapMb(1_600_000_000));
  assert.equal(loadHeapMb(undefined), 1024);
});
