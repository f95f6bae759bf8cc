/**
 * The `lev-api` command: the real bin as a child process where the process's
 * exit code is the subject, `main(argv, env)` otherwise.
 */
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { appendFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AddressInfo, createServer } from 'node:net';
import { type TestContext, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { chainHash } from '../src/audit/chain.ts';
import { checkpointSigner, newSigningKey } from '../src/audit/checkpoint.ts';
import { takeCheckpoint } from '../src/audit/checkpoint-writer.ts';
import { openMemoryTrail } from '../src/audit/memory-trail.ts';
import { configReference } from '../src/config/index.ts';
import { version } from '../src/version.ts';
import { TEST_DATABASE_URL, filledStore, postgresAvailable, startApp } from './helper.ts';
import { runCli as run } from './run-cli.ts';
import { builtInTypes as records } from './record-types.ts';

/** The types a message lists: the built-in four, then any type added since. */
const TYPE_NAMES = ['birth', 'death', 'marriage', 'partnership', ...records.slice(4).map((record) => record.name)].join(
  ', ',
);

const BIN = fileURLToPath(new URL('../bin/lev-api.js', import.meta.url));

/** Runs the bin to its end: its exit code and what it wrote. */
function runBin(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [BIN, ...args],
      { env: { PATH: process.env.PATH, ...env }, timeout: 60_000 },
      (_error, stdout, stderr) => resolve({ code: child.exitCode, stdout, stderr }),
    );
  });
}

test('serve exits non-zero when its port is taken', async (t) => {
  const occupier = createServer();
  occupier.listen(0, '127.0.0.1');
  await once(occupier, 'listening');
  t.after(() => occupier.close());
  const { port } = occupier.address() as AddressInfo;
  const { code, stderr } = await runBin(['serve'], { PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'silent' });
  assert.equal(code, 1);
  assert.match(stderr, /EADDRINUSE/);
});

test(
  'a setting the service cannot run with ends `lev-api serve` and `npm run dev` alike: the same words, ' + 'exit 2',
  async () => {
    const env = { PORT: 'eighty', LOG_LEVEL: 'silent' };
    const bin = await runBin(['serve'], env);
    const dev = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const server = fileURLToPath(new URL('../src/server.ts', import.meta.url));
      const child = execFile(
        process.execPath,
        ['--import', 'tsx', server],
        { env: { PATH: process.env.PATH, ...env }, timeout: 60_000 },
        (_error, _stdout, stderr) => resolve({ code: child.exitCode, stderr }),
      );
    });
    for (const { code, stderr } of [bin, dev]) {
      assert.equal(code, 2);
      assert.match(stderr, /^lev-api serve: Invalid configuration:\n {2}PORT="eighty": Expected integer/);
    }
    assert.equal(dev.stderr, bin.stderr);
  },
);

test(
  'serve starts from an audit file whose last line ' + 'is torn, warning where the torn line was set aside',
  async (t) => {
    const dir = await mkdtemp(join(tmpdir(), 'lev-cli-audit-'));
    t.after(() => rm(dir, { recursive: true, force: true }));
    const path = join(dir, 'audit.ndjson');
    const trail = await openMemoryTrail({ keep: 10, file: { path, maxBytes: 1 << 20, keep: 1 } });
    await trail.record({
      username: 'u',
      client: 'c',
      groups: [],
      dataset: 'birth',
      operation: 'lookup',
      path: '/v1/registration/birth/1',
      query: '',
      results: 1,
      requestId: 'r',
    });
    await trail.close();
    await appendFile(path, '{"at":"2026-11-24T06:00:00.000Z","username":"half a');

    const child = spawn(process.execPath, [BIN, 'serve'], {
      env: { PATH: process.env.PATH, PORT: '0', HOST: '127.0.0.1', AUDIT_FILE: path, LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    t.after(() => child.kill());
    let output = '';
    const started = new Promise<boolean>((resolve) => {
      const read = (chunk: Buffer) => {
        output += chunk;
        if (/listening/i.test(output)) resolve(true);
      };
      child.stdout.on('data', read);
      child.stderr.on('data', read);
      child.on('exit', () => resolve(false));
    });
    assert.equal(await started, true, `serve started: ${output}`);
    const warning = output.split('\n').find((line) => /torn/.test(line));
    assert.ok(warning, `a warning names the torn line: ${output}`);
    assert.equal(JSON.parse(warning).level, 40, 'at warn level');
    assert.match(warning, /audit\.ndjson\.torn-/);
    assert.doesNotMatch(warning, /half a/, 'what the line held is not logged');
  },
);

/** A CLI mistake: exit 2 and one line on stderr, nothing of Node's parser's wording. */
async function assertMistake(t: TestContext, argv: string[], expected: RegExp) {
  const { code, stdout, stderr } = await run(t, argv);
  assert.equal(code, 2, argv.join(' '));
  assert.equal(stdout, '', argv.join(' '));
  assert.equal(stderr.split('\n').length, 1, `one line for ${argv.join(' ')}: ${stderr}`);
  assert.match(stderr, expected, argv.join(' '));
  assert.doesNotMatch(stderr, /ambiguous|positional|To specify|Did you forget|<value>/, argv.join(' '));
}

describe('CLI mistakes: one clear line and exit 2', () => {
  test('unknown options name the option and the known ones', async (t) => {
    await assertMistake(
      t,
      ['generate', '--type', 'birth', '--count', '1', '--colour', 'red'],
      /^lev-api generate: unknown option --colour; the options are --type, --count, --seed, --out, --first-id/,
    );
    await assertMistake(t, ['load', '--type', 'birth', '--nope', 'x'], /^lev-api load: unknown option --nope;/);
    await assertMistake(t, ['audit', 'export', '--since', '2026-01-01'], /^lev-api audit: unknown option --since;/);
  });

  test('commands without options refuse any: migrate --force, serve --port', async (t) => {
    await assertMistake(t, ['migrate', '--force'], /^lev-api migrate: unknown option --force: this command takes none/);
    await assertMistake(t, ['serve', '--port', '80'], /^lev-api serve: unknown option --port: this command takes none/);
    await assertMistake(t, ['migrate', 'now'], /^lev-api migrate: unexpected argument 'now'/);
    await assertMistake(t, ['ui', '--port', '80'], /^lev-api ui: unknown option --port; the options are --api-url/);
    // The pages' process without an API to call, or with one it cannot call: the setting is named.
    for (const [argv, named] of [
      [['ui'], /^lev-api ui: Invalid configuration:\n {2}UI_API_URL=undefined/],
      [['ui', '--api-url', 'ftp://x'], /UI_API_URL="ftp:\/\/x"/],
    ] as const) {
      const { code, stderr } = await run(t, [...argv]);
      assert.equal(code, 2);
      assert.match(stderr, named);
    }
  });

  test('a negative count is a count that is not 0 or more, not an ambiguity', async (t) => {
    await assertMistake(
      t,
      ['generate', '--type', 'birth', '--count', '-5'],
      /--count must be a whole number, 0 or more \(got '-5'\)/,
    );
    await assertMistake(t, ['generate', '--type', 'birth', '--count'], /--count needs a value/);
    await assertMistake(t, ['generate', '--type', '--count', '5'], /--type needs a value/);
    await assertMistake(t, ['load', '--type', 'birth', '--skip-invalid=yes', 'x'], /--skip-invalid takes no value/);
  });

  test("generate's date window says which of its rules a window breaks", async (t) => {
    const birth = ['generate', '--type', 'birth', '--count', '1'];
    await assertMistake(t, [...birth, '--from', '1 May'], /--from must be a date, YYYY-MM-DD \(got '1 May'\)/);
    await assertMistake(
      t,
      [...birth, '--from', '2020-02-01', '--to', '2020-01-01'],
      /^lev-api generate: --from and --to: the window's first day 2020-02-01 is after its last 2020-01-01 \(see/,
    );
    await assertMistake(
      t,
      [...birth, '--from', '1066-10-14'],
      /--from and --to: the window reaches outside birth records' days, \d{4}-\d\d-\d\d to \d{4}-\d\d-\d\d/,
    );
  });

  test('a date in the right form but not on the calendar says so; a wrong form says the form', async (t) => {
    await assertMistake(
      t,
      ['audit', 'export', '--from', '2026-02-30'],
      /^lev-api audit: --from 2026-02-30 is written right but is no day of the calendar/,
    );
    await assertMistake(t, ['audit', 'export', '--to', '2026-13-01'], /--to 2026-13-01 is written right but is no day/);
    await assertMistake(
      t,
      ['audit', 'export', '--from', '30/02/2026'],
      /--from must be a date written YYYY-MM-DD, not '30\/02\/2026'/,
    );
    await assertMistake(
      t,
      ['audit', 'export', '--from', '2026-02-01', '--to', '2026-01-01'],
      /--from 2026-02-01 is after --to 2026-01-01/,
    );
    await assertMistake(t, ['audit', 'check'], /expected 'verify', 'export' or 'record', not 'check'/);
    await assertMistake(t, ['audit', 'verify', '--from', '2026-01-01'], /unknown option --from/);
  });

  test('audit record names the registration; audit verify reads the checkpoints it is given', async (t) => {
    await assertMistake(
      t,
      ['audit', 'record'],
      new RegExp(
        `^lev-api audit: name the registration: lev-api audit record TYPE ID, TYPE one of ${TYPE_NAMES} ` +
          `\\(see 'lev-api audit --help'\\)$`,
      ),
    );
    await assertMistake(t, ['audit', 'record', 'birth'], /name the registration/);
    await assertMistake(
      t,
      ['audit', 'record', 'dog', '1'],
      new RegExp(`no record type 'dog': the types are ${TYPE_NAMES}`),
    );
    await assertMistake(t, ['audit', 'record', 'birth', '12x'], /the id must be a number of 1 to 15 digits, not '12x'/);
    await assertMistake(t, ['audit', 'record', 'birth', '1', '2'], /unexpected argument '2'/);
    await assertMistake(
      t,
      ['audit', 'record', 'birth', '1', '--limit', '0'],
      /--limit must be a whole number from 1 to 1000, not '0'/,
    );
    await assertMistake(t, ['audit', 'record', 'birth', '1', '--limit', '1.5'], /--limit must be a whole number/);
    await assertMistake(t, ['audit', 'record', 'birth', '1', '--out', 'x'], /unknown option --out/);
    await assertMistake(
      t,
      ['audit', 'verify', '--checkpoint', '/nonexistent/checkpoints.json'],
      /^lev-api audit: --checkpoint \/nonexistent\/checkpoints.json: no such file/,
    );
    await assertMistake(
      t,
      ['audit', 'verify', '--file', 'a', '--checkpoint', 'b'],
      /give --file or --checkpoint, not both/,
    );
    const dir = await mkdtemp(join(tmpdir(), 'lev-cli-checkpoint-'));
    t.after(() => rm(dir, { recursive: true, force: true }));
    const notOne = join(dir, 'not-one.json');
    await appendFile(notOne, '[{"at": "2026-01-01"}]');
    await assertMistake(
      t,
      ['audit', 'verify', '--checkpoint', notOne],
      /item 1 is not a checkpoint \(at, entries, origin, heads, previous, hash, publicKey, signature\)/,
    );
  });

  test('an option given twice is refused, not decided by the last', async (t) => {
    await assertMistake(t, ['load', '--type', 'birth', '--type', 'death', 'x'], /^lev-api load: --type is given twice/);
    await assertMistake(
      t,
      ['generate', '--type', 'birth', '--count', '1', '--count=2'],
      /^lev-api generate: --count is given twice/,
    );
    await assertMistake(
      t,
      ['load', '--type', 'birth', '--skip-invalid', '--skip-invalid', 'x'],
      /--skip-invalid is given twice/,
    );
  });

  test('an unknown command or top-level option', async (t) => {
    await assertMistake(
      t,
      ['frobnicate'],
      /^lev-api: unknown command 'frobnicate'; the commands are serve, ui, migrate, load, generate, audit/,
    );
    await assertMistake(t, ['--verbose'], /^lev-api: unknown option '--verbose'/);
    await assertMistake(t, ['toString'], /unknown command 'toString'/);
  });
});

test("'help <command>' is that command's help", async (t) => {
  const { code, stdout } = await run(t, ['help', 'generate']);
  assert.equal(code, 0);
  assert.equal(stdout, (await run(t, ['generate', '--help'])).stdout);
  assert.match(stdout, /^Usage: lev-api generate /);
  await assertMistake(t, ['help', 'frobnicate'], /^lev-api: unknown command 'frobnicate'/);
});

test('--version prints the version', async (t) => {
  for (const flag of ['--version', '-V']) {
    const { code, stdout } = await run(t, [flag]);
    assert.equal(code, 0);
    assert.equal(stdout, version);
  }
  assert.match(version, /^\d+\.\d+\.\d+/);
});

test('serve --help lists every setting of src/config/, with its default and description', async (t) => {
  const { code, stdout } = await run(t, ['serve', '--help']);
  assert.equal(code, 0);
  const reference = configReference();
  assert.ok(reference.length > 20);
  for (const { name, default: fallback, description } of reference) {
    assert.match(
      stdout,
      new RegExp(
        `^  ${name}${
          fallback === undefined ? '' : ` \\(default ` + `${String(fallback).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\)`
        }$`,
        'm',
      ),
      name,
    );
    assert.ok(stdout.includes(description), `${name}'s description`);
  }
});

test('audit record lists who saw a registration and is itself recorded; audit verify --checkpoint fails once ' +
  'the trail before the checkpoint is rewritten', {
  skip: !(await postgresAvailable()) && 'no PostgreSQL server',
}, async (t) => {
  const store = await filledStore(t, 'postgres');
  if (store.kind !== 'postgres') throw new Error('a PostgreSQL store');
  const app = await startApp(t, store);
  for (const user of ['ann', 'bob'])
    assert.equal(
      (await app.get('/v1/registration/birth/123456789', { 'x-auth-username': user, 'x-auth-aud': 'svc' })).status,
      200,
    );
  assert.equal(
    (await app.get('/v1/registration/death/123456789', { 'x-auth-username': 'cy', 'x-auth-aud': 'svc' })).status,
    200,
  );
  await store.audit.flush();
  const [{ schema }] = await store.driver.query<{ schema: string }>('SELECT current_schema() AS schema');
  const env = { DATABASE_URL: TEST_DATABASE_URL, DATABASE_SCHEMA: schema };

  const listed = await run(t, ['audit', 'record', 'birth', '0123456789'], env);
  assert.equal(listed.code, 0, listed.stderr);
  assert.deepEqual(
    listed.stdout.split('\n').map((line) => JSON.parse(line).username),
    ['bob', 'ann'],
  );
  assert.match(listed.stderr, /^2 access\(es\) to birth 123456789$/);
  const [read] = await store.driver.query<{ operation: string; path: string; results: number }>(
    "SELECT operation, path, results FROM audit_log WHERE client = 'lev-api audit record'",
  );
  assert.deepEqual(read, { operation: 'audit-read', path: '/api/v0/audit/records/birth/123456789', results: 2 });

  const checkpoint = await takeCheckpoint(store.driver, checkpointSigner(newSigningKey()));
  const dir = await mkdtemp(join(tmpdir(), 'lev-cli-checkpoint-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const file = join(dir, 'witnessed.json');
  await appendFile(file, JSON.stringify(checkpoint));
  const intact = await run(t, ['audit', 'verify', '--checkpoint', file], env);
  assert.equal(intact.code, 0, intact.stderr);
  assert.match(
    intact.stdout,
    new RegExp(
      /^audit trail intact: 4 entries, chains verified \(2 writer\(s\), 1 signed checkpoint\(s\) stored\), /.source +
        /and against the 1 checkpoint\(s\) given$/.source,
    ),
  );

  // The last entry before the checkpoint rewritten, its hash made to follow, and the stored checkpoint
  // removed: only the witness's copy tells.
  const [last] = await store.driver.query<{ writer: string; seq: string; at: string; previous: string }>(
    `SELECT a.writer, a.seq::text AS seq, to_char(a.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at,
            (SELECT hash FROM audit_log b WHERE b.writer = a.writer AND b.seq = a.seq - 1) AS previous
       FROM audit_log a WHERE a.username = 'cy'`,
  );
  const forged = chainHash(last.previous, last.at, {
    username: 'someone-else',
    client: 'svc',
    groups: [],
    dataset: 'death',
    operation: 'lookup',
    path: '/v1/registration/death/123456789',
    query: '',
    results: 1,
    requestId: (
      await store.driver.query<{ request_id: string }>("SELECT request_id FROM audit_log WHERE username = 'cy'")
    )[0].request_id,
    records: [{ type: 'death', id: 123456789 }],
  });
  await store.driver.query('ALTER TABLE audit_log DISABLE TRIGGER USER');
  await store.driver.query('ALTER TABLE audit_checkpoint DISABLE TRIGGER USER');
  await store.driver.query("UPDATE audit_log SET username = 'someone-else', hash = $1 WHERE username = 'cy'", [forged]);
  await store.driver.query('DELETE FROM audit_checkpoint');
  assert.equal(
    (await run(t, ['audit', 'verify'], env)).code,
    0,
    'the rewrite is consistent: without a checkpoint it cannot be told',
  );
  const broken = await run(t, ['audit', 'verify', '--checkpoint', file], env);
  assert.equal(broken.code, 1);
  assert.match(
    broken.stderr,
    new RegExp(
      /^audit trail BROKEN after \d+ good entries: entry \d+ \(writer .*, #\d+\) is not the entry the given /.source +
        /checkpoint of .* names there: the writer's chain was rewritten$/.source,
    ),
  );
});
