/**
 * What `loadFiles` refuses, on every backend (memory always, PostgreSQL where a
 * server answers): an invalid record, a line that is not JSON, a broken array,
 * strings PostgreSQL cannot store, bytes that are not UTF-8 and missing files,
 * with nothing of the failing file applied; or, with skipInvalid, each invalid
 * record written to the rejects file with its reason.
 */
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { loadFiles } from '../../src/load/loader.ts';
import { normaliseName } from '../../src/records/normalise.ts';
import { emptyStore, storeKinds, suiteContext } from '../helper.ts';
import { builtInType } from '../record-types.ts';
import {
  type Json,
  births,
  counts,
  expected,
  held,
  loadCases,
  loadError,
  ndjson,
  rowsOf,
  tempDir,
} from './load-fixture.ts';

for (const kind of await storeKinds()) {
  describe(`loadFiles (${kind})`, () => {
    const context = suiteContext();
    let cases: Awaited<ReturnType<typeof loadCases>> | undefined;
    before(async () => {
      cases = await loadCases(context, kind);
    });
    const fresh = () => {
      assert.ok(cases, 'the store is open');
      return cases.fresh();
    };
    const file = (name: string) => {
      assert.ok(cases, 'the folder is made');
      return cases.file(name);
    };

    test('the first invalid record stops the load, and nothing of its file is applied', async () => {
      const store = await fresh();
      const records: unknown[] = births(120);
      records[101] = { ...(records[101] as Json), child: { surname: 42 } };
      await writeFile(file('invalid.ndjson'), ndjson(records));
      // Batches of 25: four were written before the bad record was read.
      const error = await loadError(
        loadFiles(store.writer, builtInType('birth'), [file('invalid.ndjson')], { batchSize: 25 }),
      );
      assert.match(
        error.message,
        new RegExp(
          `^${file('invalid.ndjson').replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')}:102: invalid birth record: ` +
            `/child/surname: `,
        ),
      );
      assert.equal(error.file, file('invalid.ndjson'));
      assert.deepEqual(counts(error.committed), expected({}));
      assert.equal(await held(store, 'birth', 1, 121), 0);
      assert.deepEqual(await rowsOf(store, 'birth_search_key'), store.kind === 'postgres' ? [] : undefined);

      // Over loaded records: the updates in the batches before the bad record are undone too.
      const original = births(120);
      await writeFile(file('original.ndjson'), ndjson(original));
      await loadFiles(store.writer, builtInType('birth'), [file('original.ndjson')]);
      const keysBefore = await rowsOf(store, 'birth_search_key');
      const renamed: unknown[] = original.map((r) => ({ ...r, child: { ...r.child, surname: 'Changed' } }));
      renamed[101] = records[101];
      await writeFile(file('renamed.ndjson'), ndjson(renamed));
      await loadError(loadFiles(store.writer, builtInType('birth'), [file('renamed.ndjson')], { batchSize: 25 }));
      assert.deepEqual(await store.lookup('birth', '1'), original[0]);
      assert.deepEqual(await rowsOf(store, 'birth_search_key'), keysBefore);
      const first = original[0].child;
      const byName = (surname: string) => ({
        date: first.dateOfBirth,
        surname: normaliseName(surname),
        forenames: normaliseName(first.forenames),
      });
      assert.ok((await store.search('birth', byName(first.surname), 500)).records.some((r) => (r as Json).id === 1));
      assert.equal((await store.search('birth', byName('Changed'), 500)).records.length, 0);
    });

    test('a line that is not JSON is an invalid record too; a JSON array reports item numbers', async () => {
      const store = await fresh();
      await writeFile(file('garbled.ndjson'), `${JSON.stringify(births(1)[0])}\n{"id": 2,\n`);
      const garbled = await loadError(loadFiles(store.writer, builtInType('birth'), [file('garbled.ndjson')]));
      assert.match(garbled.message, /garbled\.ndjson:2: invalid birth record: not valid JSON \(/);

      const items: unknown[] = births(5);
      items[3] = 'not an object';
      await writeFile(file('invalid.json'), JSON.stringify(items, null, 2));
      const array = await loadError(loadFiles(store.writer, builtInType('birth'), [file('invalid.json')]));
      assert.match(array.message, /invalid\.json item 4: invalid birth record: not a JSON object$/);
      assert.equal(await held(store, 'birth', 1, 6), 0);
    });

    test('files before a failing one stay loaded', async () => {
      const store = await fresh();
      await writeFile(file('first.ndjson'), ndjson(births(10)));
      await writeFile(file('second.json'), '[' + JSON.stringify(births(3, 100)[0]) + ',{"id":-1}]');
      const error = await loadError(
        loadFiles(store.writer, builtInType('birth'), [file('first.ndjson'), file('second.json')]),
      );
      assert.match(error.message, /second\.json item 2: invalid birth record: \/id: /);
      assert.deepEqual(counts(error.committed), expected({ read: 10, inserted: 10 }));
      assert.equal(await held(store, 'birth', 1, 11), 10);
      assert.equal(await held(store, 'birth', 100, 101), 0);
    });

    test('a broken array stops its file, even with --skip-invalid', async () => {
      const store = await fresh();
      await writeFile(
        file('unclosed.json'),
        '[' +
          births(3)
            .map((b) => JSON.stringify(b))
            .join(','),
      );
      const error = await loadError(
        loadFiles(store.writer, builtInType('birth'), [file('unclosed.json')], {
          skipInvalid: true,
          rejectsPath: file('unclosed.rejects'),
          batchSize: 1,
        }),
      );
      assert.match(
        error.message,
        /unclosed\.json: not a valid JSON array: the file ends after item 3: the array is not closed$/,
      );
      assert.equal(await held(store, 'birth', 1, 4), 0);
    });

    test('with skipInvalid, valid records load and each invalid one is written with its reason', async () => {
      const store = await fresh();
      const records: unknown[] = births(40);
      records[4] = { ...(records[4] as Json), unknownField: true };
      records[19] = [1, 2];
      records[30] = { ...(records[30] as Json), id: 2 ** 64 };
      const text = ndjson(records).split('\n');
      text.splice(35, 0, '{"id": 1, oops}');
      await writeFile(file('mixed.ndjson'), text.join('\n'));
      const rejects = file('mixed.rejects.ndjson');
      const result = await loadFiles(store.writer, builtInType('birth'), [file('mixed.ndjson')], {
        skipInvalid: true,
        rejectsPath: rejects,
        batchSize: 7,
      });
      assert.deepEqual(counts(result), expected({ read: 41, inserted: 37, rejected: 4 }));
      assert.equal(result.rejectsPath, rejects);
      assert.equal(await held(store, 'birth', 1, 41), 37);

      const lines = (await readFile(rejects, 'utf8'))
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line));
      assert.deepEqual(
        lines.map((l) => l.position),
        [5, 20, 31, 36].map((n) => `${file('mixed.ndjson')}:${n}`),
      );
      assert.match(lines[0].reason, /^\/unknownField: /);
      assert.deepEqual(lines[0].entry, records[4]);
      assert.equal(lines[1].reason, 'not a JSON object');
      assert.deepEqual(lines[1].entry, [1, 2]);
      assert.match(lines[2].reason, /^\/id: .*largest id/);
      assert.match(lines[3].reason, /^not valid JSON \(/);
      assert.equal(lines[3].entry, '{"id": 1, oops}');

      // The default rejects file sits beside the first file.
      await writeFile(file('clean.ndjson'), ndjson(births(2, 500)));
      const clean = await loadFiles(store.writer, builtInType('birth'), [file('clean.ndjson')], { skipInvalid: true });
      assert.equal(clean.rejectsPath, `${file('clean.ndjson')}.rejects.ndjson`);
      assert.equal(await readFile(`${file('clean.ndjson')}.rejects.ndjson`, 'utf8'), '');
    });

    test('strings PostgreSQL cannot store are rejected, not left to fail the batch', async () => {
      const store = await fresh();
      const records = births(3);
      const lines = ndjson(records).split('\n');
      lines[0] = lines[0].replace(/"forenames":"[^"]*"/, '"forenames":"Nul\\u0000"');
      lines[1] = lines[1].replace(/"forenames":"[^"]*"/, '"forenames":"Half \\ud83d"');
      await writeFile(file('unstorable.ndjson'), lines.join('\n'));
      const result = await loadFiles(store.writer, builtInType('birth'), [file('unstorable.ndjson')], {
        skipInvalid: true,
        rejectsPath: file('unstorable.rejects'),
      });
      assert.deepEqual(counts(result), expected({ read: 3, inserted: 1, rejected: 2 }));
      // A whole surrogate pair, escaped, is fine.
      await writeFile(
        file('emoji.ndjson'),
        JSON.stringify({ ...births(1, 900)[0], informant1: { forenames: 'Smile \\ud83d\\ude00' } }).replace(
          '\\\\ud83d\\\\ude00',
          '\\ud83d\\ude00',
        ),
      );
      assert.deepEqual(
        counts(await loadFiles(store.writer, builtInType('birth'), [file('emoji.ndjson')])),
        expected({ read: 1, inserted: 1 }),
      );
      assert.equal(((await store.lookup('birth', '900')) as Json).informant1.forenames, 'Smile 😀');
    });
  });
}

for (const kind of await storeKinds()) {
  test(`bytes that are not UTF-8 are invalid input naming their place (${kind})`, async (t) => {
    const dir = await tempDir(t);
    const records = births(30, 500);
    const lines = records.map((record) => Buffer.from(`${JSON.stringify(record)}\n`));
    // FF FE inside the surname on line 15.
    const surname = Buffer.from(JSON.stringify(records[14].child.surname));
    const at = lines[14].indexOf(surname) + 3;
    lines[14] = Buffer.concat([lines[14].subarray(0, at), Buffer.from([0xff, 0xfe]), lines[14].subarray(at)]);
    const file = join(dir, 'births.ndjson');
    await writeFile(file, Buffer.concat(lines));

    const store = await emptyStore(t, kind);
    const error = await loadError(loadFiles(store.writer, builtInType('birth'), [file]));
    assert.ok(error.message.startsWith(`${file}:15: invalid birth record: not valid UTF-8`), error.message);
    assert.equal(await held(store, 'birth', 500, 530), 0, 'nothing of the file applied');

    const skipped = await loadFiles(store.writer, builtInType('birth'), [file], {
      skipInvalid: true,
      rejectsPath: join(dir, 'rejects.ndjson'),
    });
    assert.deepEqual(counts(skipped), expected({ read: 30, inserted: 29, rejected: 1 }));
    assert.equal(await store.lookupJson('birth', '514'), undefined, 'the entry is rejected, not stored with U+FFFD');
    const [reject] = (await readFile(join(dir, 'rejects.ndjson'), 'utf8'))
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    assert.equal(reject.position, `${file}:15`);
    assert.match(reject.reason, /not valid UTF-8/);

    // In a JSON array the same names its item.
    const array = join(dir, 'births.json');
    await writeFile(
      array,
      Buffer.concat([
        Buffer.from('['),
        ...lines.map((line, i) =>
          Buffer.concat([line.subarray(0, -1), Buffer.from(i < lines.length - 1 ? ',\n' : ']\n')]),
        ),
      ]),
    );
    const arrayError = await loadError(loadFiles((await emptyStore(t, kind)).writer, builtInType('birth'), [array]));
    assert.ok(
      arrayError.message.startsWith(`${array} item 15: invalid birth record: not valid UTF-8`),
      arrayError.message,
    );
  });
}

test('missing files are refused before anything is loaded', async (t) => {
  const [kind] = await storeKinds();
  const store = await emptyStore(t, kind);
  const dir = await tempDir(t);
  await writeFile(join(dir, 'ok.ndjson'), ndjson(births(2)));
  await assert.rejects(
    loadFiles(store.writer, builtInType('birth'), [join(dir, 'ok.ndjson'), join(dir, 'missing.ndjson')]),
    /missing\.ndjson: no such file/,
  );
  assert.equal(await held(store, 'birth', 1, 3), 0);
  await assert.rejects(
    loadFiles(store.writer, builtInType('birth'), [join(dir, 'ok.ndjson')], {
      skipInvalid: true,
      rejectsPath: join(dir, '.', 'ok.ndjson'),
    }),
    /the rejects file cannot be one of the files to load/,
  );
  assert.equal((await readFile(join(dir, 'ok.ndjson'), 'utf8')).split('\n').length, 3);
});
