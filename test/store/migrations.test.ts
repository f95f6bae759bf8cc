import assert from 'node:assert/strict';
import { test } from 'node:test';
import { records } from '../../src/records/index.ts';
import { LATEST_VERSION, migrate, migrations, pendingMigrations, splitStatements } from '../../src/store/migrations.ts';
import { openPostgres } from '../../src/store/pg-driver.ts';
import { openEmbedded } from '../../src/store/pglite-driver.ts';
import { createRecordStore } from '../../src/store/record-store.ts';
import { TEST_DATABASE_URL, emptyStore, postgresAvailable, storeKinds, uniqueSchema, emptySchema } from '../helper.ts';
import pg from 'pg';

const skip = !(await postgresAvailable()) && 'no PostgreSQL server';

test('migrations apply from empty, once, and a re-run does nothing (embedded)', async () => {
  const driver = await openEmbedded();
  try {
    assert.equal((await pendingMigrations(driver)).length, migrations.length);
    assert.deepEqual((await migrate(driver)).map((m) => m.version), migrations.map((m) => m.version));
    assert.deepEqual(await migrate(driver), []);
    const rows = await driver.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
    assert.deepEqual(rows.map((r) => Number(r.version)), migrations.map((m) => m.version));
    assert.equal(LATEST_VERSION, migrations.at(-1)?.version);
  } finally {
    await driver.close();
  }
});

test('records stored as jsonb before version 3 read back the same after it (embedded)', async () => {
  const driver = await openEmbedded();
  try {
    // The schema as version 2 left it, holding a record.
    for (const migration of migrations.filter((m) => m.version <= 2)) {
      for (const statement of splitStatements(migration.sql)) await driver.query(statement);
    }
    await driver.query(`CREATE TABLE schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
    await driver.query(`INSERT INTO schema_migrations (version, name) VALUES (1, 'one'), (2, 'two')`);
    const data = { id: 7, child: { forenames: 'Zoë Ann', surname: "O'Brien" }, status: { blocked: false } };
    await driver.query(`INSERT INTO birth_registration (id, data, search_keys) VALUES (7, $1::jsonb, '[]')`, [JSON.stringify(data)]);

    assert.deepEqual((await migrate(driver)).map((m) => m.version), migrations.filter((m) => m.version >= 3).map((m) => m.version));
    const store = createRecordStore(driver, records);
    assert.deepEqual(await store.lookup('birth', '7'), data);
    const [{ type }] = await driver.query<{ type: string }>(`SELECT pg_typeof(data)::text AS type FROM birth_registration`);
    assert.equal(type, 'json');
  } finally {
    await driver.close();
  }
});

test('version 4 lets the audit trail record verifications, over entries already written (embedded)', async () => {
  const driver = await openEmbedded();
  try {
    for (const migration of migrations.filter((m) => m.version <= 3)) {
      for (const statement of splitStatements(migration.sql)) await driver.query(statement);
    }
    await driver.query(`CREATE TABLE schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
    await driver.query(`INSERT INTO schema_migrations (version, name) VALUES (1, 'one'), (2, 'two'), (3, 'three')`);
    const insert = (operation: string) =>
      driver.query(`INSERT INTO audit_log (username, client, groups, dataset, operation, path, query, results, request_id, hash) VALUES ('u', 'c', '{}', 'birth', $1, '/', '', 1, 'r', 'h')`, [operation]);
    await insert('lookup');
    await assert.rejects(insert('verify'), /check constraint/, 'refused before version 4');
    assert.deepEqual((await migrate(driver)).map((m) => m.version), [4]);
    await insert('verify');
    await assert.rejects(insert('update'), /check constraint/);
    const rows = await driver.query<{ operation: string }>('SELECT operation FROM audit_log ORDER BY id');
    assert.deepEqual(rows.map((r) => r.operation), ['lookup', 'verify']);
  } finally {
    await driver.close();
  }
});

test('two processes migrating at once apply each migration exactly once (postgres)', { skip }, async (t) => {
  const drivers: ReturnType<typeof openPostgres>[] = [];
  const { schema } = await emptySchema(t, () => Promise.all(drivers.map((d) => d.close())));
  const options = { url: TEST_DATABASE_URL, schema, poolSize: 2, statementTimeoutMs: 10_000 };
  const [a, b] = [openPostgres(options), openPostgres(options)];
  drivers.push(a, b);
  const [first, second] = await Promise.all([migrate(a), migrate(b)]);
  assert.equal(first.length + second.length, migrations.length);
  assert.deepEqual(await pendingMigrations(a), []);
});

test('function bodies stay whole when a migration is split into statements', () => {
  const parts = splitStatements('CREATE TABLE a (x int); CREATE FUNCTION f() RETURNS trigger AS $$ BEGIN; RETURN NULL; END $$ LANGUAGE plpgsql; SELECT 1');
  assert.equal(parts.length, 3);
  assert.match(parts[1], /BEGIN; RETURN NULL; END/);
});

for (const kind of await storeKinds()) {
  test(`lookups and searches go to the read replicas, writes to the primary (${kind})`, async (t) => {
    const primary = await emptyStore(t, kind);
    const replica = await emptyStore(t, kind);
    const record = (surname: string) => ({ id: 42, data: { id: 42, status: { blocked: false } }, keys: [{ date: '2001-01-01', surname, forenames: 'ann' }] });
    await primary.upsert('birth', [record('primary')]);
    await replica.upsert('birth', [record('replica')]);
    const store = createRecordStore(primary.driver, records, [replica.driver]);
    const key = (surname: string) => ({ date: '2001-01-01', surname, forenames: 'ann' });
    assert.equal((await store.search('birth', key('replica'), 5)).records.length, 1);
    assert.equal((await store.search('birth', key('primary'), 5)).records.length, 0);
    await store.upsert('birth', [{ ...record('written'), data: { id: 42, status: { blocked: true } } }]);
    assert.deepEqual(await primary.lookup('birth', '42'), { id: 42, status: { blocked: true } });
    assert.deepEqual(await store.lookup('birth', '42'), { id: 42, status: { blocked: false } });
  });
}

test('the service runs under a role with SELECT everywhere and INSERT on audit_log only (postgres)', { skip }, async (t) => {
  const schema = uniqueSchema();
  const role = `${schema}_svc`;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  const owner = openPostgres({ url: TEST_DATABASE_URL, schema, poolSize: 1, statementTimeoutMs: 10_000 });
  await migrate(owner);
  await owner.close();
  // The grants the README gives operators.
  await admin.query(`CREATE ROLE ${role} LOGIN`);
  await admin.query(`GRANT USAGE ON SCHEMA ${schema} TO ${role}`);
  await admin.query(`GRANT SELECT ON ALL TABLES IN SCHEMA ${schema} TO ${role}`);
  await admin.query(`GRANT INSERT ON ${schema}.audit_log TO ${role}`);
  await admin.query(`GRANT USAGE ON SEQUENCE ${schema}.audit_log_id_seq TO ${role}`);
  const url = new URL(TEST_DATABASE_URL);
  url.username = role;
  const service = openPostgres({ url: url.toString(), schema, poolSize: 2, statementTimeoutMs: 10_000 });
  t.after(async () => {
    await service.close();
    await admin.query(`DROP SCHEMA ${schema} CASCADE`);
    await admin.query(`DROP ROLE ${role}`);
    await admin.end();
  });
  const { createAuditTrail } = await import('../../src/audit/trail.ts');
  const audit = createAuditTrail(service);
  await audit.record({ username: 'u', client: 'c', groups: ['g'], dataset: 'birth', operation: 'lookup', path: '/x', query: '', results: 1, requestId: 'r' });
  const store = createRecordStore(service, records);
  await store.ping();
  assert.equal(await store.lookup('birth', '1'), undefined);
  await assert.rejects(service.query('UPDATE audit_log SET results = 2'), /permission denied/);
  await assert.rejects(service.query('DELETE FROM audit_log'), /permission denied/);
  await assert.rejects(store.upsert('birth', [{ id: 1, data: { id: 1 }, keys: [] }]), /permission denied/);
});
