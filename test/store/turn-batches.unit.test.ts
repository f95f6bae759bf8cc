/**
 * Reads batched by turn, with a group's statements limited in number: the reads of one turn share a
 * statement, those asked while the limit is reached share the next, no more than the limit are read
 * at once, each read is answered by a statement started after it was asked, and a failure is each
 * of its batch's reads' alone.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { turnBatches } from '../../src/store/turn-batches.ts';

/** A reader whose statements are answered when the test says, recording each one's items. */
function heldReader(inFlight?: number) {
  const statements: { items: readonly string[]; answer: () => void; fail: (error: Error) => void }[] = [];
  let reading = 0;
  let mostAtOnce = 0;
  const read = turnBatches({
    groupKey: (type: string) => type,
    itemKey: (id: string) => id,
    inFlight,
    read: (_type, items) =>
      new Promise<readonly string[]>((resolve, reject) => {
        reading++;
        mostAtOnce = Math.max(mostAtOnce, reading);
        const done = () => reading--;
        // Each answer names its statement, by the order the statements began in.
        const n = statements.length + 1;
        statements.push({
          items,
          answer: () => (done(), resolve(items.map((id) => `${id}@${n}`))),
          fail: (error) => (done(), reject(error)),
        });
      }),
  });
  return { read, statements, mostAtOnce: () => mostAtOnce };
}

test('the reads of one turn share one statement, a repeated item read once', async () => {
  const { read, statements } = heldReader();
  const answers = Promise.all(['1', '2', '1'].map((id) => read('birth', id)));
  await nextTurn();
  assert.deepEqual(
    statements.map((s) => s.items),
    [['1', '2']],
  );
  statements[0].answer();
  assert.deepEqual(await answers, ['1@1', '2@1', '1@1']);
});

test('while the limit is being read, the reads asked meanwhile wait together for the next statement', async () => {
  const { read, statements, mostAtOnce } = heldReader(1);
  const first = read('birth', '1');
  await nextTurn();
  // Asked in three later turns while the first is read: one statement after it, not three.
  const later: Promise<string>[] = [];
  for (const id of ['2', '3', '4']) {
    later.push(read('birth', id));
    await nextTurn();
  }
  assert.equal(statements.length, 1);
  statements[0].answer();
  assert.equal(await first, '1@1');
  await nextTurn();
  assert.deepEqual(
    statements.map((s) => s.items),
    [['1'], ['2', '3', '4']],
  );
  statements[1].answer();
  assert.deepEqual(await Promise.all(later), ['2@2', '3@2', '4@2']);
  assert.equal(mostAtOnce(), 1);
});

test('a read asked after its batch began is answered by a later statement, never by one begun before it', async () => {
  const { read, statements } = heldReader(2);
  const first = read('birth', '7');
  await nextTurn();
  const again = read('birth', '7');
  await nextTurn();
  // Below the limit, the second read of the same id goes at once, in a statement of its own.
  assert.deepEqual(
    statements.map((s) => s.items),
    [['7'], ['7']],
  );
  statements[1].answer();
  statements[0].answer();
  assert.equal(await first, '7@1');
  assert.equal(await again, '7@2');
});

test("groups are limited apart, and a failure is its batch's reads' alone", async () => {
  const { read, statements, mostAtOnce } = heldReader(1);
  const birth = read('birth', '1');
  const death = read('death', '1');
  await nextTurn();
  assert.equal(statements.length, 2, 'one statement a group');
  const next = read('birth', '2');
  statements[0].fail(new Error('connection lost'));
  await assert.rejects(birth, /connection lost/);
  await nextTurn();
  statements[2].answer();
  statements[1].answer();
  assert.equal(await next, '2@3');
  assert.equal(await death, '1@2');
  assert.equal(mostAtOnce(), 2);
});
