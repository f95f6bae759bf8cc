/**
 * The `lev-api load` command: the usage mistakes it refuses, then against a
 * PostgreSQL server a schema behind its migrations, loading and loading again,
 * an invalid record stopping the load (exit code 1) or skipped, and bytes that
 * are not UTF-8.
 */
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type TestContext, test } from 'node:test';
import { loadCommand } from '../../src/commands/load.ts';
import { migrate } from '../../src/store/migrations.ts';
import { openPostgres } from '../../src/store/pg-driver.ts';
import { TEST_DATABASE_URL, emptySchema, postgresAvailable } from '../helper.ts';
import { builtInTypes } from '../record-types.ts';
import { births, ndjson, tempDir } from './load-fixture.ts';

/** Runs the command, capturing what it prints. */
async function runLoad(t: TestContext, args: string[], env: Record<string, string | undefined>) {
  const out: string[] = [];
  const err: string[] = [];
  t.mock.method(console, 'log', (...parts: unknown[]) => out.push(parts.join(' ')));
  t.mock.method(console, 'error', (...parts: unknown[]) => err.push(parts.join(' ')));
  try {
    const code = await loadCommand.run(args, env, builtInTypes);
    return { code, out: out.join('\n'), err: err.join('\n') };
  } finally {
    t.mock.restoreAll();
  }
}

test('lev-api load refuses without DATABASE_URL, and a usage mistake', async () => {
  await assert.rejects(loadCommand.run(['--type', 'birth', 'x.ndjson'], {}, builtInTypes), {
    name: 'UsageError',
    message: /DATABASE_URL is not set/,
  });
  const env = { DATABASE_URL: TEST_DATABASE_URL };
  await assert.rejects(loadCommand.run(['x.ndjson'], env, builtInTypes), {
    name: 'UsageError',
    message: /--type is required/,
  });
  await assert.rejects(loadCommand.run(['--type', 'dog', 'x'], env, builtInTypes), {
    name: 'UsageError',
    message: /--type must be one of/,
  });
  await assert.rejects(loadCommand.run(['--type', 'birth'], env, builtInTypes), {
    name: 'UsageError',
    message: /at least one FILE/,
  });
  await assert.rejects(loadCommand.run(['--type', 'birth', '--batch', '0', 'x'], env, builtInTypes), {
    name: 'UsageError',
    message: /--batch/,
  });
  await assert.rejects(loadCommand.run(['--type', 'birth', '--rejects', 'r', 'x'], env, builtInTypes), {
    name: 'UsageError',
    message: /--skip-invalid/,
  });
  await assert.rejects(loadCommand.run(['--type', 'birth', '-', '-'], env, builtInTypes), {
    name: 'UsageError',
    message: /once/,
  });
  await assert.rejects(loadCommand.run(['--type', 'birth', '--nope', 'x'], env, builtInTypes), { name: 'UsageError' });
});

test('lev-api load against a PostgreSQL server', {
  skip: !(await postgresAvailable()) && 'no PostgreSQL server',
}, async (t) => {
  const { schema, admin } = await emptySchema(t);
  const env = { DATABASE_URL: TEST_DATABASE_URL, DATABASE_SCHEMA: schema };
  const dir = await tempDir(t);
  const data = join(dir, 'births.ndjson');
  await writeFile(data, ndjson(births(30)));

  await t.test('refuses while the schema is behind', async () => {
    await assert.rejects(loadCommand.run(['--type', 'birth', data], env, builtInTypes), {
      name: 'SchemaBehindError',
      message: /lev-api migrate/,
    });
  });

  const driver = openPostgres({ url: TEST_DATABASE_URL, schema, poolSize: 1, statementTimeoutMs: 10_000 });
  await migrate(driver);
  await driver.close();

  await t.test('loads, then finds nothing to change', async (t) => {
    const first = await runLoad(t, ['--type', 'birth', data], env);
    assert.equal(first.code, 0, first.err);
    assert.match(
      first.out,
      /^read 30, inserted 30, updated 0, unchanged 0, rejected 0 in \d+\.\d s \(\d+ records\/s\)$/,
    );
    const again = await runLoad(t, ['--type', 'birth', '--batch', '7', data], env);
    assert.match(again.out, /^read 30, inserted 0, updated 0, unchanged 30, rejected 0 in /);
  });

  await t.test('stops at an invalid record with exit code 1, or skips it', async (t) => {
    const records: unknown[] = births(5, 100);
    records[2] = { id: 'three' };
    const bad = join(dir, 'bad.ndjson');
    await writeFile(bad, ndjson(records));
    const stopped = await runLoad(t, ['--type', 'birth', bad], env);
    assert.equal(stopped.code, 1);
    assert.match(
      stopped.err,
      new RegExp(`${bad.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')}:3: invalid birth record: /id: `),
    );
    assert.match(stopped.err, /nothing from .*bad\.ndjson was applied/);
    assert.equal(
      (await admin.query(`SELECT count(*)::int AS n FROM ${schema}.birth_registration WHERE id >= 100`)).rows[0].n,
      0,
    );

    const skipped = await runLoad(t, ['--type', 'birth', '--skip-invalid', bad], env);
    assert.equal(skipped.code, 0, skipped.err);
    assert.match(skipped.out, /^read 5, inserted 4, updated 0, unchanged 0, rejected 1 in /);
    assert.match(skipped.out, /rejected records are in .*bad\.ndjson\.rejects\.ndjson/);
    const [reject] = (await readFile(`${bad}.rejects.ndjson`, 'utf8'))
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.deepEqual(reject, { position: `${bad}:3`, reason: reject.reason, entry: { id: 'three' } });
  });

  await t.test('stops at bytes that are not UTF-8, naming the file and line', async (t) => {
    const bad = join(dir, 'not-utf8.ndjson');
    await writeFile(
      bad,
      Buffer.concat([
        Buffer.from(ndjson(births(2, 200))),
        Buffer.from('{"id":202,"child":{"surname":"Sm'),
        Buffer.from([0xff, 0xfe]),
        Buffer.from('th"}}\n'),
      ]),
    );
    const stopped = await runLoad(t, ['--type', 'birth', bad], env);
    assert.equal(stopped.code, 1);
    assert.match(
      stopped.err,
      new RegExp(`${bad.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')}:3: invalid birth record: not valid UTF-8`),
    );
    assert.equal(
      (await admin.query(`SELECT count(*)::int AS n FROM ${schema}.birth_registration WHERE id >= 200 AND id < 300`))
        .rows[0].n,
      0,
    );
  });
});
