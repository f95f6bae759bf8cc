/**
 * A primary that fails over behind the one address the service is given (pg-cluster.ts): the
 * primary crashes under 20 clients' lookups, the standby is promoted and the address moved to it,
 * as failover tooling moves a DNS name, a virtual IP or a proxy's target. The service, unchanged
 * and not restarted, answers again within 10 s of the promotion, only 503s in the gap, every 200
 * audited on the new primary and its chains intact. The address is a TCP forwarder made here.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { type Socket, connect, createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import { verifyAuditChain } from '../../src/audit/verify.ts';
import { loadMock, openBackend } from '../../src/backend/open.ts';
import { migrate } from '../../src/store/migrations.ts';
import { openPostgres } from '../../src/store/pg-driver.ts';
import { createPostgresRecords } from '../../src/store/postgres-records.ts';
import { postgresBackend } from '../../src/backend/postgres.ts';
import { type Source, loadSources } from '../../src/load/loader.ts';
import { newSecret } from '../../src/webhooks/signing.ts';
import { startApp, testConfig } from '../helper.ts';
import { startReceiver, until } from '../webhooks/receiver.ts';
import { builtInType, builtInTypes as records, builtInServiceTypes } from '../record-types.ts';
import { drive } from './lookups-under-load.ts';
import { clusterUnavailable, startCluster } from './pg-cluster.ts';

const skip = clusterUnavailable();

/** A port on 127.0.0.1 forwarding each connection to `port`, until moved to another. */
async function movableAddress(t: { after(fn: () => unknown): void }, port: number) {
  let target = port;
  const open = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(target, '127.0.0.1');
    for (const [socket, other] of [[client, upstream], [upstream, client]] as const) {
      open.add(socket);
      socket.on('error', () => other.destroy()).on('close', () => (open.delete(socket), other.destroy()));
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => {
    for (const socket of open) socket.destroy();
    return new Promise((resolve) => server.close(resolve));
  });
  return {
    url: `postgres://postgres@127.0.0.1:${(server.address() as { port: number }).port}/postgres`,
    moveTo(next: number) {
      target = next;
    },
  };
}

/**
 * A primary and a synchronous standby (synchronous-audit.test.ts), so that no entry of an answer
 * sent is lost in the crash; migrated, `fill`ed, and replayed by the standby.
 */
async function migratedCluster(t: Parameters<typeof startCluster>[0], fill?: (owner: ReturnType<typeof openPostgres>) => Promise<unknown>) {
  const cluster = await startCluster(t);
  const { primary, standbys: [standby] } = cluster;
  await primary.query("ALTER SYSTEM SET synchronous_standby_names = 'standby1'");
  await primary.query('SELECT pg_reload_conf()');
  const owner = openPostgres({ url: primary.url, poolSize: 2, statementTimeoutMs: 10_000 });
  await migrate(owner);
  await fill?.(owner);
  await owner.close();
  await cluster.caughtUp();
  return { primary, standby };
}

test('a primary failing over behind one address: answers resume within 10 s of the promotion, only 503s meanwhile, every 200 audited', { skip, timeout: 180_000 }, async (t) => {
  const { primary, standby } = await migratedCluster(t, (owner) => loadMock(createPostgresRecords(owner, records).writer, builtInServiceTypes));

  const address = await movableAddress(t, primary.port);
  const config = testConfig({ DATABASE_URL: address.url, AUTH_MODE: 'mock', DATABASE_SYNCHRONOUS_COMMIT: 'remote_write' });
  const backend = await openBackend(config, builtInServiceTypes);
  t.after(() => backend.close().catch(() => {}));
  const app = await startApp(t, backend, config);

  let crashedAt = Infinity;
  let promotedAt = Infinity;
  const failover = (async () => {
    await sleep(1500);
    crashedAt = Date.now();
    await primary.stop('immediate');
    await standby.promote();
    promotedAt = Date.now();
    address.moveTo(standby.port);
    await sleep(12_000);
  })();
  const { statuses, answered, answeredAt } = await drive(app.url, failover);

  const before = answeredAt.filter((at) => at < promotedAt).length;
  const firstAfter = answeredAt.find((at) => at >= promotedAt);
  assert.ok(before > 0, 'lookups were answered before the crash');
  assert.ok(firstAfter !== undefined, `no answer after the promotion: ${JSON.stringify(statuses)}`);
  const resumedMs = firstAfter - promotedAt;
  assert.ok(resumedMs < 10_000, `answers resumed ${resumedMs} ms after the promotion`);
  assert.deepEqual(Object.keys(statuses).filter((status) => status !== '200' && status !== '503'), [], `only 200 and 503: ${JSON.stringify(statuses)}`);

  const kept = new Set((await standby.query<{ request_id: string }>('SELECT request_id FROM audit_log')).map((row) => row.request_id));
  const lost = answered.filter((id) => !kept.has(id));
  assert.deepEqual(lost, [], `${lost.length} of ${answered.length} answered lookups have no audit entry on the new primary`);
  const reader = openPostgres({ url: standby.url, poolSize: 1, statementTimeoutMs: 30_000 });
  t.after(() => reader.close());
  const verified = await verifyAuditChain(reader);
  assert.ok(verified.ok, JSON.stringify(verified));
  t.diagnostic(`primary stopped, standby promoted ${promotedAt - crashedAt} ms later; answers resumed ${resumedMs} ms after the promotion; ${JSON.stringify(statuses)}; ${answered.length} answered, all audited`);
});

const BIN = fileURLToPath(new URL('../../bin/lev-api.js', import.meta.url));

const deaths = (ids: readonly number[]): Source => ({
  name: 'deaths',
  size: undefined,
  open: () => [ids.map((id) => JSON.stringify({ id, deceased: { forenames: 'A', surname: `B${id}`, dateOfDeath: '2024-03-01', dateOfBirth: '1940-01-01' }, status: { blocked: false } })).join('\n')],
});

test('lev-api deliver across a failover behind one address: it reconnects by itself, and every event arrives, in order', { skip, timeout: 180_000 }, async (t) => {
  const { primary, standby } = await migratedCluster(t);

  const address = await movableAddress(t, primary.port);
  const backend = postgresBackend(openPostgres({ url: address.url, poolSize: 2, statementTimeoutMs: 10_000 }), records);
  t.after(() => backend.close().catch(() => {}));
  const receiver = await startReceiver(t);
  await backend.subscriptions.add({ client: 'dwp', events: ['death.registered'], fields: [] });
  await backend.webhooks.setEndpoint('dwp', { url: receiver.url }, { secret: newSecret() });
  const deliver = spawn(process.execPath, [BIN, 'deliver', '--slots', '2'], {
    env: { ...process.env, DATABASE_URL: address.url, DATABASE_SYNCHRONOUS_COMMIT: 'remote_write', WEBHOOK_ALLOW_HTTP: 'loopback', WEBHOOK_LEASE_S: '5', WEBHOOK_TIMEOUT_S: '4' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  t.after(() => deliver.kill('SIGKILL'));

  await loadSources(backend.writer, builtInType('death'), [deaths([1, 2, 3, 4])]);
  await until(() => new Set(receiver.taken()).size === 4, 'the first four events, before the failover', 30_000);

  await primary.stop('immediate');
  await standby.promote();
  const promotedAt = Date.now();
  address.moveTo(standby.port);
  // The writer's pooled connections died with the primary: a load fails until new ones are opened.
  for (;;) {
    try {
      await loadSources(backend.writer, builtInType('death'), [deaths([5, 6, 7, 8])]);
      break;
    } catch (error) {
      if (Date.now() - promotedAt > 20_000) throw error;
      await sleep(200);
    }
  }
  await until(() => new Set(receiver.taken()).size === 8, 'every event, after the failover', 30_000);
  const resumedMs = Math.max(...receiver.received.filter((r) => r.status < 300).map((r) => r.at)) - promotedAt;
  const positions = [...new Set(receiver.taken())];
  assert.deepEqual(positions, [...positions].sort((a, b) => a - b), `in order: ${receiver.taken().join()}`);
  assert.equal(deliver.exitCode, null, 'the worker is still running: it reconnected by itself');
  deliver.kill('SIGTERM');
  const [code] = await once(deliver, 'exit');
  assert.equal(code, 0, 'and stops cleanly');
  t.diagnostic(`all 8 events delivered in order, the last ${resumedMs} ms after the promotion; ${receiver.taken().length} deliveries in all`);
});
