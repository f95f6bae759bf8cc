/**
 * `lev-api load` across a failover (pg-cluster.ts): the primary crashing under a load fails it
 * with a clear message and nothing of it applied; run again against the promoted standby, it
 * completes, and the feed holds each record's event once.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import { migrate } from '../../src/store/migrations.ts';
import { openPostgres } from '../../src/store/pg-driver.ts';
import { clusterUnavailable, startCluster } from '../store/pg-cluster.ts';

const skip = clusterUnavailable();
/** Enough that the load is still under way well after its first progress line, however fast the machine. */
const COUNT = 150_000;

/** Runs the CLI to its end: exit code and what it wrote to standard error. */
function cli(
  args: string[],
  env: Record<string, string>,
  started?: () => void,
): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['bin/lev-api.js', ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      // Progress on standard error: the load is under way.
      if (!stderr && started) started();
      stderr += chunk;
    });
    child.once('error', reject).once('close', (code) => resolve({ code, stderr }));
  });
}

test('a load interrupted by the primary crashing fails clearly, applies nothing, and completes against the ' +
  'promoted standby', {
  skip,
  timeout: 180_000,
}, async (t) => {
  const cluster = await startCluster(t);
  const {
    primary,
    standbys: [standby],
  } = cluster;
  const owner = openPostgres({ url: primary.url, poolSize: 1, statementTimeoutMs: 10_000 });
  await migrate(owner);
  await owner.close();
  const folder = mkdtempSync(join(tmpdir(), 'lev-failover-'));
  t.after(() => rmSync(folder, { recursive: true, force: true }));
  const file = join(folder, 'births.ndjson');
  assert.equal(
    (await cli(['generate', '--type', 'birth', '--count', String(COUNT), '--seed', '7', '--out', file], {})).code,
    0,
  );
  await cluster.caughtUp();

  let crash: Promise<void> | undefined;
  const interrupted = await cli(['load', '--type', 'birth', file], { DATABASE_URL: primary.url }, () => {
    crash = (async () => {
      await sleep(100);
      await primary.stop('immediate');
    })();
  });
  await crash;
  assert.notEqual(interrupted.code, 0, 'the interrupted load fails');
  const message = interrupted.stderr.trim().split('\n').slice(-3).join(' | ');
  assert.doesNotMatch(
    interrupted.stderr,
    /^\s+at /m,
    `a message, not a stack trace: ${interrupted.stderr.slice(-500)}`,
  );
  assert.match(
    interrupted.stderr,
    /the (connection to the database was lost|database refused the connection)|may or may not have been applied/,
    `the database named as what failed: ${message}`,
  );
  await standby.promote();

  const count = async () =>
    (
      await standby.query<{ n: string; events: string; ids: string }>(
        'SELECT (SELECT count(*) FROM birth_registration)::text AS n, count(*)::text AS events, ' +
          "count(DISTINCT record_id)::text AS ids FROM feed_event WHERE record_type = 'birth'",
      )
    )[0];
  assert.deepEqual(await count(), { n: '0', events: '0', ids: '0' }, 'nothing of the interrupted load applied');

  const rerun = await cli(['load', '--type', 'birth', file], { DATABASE_URL: standby.url });
  assert.equal(rerun.code, 0, rerun.stderr);
  assert.deepEqual(
    await count(),
    { n: String(COUNT), events: String(COUNT), ids: String(COUNT) },
    'every record, and its event once',
  );
  t.diagnostic(`interrupted load: exit ${interrupted.code}, "${message}"`);
});
