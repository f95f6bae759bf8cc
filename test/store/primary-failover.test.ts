/**
 * A primary that fails over behind the one address the service is given (pg-cluster.ts): the
 * primary crashes under 20 clients' lookups, the standby is promoted and the address moved to it,
 * as failover tooling moves a DNS name, a virtual IP or a proxy's target. The service, unchanged
 * and not restarted, answers again within 10 s of the promotion, only 503s in the gap, every 200
 * audited on the new primary and its chains intact. The address is a TCP forwarder
 * (failover-cluster.ts); deliver-failover.test.ts takes the webhook worker across the same.
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import { verifyAuditChain } from '../../src/audit/verify.ts';
import { loadMock, openBackend } from '../../src/backend/open.ts';
import { openPostgres } from '../../src/store/pg-driver.ts';
import { createPostgresRecords } from '../../src/store/postgres-records.ts';
import { startApp, testConfig } from '../helper.ts';
import { builtInTypes as records, builtInServiceTypes } from '../record-types.ts';
import { migratedCluster, movableAddress } from './failover-cluster.ts';
import { drive } from './lookups-under-load.ts';
import { clusterUnavailable } from './pg-cluster.ts';

const skip = clusterUnavailable();

test('a primary failing over behind one address: answers resume within 10 s of the promotion, only 503s ' +
  'meanwhile, every 200 audited', {
  skip,
  timeout: 180_000,
}, async (t) => {
  const { primary, standby } = await migratedCluster(t, (owner) =>
    loadMock(createPostgresRecords(owner, records).writer, builtInServiceTypes),
  );

  const address = await movableAddress(t, primary.port);
  const config = testConfig({
    DATABASE_URL: address.url,
    AUTH_MODE: 'mock',
    DATABASE_SYNCHRONOUS_COMMIT: 'remote_write',
  });
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
  assert.deepEqual(
    Object.keys(statuses).filter((status) => status !== '200' && status !== '503'),
    [],
    `only 200 and 503: ${JSON.stringify(statuses)}`,
  );

  const kept = new Set(
    (await standby.query<{ request_id: string }>('SELECT request_id FROM audit_log')).map((row) => row.request_id),
  );
  const lost = answered.filter((id) => !kept.has(id));
  assert.deepEqual(
    lost,
    [],
    `${lost.length} of ${answered.length} answered lookups have no audit entry on the new primary`,
  );
  const reader = openPostgres({ url: standby.url, poolSize: 1, statementTimeoutMs: 30_000 });
  t.after(() => reader.close());
  const verified = await verifyAuditChain(reader);
  assert.ok(verified.ok, JSON.stringify(verified));
  t.diagnostic(
    `primary stopped, standby promoted ${promotedAt - crashedAt} ms later; answers resumed ${resumedMs} ms ` +
      `after the promotion; ${JSON.stringify(statuses)}; ${answered.length} answered, all audited`,
  );
});
