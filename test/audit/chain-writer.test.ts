/**
 * A batch whose COMMIT was lost with its connection may be in or not: the writer looks, so that
 * its requests are answered by what happened (data only with the entry in, 503 only without it).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AuditEntry } from '../../src/types/audit.ts';
import { createChainWriter } from '../../src/audit/chain-writer.ts';
import { verifyAuditChain } from '../../src/audit/verify.ts';
import { CommitOutcomeUnknown, type SqlDriver } from '../../src/store/driver.ts';
import { emptyStore, postgresAvailable } from '../helper.ts';

const entry = (i: number): AuditEntry => ({
  username: 'u',
  client: 'c',
  groups: [],
  dataset: 'birth',
  operation: 'lookup',
  path: `/v1/registration/birth/${i}`,
  query: '',
  results: 1,
  requestId: `r-${i}`,
});
const batch = (from: number) => [0, 1, 2].map((i) => entry(from + i));

/** The driver as the PostgreSQL one behaves when its next COMMIT is lost: applied (or not, `applied: false`), then reported unknown. */
function losingNextCommit(real: SqlDriver, applied: boolean): SqlDriver & { lose(): void } {
  let lose = false;
  return {
    query: (sql, params, options) => real.query(sql, params, options),
    exec: (sql) => real.exec(sql),
    close: () => real.close(),
    async transaction(work, options) {
      if (!lose) return real.transaction(work, options);
      lose = false;
      if (applied) await real.transaction(work, options);
      else {
        const rolledBack = new Error('rolled back');
        await real
          .transaction(async (tx) => {
            await work(tx);
            throw rolledBack;
          }, options)
          .catch(() => {});
      }
      throw new CommitOutcomeUnknown(new Error('Connection terminated unexpectedly'));
    },
    lose: () => (lose = true),
  };
}

const skip = !(await postgresAvailable()) && 'no PostgreSQL server';
const pgStore = async (t: Parameters<typeof emptyStore>[0]) => {
  const store = await emptyStore(t, 'postgres');
  if (store.kind !== 'postgres') throw new Error('a PostgreSQL store');
  return store;
};

test(`a lost COMMIT that was applied counts as written, and the chain goes on from it`, { skip }, async (t) => {
  const store = await pgStore(t);
  const driver = losingNextCommit(store.driver, true);
  const write = createChainWriter(driver);
  await write(batch(0));
  driver.lose();
  await write(batch(3));
  await write(batch(6));
  assert.deepEqual(await verifyAuditChain(store.driver), { ok: true, entries: 9 });
});

test(`a lost COMMIT that was not applied fails the batch, and the next one goes in`, { skip }, async (t) => {
  const store = await pgStore(t);
  const driver = losingNextCommit(store.driver, false);
  const write = createChainWriter(driver);
  await write(batch(0));
  driver.lose();
  await assert.rejects(write(batch(3)), CommitOutcomeUnknown);
  await write(batch(6));
  assert.deepEqual(await verifyAuditChain(store.driver), { ok: true, entries: 6 });
  const ids = await store.driver.query<{ request_id: string }>('SELECT request_id FROM audit_log ORDER BY id');
  assert.deepEqual(
    ids.map((row) => row.request_id),
    ['r-0', 'r-1', 'r-2', 'r-6', 'r-7', 'r-8'],
  );
});
