import assert from 'node:assert/strict';
import { test } from 'node:test';
import pg from 'pg';
import { loadConfig } from '../../src/config/index.ts';
import { pendingMigrations, loadMigrations } from '../../src/store/migrations.ts';
import { openBackend } from '../../src/backend/open.ts';
import { TEST_DATABASE_URL, type TestStore, emptySchema, filledStore, postgresAvailable, startApp } from '../helper.ts';
import { builtInServiceTypes } from '../record-types.ts';

const migrations = await loadMigrations();

const skip = !(await postgresAvailable()) && 'no PostgreSQL server';

const postgres = (store: TestStore) => {
  if (store.kind !== 'postgres') throw new Error('a PostgreSQL store');
  return store;
};

test('connections killed by the server give 503, then the service recovers by itself', { skip }, async (t) => {
  const store = postgres(await filledStore(t, 'postgres'));
  const app = await startApp(t, store);
  assert.equal((await app.get('/v1/registration/birth/123456789')).status, 200);
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  t.after(() => admin.end());
  const [{ name: own }] = await store.driver.query<{ name: string }>(
    "SELECT current_setting('application_name') AS name",
  );
  const statuses: number[] = [];
  for (let round = 0; round < 3; round++) {
    const killed = await admin.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1 AND pid <> ` +
        `pg_backend_pid() AND datname = current_database()`,
      [own],
    );
    assert.ok(killed.rowCount && killed.rowCount > 0, 'the server killed at least one of our connections');
    for (let i = 0; i < 5; i++) {
      const response = await app.get('/v1/registration/birth/123456789');
      statuses.push(response.status);
      if (response.status !== 200) assert.equal(response.body.code, 'ServiceUnavailable');
    }
  }
  assert.ok(
    statuses.every((s) => s === 200 || s === 503),
    `only 200 or 503, got ${statuses}`,
  );
  assert.equal(statuses.at(-1), 200, 'recovered without a restart');
  assert.equal((await app.get('/readiness')).status, 200);
});

test('readiness is 503 while the database is unreachable', { skip }, async (t) => {
  const store = postgres(await filledStore(t, 'postgres'));
  const app = await startApp(t, store);
  assert.equal((await app.get('/readiness')).status, 200);
  await store.driver.close();
  const response = await app.get('/readiness');
  assert.equal(response.status, 503);
  assert.equal(response.body.code, 'ServiceUnavailable');
  assert.equal((await app.get('/v1/registration/birth/123456789')).status, 503);
});

test('serve refuses a database whose schema is behind and names the fix', { skip }, async (t) => {
  const { schema, admin } = await emptySchema(t);
  const config = loadConfig({ DATABASE_URL: TEST_DATABASE_URL, DATABASE_SCHEMA: schema, AUTH_MODE: 'mock' });
  await assert.rejects(openBackend(config, builtInServiceTypes), /schema is behind.*lev-api migrate/s);
  await admin.query(`SET search_path = ${schema}`);
  assert.equal(
    (await pendingMigrations({ query: async (sql, params) => (await admin.query(sql, params as unknown[])).rows }))
      .length,
    migrations.length,
  );
});
