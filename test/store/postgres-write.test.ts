/**
 * A load into a type's empty tables on PostgreSQL leaves the planner the key tables' figures and
 * their pages visible to all, so that the first close match after it is read through the indexes
 * (not a scan of every close-match key), without waiting for autovacuum. A load into a register
 * that holds records writes the same keys and counts as one into empty tables, whether its records
 * are all new or not, and whether or not keys of its records were left behind; one whose batches
 * are written as they are read (new records) and staged (records held) alike writes what loading
 * each batch on its own writes.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TEST_DATABASE_URL, type TestStore, emptyStore, recordTypes, storeKinds } from '../helper.ts';
import pg from 'pg';

const birthType = recordTypes().find((type) => type.description.name === 'birth')!;

function births(count: number, renamed = -1) {
  return Array.from({ length: count }, (_, i) => {
    const result = birthType.toStored({
      id: 5000 + i,
      child: {
        forenames: i === renamed ? 'Renamed' : `Name${i % 97}`,
        surname: `Surname${i % 89}`,
        dateOfBirth: `19${50 + (i % 50)}-0${1 + (i % 9)}-1${i % 10}`,
      },
      status: { blocked: false },
    });
    if ('reason' in result) throw new Error(result.reason);
    return result;
  });
}

const skip = !(await storeKinds()).includes('postgres');

test('a load into empty tables vacuums and analyses the tables of keys, read from their indexes alone, and ' +
  'the name counts', {
  skip,
}, async (t) => {
  const store = await emptyStore(t, 'postgres');
  await store.upsert('birth', births(500));
  assert.equal(store.kind, 'postgres');
  const [{ schema }] = await store.driver.query<{ schema: string }>('SELECT current_schema() AS schema');
  // pg_stat_user_tables as another session sees it: the counters are the server's, not this connection's.
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  t.after(() => admin.end());
  const { rows } = await admin.query<{ relname: string; analysed: boolean; vacuumed: boolean }>(
    `SELECT relname, last_analyze IS NOT NULL AS analysed, last_vacuum IS NOT NULL AS vacuumed FROM pg_stat_user_tables
      WHERE schemaname = $1 AND relname IN ('birth_registration', 'birth_search_key', ` +
      `'birth_suggestion_key', 'birth_name_count') ORDER BY relname`,
    [schema],
  );
  assert.deepEqual(rows, [
    { relname: 'birth_name_count', analysed: true, vacuumed: false },
    { relname: 'birth_registration', analysed: false, vacuumed: false },
    { relname: 'birth_search_key', analysed: true, vacuumed: true },
    { relname: 'birth_suggestion_key', analysed: true, vacuumed: true },
  ]);
});

/** Every key and count of the births a store holds, in a form to compare. */
async function keysOf(store: TestStore) {
  if (store.kind !== 'postgres') throw new Error('a PostgreSQL store');
  const all = (sql: string) => store.driver.query<Record<string, unknown>>(sql);
  return {
    search: await all('SELECT date::text, surname, forenames, id::int FROM birth_search_key ORDER BY 1, 2, 3, 4'),
    suggestion: await all('SELECT key::text, id::int FROM birth_suggestion_key ORDER BY 1, 2'),
    counts: await all('SELECT part, name, count::int FROM birth_name_count ORDER BY 1, 2'),
  };
}

test('a load into a register holding records writes the keys and counts a load into empty tables writes: new ' +
  'records, changed ones, and records whose close-match keys were left behind', { skip }, async (t) => {
  const all = births(300);
  const whole = await emptyStore(t, 'postgres');
  await whole.upsert('birth', all);
  const expected = await keysOf(whole);

  const parts = await emptyStore(t, 'postgres');
  await parts.upsert('birth', all.slice(0, 100));
  // Every record new: no join to find them.
  assert.deepEqual(await parts.upsert('birth', all.slice(100, 200)), { inserted: 100, updated: 0, unchanged: 0 });
  // New and unchanged together.
  assert.deepEqual(await parts.upsert('birth', all.slice(150, 300)), { inserted: 100, updated: 0, unchanged: 50 });
  assert.deepEqual(await keysOf(parts), expected);

  // A changed record's keys follow it, in both stores alike.
  const renamed = births(300, 42);
  assert.deepEqual(await parts.upsert('birth', renamed.slice(40, 44)), { inserted: 0, updated: 1, unchanged: 3 });
  await whole.upsert('birth', renamed.slice(42, 43));
  assert.deepEqual(await keysOf(parts), await keysOf(whole));
  // A record removed outside the service leaves its close-match keys (they have no foreign key); loaded
  // again, its keys are there once.
  if (parts.kind !== 'postgres') throw new Error('a PostgreSQL store');
  await parts.driver.exec('DELETE FROM birth_registration WHERE id = 5007');
  const left = await parts.driver.query('SELECT 1 FROM birth_suggestion_key WHERE id = 5007');
  assert.ok(left.length > 0, 'its close-match keys left behind');
  assert.deepEqual(await parts.upsert('birth', all.slice(7, 8)), { inserted: 1, updated: 0, unchanged: 0 });
  const after = await keysOf(parts);
  const now = await keysOf(whole);
  assert.deepEqual([after.search, after.suggestion], [now.search, now.suggestion]);
});

test('one load whose batches are new, held already, and new again writes the keys, counts and events that ' +
  'loading its batches one at a time writes', { skip }, async (t) => {
  const all = births(300);
  const renamed = births(300, 170);
  const batches = [all.slice(99, 150), renamed.slice(150, 200), all.slice(200, 300)];
  // Records removed outside the service leave their close-match keys (and their counts): one loaded
  // again among new records (written as read), one among records held (staged and merged).
  const register = async () => {
    const store = await emptyStore(t, 'postgres');
    if (store.kind !== 'postgres') throw new Error('a PostgreSQL store');
    await store.upsert('birth', all.slice(0, 100));
    await store.upsert('birth', all.slice(150, 200));
    await store.driver.exec('DELETE FROM birth_registration WHERE id IN (5099, 5160)');
    return store;
  };
  const separate = await register();
  for (const batch of batches) await separate.upsert('birth', batch);
  const mixed = await register();
  const counts = await mixed.writer.write(
    'birth',
    (async function* () {
      for (const batch of batches)
        yield batch.map((record) => ({ id: record.id, json: JSON.stringify(record.data), keys: record.keys }));
    })(),
  );
  assert.deepEqual(counts, { inserted: 51 + 1 + 100, updated: 1, unchanged: 48 });
  assert.deepEqual(await keysOf(mixed), await keysOf(separate));
  // An event a record written, numbered in id order, the changed one with its reason.
  if (mixed.kind !== 'postgres') throw new Error('a PostgreSQL store');
  const events = await mixed.driver.query<{ id: string; reason: string | null }>(
    'SELECT record_id::text AS id, reason FROM feed_event WHERE position > 150 ORDER BY position',
  );
  const ids = events.map((event) => Number(event.id));
  assert.deepEqual(
    ids,
    [...new Set(ids)].sort((a, b) => a - b),
  );
  assert.equal(ids.length, 153);
  assert.ok(ids.includes(5099) && ids.includes(5160));
  assert.deepEqual(
    events.filter((event) => event.reason !== null).map((event) => Number(event.id)),
    [5170],
  );
});
