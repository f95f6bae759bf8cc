/**
 * DATABASE_SYNCHRONOUS_COMMIT with a synchronous standby (pg-cluster.ts): an audit entry is
 * acknowledged, and so its answer sent, only once the standby has it, so the primary's crash and
 * the standby's promotion lose no entry of an answer sent. And what that costs a lookup.
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import { openBackend, loadMock } from '../../src/backend/open.ts';
import { migrate } from '../../src/store/migrations.ts';
import { openPostgres } from '../../src/store/pg-driver.ts';
import { createPostgresRecords } from '../../src/store/postgres-records.ts';
import { type RunningApp, startApp, testConfig } from '../helper.ts';
import { drive } from './lookups-under-load.ts';
import { clusterUnavailable, startCluster } from './pg-cluster.ts';
import { builtInTypes as records, builtInServiceTypes } from '../record-types.ts';

const skip = clusterUnavailable();

test('with a synchronous standby, every answered lookup has its audit entry on the promoted standby; and its cost', {
  skip,
  timeout: 180_000,
}, async (t) => {
  const cluster = await startCluster(t);
  const {
    primary,
    standbys: [standby],
  } = cluster;
  // On the primary only (the standby was cloned before): its commits wait for standby1 where a session asks.
  await primary.query("ALTER SYSTEM SET synchronous_standby_names = 'standby1'");
  await primary.query("ALTER SYSTEM SET synchronous_commit = 'local'");
  await primary.query('SELECT pg_reload_conf()');
  const owner = openPostgres({ url: primary.url, poolSize: 2, statementTimeoutMs: 10_000 });
  t.after(() => owner.close());
  await migrate(owner);
  await loadMock(createPostgresRecords(owner, records).writer, builtInServiceTypes);
  await cluster.caughtUp();
  const [{ sync_state }] = await primary.query<{ sync_state: string }>(
    "SELECT sync_state FROM pg_stat_replication WHERE application_name = 'standby1'",
  );
  assert.equal(sync_state, 'sync');

  const serve = async (synchronous: boolean): Promise<RunningApp> => {
    const config = testConfig({
      DATABASE_URL: primary.url,
      AUTH_MODE: 'mock',
      ...(synchronous ? { DATABASE_SYNCHRONOUS_COMMIT: 'remote_write' } : {}),
    });
    const backend = await openBackend(config, builtInServiceTypes);
    t.after(() => backend.close().catch(() => {}));
    return startApp(t, backend, config);
  };
  const synchronous = await serve(true);
  const local = await serve(false);

  // The cost: audited lookups a second, alternating, each round 2 s after a warm-up.
  await drive(synchronous.url, sleep(500));
  await drive(local.url, sleep(500));
  const rates: Record<string, number[]> = { remote_write: [], local: [] };
  for (let round = 0; round < 2; round++) {
    for (const [name, app] of [
      ['remote_write', synchronous],
      ['local', local],
    ] as const) {
      const { statuses } = await drive(app.url, sleep(2000));
      assert.deepEqual(Object.keys(statuses), ['200']);
      rates[name].push(statuses['200'] / 2);
    }
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  t.diagnostic(
    `audited lookups/s, 20 clients: remote_write ${rates.remote_write.join(', ')}; ` +
      `local ${rates.local.join(', ')}; ratio ${(mean(rates.remote_write) / mean(rates.local)).toFixed(2)}`,
  );

  // The crash: the primary stopped at once under load, the standby promoted.
  const crashed = (async () => {
    await sleep(1500);
    await primary.stop('immediate');
    await standby.promote();
    await sleep(500);
  })();
  const { statuses, answered } = await drive(synchronous.url, crashed);
  assert.ok(answered.length > 0);
  // Not the standby's own setting any more: the new primary has no standby to wait for.
  const rows = await standby.query<{ request_id: string }>('SELECT request_id FROM audit_log');
  const kept = new Set(rows.map((row) => row.request_id));
  const lost = answered.filter((id) => !kept.has(id));
  assert.deepEqual(
    lost,
    [],
    `${lost.length} of ${answered.length} answered lookups have no audit entry on the promoted standby`,
  );
  t.diagnostic(
    `crash: ${JSON.stringify(statuses)}; all ${answered.length} answered lookups' entries on the promoted standby`,
  );
});
