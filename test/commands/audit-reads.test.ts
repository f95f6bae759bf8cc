/**
 * Every reading of the audit table by a command is itself recorded, as the audit routes' are: `lev-api
 * audit export`, `verify` and `record` each append an `audit-read` entry (who ran it, the command,
 * what it asked and how many entries it read) before anything read is shown, and a command whose
 * reading cannot be recorded shows nothing.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { TEST_DATABASE_URL, filledStore, postgresAvailable, startApp } from '../helper.ts';
import { runCli as run } from '../run-cli.ts';

const skip = !(await postgresAvailable()) && 'no PostgreSQL server';

interface ReadRow {
  username: string;
  client: string;
  dataset: string;
  operation: string;
  path: string;
  query: string;
  results: number;
}

test('audit export, verify and record each record an audit-read before showing anything', { skip }, async (t) => {
  const store = await filledStore(t, 'postgres');
  if (store.kind !== 'postgres') throw new Error('a PostgreSQL store');
  const app = await startApp(t, store);
  for (const user of ['ann', 'bob', 'cy'])
    assert.equal(
      (await app.get('/v1/registration/birth/123456789', { 'x-auth-username': user, 'x-auth-aud': 'svc' })).status,
      200,
    );
  await store.audit.flush();
  const [{ schema }] = await store.driver.query<{ schema: string }>('SELECT current_schema() AS schema');
  const env = { DATABASE_URL: TEST_DATABASE_URL, DATABASE_SCHEMA: schema };
  const reads = () =>
    store.driver.query<ReadRow>(
      `SELECT username, client, dataset, operation, path, query, results FROM audit_log WHERE client LIKE ` +
        `'lev-api audit %' ORDER BY id`,
    );
  const me = userInfo().username;

  const dir = await mkdtemp(join(tmpdir(), 'lev-audit-reads-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const out = join(dir, 'export.ndjson');
  const exported = await run(t, ['audit', 'export', '--from', '2000-01-01', '--out', out], env);
  assert.equal(exported.code, 0, exported.stderr);
  const lines = (await readFile(out, 'utf8'))
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as { username: string });
  assert.deepEqual(
    lines.map((entry) => entry.username),
    ['ann', 'bob', 'cy'],
    'the export does not hold its own reading: it was taken from the snapshot counted',
  );
  assert.match(exported.stderr, /^exported 3 audit entries$/);
  assert.deepEqual(await reads(), [
    {
      username: me,
      client: 'lev-api audit export',
      dataset: 'audit',
      operation: 'audit-read',
      path: 'lev-api audit export',
      query: 'from=2000-01-01',
      results: 3,
    },
  ]);

  const verified = await run(t, ['audit', 'verify'], env);
  assert.equal(verified.code, 0, verified.stderr);
  assert.match(
    verified.stdout,
    /^audit trail intact: 4 entries, chains verified \(2 writer\(s\)/,
    "the export's reading is in the trail, chained like any entry",
  );
  const listed = await run(t, ['audit', 'record', 'birth', '123456789', '--limit', '2'], env);
  assert.equal(listed.code, 0, listed.stderr);
  assert.deepEqual(
    listed.stdout.split('\n').map((line) => JSON.parse(line).username),
    ['cy', 'bob'],
  );
  assert.deepEqual((await reads()).slice(1), [
    {
      username: me,
      client: 'lev-api audit verify',
      dataset: 'audit',
      operation: 'audit-read',
      path: 'lev-api audit verify',
      query: '',
      results: 4,
    },
    {
      username: me,
      client: 'lev-api audit record',
      dataset: 'audit',
      operation: 'audit-read',
      path: '/api/v0/audit/records/birth/123456789',
      query: 'limit=2',
      results: 2,
    },
  ]);
  // Every reading so far is chained like any other entry.
  const again = await run(t, ['audit', 'verify'], env);
  assert.match(again.stdout, /^audit trail intact: 6 entries, chains verified \(4 writer\(s\)/);

  // A trail that refuses the reading's entry: each command fails, and shows nothing of what it read.
  await store.driver.query("ALTER TABLE audit_log ADD CONSTRAINT no_reads CHECK (operation <> 'audit-read') NOT VALID");
  const refusedOut = join(dir, 'refused.ndjson');
  for (const argv of [
    ['audit', 'export', '--out', refusedOut],
    ['audit', 'verify'],
    ['audit', 'record', 'birth', '123456789'],
  ]) {
    const refused = await run(t, argv, env);
    assert.equal(refused.code, 1, argv.join(' '));
    assert.equal(refused.stdout, '', argv.join(' '));
    assert.match(
      refused.stderr,
      /^lev-api audit: the reading could not be recorded in the audit trail, so nothing read is shown: .*no_reads/,
      argv.join(' '),
    );
  }
  await assert.rejects(readFile(refusedOut), { code: 'ENOENT' }, 'the export wrote nothing, not even its file');
});
