/**
 * The embedded store's in-memory reads answer exactly as its SQL does: the
 * same JSON text, the same matches in the same order, the same truncation,
 * and the same errors for what SQL refuses.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GENERATED_TYPES, generateRecords, searchSample } from '../../src/generate/records.ts';
import { normaliseName } from '../../src/records/normalise.ts';
import { records } from '../../src/records/index.ts';
import type { SearchKey } from '../../src/records/search-keys.ts';
import { loadInto, recordTypes } from '../../src/store/open-store.ts';
import type { StoredRecord } from '../../src/store/record-store.ts';
import { snapshotStore } from '../../src/store/snapshot.ts';
import { emptyStore } from '../helper.ts';

const types = new Map(recordTypes().map((type) => [type.description.name, type]));
const COUNTS = { birth: 3000, death: 800, marriage: 800, partnership: 800 } as const;
const SEED = 'snapshot';

function stored(type: string, data: unknown): StoredRecord {
  const result = types.get(type)!.toStored(data);
  if ('reason' in result) throw new Error(`test record: ${result.reason}`);
  return result;
}

/** Births sharing one date and surname, in an order that is not id order, so that order and truncation show. */
const crowd = [9_000_012, 9_000_003, 9_000_100, 9_000_001, 9_000_050, 9_000_007].map((id, i) =>
  stored('birth', {
    id,
    child: { forenames: ['Anne', 'Anne Marie', 'Annette', 'Anne-Louise', 'Marie Anne', 'Ann'][i], surname: 'Crowd', dateOfBirth: '2004-04-04' },
    status: { blocked: false },
  }),
);

test('the in-memory reads of the embedded store equal its SQL reads', async (t) => {
  const sql = await emptyStore(t, 'embedded');
  const dataset = new Map<string, StoredRecord[]>();
  for (const type of GENERATED_TYPES) {
    dataset.set(type, [...generateRecords(type, { count: COUNTS[type], seed: SEED })].map((record) => stored(type, record)));
  }
  dataset.get('birth')!.push(...crowd);
  await loadInto(sql, dataset);
  const memory = await snapshotStore(sql, records.map((description) => description.name));

  for (const type of GENERATED_TYPES) {
    const ids = dataset.get(type)!.map((record) => String(record.id));
    for (const id of [...ids.slice(0, 50), ...ids.slice(-50), '1', '0', '999999999999999999', `000${ids[7]}`]) {
      assert.equal(await memory.lookupJson(type, id), await sql.lookupJson(type, id), `${type} ${id}`);
    }
    assert.deepEqual(await memory.lookup(type, ids[3]), await sql.lookup(type, ids[3]));

    const keys: SearchKey[] = searchSample(type, { count: COUNTS[type], seed: SEED }, 400).map(({ query }) => ({
      date: Object.entries(query).find(([name]) => name !== 'surname' && name !== 'forenames')![1],
      surname: normaliseName(query.surname),
      forenames: normaliseName(query.forenames),
    }));
    let found = 0;
    for (const key of keys) {
      for (const limit of [1, 25]) {
        const expected = await sql.searchJson(type, key, limit);
        assert.deepEqual(await memory.searchJson(type, key, limit), expected, `${type} ${JSON.stringify(key)} limit ${limit}`);
        found += expected.records.length;
      }
    }
    assert.ok(found > keys.length / 2, `${type}: the sample finds records (${found})`);
  }

  // Word prefixes, order by id and truncation, on the crowd.
  for (const forenames of ['anne', 'anne marie', 'anne louise', 'ann', 'annette', 'marie', 'anne m', 'a', 'zed']) {
    for (const limit of [0, 1, 2, 3, 25]) {
      const key = { date: '2004-04-04', surname: 'crowd', forenames };
      assert.deepEqual(await memory.searchJson('birth', key, limit), await sql.searchJson('birth', key, limit), `${forenames} limit ${limit}`);
    }
  }
  // Anne, Anne Marie and Anne-Louise; the first two by id.
  const anne = await memory.search('birth', { date: '2004-04-04', surname: 'crowd', forenames: 'anne' }, 2);
  assert.deepEqual(
    anne.records.map((record) => (record as { id: number }).id),
    [9_000_001, 9_000_003],
  );
  assert.equal(anne.truncated, true);

  // What SQL refuses, the copy refuses too; what it reads otherwise, it leaves to SQL.
  await assert.rejects(memory.lookupJson('birth', 'abc'), /bigint/);
  await assert.rejects(memory.lookupJson('divorce', '1'), /unknown record type divorce/);
  await assert.rejects(memory.searchJson('birth', { date: '2004-02-30', surname: 'crowd', forenames: 'anne' }, 5), /date/);
  await assert.rejects(memory.searchJson('divorce', { date: '2004-04-04', surname: 'crowd', forenames: 'anne' }, 5), /unknown record type/);
  // Records cannot change under the copy.
  await assert.rejects(memory.upsert('birth', [crowd[0]]), /refuses to change them/);
  await memory.ping();
});

test('the embedded store the service opens reads from memory and keeps its records fixed', async () => {
  const { loadConfig } = await import('../../src/config.ts');
  const { openStore } = await import('../../src/store/open-store.ts');
  const store = await openStore(loadConfig({ AUTH_MODE: 'mock', LOG_LEVEL: 'silent' }));
  try {
    assert.equal(store.driver.kind, 'embedded');
    assert.equal((JSON.parse((await store.lookupJson('birth', '123456789'))!) as { id: number }).id, 123456789);
    await assert.rejects(store.upsert('birth', [crowd[0]]), /refuses to change them/);
    // In memory, a write-ahead log guards nothing: every table of the schema is unlogged.
    const tables = await store.driver.query<{ name: string; persistence: string }>(
      `SELECT relname AS name, relpersistence AS persistence FROM pg_class
        WHERE relkind = 'r' AND relnamespace = 'public'::regnamespace ORDER BY relname`,
    );
    assert.ok(tables.some((table) => table.name === 'audit_log') && tables.some((table) => table.name === 'birth_search_key'));
    assert.deepEqual(tables.filter((table) => table.persistence !== 'u'), []);
  } finally {
    await store.close();
  }
});
