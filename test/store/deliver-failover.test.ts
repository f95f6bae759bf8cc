/**
 * `lev-api deliver` across a failover behind the one address it is given (failover-cluster.ts):
 * the primary crashes between two loads, the standby is promoted and the address moved to it. The
 * worker, not restarted, reconnects by itself and every event arrives, in order.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import { postgresBackend } from '../../src/backend/postgres.ts';
import { loadSources } from '../../src/load/loader.ts';
import { openPostgres } from '../../src/store/pg-driver.ts';
import { newSecret } from '../../src/webhooks/signing.ts';
import { startReceiver, until } from '../webhooks/receiver.ts';
import { deaths } from '../death-source.ts';
import { builtInType, builtInTypes as records } from '../record-types.ts';
import { migratedCluster, movableAddress } from './failover-cluster.ts';
import { clusterUnavailable } from './pg-cluster.ts';

const skip = clusterUnavailable();

const BIN = fileURLToPath(new URL('../../bin/lev-api.js', import.meta.url));

test('lev-api deliver across a failover behind one address: it reconnects by itself, and every event ' +
  'arrives, in order', {
  skip,
  timeout: 180_000,
}, async (t) => {
  const { primary, standby } = await migratedCluster(t);

  const address = await movableAddress(t, primary.port);
  const backend = postgresBackend(openPostgres({ url: address.url, poolSize: 2, statementTimeoutMs: 10_000 }), records);
  t.after(() => backend.close().catch(() => {}));
  const receiver = await startReceiver(t);
  await backend.subscriptions.add({ client: 'dwp', events: ['death.registered'], fields: [] });
  await backend.webhooks.setEndpoint('dwp', { url: receiver.url }, { secret: newSecret() });
  const deliver = spawn(process.execPath, [BIN, 'deliver', '--slots', '2'], {
    env: {
      ...process.env,
      DATABASE_URL: address.url,
      DATABASE_SYNCHRONOUS_COMMIT: 'remote_write',
      WEBHOOK_ALLOW_HTTP: 'loopback',
      WEBHOOK_LEASE_S: '5',
      WEBHOOK_TIMEOUT_S: '4',
    },
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
  assert.deepEqual(
    positions,
    [...positions].sort((a, b) => a - b),
    `in order: ${receiver.taken().join()}`,
  );
  assert.equal(deliver.exitCode, null, 'the worker is still running: it reconnected by itself');
  deliver.kill('SIGTERM');
  // Bounded: a worker that does not stop fails the test rather than hanging the run.
  const [code] = await once(deliver, 'exit', { signal: AbortSignal.timeout(20_000) });
  assert.equal(code, 0, 'and stops cleanly');
  t.diagnostic(
    `all 8 events delivered in order, the last ${resumedMs} ms after the ` +
      `promotion; ${receiver.taken().length} deliveries in all`,
  );
});
