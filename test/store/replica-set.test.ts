/**
 * The service over a real primary and streaming standby (pg-cluster.ts): what a client sees when
 * the replica lags behind what the feed announced, and when it stops and comes back.
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import { openBackend, loadMock } from '../../src/backend/open.ts';
import { loadSources } from '../../src/load/loader.ts';
import { verifiedPaths } from '../../src/records/verification.ts';
import { migrate } from '../../src/store/migrations.ts';
import { openPostgres } from '../../src/store/pg-driver.ts';
import { createPostgresRecords } from '../../src/store/postgres-records.ts';
import type { RecordWriter } from '../../src/model/store.ts';
import { FULL_DETAILS, startApp, testConfig } from '../helper.ts';
import { clusterUnavailable, startCluster } from './pg-cluster.ts';
import { builtInType, builtInTypes as records, builtInServiceTypes } from '../record-types.ts';

const skip = clusterUnavailable();
const MAX_LAG_MS = 1000;
const PROBE_MS = 100;

/** Waits until `check` holds, at most `ms`; resolves with the time it took. */
async function until(check: () => boolean | Promise<boolean>, ms: number, what: string): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > ms) throw new Error(`${what}: not within ${ms} ms`);
    await sleep(20);
  }
  return Date.now() - started;
}

/** Loads one birth record as any load does (its feed event included). */
const loadBirth = (writer: RecordWriter, record: object) =>
  loadSources(writer, builtInType('birth'), [{ name: 'test', size: undefined, open: () => [JSON.stringify(record)] }]);

test('a lagging replica: the primary answers what it lacks, and past the bound it answers nothing', {
  skip,
  timeout: 120_000,
}, async (t) => {
  const cluster = await startCluster(t);
  const [standby] = cluster.standbys;
  const owner = openPostgres({ url: cluster.primary.url, poolSize: 2, statementTimeoutMs: 10_000 });
  t.after(() => owner.close());
  await migrate(owner);
  const { writer } = createPostgresRecords(owner, records);
  await loadMock(writer, builtInServiceTypes);
  await cluster.caughtUp();

  const config = testConfig({
    DATABASE_URL: cluster.primary.url,
    DATABASE_READ_URLS: standby.url,
    DATABASE_READ_MAX_LAG_MS: String(MAX_LAG_MS),
    DATABASE_READ_PROBE_MS: String(PROBE_MS),
    AUTH_MODE: 'mock',
  });
  const backend = await openBackend(config, builtInServiceTypes);
  t.after(() => backend.close());
  const app = await startApp(t, backend, config);
  const paths = () => (backend.records.readPaths as NonNullable<typeof backend.records.readPaths>)();
  await until(() => paths().replicas[0].condition === 'up', 5000, 'the replica in rotation');

  const known = await app.get('/v1/registration/birth/123456789', FULL_DETAILS);
  assert.equal(known.status, 200);
  const before = paths().fallbacks;
  assert.equal((await app.get('/v1/registration/birth/123456789', FULL_DETAILS)).status, 200);
  assert.deepEqual(paths().fallbacks, before, 'answered by the replica');

  // The standby stops replaying: from here it falls behind everything the primary commits.
  await standby.query('SELECT pg_wal_replay_pause()');
  const pausedAt = Date.now();
  await loadBirth(writer, { ...known.body, id: 888000001 });
  const [{ position }] = await cluster.primary.query<{ position: string }>(
    'SELECT position::text AS position FROM feed_head',
  );
  // Announced by the feed, found at once: the replica's 404 is asked again of the primary.
  const fresh = await app.get('/v1/registration/birth/888000001', FULL_DETAILS);
  assert.equal(fresh.status, 200, fresh.text);
  assert.equal(paths().fallbacks.empty, before.empty + 1);

  // A registration cancelled on the primary; the replica still holds it as it was.
  const cancelled = { ...known.body, status: { ...known.body.status, cancelled: true } };
  await loadBirth(writer, cancelled);
  const [{ position: cancelledAt }] = await cluster.primary.query<{ position: string }>(
    'SELECT position::text AS position FROM feed_head',
  );
  assert.ok(Number(cancelledAt) > Number(position));
  // With the event's position the answer is at least as new as the event, at once.
  const withPosition = await app.get('/v1/registration/birth/123456789', {
    ...FULL_DETAILS,
    'x-feed-position': cancelledAt,
  });
  assert.equal(withPosition.body.status.cancelled, true);
  assert.equal(
    (await app.get('/v1/registration/birth/123456789', { ...FULL_DETAILS, 'x-feed-position': 'soon' })).body.code,
    'BadRequest',
  );

  // Past the bound it is out of rotation, measured, not asked per request.
  await until(() => paths().replicas[0].condition === 'lagging', 3 * MAX_LAG_MS, 'the lagging replica out of rotation');
  const outAfter = Date.now() - pausedAt;
  const cancelledFlagAt = verifiedPaths(records.find((d) => d.name === 'birth')!).indexOf('status.cancelled');
  const [key] = await owner.query<{ date: string; surname: string; forenames: string }>(
    "SELECT to_char(date, 'YYYY-MM-DD') AS date, surname, forenames FROM birth_search_key WHERE id = 123456789 LIMIT 1",
  );
  const candidates = await backend.records.verificationCandidates('birth', key, 100, 10);
  // Two: the registration, and the one loaded as its copy.
  assert.deepEqual([...candidates.ids].sort(), [123456789, 888000001]);
  assert.equal(
    candidates.records[candidates.ids.indexOf(123456789)][cancelledFlagAt],
    true,
    "verified against the cancelled registration, not the replica's",
  );
  assert.equal((await app.get('/v1/registration/birth/123456789', FULL_DETAILS)).body.status.cancelled, true);
  const metrics = (await app.get('/metrics')).text;
  assert.match(metrics, /lev_db_replica_up\{replica="1",condition="lagging"\} 0/);
  assert.match(metrics, /lev_db_replica_lag_seconds\{replica="1"\} [1-9]/);
  assert.match(metrics, /lev_db_primary_fallback_reads_total\{reason="empty"\} [1-9]/);
  assert.equal((await app.get('/readiness')).status, 200);

  await standby.query('SELECT pg_wal_replay_resume()');
  const backAfter = await until(() => paths().replicas[0].condition === 'up', 5000, 'the replica back in rotation');
  const replicaAnswer = await app.get('/v1/registration/birth/123456789', FULL_DETAILS);
  assert.equal(replicaAnswer.body.status.cancelled, true);
  t.diagnostic(
    `lag: out of rotation ${outAfter} ms after replay paused (bound ${MAX_LAG_MS} ms, probed ` +
      `every ${PROBE_MS} ms); back ${backAfter} ms after replay resumed`,
  );
});

test('a replica that stops is out of rotation within two seconds, no answer fails, and it is back when it answers', {
  skip,
  timeout: 120_000,
}, async (t) => {
  const cluster = await startCluster(t, { standbys: 2 });
  const owner = openPostgres({ url: cluster.primary.url, poolSize: 2, statementTimeoutMs: 10_000 });
  t.after(() => owner.close());
  await migrate(owner);
  await loadMock(createPostgresRecords(owner, records).writer, builtInServiceTypes);
  await cluster.caughtUp();
  const config = testConfig({
    DATABASE_URL: cluster.primary.url,
    DATABASE_READ_URLS: cluster.standbys.map((s) => s.url).join(','),
    DATABASE_READ_PROBE_MS: '250',
    AUTH_MODE: 'mock',
  });
  const backend = await openBackend(config, builtInServiceTypes);
  t.after(() => backend.close());
  const app = await startApp(t, backend, config);
  const paths = () => (backend.records.readPaths as NonNullable<typeof backend.records.readPaths>)();
  await until(() => paths().replicas.every((r) => r.condition === 'up'), 5000, 'both replicas in rotation');

  // 20 clients read throughout.
  let reading = true;
  const statuses: Record<number, number> = {};
  const clients = Array.from({ length: 20 }, async (_, i) => {
    while (reading) {
      const path =
        i % 2
          ? '/v1/registration/birth/123456789'
          : '/v1/registration/death?surname=Carlyle&forenames=Edwin&date=2017-02-09';
      const { status } = await app.get(path);
      statuses[status] = (statuses[status] ?? 0) + 1;
    }
  });
  await sleep(300);
  await cluster.standbys[0].stop('immediate');
  const downAfter = await until(
    () => paths().replicas[0].condition === 'down',
    2000,
    'the stopped replica out of rotation',
  );
  assert.equal(paths().replicas[1].condition, 'up');
  assert.equal((await app.get('/readiness')).status, 200);
  assert.match((await app.get('/metrics')).text, /lev_db_replica_up\{replica="1",condition="down"\} 0/);
  await sleep(500);
  await cluster.standbys[0].start();
  const backAfter = await until(
    () => paths().replicas[0].condition === 'up',
    10_000,
    'the restarted replica back in rotation',
  );
  await sleep(300);
  reading = false;
  await Promise.all(clients);
  assert.deepEqual(Object.keys(statuses), ['200'], `every answer 200: ${JSON.stringify(statuses)}`);
  t.diagnostic(
    `failure: out of rotation ${downAfter} ms after it stopped, back ${backAfter} ms after it ` +
      `started; ${statuses[200]} answers, all 200; ${paths().fallbacks.failed} reads failed on it and were ` +
      `asked of the primary`,
  );
});
