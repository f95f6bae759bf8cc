/**
 * `lev-api migrate` is not bound by the requests' statement timeout: the migrations and the
 * close-match keys' backfill after them take as long as the register makes them.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TEST_DATABASE_URL, emptySchema, postgresAvailable } from '../helper.ts';
import { runCli } from '../run-cli.ts';

test('migrate waits out a backfill batch longer than STATEMENT_TIMEOUT_MS', {
  skip: !(await postgresAvailable()) && 'no PostgreSQL server',
}, async (t) => {
  const { schema, admin } = await emptySchema(t);
  const env = { DATABASE_URL: TEST_DATABASE_URL, DATABASE_SCHEMA: schema, STATEMENT_TIMEOUT_MS: '100' };
  assert.equal((await runCli(t, ['migrate'], env)).code, 0);
  await admin.query(`UPDATE ${schema}.suggestion_key_backfill SET after_id = -1, done = false`);
  // A backfill batch locks the records it reads: held here for longer than the timeout, as a
  // batch of a register of millions takes longer than a request may.
  await admin.query('BEGIN');
  await admin.query(`LOCK TABLE ${schema}.birth_registration IN EXCLUSIVE MODE`);
  const migrating = runCli(t, ['migrate'], env);
  await new Promise((resolve) => setTimeout(resolve, 500));
  await admin.query('COMMIT');
  const { code, stderr } = await migrating;
  assert.equal(code, 0, stderr);
  const { rows } = await admin.query(`SELECT bool_and(done) AS done FROM ${schema}.suggestion_key_backfill`);
  assert.deepEqual(rows, [{ done: true }]);
});
