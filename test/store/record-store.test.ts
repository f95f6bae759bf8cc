/**
 * The record store's contract, run against every backend: memory always,
 * and PostgreSQL where a server answers. Reads and writes go through the
 * backend's reader and writer, as the service and the loads use them.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { SqlDriver } from '../../src/store/driver.ts';
import { createPostgresRecords } from '../../src/store/postgres-records.ts';
import { tableNames } from '../../src/store/record-tables.ts';
import { readPath } from '../../src/records/define.ts';
import { verifiedPaths } from '../../src/records/verification.ts';
import type { RecordToWrite, StoredRecord } from '../../src/model/records.ts';
import { emptyStore, recordTypes, storeKinds } from '../helper.ts';
import { builtInTypes as records } from '../record-types.ts';

const types = new Map(recordTypes().map((type) => [type.description.name, type]));

/** A record as a load would store it: validated, with its search keys worked out from its fields. */
function stored(type: string, data: Record<string, unknown>): StoredRecord {
  const result = types.get(type)!.toStored(data);
  if ('reason' in result) throw new Error(`test record ${JSON.stringify(data)}: ${result.reason}`);
  return result;
}

const birth = (
  id: number,
  forenames: string,
  surname: string,
  dateOfBirth: string,
  extra: Record<string, unknown> = {},
) => stored('birth', { id, child: { forenames, surname, dateOfBirth }, status: { blocked: false }, ...extra });

const death = (id: number, forenames: string, surname: string, dateOfBirth: string | null, dateOfDeath: string) =>
  stored('death', { id, deceased: { forenames, surname, dateOfBirth, dateOfDeath }, status: { blocked: false } });

const marriage = (id: number, dateOfMarriage: string, groom: [string, string], bride: [string, string]) =>
  stored('marriage', {
    id,
    dateOfMarriage,
    groom: { forenames: groom[0], surname: groom[1] },
    bride: { forenames: bride[0], surname: bride[1] },
    status: { blocked: false },
  });

const idsOf = (found: { records: unknown[] }) => found.records.map((record) => (record as { id: number }).id);

for (const kind of await storeKinds()) {
  test(`record store contract (${kind})`, async (t) => {
    const store = await emptyStore(t, kind);

    await t.test('upsert counts inserted, then unchanged, then updated', async () => {
      const batch = [
        birth(1001, 'Ada', 'Counts', '2001-01-01'),
        birth(1002, 'Bea', 'Counts', '2001-01-01'),
        birth(1003, 'Cy', 'Counts', '2001-01-01'),
      ];
      assert.deepEqual(await store.upsert('birth', batch), { inserted: 3, updated: 0, unchanged: 0 });
      assert.deepEqual(await store.upsert('birth', batch), { inserted: 0, updated: 0, unchanged: 3 });
      const changed = [batch[0], birth(1002, 'Bea', 'Counts', '2001-01-01', { entryNumber: 7 }), batch[2]];
      assert.deepEqual(await store.upsert('birth', changed), { inserted: 0, updated: 1, unchanged: 2 });
      // One of each in one batch.
      const mixed = [batch[0], birth(1003, 'Cy', 'Counts', '2001-01-02'), birth(1004, 'Di', 'Counts', '2001-01-01')];
      assert.deepEqual(await store.upsert('birth', mixed), { inserted: 1, updated: 1, unchanged: 1 });
      assert.deepEqual(await store.upsert('birth', []), { inserted: 0, updated: 0, unchanged: 0 });
    });

    await t.test('the same content in another key order is unchanged, and the first text is kept', async () => {
      const first = birth(1101, 'Kay', 'Order', '2001-01-01');
      await store.upsert('birth', [first]);
      const text = await store.lookupJson('birth', '1101');
      const reordered = { ...first, data: Object.fromEntries(Object.entries(first.data as object).reverse()) };
      assert.notEqual(JSON.stringify(reordered.data), JSON.stringify(first.data));
      assert.deepEqual(await store.upsert('birth', [reordered]), { inserted: 0, updated: 0, unchanged: 1 });
      assert.equal(await store.lookupJson('birth', '1101'), text);
    });

    await t.test('lookup finds a record by id and misses an unknown one', async () => {
      const record = birth(2001, 'Lou', 'Lookup', '2002-02-02', {
        entryNumber: 12,
        status: { blocked: false, marginalNote: 'None' },
      });
      await store.upsert('birth', [record]);
      assert.deepEqual(await store.lookup('birth', '2001'), record.data);
      assert.equal(await store.lookup('birth', '2999'), undefined);
      // Each type is its own table: the same id under another type is a miss.
      assert.equal(await store.lookup('death', '2001'), undefined);
      await assert.rejects(store.lookup('divorce', '2001'), /unknown record type divorce/);
    });

    await t.test('search matches the surname exactly', async () => {
      await store.upsert('birth', [
        birth(3001, 'Sam', 'Smith', '2003-03-03'),
        birth(3002, 'Sam', 'Smithson', '2003-03-03'),
        birth(3003, 'Sam', 'Smit', '2003-03-03'),
      ]);
      assert.deepEqual(
        idsOf(await store.search('birth', { date: '2003-03-03', surname: 'smith', forenames: 'sam' }, 10)),
        [3001],
      );
      assert.deepEqual(
        idsOf(await store.search('birth', { date: '2003-03-03', surname: 'smi', forenames: 'sam' }, 10)),
        [],
      );
      await assert.rejects(
        store.search('divorce', { date: '2003-03-03', surname: 'smith', forenames: 'sam' }, 10),
        /unknown record type/,
      );
    });

    await t.test('search matches forenames as a word prefix', async () => {
      await store.upsert('birth', [
        birth(4001, 'Anne', 'Prefix', '2004-04-04'),
        birth(4002, 'Anne Marie', 'Prefix', '2004-04-04'),
        birth(4003, 'Annette', 'Prefix', '2004-04-04'),
        birth(4004, 'Anne-Louise Marie', 'Prefix', '2004-04-04'),
        birth(4005, 'Marie Anne', 'Prefix', '2004-04-04'),
        birth(4006, 'Ann', 'Prefix', '2004-04-04'),
      ]);
      const find = async (forenames: string) =>
        idsOf(await store.search('birth', { date: '2004-04-04', surname: 'prefix', forenames }, 10));
      assert.deepEqual(await find('anne'), [4001, 4002, 4004]);
      assert.deepEqual(await find('anne marie'), [4002]);
      assert.deepEqual(await find('anne louise'), [4004]);
      assert.deepEqual(await find('annette'), [4003]);
      assert.deepEqual(await find('ann'), [4006]);
      assert.deepEqual(await find('marie'), [4005]);
      assert.deepEqual(await find('anne m'), []);
      assert.deepEqual(await find('anne marie louise'), []);
    });

    await t.test('search needs the date to match', async () => {
      await store.upsert('birth', [birth(5001, 'Dot', 'Dated', '2005-05-05')]);
      assert.deepEqual(
        idsOf(await store.search('birth', { date: '2005-05-05', surname: 'dated', forenames: 'dot' }, 10)),
        [5001],
      );
      assert.deepEqual(
        idsOf(await store.search('birth', { date: '2005-05-06', surname: 'dated', forenames: 'dot' }, 10)),
        [],
      );
      assert.deepEqual(
        idsOf(await store.search('birth', { date: '2006-05-05', surname: 'dated', forenames: 'dot' }, 10)),
        [],
      );
    });

    await t.test('a death is found by either its date of birth or its date of death, once', async () => {
      await store.upsert('death', [
        death(6001, 'Ed', 'Twodates', '1930-06-06', '2006-06-06'),
        death(6002, 'Ed', 'Twodates', '2006-06-06', '2006-06-06'), // born and died the same day: dob = dod
        death(6003, 'Ed', 'Twodates', null, '2006-06-07'),
      ]);
      const find = async (date: string) =>
        idsOf(await store.search('death', { date, surname: 'twodates', forenames: 'ed' }, 10));
      assert.deepEqual(await find('1930-06-06'), [6001]);
      assert.deepEqual(await find('2006-06-06'), [6001, 6002]);
      assert.deepEqual(await find('2006-06-07'), [6003]);
      assert.deepEqual(await find('1930-06-07'), []);
    });

    await t.test('a marriage is found through either party, and returned once when both match', async () => {
      await store.upsert('marriage', [
        marriage(7001, '2007-07-07', ['Alex', 'Wed'], ['Alex Jo', 'Wed']),
        marriage(7002, '2007-07-07', ['Chris', 'Groomly'], ['Alex', 'Bridely']),
      ]);
      const find = async (surname: string, forenames: string) =>
        idsOf(await store.search('marriage', { date: '2007-07-07', surname, forenames }, 10));
      assert.deepEqual(await find('wed', 'alex'), [7001]);
      assert.deepEqual(await find('wed', 'alex jo'), [7001]);
      assert.deepEqual(await find('groomly', 'chris'), [7002]);
      assert.deepEqual(await find('bridely', 'alex'), [7002]);
      assert.deepEqual(await find('bridely', 'chris'), []);
      // Two keys of one record matching the same query, given directly to the store.
      const twice: StoredRecord = {
        id: 7003,
        data: { id: 7003 },
        keys: [
          { date: '2007-07-07', surname: 'dup', forenames: 'kim' },
          { date: '2007-07-07', surname: 'dup', forenames: 'kim lee' },
          { date: '2007-07-07', surname: 'dup', forenames: 'kim' },
        ],
      };
      await store.upsert('marriage', [twice]);
      assert.deepEqual(await find('dup', 'kim'), [7003]);
    });

    await t.test('search returns records in ascending id order', async () => {
      const ids = [900000000, 80005, 80010, 80001, 80100, 80009];
      await store.upsert(
        'birth',
        ids.map((id) => birth(id, 'Ord', 'Order', '2008-08-08')),
      );
      const found = await store.search('birth', { date: '2008-08-08', surname: 'order', forenames: 'ord' }, 10);
      assert.deepEqual(idsOf(found), [80001, 80005, 80009, 80010, 80100, 900000000]);
      assert.equal(found.truncated, false);
    });

    await t.test('search returns at most limit records and says when there were more', async () => {
      await store.upsert(
        'birth',
        [9005, 9001, 9004, 9002, 9003].map((id) => birth(id, 'Lim', 'Limit', '2009-09-09')),
      );
      const search = (limit: number) =>
        store.search('birth', { date: '2009-09-09', surname: 'limit', forenames: 'lim' }, limit);
      assert.deepEqual(await search(3), {
        records: [9001, 9002, 9003].map((id) => ({
          id,
          child: { forenames: 'Lim', surname: 'Limit', dateOfBirth: '2009-09-09' },
          status: { blocked: false },
        })),
        ids: [9001, 9002, 9003],
        truncated: true,
      });
      assert.deepEqual(idsOf(await search(1)), [9001]);
      assert.equal((await search(1)).truncated, true);
      assert.equal((await search(4)).truncated, true);
      assert.deepEqual(
        { ids: idsOf(await search(5)), truncated: (await search(5)).truncated },
        { ids: [9001, 9002, 9003, 9004, 9005], truncated: false },
      );
      assert.equal((await search(6)).truncated, false);
      const none = await store.search('birth', { date: '2009-09-09', surname: 'nobody', forenames: 'lim' }, 5);
      assert.deepEqual(none, { records: [], ids: [], truncated: false });
    });

    await t.test(
      'verification candidates are the records search finds, as the values at the verified paths',
      async () => {
        const full = birth(9101, 'Vera Ann', 'Values', '2009-10-10', {
          child: { forenames: 'Vera Ann', surname: 'Values', dateOfBirth: '2009-10-10', birthplace: 'Leeds' },
          mother: { forenames: 'Mo', surname: 'Values' },
          status: { blocked: true },
        });
        const sparse = birth(9102, 'Vera', 'Values', '2009-10-10');
        await store.upsert('birth', [sparse, full, birth(9103, 'Vic', 'Values', '2009-10-10')]);
        const paths = verifiedPaths(records.find((d) => d.name === 'birth')!);
        const expected = (record: StoredRecord) => paths.map((path) => readPath(record.data, path) ?? null);
        const key = { date: '2009-10-10', surname: 'values', forenames: 'vera' };
        assert.deepEqual(await store.verificationCandidates('birth', key, 10), {
          records: [expected(full), expected(sparse)],
          ids: [9101, 9102],
          truncated: false,
        });
        assert.ok(
          expected(full).includes('Leeds') && expected(full).includes(true) && expected(sparse).includes(null),
          'the values hold what the record has, null for what it lacks',
        );
        assert.deepEqual(await store.verificationCandidates('birth', key, 1), {
          records: [expected(full)],
          ids: [9101],
          truncated: true,
        });
        assert.deepEqual(await store.verificationCandidates('birth', { ...key, surname: 'nobody' }, 10), {
          records: [],
          ids: [],
          truncated: false,
        });
      },
    );

    await t.test(
      'verification candidates padded out: the same number of registrations read whether some or none were found',
      async () => {
        await store.upsert('birth', [
          birth(9201, 'Pat', 'Padded', '2009-11-11'),
          birth(9202, 'Pam', 'Other', '2009-11-12'),
          birth(9203, 'Pia', 'Third', '2009-11-13'),
        ]);
        const paths = verifiedPaths(records.find((d) => d.name === 'birth')!);
        const isValues = (values: unknown) => Array.isArray(values) && values.length === paths.length;
        const none = await store.verificationCandidates(
          'birth',
          { date: '2009-11-11', surname: 'nobody', forenames: 'pat' },
          10,
          3,
        );
        assert.deepEqual(none.records, []);
        assert.equal(none.padding?.length, 3, 'three others read when none is found');
        assert.ok(none.padding.every(isValues), 'padding is prepared as candidates are');
        const one = await store.verificationCandidates(
          'birth',
          { date: '2009-11-11', surname: 'padded', forenames: 'pat' },
          10,
          3,
        );
        assert.equal(one.records.length, 1);
        assert.equal(one.padding?.length, 2, 'one found, two others');
        // What was found pads the next answers, so padding is the size of what verifications find.
        const after = await store.verificationCandidates(
          'birth',
          { date: '2009-11-11', surname: 'nobody', forenames: 'pat' },
          10,
          3,
        );
        assert.deepEqual(after.padding?.[0], one.records[0]);
        const many = await store.verificationCandidates(
          'birth',
          { date: '2009-10-10', surname: 'values', forenames: 'vera' },
          10,
          2,
        );
        assert.equal(many.records.length, 2);
        assert.deepEqual(many.padding, [], 'no padding once enough are found');
      },
    );

    await t.test('a changed record replaces its search keys', async () => {
      await store.upsert('birth', [birth(10001, 'Olive', 'Oldname', '2010-10-10')]);
      const find = (surname: string, forenames: string, date = '2010-10-10') =>
        store.search('birth', { date, surname, forenames }, 10).then(idsOf);
      assert.deepEqual(await find('oldname', 'olive'), [10001]);
      assert.deepEqual(await store.upsert('birth', [birth(10001, 'Olivia', 'Newname', '2010-10-11')]), {
        inserted: 0,
        updated: 1,
        unchanged: 0,
      });
      assert.deepEqual(await find('oldname', 'olive'), []);
      assert.deepEqual(await find('newname', 'olive'), []);
      assert.deepEqual(await find('newname', 'olivia'), []);
      assert.deepEqual(await find('newname', 'olivia', '2010-10-11'), [10001]);
      assert.equal(
        ((await store.lookup('birth', '10001')) as { child: { forenames: string } }).child.forenames,
        'Olivia',
      );
      // A change that keeps the names keeps the record findable.
      await store.upsert('birth', [birth(10001, 'Olivia', 'Newname', '2010-10-11', { entryNumber: 3 })]);
      assert.deepEqual(await find('newname', 'olivia', '2010-10-11'), [10001]);
    });

    await t.test('a write whose batches fail part way leaves nothing behind', async () => {
      const toWrite = (record: StoredRecord): RecordToWrite => ({
        id: record.id,
        json: JSON.stringify(record.data),
        keys: record.keys,
      });
      const before = birth(11001, 'Tom', 'Atomic', '2011-11-11');
      await store.upsert('birth', [before]);
      const failing = async function* () {
        yield [birth(11001, 'Tom', 'Changed', '2011-11-11'), birth(11002, 'Tim', 'Atomic', '2011-11-11')].map(toWrite);
        throw new Error('the file broke off');
      };
      await assert.rejects(store.writer.write('birth', failing()), /the file broke off/);
      assert.deepEqual(await store.lookup('birth', '11001'), before.data);
      assert.equal(await store.lookup('birth', '11002'), undefined);
      assert.deepEqual(
        idsOf(await store.search('birth', { date: '2011-11-11', surname: 'atomic', forenames: 'tim' }, 10)),
        [],
      );
      assert.deepEqual(
        idsOf(await store.search('birth', { date: '2011-11-11', surname: 'changed', forenames: 'tom' }, 10)),
        [],
      );
      assert.deepEqual(
        idsOf(await store.search('birth', { date: '2011-11-11', surname: 'atomic', forenames: 'tom' }, 10)),
        [11001],
      );

      // And the store still works afterwards.
      assert.deepEqual(await store.upsert('birth', [birth(11002, 'Tim', 'Atomic', '2011-11-11')]), {
        inserted: 1,
        updated: 0,
        unchanged: 0,
      });
      assert.deepEqual(
        idsOf(await store.search('birth', { date: '2011-11-11', surname: 'atomic', forenames: 'tim' }, 10)),
        [11002],
      );
    });

    await t.test('a write into a type with no records yet is all or nothing too', async () => {
      const record = (id: number): RecordToWrite => ({
        id,
        json: JSON.stringify({ id }),
        keys: [{ date: '2014-01-01', surname: 'first', forenames: 'ever' }],
      });
      const failing = async function* () {
        yield [record(14001), record(14002)];
        throw new Error('the file broke off');
      };
      await assert.rejects(store.writer.write('partnership', failing()), /the file broke off/);
      assert.equal(await store.lookup('partnership', '14001'), undefined);
      assert.deepEqual(
        idsOf(await store.search('partnership', { date: '2014-01-01', surname: 'first', forenames: 'ever' }, 10)),
        [],
      );
      const written = await store.writer.write(
        'partnership',
        (async function* () {
          yield [record(14001)];
          yield [record(14002)];
        })(),
      );
      assert.deepEqual(written, { inserted: 2, updated: 0, unchanged: 0 });
      assert.deepEqual(
        idsOf(await store.search('partnership', { date: '2014-01-01', surname: 'first', forenames: 'ever' }, 10)),
        [14001, 14002],
      );
    });

    await t.test('an id that is not a whole number, or is beyond any stored, finds nothing', async () => {
      await store.upsert('birth', [birth(12001, 'Zed', 'Zero', '2012-12-12')]);
      assert.equal(await store.lookupJson('birth', '00012001'), await store.lookupJson('birth', '12001'));
      assert.equal(await store.lookup('birth', '999999999999999999'), undefined);
    });

    await t.test('the text written is the text read, whatever it holds', async () => {
      const texts = [
        // Tabs and a carriage return as whitespace between tokens, as an NDJSON line may have them.
        '{"id":13001,\t"child":{"forenames":"Tab","surname":"Text"},\r"status":{"blocked":false}}',
        // Backslashes, escaped quotes and control characters, \u escapes and characters beyond the BMP.
        String.raw`{"id":13002,"child":{"forenames":"Back\\slash \"quoted\" \n\t",` +
          String.raw`"surname":"Zo\u00eb 😀 \\N"},"status":{"blocked":false}}`,
        JSON.stringify({
          id: 13003,
          child: { forenames: 'Ünïcödé ßøæ', surname: "O'Brien\\" },
          status: { blocked: false },
        }),
      ];
      const toWrite = texts.map((json) => ({
        id: (JSON.parse(json) as { id: number }).id,
        json,
        keys: [{ date: '2013-01-01', surname: 'text', forenames: 'tab' }],
      }));
      assert.deepEqual(
        await store.writer.write(
          'birth',
          (async function* () {
            yield toWrite;
          })(),
        ),
        { inserted: 3, updated: 0, unchanged: 0 },
      );
      for (const { id, json } of toWrite) assert.equal(await store.lookupJson('birth', String(id)), json);
      assert.deepEqual(
        idsOf(await store.search('birth', { date: '2013-01-01', surname: 'text', forenames: 'tab' }, 10)),
        [13001, 13002, 13003],
      );
      // Written again as compact JSON: the same content, so unchanged, and the first text is kept.
      const compact = toWrite.map((record) => ({ ...record, json: JSON.stringify(JSON.parse(record.json)) }));
      assert.deepEqual(
        await store.writer.write(
          'birth',
          (async function* () {
            yield compact;
          })(),
        ),
        { inserted: 0, updated: 0, unchanged: 3 },
      );
      assert.equal(await store.lookupJson('birth', '13001'), texts[0]);
    });

    await t.test('lookups asked together are each answered with their own record, or none', async () => {
      const batch = [
        birth(1201, 'Una', 'Together', '2001-01-01'),
        birth(1202, 'Vic', 'Together', '2001-01-01'),
        birth(1203, 'Wyn', 'Together', '2001-01-01'),
      ];
      await store.upsert('birth', batch);
      const ids = ['1203', '1201', '999999999', '1202', '1201'];
      const found = await Promise.all(ids.map((id) => store.lookupJson('birth', id)));
      assert.deepEqual(
        found.map((json) => (json === undefined ? undefined : (JSON.parse(json) as { id: number }).id)),
        [1203, 1201, undefined, 1202, 1201],
      );
      // Another type's lookups in the same turn are another statement's, and find nothing of the births.
      const [death, again] = await Promise.all([store.lookupJson('death', '1201'), store.lookupJson('birth', '1202')]);
      assert.equal(death, undefined);
      assert.equal((JSON.parse(again as string) as { id: number }).id, 1202);
    });

    await t.test('ready answers', async () => {
      await store.records.ready();
      assert.equal(store.kind, kind);
    });
  });
}

/** A driver that remembers every query it is given, so the store's own SQL can be EXPLAINed. */
function recording(driver: SqlDriver) {
  const seen: { sql: string; params: readonly unknown[] }[] = [];
  const spy: SqlDriver = {
    query: (sql, params = []) => {
      seen.push({ sql, params });
      return driver.query(sql, params);
    },
    exec: (sql) => driver.exec(sql),
    transaction: (work) => driver.transaction(work),
    close: async () => {},
  };
  return { spy, seen };
}

test("postgres: the lookups of one turn are read by one statement a type, and its failure is each one's", async (t) => {
  if (!(await storeKinds()).includes('postgres')) {
    t.skip('no PostgreSQL server answers');
    return;
  }
  const store = await emptyStore(t, 'postgres');
  if (store.kind !== 'postgres') throw new Error('a PostgreSQL store');
  await store.upsert('birth', [birth(1301, 'Ann', 'Turn', '2001-01-01'), birth(1302, 'Ben', 'Turn', '2001-01-01')]);
  const { spy, seen } = recording(store.driver);
  const reader = createPostgresRecords(spy, records).reader;
  const found = await Promise.all([
    reader.lookupJson('birth', '1301'),
    reader.lookupJson('birth', '1302'),
    reader.lookupJson('birth', '1303'),
    reader.lookupJson('death', '1301'),
  ]);
  assert.deepEqual(
    found.map((json) => json && (JSON.parse(json) as { id: number }).id),
    [1301, 1302, undefined, undefined],
  );
  assert.equal(seen.length, 2, 'one statement for the births, one for the deaths');
  assert.deepEqual(
    seen.map(({ params }) => params[0]),
    [['1301', '1302', '1303'], ['1301']],
  );
  // Read alone, each in the next turn: a statement each.
  assert.equal(JSON.parse((await reader.lookupJson('birth', '1301')) as string).id, 1301);
  assert.equal(seen.length, 3);
  // A batch that fails fails every lookup in it, and only those.
  const failing: SqlDriver = {
    ...spy,
    query: (sql, params) =>
      sql.includes('birth_') ? Promise.reject(new Error('connection lost')) : spy.query(sql, params),
  };
  const broken = createPostgresRecords(failing, records).reader;
  const outcomes = await Promise.allSettled([
    broken.lookupJson('birth', '1301'),
    broken.lookupJson('birth', '1302'),
    broken.lookupJson('death', '1301'),
  ]);
  assert.deepEqual(
    outcomes.map((o) => o.status),
    ['rejected', 'rejected', 'fulfilled'],
  );
});

test("postgres: every type's search uses its search-key primary key, not a sequential scan", async (t) => {
  if (!(await storeKinds()).includes('postgres')) {
    t.skip('no PostgreSQL server answers');
    return;
  }
  const store = await emptyStore(t, 'postgres');
  if (store.kind !== 'postgres') throw new Error('a PostgreSQL store');
  const { driver } = store;
  const surnames = [
    'smith',
    'jones',
    'taylor',
    'brown',
    'williams',
    'wilson',
    'johnson',
    'davies',
    'robinson',
    'wright',
    'thompson',
    'evans',
  ];
  const forenames = ['anne', 'anne marie', 'annette', 'john', 'john paul', 'mary', 'oliver', 'amelia', 'harry', 'isla'];
  // Every type is searched by the same statement on its own key table; each must use its index.
  for (const { name: type } of records) {
    const batch: StoredRecord[] = [];
    for (let id = 1; id <= 4000; id++) {
      const day = new Date(Date.UTC(1990, 0, 1) + (id % 365) * 86_400_000).toISOString().slice(0, 10);
      const key = {
        date: day,
        surname: surnames[id % surnames.length],
        forenames: forenames[(id * 7) % forenames.length],
      };
      // Deaths have two keys (date of birth and of death); mimic that for half of them.
      const keys = id % 2 ? [key] : [key, { ...key, date: `20${String(10 + (id % 10)).padStart(2, '0')}-06-15` }];
      batch.push({ id, data: { id }, keys });
    }
    assert.deepEqual(await store.upsert(type, batch), { inserted: 4000, updated: 0, unchanged: 0 });
    const tables = tableNames(type);
    await driver.exec(`ANALYZE ${tables.records}; ANALYZE ${tables.keys}`);
    const [{ count }] = await driver.query<{ count: string }>(`SELECT count(*)::text AS count FROM ${tables.keys}`);
    assert.equal(count, '6000');

    const { spy, seen } = recording(driver);
    const probe = createPostgresRecords(spy, records).reader;
    for (const key of [
      { date: '1990-01-02', surname: 'jones', forenames: 'anne' },
      { date: '2012-06-15', surname: 'smith', forenames: 'john paul' },
      { date: '1999-01-01', surname: 'nobody', forenames: 'x' },
    ]) {
      seen.length = 0;
      const found = await probe.search(type, key, 25);
      assert.ok(Array.isArray(found.records));
      assert.equal(seen.length, 1, 'search is one query');
      const plan = (await driver.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${seen[0].sql}`, seen[0].params))
        .map((row) => row['QUERY PLAN'])
        .join('\n');
      const usesIndex = new RegExp(
        `(Index Scan|Index Only Scan) using ${tables.keys}_pkey on ${tables.keys}|Bitmap Index Scan ` +
          `on ${tables.keys}_pkey`,
      );
      assert.match(plan, usesIndex, plan);
      // The whole key is used by the index: the date, the surname and the forenames range.
      assert.match(
        plan,
        /Index Cond: \(\(date = .*\) AND \(surname = .*\) AND \(forenames >= .*\) AND \(forenames < .*\)\)/,
        plan,
      );
      assert.doesNotMatch(plan, new RegExp(`Seq Scan on ${tables.keys}\\b`), plan);
    }
  }
});
