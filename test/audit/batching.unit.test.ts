/**
 * How a trail groups entries into writes: a turn of the event loop's entries
 * together; without overlap one write at a time, the rest waiting for the
 * next; with overlap (a writer that queues them itself, as the embedded
 * database's thread does) each turn's entries at once.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AuditEntry } from '../../src/model/audit.ts';
import { batchPerTurn } from '../../src/audit/trail.ts';

const entry = (i: number): AuditEntry => ({
  username: 'u',
  client: 'c',
  groups: [],
  dataset: 'birth',
  operation: 'lookup',
  path: `/v1/registration/birth/${i}`,
  query: '',
  results: 1,
  requestId: String(i),
});
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A writer whose writes end when the test says, recording what each was given. */
function heldWriter() {
  const writes: { ids: string[]; finish: (error?: Error) => void }[] = [];
  const write = (entries: readonly AuditEntry[]) =>
    new Promise<void>((resolve, reject) =>
      writes.push({ ids: entries.map((e) => e.requestId), finish: (error) => (error ? reject(error) : resolve()) }),
    );
  return { writes, write };
}

test('entries of a turn are written together, one write at a time', async () => {
  const { writes, write } = heldWriter();
  const trail = batchPerTurn(write, { maxBatch: 3 });
  const first = [0, 1, 2, 3].map((i) => trail.record(entry(i)));
  await nextTurn();
  await nextTurn();
  // At most maxBatch a write; the rest of the turn waits for the first write.
  assert.deepEqual(
    writes.map((w) => w.ids),
    [['0', '1', '2']],
  );
  const second = [4, 5].map((i) => trail.record(entry(i)));
  await nextTurn();
  await nextTurn();
  assert.deepEqual(
    writes.map((w) => w.ids),
    [['0', '1', '2']],
  );
  writes[0].finish();
  await Promise.all(first.slice(0, 3));
  await nextTurn();
  assert.deepEqual(
    writes.map((w) => w.ids),
    [
      ['0', '1', '2'],
      ['3', '4', '5'],
    ],
  );
  let flushed = false;
  const flushing = trail.flush().then(() => (flushed = true));
  await nextTurn();
  assert.equal(flushed, false, 'flush waits for every write in flight');
  for (const w of writes.slice(1)) w.finish(new Error('disk full'));
  await assert.rejects(Promise.all([first[3], ...second]), /disk full/);
  await flushing;
});

test('with a linger, a group waits for the accesses begun to join it, and no longer than the linger', async () => {
  const { writes, write } = heldWriter();
  const trail = batchPerTurn(write, { lingerMs: 200 });
  const [a, b, c] = [trail.expect!(), trail.expect!(), trail.expect!()];
  const recorded = [trail.record(entry(0))];
  a();
  await nextTurn();
  await nextTurn();
  assert.equal(writes.length, 0, 'two accesses begun have yet to record: the group waits');
  recorded.push(trail.record(entry(1)));
  b();
  b();
  await nextTurn();
  assert.equal(writes.length, 0, 'an end said twice counts once');
  c();
  await nextTurn();
  assert.deepEqual(
    writes.map((w) => w.ids),
    [['0', '1']],
    'the last ended without an entry: the group goes at once',
  );
  writes[0].finish();
  await Promise.all(recorded);

  // An access that neither records nor ends holds a group back for the linger only.
  const stuck = trail.expect!();
  const started = performance.now();
  const late = trail.record(entry(2));
  while (writes.length < 2) await new Promise((resolve) => setTimeout(resolve, 10));
  const waited = performance.now() - started;
  assert.ok(waited >= 190 && waited < 2000, `waited ${waited} ms`);
  writes[1].finish();
  await late;
  stuck();

  // Nothing in progress: no wait at all.
  const alone = trail.record(entry(3));
  await nextTurn();
  await nextTurn();
  assert.deepEqual(writes[2].ids, ['3']);
  writes[2].finish();
  await alone;
});
