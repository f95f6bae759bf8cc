/**
 * `loadFiles` loading on every backend (memory always, PostgreSQL where a
 * server answers): NDJSON, JSON arrays, rows of the existing service and stdin,
 * every record type, loading again (unchanged) or changed (updated), the same
 * stored rows and search keys as the store's own writer, progress, and the
 * reference mock files. What it refuses is load-refusals.test.ts's.
 */
import assert from 'node:assert/strict';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { test } from 'node:test';
import { loadFiles } from '../../src/load/loader.ts';
import { normaliseName } from '../../src/records/normalise.ts';
import { recordTypes, storeKinds } from '../helper.ts';
import { REFERENCE, referenceMissing } from '../compat/reference-folder.ts';
import { builtInType } from '../record-types.ts';
import {
  type Json,
  births,
  counts,
  expected,
  held,
  loadCases,
  loadError,
  mock,
  ndjson,
  rowsOf,
} from './load-fixture.ts';

const MOCK_DATA = resolve(REFERENCE, 'mock-data');

for (const kind of await storeKinds()) {
  test(`loadFiles (${kind})`, async (t) => {
    const { fresh, file } = await loadCases(t, kind);

    await t.test(
      'loads a valid NDJSON file; loading it again changes nothing; a changed record is updated',
      async () => {
        const store = await fresh();
        const records = births(230);
        await writeFile(file('valid.ndjson'), ndjson(records));
        assert.deepEqual(
          counts(await loadFiles(store.writer, builtInType('birth'), [file('valid.ndjson')], { batchSize: 50 })),
          expected({ read: 230, inserted: 230 }),
        );
        assert.equal(await held(store, 'birth', 1, 231), 230);
        const keysAfterFirst = await rowsOf(store, 'birth_search_key');

        assert.deepEqual(
          counts(await loadFiles(store.writer, builtInType('birth'), [file('valid.ndjson')], { batchSize: 50 })),
          expected({ read: 230, unchanged: 230 }),
        );
        assert.deepEqual(await rowsOf(store, 'birth_search_key'), keysAfterFirst);

        // Record 3 renamed, record 200 given a new entry number, and two new records.
        const changed = structuredClone(records);
        const before = records[2] as Json;
        changed[2].child.surname = 'Renamed';
        changed[199].entryNumber = 4242;
        changed.push(...births(2, 10_000));
        await writeFile(file('changed.ndjson'), ndjson(changed));
        assert.deepEqual(
          counts(await loadFiles(store.writer, builtInType('birth'), [file('changed.ndjson')], { batchSize: 50 })),
          expected({ read: 232, inserted: 2, updated: 2, unchanged: 228 }),
        );
        assert.equal((await held(store, 'birth', 1, 231)) + (await held(store, 'birth', 10_000, 10_002)), 232);
        assert.deepEqual(await store.lookup('birth', '200'), changed[199]);

        // The renamed record's search keys were replaced.
        const key = (surname: string) => ({
          date: before.child.dateOfBirth,
          surname: normaliseName(surname),
          forenames: normaliseName(before.child.forenames),
        });
        const found = await store.search('birth', key('Renamed'), 500);
        assert.ok(found.records.some((r) => (r as Json).id === 3));
        const old = await store.search('birth', key(before.child.surname), 500);
        assert.ok(!old.records.some((r) => (r as Json).id === 3));
      },
    );

    await t.test(
      'an id given again is invalid where it is given again; a JSON array and rows of the existing service load alike',
      async () => {
        const store = await fresh();
        const [a, b] = births(2);
        const a2 = { ...structuredClone(a), entryNumber: 99 };
        await writeFile(file('repeated.ndjson'), ndjson([a, b, a2]));
        const repeated = await loadError(
          loadFiles(store.writer, builtInType('birth'), [file('repeated.ndjson')], { batchSize: 1 }),
        );
        assert.equal(
          repeated.message,
          `${file('repeated.ndjson')}:3: invalid birth record: /id: ${a.id} was given already, ` +
            `at ${file('repeated.ndjson')}:1`,
        );
        assert.equal(await held(store, 'birth', 1, 3), 0, 'nothing of the file applied');
        const skipped = await loadFiles(store.writer, builtInType('birth'), [file('repeated.ndjson')], {
          skipInvalid: true,
          rejectsPath: file('repeated.rejects'),
        });
        assert.deepEqual(counts(skipped), expected({ read: 3, inserted: 2, rejected: 1 }));
        assert.equal(
          ((await store.lookup('birth', String(a.id))) as Json).entryNumber,
          a.entryNumber,
          'the first is kept',
        );
        await writeFile(file('a2.ndjson'), ndjson([a2]));
        assert.deepEqual(
          counts(await loadFiles(store.writer, builtInType('birth'), [file('a2.ndjson')])),
          expected({ read: 1, updated: 1 }),
          'another load may change it',
        );

        // The same records as a pretty-printed array: unchanged.
        await writeFile(file('same.json'), JSON.stringify([b, a2], null, 2));
        assert.deepEqual(
          counts(await loadFiles(store.writer, builtInType('birth'), [file('same.json')])),
          expected({ read: 2, unchanged: 2 }),
        );

        // Rows of the existing service: {id, data, ...search columns}.
        const row = (r: Json) => ({
          id: r.id,
          data: r,
          forenames: r.child.forenames,
          surname: r.child.surname,
          date_of_birth: r.child.dateOfBirth,
        });
        const rows = births(3, 700).map(row);
        await writeFile(file('rows.json'), JSON.stringify(rows));
        await writeFile(file('rows.ndjson'), ndjson([row(a2), ...rows]));
        assert.deepEqual(
          counts(await loadFiles(store.writer, builtInType('birth'), [file('rows.json')])),
          expected({ read: 3, inserted: 3 }),
        );
        assert.deepEqual(
          counts(await loadFiles(store.writer, builtInType('birth'), [file('rows.ndjson')])),
          expected({ read: 4, unchanged: 4 }),
        );
        assert.deepEqual(await store.lookup('birth', '701'), rows[1].data);
        const found = await store.search(
          'birth',
          {
            date: rows[1].date_of_birth,
            surname: normaliseName(rows[1].surname),
            forenames: normaliseName(rows[1].forenames),
          },
          50,
        );
        assert.ok(found.records.some((r) => (r as Json).id === 701));

        // A row whose id differs from its record's.
        await writeFile(file('bad-row.ndjson'), ndjson([{ ...row(a2), id: 5 }]));
        const error = await loadError(loadFiles(store.writer, builtInType('birth'), [file('bad-row.ndjson')]));
        assert.match(error.message, /bad-row\.ndjson:1: invalid birth record: \/id: the row id 5 differs/);
      },
    );

    await t.test('reads stdin for -, and every record type', async () => {
      const store = await fresh();
      for (const type of ['birth', 'death', 'marriage', 'partnership']) {
        const stdin = Readable.from([Buffer.from(ndjson(mock[type]))]);
        const result = await loadFiles(store.writer, builtInType(type), ['-'], { stdin });
        const ids = new Set(mock[type].map((r) => r.id));
        assert.equal(ids.size, mock[type].length, `the built-in ${type} records have distinct ids`);
        assert.deepEqual(counts(result), expected({ read: mock[type].length, inserted: ids.size }), type);
      }
      const error = await loadError(
        loadFiles(store.writer, builtInType('death'), ['-'], { stdin: Readable.from(['{"id":"x"}\n']) }),
      );
      assert.match(error.message, /^stdin:1: invalid death record: \/id: /);
    });

    await t.test(
      'stores exactly what the writer stores from checked records: each sees no change in what the other loaded',
      async () => {
        const store = await fresh();
        const type = recordTypes().find((r) => r.description.name === 'birth')!;
        const toStored = (entry: unknown) => {
          const stored = type.toStored(entry);
          assert.ok(!('reason' in stored));
          return stored;
        };
        const viaStore = births(40, 1);
        const viaLoader = births(40, 100);
        // Rows too: their search keys come from the search columns, not the data.
        const rows = births(5, 200).map((r) => ({
          id: r.id,
          data: r,
          forenames: 'Column',
          surname: 'Only',
          date_of_birth: '2001-02-03',
        }));
        await store.upsert('birth', [...viaStore, ...rows].map(toStored));
        await writeFile(file('via-loader.ndjson'), ndjson(viaLoader));
        await loadFiles(store.writer, builtInType('birth'), [file('via-loader.ndjson')]);

        await writeFile(file('via-store.ndjson'), ndjson([...viaStore, ...rows]));
        assert.deepEqual(
          counts(await loadFiles(store.writer, builtInType('birth'), [file('via-store.ndjson')])),
          expected({ read: 45, unchanged: 45 }),
        );
        assert.deepEqual(await store.upsert('birth', viaLoader.map(toStored)), {
          inserted: 0,
          updated: 0,
          unchanged: 40,
        });

        // The same search-key rows either way.
        if (store.kind !== 'postgres') return;
        const { driver } = store;
        const keysOf = async (from: number, to: number) =>
          (
            await driver.query<Json>(
              `SELECT date::text, surname, forenames, id - $1 AS n FROM birth_search_key WHERE id >= $1 AND ` +
                `id < $2 ORDER BY 4, 1, 2, 3`,
              [from, to],
            )
          ).map((k): Json => ({ ...k, n: Number(k.n) }));
        assert.deepEqual(await keysOf(100, 140), await keysOf(1, 41));
        const rowKeys = await keysOf(200, 205);
        assert.equal(rowKeys.length, 5);
        assert.ok(rowKeys.every((k) => k.surname === 'only' && k.forenames === 'column' && k.date === '2001-02-03'));
      },
    );

    await t.test('progress is reported as chunks are read', async () => {
      const store = await fresh();
      await writeFile(file('progress.ndjson'), ndjson(births(20)));
      const seen: number[] = [];
      await loadFiles(store.writer, builtInType('birth'), [file('progress.ndjson')], {
        onProgress: (p) => seen.push(p.records),
      });
      assert.equal(seen.at(-1), 20);
    });

    await t.test(
      'each reference *_v1 file loads with the right counts',
      { skip: referenceMissing(MOCK_DATA) },
      async () => {
        const store = await fresh();
        const files = (await readdir(MOCK_DATA)).filter((name) => /_v1\.json$/.test(name)).sort();
        assert.equal(files.length, 4);
        for (const name of files) {
          const type = name.split('_')[0];
          const rows = JSON.parse(await readFile(join(MOCK_DATA, name), 'utf8')) as Json[];
          const ids = new Set(rows.map((r) => r.id)).size;
          const path = join(MOCK_DATA, name);
          assert.equal(ids, rows.length, `${name} has distinct ids`);
          const first = await loadFiles(store.writer, builtInType(type), [path]);
          assert.deepEqual(counts(first), expected({ read: rows.length, inserted: ids }), name);
          for (const row of rows)
            assert.notEqual(await store.lookupJson(type, String(row.id)), undefined, `${type} ${row.id}`);
          assert.deepEqual(
            counts(await loadFiles(store.writer, builtInType(type), [path])),
            expected({ read: rows.length, unchanged: ids }),
          );
        }
      },
    );
  });
}
