/**
 * The ids a load has given, kept in PostgreSQL: an id given again is refused naming where it was
 * first, in the same batch, in a batch before it or in a file before it, and the rejects file lists
 * the refused entries in file order whichever way they were found.
 */
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadFiles } from '../../src/load/loader.ts';
import { emptyStore, storeKinds } from '../helper.ts';
import { builtInType } from '../record-types.ts';
import { births, counts, expected, loadError, ndjson, tempDir } from '../load/load-fixture.ts';

test('ids given again are refused across batches and files, in file order', async (t) => {
  if (!(await storeKinds()).includes('postgres')) return t.skip('no PostgreSQL server');
  const store = await emptyStore(t, 'postgres');
  const dir = await tempDir(t);
  const [a, b, c, d] = births(4);
  const first = join(dir, 'first.ndjson');
  const second = join(dir, 'second.ndjson');
  // Batches of two: 1 2 | 3 1 (a batch before) | 3 (the same batch as its first) ... and 2 from the file before.
  await writeFile(first, ndjson([a, b, c, a, 'not a record', c]));
  await writeFile(second, ndjson([d, b]));
  const rejectsPath = join(dir, 'rejects.ndjson');
  const result = await loadFiles(store.writer, builtInType('birth'), [first, second], {
    batchSize: 2,
    skipInvalid: true,
    rejectsPath,
  });
  assert.deepEqual(counts(result), expected({ read: 8, inserted: 4, rejected: 4 }));
  const rejected = (await readFile(rejectsPath, 'utf8'))
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
  assert.deepEqual(
    rejected.map((r) => [r.position, r.reason.replace(/ \(.*/, '')]),
    [
      [`${first}:4`, `/id: 1 was given already, at ${first}:1`],
      [`${first}:5`, 'not a JSON object'],
      [`${first}:6`, `/id: 3 was given already, at ${first}:3`],
      [`${second}:2`, `/id: 2 was given already, at ${first}:2`],
    ],
  );
  assert.deepEqual(rejected[0].entry, a);

  // Without --skip-invalid the first refused entry stops the load, even when found after a later one.
  const stop = join(dir, 'stop.ndjson');
  await writeFile(stop, ndjson([a, b, a]) + 'not a record\n');
  const again = await emptyStore(t, 'postgres');
  const error = await loadError(loadFiles(again.writer, builtInType('birth'), [stop], { batchSize: 10 }));
  assert.equal(error.message, `${stop}:3: invalid birth record: /id: 1 was given already, at ${stop}:1`);
});
