/**
 * Migrations on a PostgreSQL server: frozen text with checksums, applied
 * once, the same schema whatever version a database starts from, and a
 * schema that lacks a described type's tables is not ready.
 */
import assert from 'node:assert/strict';
import { type TestContext, test } from 'node:test';
import pg from 'pg';
import { buildApp } from '../../src/app.ts';
import { postgresBackend } from '../../src/backend/postgres.ts';
import type { RecordDescription } from '../../src/records/define.ts';
import type { SqlDriver } from '../../src/store/driver.ts';
import {
  MigrationChangedError,
  MissingTablesError,
  UnknownMigrationError,
  assertSchemaCurrent,
  checksum,
  latestVersion,
  loadMigrations,
  migrate,
  missingRecordTables,
  pendingMigrations,
  splitStatements,
} from '../../src/store/migrations.ts';
import { openPostgres } from '../../src/store/pg-driver.ts';
import { pendingBackfills } from '../../src/store/suggestion-backfill.ts';
import { candidatePasses, datePartOfKey, hashOfKey, suggestionKeyValues } from '../../src/match/keys.ts';
import { replicaSet } from '../../src/store/replica-set.ts';
import { createPostgresRecords } from '../../src/store/postgres-records.ts';
import type { RecordToWrite } from '../../src/model/records.ts';
import { TEST_DATABASE_URL, emptySchema, emptyStore, postgresAvailable, testConfig, uniqueSchema } from '../helper.ts';
import { builtInTypes as records } from '../record-types.ts';

const migrations = await loadMigrations();
const LATEST_VERSION = latestVersion(migrations);

const skip = !(await postgresAvailable()) && 'no PostgreSQL server';

async function* batches(...list: RecordToWrite[][]) {
  yield* list;
}

const pgStore = async (t: TestContext) => {
  const store = await emptyStore(t, 'postgres');
  if (store.kind !== 'postgres') throw new Error('a PostgreSQL store');
  return store;
};

/** A driver into a new, empty schema of its own, closed (and the schema dropped) when the test ends. */
async function emptyDatabase(t: TestContext): Promise<{ driver: SqlDriver; schema: string }> {
  let driver: SqlDriver | undefined;
  const { schema } = await emptySchema(t, () => driver?.close());
  driver = openPostgres({ url: TEST_DATABASE_URL, schema, poolSize: 2, statementTimeoutMs: 10_000 });
  return { driver, schema };
}

/** The schema as the code before checksums left it at `version`: the migrations up to it, tracked without checksums. */
async function migrateAsBefore(driver: SqlDriver, version: number): Promise<void> {
  await driver.query(
    'CREATE TABLE schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz ' +
      'NOT NULL DEFAULT now())',
  );
  for (const migration of migrations.filter((m) => m.version <= version)) {
    for (const statement of splitStatements(migration.sql)) await driver.query(statement);
    await driver.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [
      migration.version,
      migration.name,
    ]);
  }
}

/** Everything of a schema that a migration makes, with the schema's name left out, as sorted lines. */
async function describeSchema(driver: SqlDriver, schema: string): Promise<string[]> {
  const lines = await driver.query<{ line: string }>(
    `SELECT 'column ' || table_name || '.' || column_name || ' ' || data_type || ' ' || ` +
      `coalesce(collation_name, '') || ' ' || is_nullable || ' ' || coalesce(column_default, '') AS line
       FROM information_schema.columns WHERE table_schema = $1
     UNION ALL
     SELECT 'index ' || indexname || ' ' || indexdef FROM pg_indexes WHERE schemaname = $1
     UNION ALL
     SELECT 'constraint ' || conrelid::regclass::text || ' ' || conname || ' ' || pg_get_constraintdef(oid) ` +
      `|| ' ' || convalidated::text
       FROM pg_constraint WHERE connamespace = $1::regnamespace
     UNION ALL
     SELECT 'trigger ' || tgrelid::regclass::text || ' ' || tgname || ' ' || pg_get_triggerdef(oid)
       FROM pg_trigger WHERE NOT tgisinternal AND tgrelid::regclass::text IN (SELECT table_name FROM ` +
      `information_schema.tables WHERE table_schema = $1)
     UNION ALL
     SELECT 'function ' || p.proname || ' ' || md5(p.prosrc) FROM pg_proc p WHERE p.pronamespace = $1::regnamespace`,
    [schema],
  );
  return (
    lines
      .map((row) => row.line.replaceAll(`${schema}.`, ''))
      // A NOT VALID check is valid once a fresh table is checked against it; what it checks is the same.
      .map((line) => line.replace(/ (true|false)$/, ''))
      .sort()
  );
}

test('migrations apply from empty, once, and record each with its checksum', { skip }, async (t) => {
  const { driver } = await emptyDatabase(t);
  assert.equal((await pendingMigrations(driver)).length, migrations.length);
  assert.deepEqual(
    (await migrate(driver)).map((m) => m.version),
    migrations.map((m) => m.version),
  );
  assert.deepEqual(await migrate(driver), []);
  const rows = await driver.query<{ version: number; checksum: string }>(
    'SELECT version, checksum FROM schema_migrations ORDER BY version',
  );
  assert.deepEqual(
    rows.map((r) => [Number(r.version), r.checksum]),
    migrations.map((m) => [m.version, checksum(m)]),
  );
  assert.equal(LATEST_VERSION, migrations.at(-1)?.version);
  await assertSchemaCurrent(driver, records);
});

test('migrating from every earlier version, as the code before checksums left it, gives the schema migrating ' +
  'from empty gives', {
  skip,
}, async (t) => {
  const fresh = await emptyDatabase(t);
  await migrate(fresh.driver);
  const expected = await describeSchema(fresh.driver, fresh.schema);
  assert.ok(
    expected.some((line) => line.startsWith('trigger audit_log audit_log_no_truncate')),
    'the description sees triggers',
  );
  for (let version = 0; version < LATEST_VERSION; version++) {
    const { driver, schema } = await emptyDatabase(t);
    await migrateAsBefore(driver, version);
    assert.deepEqual(
      (await migrate(driver)).map((m) => m.version),
      migrations.filter((m) => m.version > version).map((m) => m.version),
      `from ${version}`,
    );
    assert.deepEqual(await describeSchema(driver, schema), expected, `from version ${version}`);
    const unrecorded = await driver.query('SELECT version FROM schema_migrations WHERE checksum IS NULL');
    assert.deepEqual(unrecorded, [], `from version ${version}: checksums filled for the migrations applied before`);
  }
});

/** Two records' search keys, for the migrations that rewrite close-match keys. */
const KEYED = [
  { id: 7, keys: [{ surname: 'smith', forenames: 'william', date: '2010-03-04' }] },
  { id: 8, keys: [{ surname: 'fairfax lowe', forenames: 'catherine', date: '1901-12-31' }] },
];

/**
 * The birth key table and that of a type described after the built-in ones (a key table of the same
 * shape), holding each row's `old` key: as the code before a migration wrote it.
 */
async function keyTablesHolding(driver: SqlDriver, rows: readonly { old: number; id: number }[]): Promise<void> {
  await driver.exec(
    'CREATE TABLE adoption_suggestion_key (key bigint NOT NULL, id bigint NOT NULL, PRIMARY KEY (key, id))',
  );
  for (const table of ['birth_suggestion_key', 'adoption_suggestion_key'])
    await driver.query(`INSERT INTO ${table} (key, id) SELECT * FROM unnest($1::bigint[], $2::bigint[])`, [
      rows.map((row) => row.old),
      rows.map((row) => row.id),
    ]);
}

/** A key table's rows, in key order, as text. */
const keysIn = (driver: SqlDriver, table: string) =>
  driver.query<{ key: string; id: string }>(
    `SELECT k.key::text AS key, k.id::text AS id FROM ${table} k ORDER BY k.key, k.id`,
  );

/** Rows' keys as keysIn reads them. */
const asRead = (rows: readonly { key: number; id: number }[]) =>
  rows
    .map(({ key, id }) => ({ key: String(key), id: String(id) }))
    .sort((a, b) => Number(a.key) - Number(b.key) || Number(a.id) - Number(b.id));

test("migration 19 leads every key table's keys with their date part, and keeps every key", { skip }, async (t) => {
  const { driver } = await emptyDatabase(t);
  await migrate(
    driver,
    {},
    migrations.filter((m) => m.version < 19),
  );
  // Keys as the code before 19 wrote them: the hash times 2^22, plus the date part.
  const rows = KEYED.flatMap(({ id, keys }) =>
    suggestionKeyValues(keys).map((key) => ({ old: hashOfKey(key) * 2 ** 22 + datePartOfKey(key), key, id })),
  );
  await keyTablesHolding(driver, rows);
  assert.deepEqual(
    (
      await migrate(
        driver,
        {},
        migrations.filter((m) => m.version <= 19),
      )
    ).map((m) => m.version),
    [19],
  );
  for (const table of ['birth_suggestion_key', 'adoption_suggestion_key'])
    assert.deepEqual(await keysIn(driver, table), asRead(rows), table);
  // Still the primary key the load drops and builds again by its name.
  const [{ name }] = await driver.query<{ name: string }>(
    "SELECT conname AS name FROM pg_constraint WHERE conrelid = 'adoption_suggestion_key'::regclass AND contype = 'p'",
  );
  assert.equal(name, 'adoption_suggestion_key_pkey');
});

test("migration 20 works every record's names keys out again with their decade; the other keys stay", {
  skip,
}, async (t) => {
  const { driver } = await emptyDatabase(t);
  await migrate(
    driver,
    {},
    migrations.filter((m) => m.version < 20),
  );
  // Keys as the code before 20 wrote them: a names key was its hash alone.
  const rows = KEYED.flatMap(({ id, keys }) => {
    const names = new Set(candidatePasses(keys[0]).find((pass) => pass.name === 'names')!.keys);
    return suggestionKeyValues(keys).map((key) => ({ id, key, old: names.has(key) ? hashOfKey(key) : key }));
  });
  assert.ok(rows.some((row) => row.old !== row.key) && rows.some((row) => row.old === row.key));
  for (const { id, keys } of KEYED)
    await driver.query('INSERT INTO birth_registration (id, data, search_keys) VALUES ($1, $2::json, $3)', [
      id,
      JSON.stringify({ id }),
      JSON.stringify(keys),
    ]);
  await keyTablesHolding(driver, rows);
  assert.deepEqual(
    (await migrate(driver)).map((m) => m.version),
    [20],
  );
  // The birth table as the code now writes it, by the backfill that migrate ran after the migration.
  assert.deepEqual(await keysIn(driver, 'birth_suggestion_key'), asRead(rows));
  assert.deepEqual(await pendingBackfills(driver), []);
  // A table without records to work its keys from loses its names keys and keeps the rest.
  assert.deepEqual(await keysIn(driver, 'adoption_suggestion_key'), asRead(rows.filter((row) => row.old === row.key)));
});

test('every described record type has its tables after migrate; a type without them is named, and the ' +
  'service is not ready', {
  skip,
}, async (t) => {
  const { driver } = await emptyDatabase(t);
  await migrate(driver);
  assert.deepEqual(await missingRecordTables(driver, records), []);
  // A record type described after the last migration (under a name no built-in type has): no migration made its tables.
  const unmigrated = { ...records[0], name: 'unmigrated' } as RecordDescription;
  assert.deepEqual(await missingRecordTables(driver, [...records, unmigrated]), ['unmigrated']);
  await assert.rejects(assertSchemaCurrent(driver, [...records, unmigrated]), (error: unknown) => {
    assert.ok(error instanceof MissingTablesError);
    assert.match(error.message, /unmigrated.*needs a new migration/s);
    return true;
  });
  // A described type whose tables went: its reads would fail, so readiness says so.
  await driver.exec('DROP TABLE partnership_search_key');
  assert.deepEqual(await missingRecordTables(driver, records), ['partnership']);
  const backend = postgresBackend(driver, records);
  await assert.rejects(backend.records.ready(), MissingTablesError);
  const app = await buildApp(testConfig(), { backend, descriptions: records });
  t.after(() => app.close());
  const readiness = await app.inject({ url: '/readiness' });
  assert.equal(readiness.statusCode, 503);
  assert.equal(readiness.json().code, 'ServiceUnavailable');
});

test('an applied migration whose text changed is refused, by migrate and by the readiness check', {
  skip,
}, async (t) => {
  const { driver } = await emptyDatabase(t);
  await migrate(driver);
  await driver.query(`UPDATE schema_migrations SET checksum = repeat('0', 64) WHERE version = 2`);
  // One after the other: started together, the one not yet awaited could reject unhandled.
  for (const attempt of [() => migrate(driver), () => assertSchemaCurrent(driver, records)]) {
    await assert.rejects(attempt(), (error: unknown) => {
      assert.ok(error instanceof MigrationChangedError, String(error));
      assert.match(
        error.message,
        /^Migration 2 as applied to this database differs .* must never be edited.*new migration/s,
      );
      return true;
    });
  }
});

test('a database migrated by a newer release is refused, naming the versions this code does not know', {
  skip,
}, async (t) => {
  const { driver } = await emptyDatabase(t);
  await migrate(driver);
  await driver.query(`INSERT INTO schema_migrations (version, name, checksum) VALUES (99, 'from the future', 'x')`);
  await assert.rejects(migrate(driver), UnknownMigrationError);
  await assert.rejects(
    assertSchemaCurrent(driver, records),
    /migration\(s\) 99 applied, which this code does not know/,
  );
});

test('records stored as jsonb before version 3 read back the same after it', { skip }, async (t) => {
  const { driver } = await emptyDatabase(t);
  await migrateAsBefore(driver, 2);
  const data = { id: 7, child: { forenames: 'Zoë Ann', surname: "O'Brien" }, status: { blocked: false } };
  await driver.query(`INSERT INTO birth_registration (id, data, search_keys) VALUES (7, $1::jsonb, '[]')`, [
    JSON.stringify(data),
  ]);
  assert.deepEqual(
    (await migrate(driver)).map((m) => m.version),
    migrations.filter((m) => m.version > 2).map((m) => m.version),
  );
  assert.deepEqual(await createPostgresRecords(driver, records).reader.lookup('birth', '7'), data);
  const [{ type }] = await driver.query<{ type: string }>(
    `SELECT pg_typeof(data)::text AS type FROM birth_registration`,
  );
  assert.equal(type, 'json');
});

test('version 4 lets the audit trail record verifications, over entries already written', { skip }, async (t) => {
  const { driver } = await emptyDatabase(t);
  await migrateAsBefore(driver, 3);
  const insert = (operation: string) =>
    driver.query(
      `INSERT INTO audit_log (username, client, groups, dataset, operation, path, query, results, ` +
        `request_id, hash) VALUES ('u', 'c', '{}', 'birth', $1, '/', '', 1, 'r', 'h')`,
      [operation],
    );
  await insert('lookup');
  await assert.rejects(insert('verify'), /check constraint/, 'refused before version 4');
  assert.deepEqual(
    (await migrate(driver)).map((m) => m.version),
    migrations.filter((m) => m.version > 3).map((m) => m.version),
  );
  // From version 7 every new entry names its writer and its place in that writer's chain.
  let seq = 0;
  const insertNow = (operation: string) =>
    driver.query(
      `INSERT INTO audit_log (username, client, groups, dataset, operation, path, query, results, ` +
        `request_id, hash, writer, seq) VALUES ('u', 'c', '{}', 'birth', $1, '/', '', 1, 'r', 'h', 'w', $2)`,
      [operation, ++seq],
    );
  await insertNow('verify');
  await assert.rejects(insertNow('update'), /check constraint/);
  await assert.rejects(insert('lookup'), /audit_log_writer_chain/, 'an entry of no writer is refused from version 7');
  const rows = await driver.query<{ operation: string }>('SELECT operation FROM audit_log ORDER BY id');
  assert.deepEqual(
    rows.map((r) => r.operation),
    ['lookup', 'verify'],
  );
});

test('two processes migrating at once apply each migration exactly once', { skip }, async (t) => {
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
  const parts = splitStatements(
    'CREATE TABLE a (x int); CREATE FUNCTION f() RETURNS trigger AS $$ BEGIN; RETURN NULL; END $$ LANGUAGE ' +
      'plpgsql; SELECT 1',
  );
  assert.equal(parts.length, 3);
  assert.match(parts[1], /BEGIN; RETURN NULL; END/);
});

test('lookups and searches go to the read replicas, writes to the primary; what a replica lacks is asked of ' +
  'the primary', {
  skip,
}, async (t) => {
  const primary = await pgStore(t);
  const replica = await pgStore(t);
  const record = (surname: string) => ({
    id: 42,
    data: { id: 42, status: { blocked: false } },
    keys: [{ date: '2001-01-01', surname, forenames: 'ann' }],
  });
  await primary.upsert('birth', [record('primary')]);
  await replica.upsert('birth', [record('replica')]);
  // Another schema of the same server stands in for a replica: a server not in recovery is never behind.
  const replicas = replicaSet(primary.driver, [replica.driver], { maxLagMs: 1000, intervalMs: 250 });
  t.after(() => replicas.close());
  await replicas.probe();
  const store = createPostgresRecords(primary.driver, records, replicas);
  const key = (surname: string) => ({ date: '2001-01-01', surname, forenames: 'ann' });
  assert.equal((await store.reader.search('birth', key('replica'), 5)).records.length, 1);
  assert.deepEqual(store.reader.readPaths?.().fallbacks, { empty: 0, failed: 0, unfit: 0 });
  // Found only on the primary: the replica's "none" may be its lag.
  assert.equal((await store.reader.search('birth', key('primary'), 5)).records.length, 1);
  assert.equal(store.reader.readPaths?.().fallbacks.empty, 1);
  await store.writer.write(
    'birth',
    batches([{ id: 42, json: JSON.stringify({ id: 42, status: { blocked: true } }), keys: record('written').keys }]),
  );
  assert.deepEqual(await primary.lookup('birth', '42'), { id: 42, status: { blocked: true } });
  assert.deepEqual(await store.reader.lookup('birth', '42'), { id: 42, status: { blocked: false } });
  // A replica that fails a read is out of rotation, and the primary answers.
  await replica.driver.close();
  assert.deepEqual(await store.reader.lookup('birth', '42'), { id: 42, status: { blocked: true } });
  assert.equal(store.reader.readPaths?.().fallbacks.failed, 1);
  assert.equal(store.reader.readPaths?.().replicas[0].condition, 'down');
});

test('the service runs under a role with SELECT everywhere and INSERT on audit_log only (postgres)', {
  skip,
}, async (t) => {
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
  await admin.query(`GRANT INSERT ON ${schema}.audit_checkpoint TO ${role}`);
  await admin.query(`GRANT USAGE ON SEQUENCE ${schema}.audit_checkpoint_id_seq TO ${role}`);
  const url = new URL(TEST_DATABASE_URL);
  url.username = role;
  const service = openPostgres({ url: url.toString(), schema, poolSize: 2, statementTimeoutMs: 10_000 });
  t.after(async () => {
    await service.close();
    await admin.query(`DROP SCHEMA ${schema} CASCADE`);
    await admin.query(`DROP ROLE ${role}`);
    await admin.end();
  });
  const backend = postgresBackend(service, records);
  await backend.audit.record({
    username: 'u',
    client: 'c',
    groups: ['g'],
    dataset: 'birth',
    operation: 'lookup',
    path: '/x',
    query: '',
    results: 1,
    requestId: 'r',
  });
  await backend.records.ready();
  assert.equal(await backend.records.lookup('birth', '1'), undefined);
  await assert.rejects(service.query('UPDATE audit_log SET results = 2'), /permission denied/);
  await assert.rejects(service.query('DELETE FROM audit_log'), /permission denied/);
  await assert.rejects(
    backend.writer.write('birth', batches([{ id: 1, json: '{"id":1}', keys: [] }])),
    /permission denied/,
  );
});
