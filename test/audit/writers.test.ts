/**
 * Several writers on one PostgreSQL database (as several processes are), each extending a chain of
 * its own without waiting for the others: every chain stays whole, and every entry is written
 * exactly once.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AuditEntry } from '../../src/model/audit.ts';
import { postgresAuditTrail } from '../../src/audit/trail.ts';
import { auditEntries, verifyAuditChain } from '../../src/audit/verify.ts';
import { openPostgres } from '../../src/store/pg-driver.ts';
import { TEST_DATABASE_URL, emptyStore, postgresAvailable } from '../helper.ts';

const entry = (writer: number, i: number): AuditEntry => ({
  username: `writer-${writer}`,
  client: 'c',
  groups: i % 3 ? [] : ['/g 1', 'g,2', 'g"3'],
  dataset: 'birth',
  operation: i % 2 ? 'lookup' : 'search',
  path: `/v1/registration/birth/${i}`,
  query: i % 2 ? '' : `surname=a'b&forenames=${i}`,
  results: i % 4,
  requestId: `${writer}-${i}`,
});

test('three writers interleaving keep their chains intact', {
  skip: !(await postgresAvailable()) && 'no PostgreSQL server',
}, async (t) => {
  const store = await emptyStore(t, 'postgres');
  if (store.kind !== 'postgres') throw new Error('a PostgreSQL store');
  // Each writer has a pool of its own, as a process would.
  const drivers = await Promise.all(
    [0, 1, 2].map(async () => {
      const [{ schema }] = await store.driver.query<{ schema: string }>('SELECT current_schema() AS schema');
      const driver = openPostgres({ url: TEST_DATABASE_URL, schema, poolSize: 2, statementTimeoutMs: 10_000 });
      t.after(() => driver.close());
      return driver;
    }),
  );
  const trails = drivers.map((driver) => postgresAuditTrail(driver, { maxBatch: 7 }));
  for (let round = 0; round < 5; round++) {
    await Promise.all(
      trails.flatMap((trail, writer) =>
        Array.from({ length: 20 }, (_, i) => trail.record(entry(writer, round * 100 + i))),
      ),
    );
  }
  assert.deepEqual(await verifyAuditChain(store.driver), { ok: true, entries: 300, writers: 3, checkpoints: 0 });
  const written = [];
  for await (const stored of auditEntries(store.driver)) written.push(stored);
  assert.deepEqual(new Set(written.map((e) => e.requestId)).size, 300);
  const sample = written.find((e) => e.requestId === '1-3')!;
  const { at, hash, id, writer, seq, ...content } = sample;
  assert.deepEqual(content, entry(1, 3));
});
