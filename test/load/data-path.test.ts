/**
 * Loading LEV_DATA: files and folders of JSON arrays or NDJSON, v1 records or
 * the existing service's row shape, refused whole when any record is bad,
 * through the pipeline every load uses.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { loadConfig } from '../../src/config/index.ts';
import { openBackend } from '../../src/backend/open.ts';
import { DataError, loadDataPath } from '../../src/load/data-path.ts';
import { normaliseName } from '../../src/records/normalise.ts';
import type { RecordReader } from '../../src/model/store.ts';
import { type TestStore, emptyStore } from '../helper.ts';
import { REFERENCE, referenceMissing } from '../compat/reference-folder.ts';
import { builtInTypes as records, builtInServiceTypes } from '../record-types.ts';

/** A fresh folder under the system temporary folder, removed when the test ends. */
async function tempDir(t: { after: (fn: () => Promise<void>) => void }): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'lev-data-test-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

async function write(dir: string, name: string, content: unknown[] | string): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return file;
}
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const ndjson = (values: unknown[]) => `${values.map((value) => JSON.stringify(value)).join('\n')}\n`;

const birthV1 = (id: number, forenames: string, surname: string, dateOfBirth: string) => ({
  id,
  date: dateOfBirth,
  child: { forenames, surname, dateOfBirth, sex: 'Female' },
  status: { blocked: false },
});
const deathV1 = (id: number, forenames: string, surname: string, dateOfBirth: string, dateOfDeath: string) => ({
  id,
  deceased: { forenames, surname, dateOfBirth, dateOfDeath },
  status: { blocked: false },
});

/** A memory store holding the records of `path`, and the count of each type loaded. */
async function loaded(
  t: Parameters<typeof emptyStore>[0],
  path: string,
): Promise<{ store: TestStore; counts: Record<string, number> }> {
  const store = await emptyStore(t, 'memory');
  const results = await loadDataPath(store.writer, path, records);
  return { store, counts: Object.fromEntries([...results].map(([type, result]) => [type, result.inserted])) };
}

const ids = async (
  store: Pick<RecordReader, 'search'>,
  type: string,
  date: string,
  surname: string,
  forenames: string,
) =>
  (await store.search(type, { date, surname, forenames }, 100)).records.map((record) => (record as { id: number }).id);

/** The DataError a load throws; checks its class and returns its message. */
async function loadError(path: string): Promise<string> {
  let message = '';
  const store = await emptyStore({ after: () => {} }, 'memory');
  await assert.rejects(loadDataPath(store.writer, path, records), (error: unknown) => {
    assert.ok(error instanceof DataError, `expected a DataError, got ${String(error)}`);
    message = error.message;
    return true;
  });
  return message;
}

test('a JSON array and an NDJSON file of v1 records load with their search keys', async (t) => {
  const dir = await tempDir(t);
  await write(dir, 'births.json', [
    birthV1(1, 'Anne-Marie', "O'Brien", '2001-01-01'),
    birthV1(2, 'Zoë', 'Dufrêne', '2002-02-02'),
    birthV1(3, 'Tom', 'Smith', '2003-03-03'),
  ]);
  await write(
    dir,
    'deaths.ndjson',
    `${JSON.stringify(deathV1(10, 'Ed', 'Jones', '1930-01-01', '2010-01-01'))}\n\n  ` +
      `\r\n${JSON.stringify(deathV1(11, 'Jo', 'Jones', '1940-01-01', '1940-01-01'))}\r\n`,
  );
  await write(dir, 'README.md', 'not a data file');
  const { store, counts } = await loaded(t, dir);
  assert.deepEqual(counts, { birth: 3, death: 2 });

  assert.deepEqual(await store.lookup('birth', '1'), birthV1(1, 'Anne-Marie', "O'Brien", '2001-01-01'));
  assert.deepEqual(await ids(store, 'birth', '2001-01-01', 'obrien', 'anne marie'), [1]);
  assert.deepEqual(await ids(store, 'birth', '2002-02-02', 'dufrene', 'zoe'), [2]);
  assert.deepEqual(await ids(store, 'death', '1930-01-01', 'jones', 'ed'), [10]);
  assert.deepEqual(await ids(store, 'death', '2010-01-01', 'jones', 'ed'), [10]);
  assert.deepEqual(await ids(store, 'death', '1940-01-01', 'jones', 'jo'), [11]);

  // One file given directly, rather than its folder.
  assert.deepEqual((await loaded(t, join(dir, 'deaths.ndjson'))).counts, { death: 2 });
});

test("rows of the existing service's shape take their search keys from the columns", async (t) => {
  const dir = await tempDir(t);
  const blockedData = {
    id: 20,
    date: null,
    child: { forenames: null, surname: null, dateOfBirth: null, sex: null },
    mother: { forenames: null, surname: null, aliases: [{ forenames: null, surname: null }] },
    status: { blocked: true, marginalNote: null },
    previousRegistration: null,
  };
  await write(dir, 'birth_registration_v1.json', [
    {
      id: 21,
      data: birthV1(21, 'Tom', 'Smith', '2003-03-03'),
      forenames: 'Tom',
      surname: 'SMITH',
      date_of_birth: '2003-03-03',
    },
    { id: 20, data: blockedData, forenames: 'Tester', surname: 'Blocked', date_of_birth: '2000-02-01' },
  ]);
  await write(
    dir,
    'marriage_registration_v1.ndjson',
    ndjson([
      {
        id: 30,
        data: { id: 30, dateOfMarriage: null, groom: null, bride: null, status: { blocked: true } },
        date_of_marriage: '2012-02-29',
        bride_forenames: 'Test',
        bride_surname: 'BRIDE',
        bride_date_of_birth: null,
        groom_forenames: 'Tester One',
        groom_surname: 'MULTIPLE',
        groom_date_of_birth: '1912-02-29',
      },
    ]),
  );
  const { store } = await loaded(t, dir);
  assert.deepEqual(await store.lookup('birth', '20'), blockedData);
  assert.deepEqual(await ids(store, 'birth', '2003-03-03', 'smith', 'tom'), [21]);
  assert.deepEqual(await ids(store, 'marriage', '2012-02-29', 'bride', 'test'), [30]);
  assert.deepEqual(await ids(store, 'marriage', '2012-02-29', 'multiple', 'tester one'), [30]);

  // The blocked row (all its data null) is still found by its columns.
  const found = await store.search('birth', { date: '2000-02-01', surname: 'blocked', forenames: 'tester' }, 10);
  assert.deepEqual(found.records, [blockedData]);
  const married = await store.search('marriage', { date: '2012-02-29', surname: 'multiple', forenames: 'tester' }, 10);
  assert.deepEqual(
    married.records.map((record) => (record as { id: number }).id),
    [30],
  );
});

test('an invalid v1 record is refused, naming the file, the item or line, and the reason', async (t) => {
  const dir = await tempDir(t);
  const good = birthV1(1, 'Ann', 'Good', '2001-01-01');
  const cases: { name: string; entry: unknown; reason: RegExp }[] = [
    {
      name: 'unknown field',
      entry: { ...birthV1(2, 'A', 'B', '2001-01-01'), nickname: 'Annie' },
      reason: /\/nickname: Unexpected property/,
    },
    {
      name: 'unknown nested field',
      entry: { id: 2, child: { forenames: 'A', surname: 'B', nick: 'x' } },
      reason: /\/child\/nick: Unexpected property/,
    },
    {
      name: 'wrong type',
      entry: { id: 2, child: { forenames: 3, surname: 'B' } },
      reason: /\/child\/forenames: Expected string/,
    },
    {
      name: 'wrong type of flag',
      entry: { id: 2, status: { blocked: 'no' } },
      reason: /\/status\/blocked: Expected boolean/,
    },
    {
      name: 'bad date',
      entry: {
        ...birthV1(2, 'A', 'B', '2010-02-28'),
        child: { forenames: 'A', surname: 'B', dateOfBirth: '2010-02-30' },
      },
      reason: /\/child\/dateOfBirth: Expected string to match 'date' format/,
    },
    { name: 'date with a time', entry: { id: 2, date: '2010-02-03T00:00:00Z' }, reason: /\/date: .*date/ },
    {
      name: 'missing id',
      entry: { child: { forenames: 'A', surname: 'B', dateOfBirth: '2001-01-01' } },
      reason: /\/id: Expected required property/,
    },
    { name: 'id not an integer', entry: { id: '2' }, reason: /\/id: Expected integer/ },
    { name: 'negative id', entry: { id: -2 }, reason: /\/id: .*greater or equal to 0/ },
    { name: 'not an object', entry: 'a string', reason: /not a JSON object/ },
    {
      name: 'row id differs',
      entry: { id: 3, data: birthV1(2, 'A', 'B', '2001-01-01') },
      reason: /row id 3 differs from the record id 2/,
    },
  ];
  for (const { name, entry, reason } of cases) {
    await t.test(name, async () => {
      const slug = name.replace(/ /g, '-');
      const array = await write(dir, `birth-${slug}.json`, [good, entry]);
      const arrayMessage = await loadError(array);
      assert.ok(arrayMessage.startsWith(`${array} item 2: invalid birth record: `), arrayMessage);
      assert.match(arrayMessage, reason);

      const lines = await write(dir, `birth-${slug}.ndjson`, `${JSON.stringify(good)}\n\n${JSON.stringify(entry)}\n`);
      const linesMessage = await loadError(lines);
      assert.ok(linesMessage.startsWith(`${lines}:3: invalid birth record: `), linesMessage);
      assert.match(linesMessage, reason);
    });
  }
});

test('a row whose search columns are not names and real dates is refused', async (t) => {
  const dir = await tempDir(t);
  const row = (columns: Record<string, unknown>) => ({
    id: 5,
    data: birthV1(5, 'A', 'B', '2001-01-01'),
    forenames: 'A',
    surname: 'B',
    date_of_birth: '2001-01-01',
    ...columns,
  });
  const cases: { name: string; columns: Record<string, unknown>; reason: RegExp }[] = [
    { name: 'no such day', columns: { date_of_birth: '2010-02-30' }, reason: /date_of_birth/ },
    { name: 'not ISO', columns: { date_of_birth: '01/02/2010' }, reason: /date_of_birth/ },
    { name: 'date a number', columns: { date_of_birth: 20100201 }, reason: /date_of_birth/ },
    { name: 'surname a number', columns: { surname: 42 }, reason: /surname/ },
  ];
  for (const { name, columns, reason } of cases) {
    await t.test(name, async () => {
      const file = await write(
        dir,
        `birth-${name.replace(/ /g, '-')}.ndjson`,
        ndjson([row({}), row({ ...columns, id: 6, data: birthV1(6, 'A', 'B', '2001-01-01') })]),
      );
      const message = await loadError(file);
      assert.ok(message.startsWith(`${file}:2: invalid birth record: `), message);
      assert.match(message, reason);
    });
  }
  // Null or absent columns are allowed: the record is just not found through them.
  const file = await write(dir, 'death-null-columns.json', [
    {
      id: 7,
      data: deathV1(7, 'A', 'B', '1900-01-01', '2001-01-01'),
      forenames: 'A',
      surname: 'B',
      date_of_birth: null,
      date_of_death: '2001-01-01',
    },
    {
      id: 8,
      data: deathV1(8, 'A', 'B', '1900-01-01', '2001-01-01'),
      forenames: null,
      surname: 'B',
      date_of_death: '2001-01-01',
    },
  ]);
  const { store } = await loaded(t, file);
  assert.deepEqual(await ids(store, 'death', '2001-01-01', 'b', 'a'), [7]);
  assert.deepEqual(await ids(store, 'death', '1900-01-01', 'b', 'a'), [], 'not through the null column');
  assert.deepEqual(await ids(store, 'death', '2001-01-01', 'b', ''), [8]);
});

test('a line or file that is not JSON is refused', async (t) => {
  const dir = await tempDir(t);
  const lines = await write(
    dir,
    'deaths.ndjson',
    `${JSON.stringify(deathV1(1, 'A', 'B', '1900-01-01', '2000-01-01'))}\n{"id": 2,\n`,
  );
  assert.match(await loadError(lines), new RegExp(`^${escape(lines)}:2: invalid death record: not valid JSON`));
  const array = await write(dir, 'births.json', '[{"id": 1}, {"id": 2},]');
  assert.match(await loadError(array), new RegExp(`^${escape(array)}\\b.*JSON`));
});

test('a file whose name does not start with a record type is refused', async (t) => {
  const dir = await tempDir(t);
  await write(dir, 'births.json', [birthV1(1, 'A', 'B', '2001-01-01')]);
  const stray = await write(dir, 'people.json', [birthV1(2, 'A', 'B', '2001-01-01')]);
  const message = await loadError(dir);
  assert.ok(message.startsWith(`${stray}: the file name must start with the record type`), message);
  assert.match(message, /birth, death, marriage, partnership/);
  assert.match(await loadError(stray), /must start with the record type/);
});

test('v0 files are skipped', async (t) => {
  const dir = await tempDir(t);
  await write(dir, 'birth_registration_v1.json', [birthV1(1, 'A', 'B', '2001-01-01')]);
  // v0 records have another shape and would be refused were they read.
  await write(dir, 'birth_registration_v0.json', [{ id: 1, data: { subjects: { child: {} } } }]);
  await write(dir, 'deaths_v0.ndjson', 'not even JSON\n');
  assert.deepEqual((await loaded(t, dir)).counts, { birth: 1 });

  const onlyV0 = await tempDir(t);
  await write(onlyV0, 'birth_v0.json', '[]');
  assert.match(await loadError(onlyV0), /no record files found/);
});

test('a missing path or an empty folder is refused', async (t) => {
  const dir = await tempDir(t);
  assert.match(await loadError(join(dir, 'nothing-here')), /no such file or folder/);
  await mkdir(join(dir, 'empty'));
  assert.match(await loadError(join(dir, 'empty')), /no record files found/);
});

test('bytes that are not UTF-8 in LEV_DATA are refused, naming the file and line', async (t) => {
  const dir = await tempDir(t);
  const good = `${JSON.stringify(birthV1(1, 'Ann', 'Good', '2001-01-01'))}\n`;
  const [before, after] = JSON.stringify(birthV1(2, 'Ann', 'Sm__th', '2001-01-01')).split('__');
  const file = join(dir, 'births.ndjson');
  // FF FE inside the surname of line 2.
  await writeFile(
    file,
    Buffer.concat([Buffer.from(good), Buffer.from(before), Buffer.from([0xff, 0xfe]), Buffer.from(`${after}\n`)]),
  );
  const message = await loadError(file);
  assert.ok(message.startsWith(`${file}:2: invalid birth record: not valid UTF-8`), message);
});

test('the service refuses a folder with one bad file, and serves nothing', async (t) => {
  const dir = await tempDir(t);
  await write(dir, 'births.json', [birthV1(41, 'Good', 'Record', '2001-01-01')]);
  await write(
    dir,
    'deaths.ndjson',
    ndjson([
      deathV1(42, 'Good', 'Record', '1900-01-01', '2001-01-01'),
      { id: 43, deceased: { dateOfDeath: '2001-02-30' } },
    ]),
  );
  const config = loadConfig({ LEV_DATA: dir, LOG_LEVEL: 'silent' });
  assert.equal(config.dataPath, dir);
  assert.equal(config.database, undefined);
  await assert.rejects(openBackend(config, builtInServiceTypes), (error: unknown) => {
    assert.ok(error instanceof DataError, String(error));
    assert.match(error.message, /deaths\.ndjson:2: invalid death record: \/deceased\/dateOfDeath/);
    return true;
  });

  // Fixed, the same folder is served, and only its records (not the built-in mock data).
  await write(dir, 'deaths.ndjson', ndjson([deathV1(42, 'Good', 'Record', '1900-01-01', '2001-01-01')]));
  const backend = await openBackend(config, builtInServiceTypes);
  t.after(() => backend.close());
  assert.equal(backend.kind, 'memory');
  assert.equal(((await backend.records.lookup('birth', '41')) as { id: number }).id, 41);
  assert.equal(((await backend.records.lookup('death', '42')) as { id: number }).id, 42);
  assert.equal(await backend.records.lookup('birth', '123456789'), undefined);
  assert.deepEqual(await ids(backend.records, 'birth', '2001-01-01', 'record', 'good'), [41], 'the one birth');
});

const mockData = resolve(REFERENCE, 'mock-data');
/** How many rows of each type the existing service's mock data holds. */
const REFERENCE_ROWS = { birth: 14, death: 23, marriage: 9, partnership: 9 };

test("the existing service's mock rows load, and every row is found by its own search columns", {
  skip: referenceMissing(mockData),
}, async (t) => {
  const { store, counts } = await loaded(t, mockData);
  assert.deepEqual(counts, REFERENCE_ROWS);
  let searches = 0;
  // The existing service has rows of the four types it serves; a type added since has none there.
  for (const description of records.filter((record) => record.name in REFERENCE_ROWS)) {
    const file = join(mockData, `${description.name}_registration_v1.json`);
    const rows = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>[];
    for (const row of rows) {
      assert.deepEqual(await store.lookup(description.name, String(row.id)), row.data, `${description.name} ${row.id}`);
      for (const party of description.search.parties) {
        const { surname, forenames, dates } = party.rowColumns;
        for (const column of dates) {
          const date = row[column];
          if (typeof date !== 'string' || typeof row[surname] !== 'string') continue;
          const key = {
            date,
            surname: normaliseName(row[surname] as string),
            forenames: normaliseName((row[forenames] as string | null) ?? ''),
          };
          const found = await store.search(description.name, key, 100);
          assert.ok(
            found.records.some((record) => (record as { id: number }).id === row.id),
            `${description.name} ${row.id} not found by ${JSON.stringify(key)}`,
          );
          searches++;
        }
      }
    }
  }
  assert.ok(searches >= 14 + 23 + 9 * 2 + 9 * 2, `only ${searches} searches`);
});

test('an id given twice is refused, naming both places, in one file or across files of a type', async (t) => {
  const dir = await tempDir(t);
  const births = await write(
    dir,
    'births-a.ndjson',
    ndjson([
      birthV1(1, 'A', 'B', '2001-01-01'),
      birthV1(2, 'C', 'D', '2001-01-01'),
      birthV1(1, 'E', 'F', '2001-01-01'),
    ]),
  );
  assert.equal(await loadError(births), `${births}:3: invalid birth record: /id: 1 was given already, at ${births}:1`);

  const other = await tempDir(t);
  const first = await write(other, 'births-a.json', [
    birthV1(1, 'A', 'B', '2001-01-01'),
    birthV1(2, 'C', 'D', '2001-01-01'),
  ]);
  const second = await write(
    other,
    'births-b.ndjson',
    ndjson([birthV1(3, 'G', 'H', '2001-01-01'), birthV1(2, 'C', 'D', '2001-01-01')]),
  );
  assert.equal(
    await loadError(other),
    `${second}:2: invalid birth record: /id: 2 was given already, at ${first} item 2`,
  );
});

test('a file starting with a UTF-8 byte-order mark loads, as JSON array or NDJSON', async (t) => {
  const dir = await tempDir(t);
  await write(dir, 'births.json', `\ufeff${JSON.stringify([birthV1(1, 'A', 'B', '2001-01-01')])}`);
  await write(dir, 'deaths.ndjson', `\ufeff${ndjson([deathV1(2, 'A', 'B', '1900-01-01', '2001-01-01')])}`);
  assert.deepEqual((await loaded(t, dir)).counts, { birth: 1, death: 1 });
});
