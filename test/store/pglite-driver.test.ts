/**
 * The embedded driver runs PGlite on a thread of its own and speaks to it in
 * messages. What crosses must come back as PGlite itself would give it: the
 * same rows for the same parameters as a PostgreSQL server, errors with their
 * PostgreSQL fields, transactions whole and alone.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { test } from 'node:test';
import type { SqlDriver } from '../../src/store/driver.ts';
import { openEmbedded, threadExecArgv } from '../../src/store/pglite-driver.ts';
import { emptyStore, storeKinds } from '../helper.ts';

const opened = async (t: { after: (fn: () => unknown) => void }) => {
  const driver = await openEmbedded();
  t.after(() => driver.close());
  return driver;
};

for (const kind of await storeKinds()) {
  test(`parameters read the same as on the other driver (${kind})`, async (t) => {
    const { driver } = await emptyStore(t, kind);
    const row = async (sql: string, params: unknown[], prepare = false) => (await driver.query<{ v: unknown }>(sql, params, { prepare }))[0].v;
    const awkward = ['a"b', 'c\\d', 'e,f', '{g}', ' h ', 'NULL', 'ünï', ''];
    assert.deepEqual(await row('SELECT $1::text[] AS v', [awkward]), awkward);
    assert.deepEqual(await row('SELECT $1::text[] AS v', [['x', null]]), ['x', null]);
    assert.deepEqual(await row('SELECT $1::int[] AS v', [[1, 2, 3]]), [1, 2, 3]);
    assert.deepEqual(await row('SELECT $1::bigint[] AS v', [[]]), []);
    assert.equal(await row('SELECT $1::text AS v', [null]), null);
    assert.equal(await row('SELECT $1::text AS v', [undefined]), null);
    assert.equal(await row('SELECT ($1::bigint + 1)::text AS v', [9007199254740993n]), '9007199254740994');
    assert.equal(await row('SELECT $1::boolean AS v', [true]), true);
    assert.equal(await row("SELECT $1::jsonb ->> 'a' AS v", [{ a: 'b"c' }]), 'b"c');
    assert.equal(await row("SELECT to_char($1::timestamptz AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS') AS v", [new Date('2001-02-03T04:05:06Z')]), '2001-02-03 04:05:06');
    assert.equal(await row("SELECT encode($1::bytea, 'hex') AS v", [new Uint8Array([0, 1, 254])]), '0001fe');
    const long = 'é'.repeat(200_000);
    assert.equal(await row('SELECT length($1::text) AS v', [long], true), long.length);
    assert.equal(await row('SELECT length($1::text) AS v', ['x'], true), 1);
  });
}

test('PostgreSQL errors arrive with the fields PGlite gives them', async (t) => {
  const driver = await opened(t);
  await assert.rejects(driver.query('SELECT 1 / $1::int AS v', [0]), (error: Record<string, unknown>) => {
    assert.ok(error instanceof Error);
    assert.equal(error.message, 'division by zero');
    assert.equal(error.name, 'error');
    assert.equal(error.code, '22012');
    assert.equal(error.severity, 'ERROR');
    assert.equal(error.query, 'SELECT 1 / $1::int AS v');
    assert.deepEqual(error.params, [0]);
    return true;
  });
  await assert.rejects(driver.exec('SELECT nonsense'), { code: '42703', query: 'SELECT nonsense' });
  // A prepared statement whose first run failed is prepared again, not refused as a duplicate.
  await assert.rejects(driver.query('SELECT $1::int AS v', ['x'], { prepare: true }), { code: '22P02' });
  assert.deepEqual(await driver.query('SELECT $1::int AS v', ['7'], { prepare: true }), [{ v: 7 }]);
  assert.deepEqual(await driver.query('SELECT $1::int AS v', ['8'], { prepare: true }), [{ v: 8 }]);
});

test('a transaction is whole, and nothing else runs inside it', async (t) => {
  const driver = await opened(t);
  await driver.exec('CREATE TABLE t (x int PRIMARY KEY)');
  const count = async (db: Pick<SqlDriver, 'query'>) => (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM t'))[0].n;

  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let inserted!: () => void;
  const insertedOne = new Promise<void>((resolve) => (inserted = resolve));
  const writing = driver.transaction(async (tx) => {
    await tx.query('INSERT INTO t VALUES (1)');
    inserted();
    await held;
    await tx.query('INSERT INTO t VALUES (2)');
    return 'done';
  });
  await insertedOne;
  // Sent while the transaction is open: answered only after it ends, and so sees both rows.
  let answered = false;
  const outside = count(driver).then((n) => ((answered = true), n));
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.equal(answered, false);
  release();
  assert.equal(await writing, 'done');
  assert.equal(await outside, 2);

  // A failure inside rolls it all back, and the error is the caller's own.
  await assert.rejects(
    driver.transaction(async (tx) => {
      await tx.query('INSERT INTO t VALUES (3)');
      throw new Error('changed my mind');
    }),
    /changed my mind/,
  );
  // So does a failed statement, even when the caller carries on to COMMIT: PostgreSQL rolls back.
  await assert.rejects(
    driver.transaction(async (tx) => {
      await tx.query('INSERT INTO t VALUES (4)');
      await tx.query('INSERT INTO t VALUES (1)').catch(() => {});
    }),
    { code: '25P02' },
  );
  assert.equal(await count(driver), 2);
  assert.deepEqual(await driver.transaction(async () => 'nothing ran'), 'nothing ran');
});

test('closing stops the thread, and twice is harmless', async () => {
  const threads = () => (existsSync('/proc/self/task') ? readdirSync('/proc/self/task').length : undefined);
  const before = threads();
  const driver = await openEmbedded();
  assert.deepEqual(await driver.query('SELECT 1 AS v'), [{ v: 1 }]);
  if (before !== undefined) assert.ok(threads()! > before, 'PGlite runs on a thread of its own');
  await driver.close();
  await driver.close();
  if (before !== undefined) assert.equal(threads(), before);
  await assert.rejects(driver.query('SELECT 1'), /closed/);
});

test('the thread loads where tsx is registered in code rather than by --import', async (t) => {
  // As bin/lev-api.js runs the sources when dist/ is older than them: workers do not inherit that registration.
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const folder = await mkdtemp(join(tmpdir(), 'lev-thread-'));
  t.after(() => rm(folder, { recursive: true, force: true }));
  const script = join(folder, 'open.mjs');
  await writeFile(
    script,
    `import { register } from ${JSON.stringify(pathToFileURL(join(root, 'node_modules/tsx/dist/esm/api/index.mjs')).href)};
     register();
     const { openEmbedded } = await import(${JSON.stringify(pathToFileURL(join(root, 'src/store/pglite-driver.ts')).href)});
     const driver = await openEmbedded();
     console.log(JSON.stringify(await driver.query('SELECT 41 + 1 AS v')));
     await driver.close();`,
  );
  const { stdout } = await promisify(execFile)(process.execPath, [script], { cwd: root });
  assert.equal(stdout.trim(), '[{"v":42}]');
});

test('the thread starts under a process whose script was given with -e', async () => {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const code = `const { openEmbedded } = await import(${JSON.stringify(pathToFileURL(join(root, 'src/store/pglite-driver.ts')).href)});
     const driver = await openEmbedded();
     console.log(JSON.stringify(await driver.query('SELECT 41 + 1 AS v')));
     await driver.close();`;
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { cwd: root });
  assert.equal(stdout.trim(), '[{"v":42}]');
});

test("a thread keeps the process's node options but those of its main script", () => {
  assert.deepEqual(threadExecArgv(['--input-type=module', '--no-warnings', '-e', 'code()', '--cpu-prof']), ['--no-warnings', '--cpu-prof']);
  assert.deepEqual(threadExecArgv(['--import', 'tsx', '--input-type', 'module', '--eval=x', '-p', 'y']), ['--import', 'tsx']);
  assert.deepEqual(threadExecArgv(['--eval', '--cpu-prof']), []);
  assert.deepEqual(threadExecArgv([]), []);
});
