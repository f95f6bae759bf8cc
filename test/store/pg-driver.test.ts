/**
 * How the PostgreSQL driver's transactions end when the COMMIT fails: refused by the server
 * (known: nothing applied, connection good) or lost with the connection (not known: said so).
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import { CommitOutcomeUnknown } from '../../src/store/driver.ts';
import { openPostgres } from '../../src/store/pg-driver.ts';
import { TEST_DATABASE_URL, emptySchema, postgresAvailable } from '../helper.ts';

const skip = !(await postgresAvailable()) && 'no PostgreSQL server at TEST_DATABASE_URL';

async function driverIn(t: Parameters<typeof emptySchema>[0]) {
  let driver: ReturnType<typeof openPostgres> | undefined;
  const { schema, admin } = await emptySchema(t, () => driver?.close());
  driver = openPostgres({
    url: TEST_DATABASE_URL,
    schema,
    applicationName: schema,
    poolSize: 1,
    statementTimeoutMs: 10_000,
  });
  await driver.exec('CREATE TABLE t (n integer UNIQUE DEFERRABLE INITIALLY DEFERRED)');
  return { driver, admin };
}

test('a connection killed before its COMMIT: the transaction rejects as of unknown outcome, and the pool goes on', {
  skip,
}, async (t) => {
  const { driver, admin } = await driverIn(t);
  const outcome = driver.transaction(async (tx) => {
    await tx.query('INSERT INTO t VALUES (1)');
    const [{ pid }] = await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    await admin.query('SELECT pg_terminate_backend($1)', [pid]);
    // The server's FATAL reaches the checked-out client between statements: heard, not fatal to this process.
    await sleep(200);
  });
  await assert.rejects(outcome, (error) => error instanceof CommitOutcomeUnknown);
  // The dead connection was not pooled again: the pool's one connection is a new one.
  assert.deepEqual(await driver.query('SELECT count(*)::int AS n FROM t'), [{ n: 0 }]);
});

test('a COMMIT the server refuses rejects with its error: known not applied, and the connection is kept', {
  skip,
}, async (t) => {
  const { driver } = await driverIn(t);
  const [{ pid: before }] = await driver.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  const outcome = driver.transaction(async (tx) => {
    await tx.query('INSERT INTO t VALUES (1), (1)');
  });
  await assert.rejects(
    outcome,
    (error: { code?: string }) => !(error instanceof CommitOutcomeUnknown) && error.code === '23505',
  );
  assert.deepEqual(await driver.query('SELECT count(*)::int AS n FROM t'), [{ n: 0 }]);
  const [{ pid: after }] = await driver.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  assert.equal(after, before);
});
