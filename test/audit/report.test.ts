/**
 * The audit report on both backends, over entries written at chosen instants, as the chain writes them.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createChainWriter } from '../../src/audit/chain-writer.ts';
import { postgresBackend } from '../../src/backend/postgres.ts';
import { records } from '../../src/records/index.ts';
import { openPostgres } from '../../src/store/pg-driver.ts';
import type { AuditEntry } from '../../src/types/audit.ts';
import { TEST_DATABASE_URL, type TestStore, emptyStore, storeKinds } from '../helper.ts';

const entry = (username: string, n: number, more: Partial<AuditEntry> = {}): AuditEntry => ({
  username,
  client: 'tests',
  groups: ['/g'],
  dataset: 'birth',
  operation: 'search',
  path: '/v1/registration/birth',
  query: `surname=S${n}&forenames=F&dateOfBirth=2008-08-08`,
  results: n % 3,
  requestId: `req-${username}-${n}`,
  ...more,
});

/** Writes a batch stamped `at`, as each backend's trail does. */
function writerOf(store: TestStore): (entries: readonly AuditEntry[], at: string) => Promise<void> {
  if (store.kind === 'memory') return (entries, at) => store.trail.append(entries, at);
  const write = createChainWriter(store.driver);
  return (entries, at) => write(entries, at);
}

/** Around the day of 2026-11-24 (UTC): its first and last milliseconds, and those either side. */
async function seeded(store: TestStore) {
  const write = writerOf(store);
  await write([entry('ann', 1)], '2026-11-23T23:59:59.999Z');
  await write([entry('ann', 2)], '2026-11-24T00:00:00.000Z');
  await write([entry('ann', 6)], '2026-11-24T23:59:59.999Z');
  await write([entry('ann', 7)], '2026-11-25T00:00:00.000Z');
}

const DAY = { from: '2026-11-24', to: '2026-11-24' } as const;

for (const kind of await storeKinds()) {
  describe(`audit report readings on the ${kind} store`, () => {
    test('a day is its UTC day, both bounds inclusive', async (t) => {
      const store = await emptyStore(t, kind);
      await seeded(store);
      assert.deepEqual(await store.report.userActivity(DAY), { ann: { '2026-11-24': 2 } });
      assert.deepEqual(await store.report.userActivity({ from: '2026-11-23', to: '2026-11-25' }), { ann: { '2026-11-23': 1, '2026-11-24': 2, '2026-11-25': 1 } });
    });

    test('days are UTC days whatever the database session\'s time zone', { skip: kind === 'postgres' ? false : 'a PostgreSQL session setting' }, async (t) => {
      const store = await emptyStore(t, kind);
      if (store.kind !== 'postgres') return;
      await seeded(store);
      // The same schema, through connections whose TimeZone is 14 hours ahead of UTC.
      const [{ schema }] = await store.driver.query<{ schema: string }>('SELECT current_schema() AS schema');
      const driver = openPostgres({ url: TEST_DATABASE_URL, schema, poolSize: 1, statementTimeoutMs: 10_000, settings: { TimeZone: 'Pacific/Kiritimati' } });
      t.after(() => driver.close());
      const ahead = postgresBackend(driver, records).report;
      assert.deepEqual(await ahead.userActivity(DAY), { ann: { '2026-11-24': 2 } });
    });
  });
}
