/**
 * A load into a type's empty tables on PostgreSQL leaves the planner the key tables' figures and
 * their pages visible to all, so that the first close match after it is read through the indexes
 * (not a scan of every close-match key), without waiting for autovacuum.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TEST_DATABASE_URL, emptyStore, recordTypes, storeKinds } from '../helper.ts';
import pg from 'pg';

const birthType = recordTypes().find((type) => type.description.name === 'birth')!;

function births(count: number) {
  return Array.from({ length: count }, (_, i) => {
    const result = birthType.toStored({
      id: 5000 + i,
      child: {
        forenames: `Name${i % 97}`,
        surname: `Surname${i % 89}`,
        dateOfBirth: `19${50 + (i % 50)}-0${1 + (i % 9)}-1${i % 10}`,
      },
      status: { blocked: false },
    });
    if ('reason' in result) throw new Error(result.reason);
    return result;
  });
}

test('a load into empty tables vacuums and analyses the tables of keys, read from their indexes alone, and ' +
  'the name counts', {
  skip: !(await storeKinds()).includes('postgres'),
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
