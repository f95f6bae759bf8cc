/**
 * Loading LEV_DATA: files and folders of JSON arrays or NDJSON, v1 records or
 * the existing service's row shape, refused whole when any record is bad.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../../src/config.ts';
import { DataError, readRecordFiles } from '../../src/data/read-files.ts';
import { normaliseName } from '../../src/records/normalise.ts';
import { records } from '../../src/records/index.ts';
import { loadInto, openStore, recordTypes } from '../../src/store/open-store.ts';
import type { StoredRecord } from '../../src/store/record-store.ts';
import { emptyStore } from '../helper.ts';

const types = recordTypes();

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

const byId = (list: readonly StoredRecord[] | undefined) => new Map((list ?? []).map((record) => [record.id, record]));

/** The DataError a load throws; checks its class and returns its message. */
async function loadError(path: string): Promise<string> {
  let message = '';
  await assert.rejects(readRecordFiles(path, types), (error: unknown) => {
    assert.ok(error instanceof DataError, `expected a DataError, got ${String(error)}`);
    message = error.message;
    return true;
  });
  return message;
}

test('a JSON array and an NDJSON file of v1 records load with their search keys', async (t) => {
  const dir = await tempDir(t);
  await write(dir, 'births.json', [birthV1(1, 'Anne-Marie', "O'Brien", '2001-01-01'), birthV1(2, 'Zoë', 'Dufrêne', '2002-02-02'), birthV1(3, 'Tom', 'Smith', '2003-03-03')]);
  await write(dir, 'deaths.ndjson', `${JSON.stringify(deathV1(10, 'Ed', 'Jones', '1930-01-01', '2010-01-01'))}\n\n  \r\n${JSON.stringify(deathV1(11, 'Jo', 'Jones', '1940-01-01', '1940-01-01'))}\r\n`);
  await write(dir, 'README.md', 'not a data file');
  const loaded = await readRecordFiles(dir, types);
  assert.deepEqual([...loaded.keys()].sort(), ['birth', 'death']);
  assert.equal(loaded.get('birth')!.length, 3);
  assert.equal(loaded.get('death')!.length, 2);

  const births = byId(loaded.get('birth'));
  assert.deepEqual(births.get(1)!.data, birthV1(1, 'Anne-Marie', "O'Brien", '2001-01-01'));
  assert.deepEqual(births.get(1)!.keys, [{ date: '2001-01-01', surname: 'obrien', forenames: 'anne marie' }]);
  assert.deepEqual(births.get(2)!.keys, [{ date: '2002-02-02', surname: 'dufrene', forenames: 'zoe' }]);
  const deaths = byId(loaded.get('death'));
  assert.deepEqual(
    deaths.get(10)!.keys.map((key) => key.date).sort(),
    ['1930-01-01', '2010-01-01'],
  );
  assert.deepEqual(deaths.get(11)!.keys, [{ date: '1940-01-01', surname: 'jones', forenames: 'jo' }]);

  // One file given directly, rather than its folder.
  const single = await readRecordFiles(join(dir, 'deaths.ndjson'), types);
  assert.deepEqual([...single.keys()], ['death']);
  assert.equal(single.get('death')!.length, 2);
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
    { id: 21, data: birthV1(21, 'Tom', 'Smith', '2003-03-03'), forenames: 'Tom', surname: 'SMITH', date_of_birth: '2003-03-03' },
    { id: 20, data: blockedData, forenames: 'Tester', surname: 'Blocked', date_of_birth: '2000-02-01' },
  ]);
  await write(dir, 'marriage_registration_v1.ndjson', ndjson([
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
  ]));
  const loaded = await readRecordFiles(dir, types);
  const births = byId(loaded.get('birth'));
  assert.deepEqual(births.get(20)!.data, blockedData);
  assert.deepEqual(births.get(20)!.keys, [{ date: '2000-02-01', surname: 'blocked', forenames: 'tester' }]);
  assert.deepEqual(births.get(21)!.keys, [{ date: '2003-03-03', surname: 'smith', forenames: 'tom' }]);
  assert.deepEqual(
    byId(loaded.get('marriage')).get(30)!.keys,
    [
      { date: '2012-02-29', surname: 'bride', forenames: 'test' },
      { date: '2012-02-29', surname: 'multiple', forenames: 'tester one' },
    ],
  );

  // Stored, the blocked row (all its data null) is still found by its columns.
  const store = await emptyStore(t, 'embedded');
  await loadInto(store, loaded);
  const found = await store.search('birth', { date: '2000-02-01', surname: 'blocked', forenames: 'tester' }, 10);
  assert.deepEqual(found.records, [blockedData]);
  const married = await store.search('marriage', { date: '2012-02-29', surname: 'multiple', forenames: 'tester' }, 10);
  assert.deepEqual(married.records.map((record) => (record as { id: number }).id), [30]);
});

test('an invalid v1 record is refused, naming the file, the item or line, and the reason', async (t) => {
  const dir = await tempDir(t);
  const good = birthV1(1, 'Ann', 'Good', '2001-01-01');
  const cases: { name: string; entry: unknown; reason: RegExp }[] = [
    { name: 'unknown field', entry: { ...birthV1(2, 'A', 'B', '2001-01-01'), nickname: 'Annie' }, reason: /\/nickname: Unexpected property/ },
    { name: 'unknown nested field', entry: { id: 2, child: { forenames: 'A', surname: 'B', nick: 'x' } }, reason: /\/child\/nick: Unexpected property/ },
    { name: 'wrong type', entry: { id: 2, child: { forenames: 3, surname: 'B' } }, reason: /\/child\/forenames: Expected string/ },
    { name: 'wrong type of flag', entry: { id: 2, status: { blocked: 'no' } }, reason: /\/status\/blocked: Expected boolean/ },
    { name: 'bad date', entry: { ...birthV1(2, 'A', 'B', '2010-02-28'), child: { forenames: 'A', surname: 'B', dateOfBirth: '2010-02-30' } }, reason: /\/child\/dateOfBirth: Expected string to match 'date' format/ },
    { name: 'date with a time', entry: { id: 2, date: '2010-02-03T00:00:00Z' }, reason: /\/date: .*date/ },
    { name: 'missing id', entry: { child: { forenames: 'A', surname: 'B', dateOfBirth: '2001-01-01' } }, reason: /\/id: Expected required property/ },
    { name: 'id not an integer', entry: { id: '2' }, reason: /\/id: Expected integer/ },
    { name: 'negative id', entry: { id: -2 }, reason: /\/id: .*greater or equal to 0/ },
    { name: 'not an object', entry: 'a string', reason: /not a JSON object/ },
    { name: 'row id differs', entry: { id: 3, data: birthV1(2, 'A', 'B', '2001-01-01') }, reason: /row id 3 differs from the record id 2/ },
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

test("a row whose search columns are not names and real dates is refused", async (t) => {
  const dir = await tempDir(t);
  const row = (columns: Record<string, unknown>) => ({ id: 5, data: birthV1(5, 'A', 'B', '2001-01-01'), forenames: 'A', surname: 'B', date_of_birth: '2001-01-01', ...columns });
  const cases: { name: string; columns: Record<string, unknown>; reason: RegExp }[] = [
    { name: 'no such day', columns: { date_of_birth: '2010-02-30' }, reason: /date_of_birth/ },
    { name: 'not ISO', columns: { date_of_birth: '01/02/2010' }, reason: /date_of_birth/ },
    { name: 'date a number', columns: { date_of_birth: 20100201 }, reason: /date_of_birth/ },
    { name: 'surname a number', columns: { surname: 42 }, reason: /surname/ },
  ];
  for (const { name, columns, reason } of cases) {
    await t.test(name, async () => {
      const file = await write(dir, `birth-${name.replace(/ /g, '-')}.ndjson`, ndjson([row({}), row({ ...columns, id: 6, data: birthV1(6, 'A', 'B', '2001-01-01') })]));
      const message = await loadError(file);
      assert.ok(message.startsWith(`${file}:2: invalid birth record: `), message);
      assert.match(message, reason);
    });
  }
  // Null or absent columns are allowed: the record is just not found through them.
  const file = await write(dir, 'death-null-columns.json', [
    { id: 7, data: deathV1(7, 'A', 'B', '1900-01-01', '2001-01-01'), forenames: 'A', surname: 'B', date_of_birth: null, date_of_death: '2001-01-01' },
    { id: 8, data: deathV1(8, 'A', 'B', '1900-01-01', '2001-01-01'), forenames: null, surname: 'B', date_of_death: '2001-01-01' },
  ]);
  const deaths = byId((await readRecordFiles(file, types)).get('death'));
  assert.deepEqual(deaths.get(7)!.keys, [{ date: '2001-01-01', surname: 'b', forenames: 'a' }]);
  assert.deepEqual(deaths.get(8)!.keys, [{ date: '2001-01-01', surname: 'b', forenames: '' }]);
});

test('a line or file that is not JSON is refused', async (t) => {
  const dir = await tempDir(t);
  const lines = await write(dir, 'deaths.ndjson', `${JSON.stringify(deathV1(1, 'A', 'B', '1900-01-01', '2000-01-01'))}\n{"id": 2,\n`);
  assert.equal(await loadError(lines), `${lines}:2: not valid JSON`);
  const array = await write(dir, 'births.json', '[{"id": 1}, {"id": 2},]');
  assert.match(await loadError(array), new RegExp(`^${array.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: not valid JSON`));
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
  const loaded = await readRecordFiles(dir, types);
  assert.deepEqual([...loaded.keys()], ['birth']);
  assert.deepEqual(loaded.get('birth')!.map((record) => record.id), [1]);

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

test('openStore refuses a folder with one bad file, and serves nothing', async (t) => {
  const dir = await tempDir(t);
  await write(dir, 'births.json', [birthV1(41, 'Good', 'Record', '2001-01-01')]);
  await write(dir, 'deaths.ndjson', ndjson([deathV1(42, 'Good', 'Record', '1900-01-01', '2001-01-01'), { id: 43, deceased: { dateOfDeath: '2001-02-30' } }]));
  const config = loadConfig({ LEV_DATA: dir, LOG_LEVEL: 'silent' });
  assert.equal(config.dataPath, dir);
  assert.equal(config.database, undefined);
  await assert.rejects(openStore(config), (error: unknown) => {
    assert.ok(error instanceof DataError, String(error));
    assert.match(error.message, /deaths\.ndjson:2: invalid death record: \/deceased\/dateOfDeath/);
    return true;
  });

  // Fixed, the same folder is served, and only its records (not the built-in mock data).
  await write(dir, 'deaths.ndjson', ndjson([deathV1(42, 'Good', 'Record', '1900-01-01', '2001-01-01')]));
  const store = await openStore(config);
  t.after(() => store.close());
  assert.equal(store.driver.kind, 'embedded');
  assert.equal(((await store.lookup('birth', '41')) as { id: number }).id, 41);
  assert.equal(((await store.lookup('death', '42')) as { id: number }).id, 42);
  assert.equal(await store.lookup('birth', '123456789'), undefined);
  const [{ count }] = await store.driver.query<{ count: string }>('SELECT count(*)::text AS count FROM birth_registration');
  assert.equal(count, '1');
});

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const mockData = resolve(repoRoot, '../shared/reference/mock-data');

test(
  "the existing service's mock rows load, and every row is found by its own search columns",
  { skip: existsSync(mockData) ? false : `${mockData} is absent` },
  async (t) => {
    const loaded = await readRecordFiles(mockData, types);
    assert.deepEqual(
      Object.fromEntries([...loaded].map(([type, list]) => [type, list.length])),
      { birth: 14, death: 23, marriage: 9, partnership: 9 },
    );

    const store = await emptyStore(t, 'embedded');
    await loadInto(store, loaded);
    let searches = 0;
    for (const description of records) {
      const file = join(mockData, `${description.name}_registration_v1.json`);
      const rows = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>[];
      for (const row of rows) {
        assert.deepEqual(await store.lookup(description.name, String(row.id)), row.data, `${description.name} ${row.id}`);
        for (const party of description.search.parties) {
          const { surname, forenames, dates } = party.rowColumns;
          for (const column of dates) {
            const date = row[column];
            if (typeof date !== 'string' || typeof row[surname] !== 'string') continue;
            const key = { date, surname: normaliseName(row[surname] as string), forenames: normaliseName((row[forenames] as string | null) ?? '') };
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
  },
);
