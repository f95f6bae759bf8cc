/**
 * A batch whose connection was lost under it may be in or not: the writer looks, so that its
 * requests are answered by what happened (data only with the entry in, 503 only without it), and
 * reads its chain's head again before the next batch.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AuditEntry } from '../../src/model/audit.ts';
import { createChainWriter } from '../../src/audit/chain-writer.ts';
import { verifyAuditChain } from '../../src/audit/verify.ts';
import type { SqlDriver } from '../../src/store/driver.ts';
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

/**
 * The driver as the PostgreSQL one behaves when the connection is lost under its next INSERT: the
 * statement applied (or not, `applied: false`), then the connection's failure reported.
 */
function losingNextInsert(real: SqlDriver, applied: boolean): SqlDriver & { lose(): void } {
  let lose = false;
  return {
    async query(sql, params, options) {
      if (!lose || !sql.includes('INSERT INTO audit_log')) return real.query(sql, params, options);
      lose = false;
      if (applied) await real.query(sql, params, options);
      // What pg gives when the server is gone: no severity, unlike an ERROR the server sent.
      throw new Error('Connection terminated unexpectedly');
    },
    exec: (sql) => real.exec(sql),
    close: () => real.close(),
    transaction: (work, options) => real.transaction(work, options),
    lose: () => (lose = true),
  };
}

const skip = !(await postgresAvailable()) && 'no PostgreSQL server';
const pgStore = async (t: Parameters<typeof emptyStore>[0]) => {
  const store = await emptyStore(t, 'postgres');
  if (store.kind !== 'postgres') throw new Error('a PostgreSQL store');
  return store;
};

test(`a batch whose connection was lost but which went in counts as written, and the chain goes on from it`, {
  skip,
}, async (t) => {
  const store = await pgStore(t);
  const driver = losingNextInsert(store.driver, true);
  const write = createChainWriter(driver);
  await write(batch(0));
  driver.lose();
  await write(batch(3));
  await write(batch(6));
  assert.deepEqual(await verifyAuditChain(store.driver), { ok: true, entries: 9, writers: 1, checkpoints: 0 });
});

test(`a batch whose connection was lost before it went in fails, and the next one goes in`, { skip }, async (t) => {
  const store = await pgStore(t);
  const driver = losingNextInsert(store.driver, false);
  const write = createChainWriter(driver);
  await write(batch(0));
  driver.lose();
  await assert.rejects(write(batch(3)), /Connection terminated/);
  await write(batch(6));
  assert.deepEqual(await verifyAuditChain(store.driver), { ok: true, entries: 6, writers: 1, checkpoints: 0 });
  const ids = await store.driver.query<{ request_id: string }>('SELECT request_id FROM audit_log ORDER BY id');
  assert.deepEqual(
    ids.map((row) => row.request_id),
    ['r-0', 'r-1', 'r-2', 'r-6', 'r-7', 'r-8'],
  );
});
