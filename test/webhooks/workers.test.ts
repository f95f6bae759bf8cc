/**
 * Delivery that loses nothing, against the real PostgreSQL server: a `lev-api deliver` process
 * killed with SIGKILL while a request is in flight, and another taking its subscription over
 * within the lease, sending again only what was not acknowledged, with the same webhook-id; and
 * every database connection of a worker cut mid-delivery (what a server restart does to it),
 * delivery pausing and resuming by itself; and the audit trail stalled or refusing its entries,
 * where a delivered position is never recorded past an event whose entry is not committed, and
 * such events are sent again, with the same webhook-id, and audited then.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import pg from 'pg';
import { loadSources } from '../../src/load/loader.ts';
import { postgresBackend } from '../../src/backend/postgres.ts';
import { migrate } from '../../src/store/migrations.ts';
import { openPostgres } from '../../src/store/pg-driver.ts';
import { newSecret } from '../../src/webhooks/signing.ts';
import { startConfiguredDelivery } from '../../src/webhooks/start.ts';
import { UNKEPT_LIMIT } from '../../src/webhooks/worker.ts';
import { deaths } from '../death-source.ts';
import { TEST_DATABASE_URL, emptySchema, postgresAvailable, onEnd } from '../helper.ts';
import { SETTINGS, startReceiver, until } from './receiver.ts';
import { builtInType, builtInTypes as records } from '../record-types.ts';

const BIN = fileURLToPath(new URL('../../bin/lev-api.js', import.meta.url));
const skip = !(await postgresAvailable()) && 'no PostgreSQL server';

async function postgresStore(t: { after(fn: () => unknown): void }) {
  let backend: ReturnType<typeof postgresBackend> | undefined;
  const { schema, admin } = await emptySchema(t, () => backend?.close());
  const driver = openPostgres({
    url: TEST_DATABASE_URL,
    schema,
    poolSize: 4,
    statementTimeoutMs: 10_000,
    applicationName: schema,
  });
  await migrate(driver);
  backend = postgresBackend(driver, records);
  return { backend, schema, admin };
}

function deliverProcess(schema: string, extra: string[] = []): ChildProcess {
  const child = spawn(process.execPath, [BIN, 'deliver', '--slots', '2', ...extra], {
    env: {
      ...process.env,
      DATABASE_URL: TEST_DATABASE_URL,
      DATABASE_SCHEMA: schema,
      WEBHOOK_ALLOW_HTTP: 'loopback',
      WEBHOOK_LEASE_S: '5',
      WEBHOOK_TIMEOUT_S: '4',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return child;
}

test('kill -9 of a worker mid-delivery loses nothing; another takes over within the lease, duplicating only ' +
  'with the same webhook-id', {
  skip,
  timeout: 90_000,
}, async (t) => {
  const { backend, schema } = await postgresStore(t);
  const receiver = await startReceiver(t);
  const held: { id: string; position: number }[] = [];
  receiver.answer = ({ id, position }) => {
    // The third event's first request is never answered: the worker is killed waiting for it.
    if (held.length === 0 && receiver.received.length === 2) {
      held.push({ id, position });
      return undefined;
    }
    return { status: 200 };
  };
  await backend.subscriptions.add({ client: 'dwp', events: ['death.registered'], fields: [] });
  await backend.webhooks.setEndpoint('dwp', { url: receiver.url }, { secret: newSecret() });
  await loadSources(backend.writer, builtInType('death'), [deaths([1, 2, 3, 4, 5, 6])]);

  const first = deliverProcess(schema);
  onEnd(t, () => first.kill('SIGKILL'));
  await until(() => held.length === 1, 'the third request, held', 30_000);
  first.kill('SIGKILL');
  await once(first, 'exit');
  const killedAt = Date.now();

  const second = deliverProcess(schema, ['--metrics-port', '0']);
  onEnd(t, () => second.kill('SIGTERM'));
  let output = '';
  second.stdout!.on('data', (chunk: Buffer) => void (output += chunk.toString()));
  await until(() => new Set(receiver.taken()).size === 6, 'every event, from the second worker', 40_000);
  assert.ok(Date.now() - killedAt < 5000 + 15_000, 'taken over within the lease (plus the process start)');
  // At least once: a lease running out on a loaded machine may send an event twice, always with its webhook-id.
  const positions = [...new Set(receiver.taken())];
  assert.equal(positions.length, 6);
  assert.deepEqual(
    positions,
    [...positions].sort((a, b) => a - b),
    'in feed order',
  );
  assert.ok(
    receiver.received.every((r) => r.id === `msg_lev_${r.position}`),
    'every copy of an event with its one webhook-id',
  );
  const again = receiver.received.find((r) => r.position === held[0].position)!;
  assert.equal(again.id, held[0].id, 'sent again with the same webhook-id');
  // The position is recorded behind the sending: it reaches the last event taken a moment after its 2xx.
  const last = Math.max(...positions);
  await until(
    async () => (await backend.webhooks.get('dwp'))!.deliveredThrough === last,
    'the last position recorded',
    10_000,
  );
  assert.equal((await backend.webhooks.get('dwp'))!.deliveredThrough, last);
  // Its metrics, per subscription.
  const port = JSON.parse(output.split('\n').find((line) => line.includes('metricsPort'))!).metricsPort;
  const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  assert.match(metrics, /^lev_webhook_delivered_total\{subscription="dwp"\} [1-6]$/m);
  assert.match(metrics, /^lev_webhook_oldest_undelivered_seconds\{subscription="dwp"\} 0$/m);
  second.kill('SIGTERM');
  const [code] = await once(second, 'exit');
  assert.equal(code, 0, 'SIGTERM stops a worker cleanly');
});

test('every database connection of a worker cut mid-delivery: delivery pauses, then resumes by itself with ' +
  'nothing lost', {
  skip,
  timeout: 60_000,
}, async (t) => {
  const { backend, schema, admin } = await postgresStore(t);
  const receiver = await startReceiver(t);
  let cut = false;
  receiver.answer = () => {
    if (receiver.received.length === 3 && !cut) {
      cut = true;
      // What a server restart does to the worker's connections, while it waits for this answer.
      void admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1', [schema]);
    }
    return { status: 200 };
  };
  await backend.subscriptions.add({ client: 'dwp', events: ['death.registered'], fields: [] });
  await backend.webhooks.setEndpoint('dwp', { url: receiver.url }, { secret: newSecret() });
  const logged: string[] = [];
  const log = {
    info: (_d: object, message: string) => void logged.push(message),
    warn: (_d: object, message: string) => void logged.push(message),
  };
  const unkeptLimit = 2;
  const delivery = startConfiguredDelivery(SETTINGS, backend, records, log, undefined, {
    pollMs: 100,
    backoff: () => 100,
    unkeptLimit,
  });
  onEnd(t, () => delivery.stop());
  await loadSources(backend.writer, builtInType('death'), [deaths([1, 2, 3, 4, 5, 6, 7, 8])]);
  await until(() => new Set(receiver.taken()).size === 8, 'all eight delivered after the cut', 40_000);
  assert.ok(cut);
  const positions = receiver.taken();
  // Sent twice at most: the one in flight at the cut, and those taken before it whose audit entries were
  // not yet committed (their positions are not recorded, so they go again); in order otherwise.
  assert.ok(positions.length <= 8 + 1 + unkeptLimit, positions.join());
  assert.deepEqual(
    [...new Set(positions)],
    [...new Set(positions)].sort((a, b) => a - b),
  );
  const check = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await check.connect();
  t.after(() => check.end());
  // Recorded behind the sending, once the last entry is committed: a moment after the last 2xx.
  const through = async () =>
    (await check.query(`SELECT delivered_through::int AS through FROM ${schema}.webhook_endpoint`)).rows[0].through;
  await until(async () => (await through()) === Math.max(...positions), 'the last position recorded', 10_000);
  assert.equal(await through(), Math.max(...positions));
});

/** The deliveries audited (committed, as another connection sees them) and the recorded position. */
async function deliveryState(admin: pg.Client, schema: string) {
  const entries = (
    await admin.query(
      `SELECT events[1]::int AS position FROM ${schema}.audit_log WHERE username = 'lev-api-deliver' AND ` +
        `query LIKE '% outcome=delivered %'`,
    )
  ).rows.map((r) => r.position as number);
  const [{ through }] = (await admin.query(`SELECT delivered_through::int AS through FROM ${schema}.webhook_endpoint`))
    .rows;
  return { entries, through: through as number };
}

/**
 * Every delivery entry statement, from the `from`-th committed entry on, runs `body` first (in the audit
 * writer's own transaction).
 */
async function guardAuditTrail(admin: pg.Client, schema: string, from: number, body: string) {
  await admin.query(`CREATE FUNCTION ${schema}.guard_audit() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF (SELECT count(*) FROM ${schema}.audit_log WHERE username = 'lev-api-deliver') >= ${from} THEN ${body}; END IF;
      RETURN NULL;
    END $$`);
  await admin.query(
    `CREATE TRIGGER guard BEFORE INSERT ON ${schema}.audit_log FOR EACH STATEMENT EXECUTE ` +
      `FUNCTION ${schema}.guard_audit()`,
  );
  return () => admin.query(`DROP TRIGGER guard ON ${schema}.audit_log`);
}

test('the audit trail stalled mid-delivery, then the worker killed with kill -9: the position never passes ' +
  'an event whose entry is not committed; those events go again, with the same webhook-id, and are audited then', {
  skip,
  timeout: 90_000,
}, async (t) => {
  const { backend, schema, admin } = await postgresStore(t);
  const receiver = await startReceiver(t);
  await backend.subscriptions.add({ client: 'dwp', events: ['death.registered'], fields: [] });
  await backend.webhooks.setEndpoint('dwp', { url: receiver.url }, { secret: newSecret() });
  const ids = Array.from({ length: 20 }, (_, i) => i + 1);
  await loadSources(backend.writer, builtInType('death'), [deaths(ids)]);
  // From the third entry on, each statement waits for an advisory lock the test holds: the worker's entries
  // stop committing.
  const key = 1_000_000 + Math.floor(Math.random() * 1_000_000_000);
  const locker = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await locker.connect();
  t.after(() => locker.end());
  await locker.query('SELECT pg_advisory_lock($1)', [key]);
  const unguard = await guardAuditTrail(admin, schema, 3, `PERFORM pg_advisory_xact_lock(${key})`);

  const first = deliverProcess(schema);
  onEnd(t, () => first.kill('SIGKILL'));
  // The worker goes on sending while the entries of the events before commit, never more than UNKEPT_LIMIT
  // of them behind.
  let state = await deliveryState(admin, schema);
  await until(
    async () => {
      state = await deliveryState(admin, schema);
      return (
        state.entries.length >= 3 &&
        receiver.received.length === state.entries.length + UNKEPT_LIMIT + 1 &&
        state.through === state.entries.length
      );
    },
    'the worker stopped, its entries not committing',
    30_000,
  );
  await new Promise((resolve) => setTimeout(resolve, 500));
  const committed = state.entries.length;
  const sentAhead = Array.from({ length: UNKEPT_LIMIT + 1 }, (_, i) => committed + 1 + i);
  assert.deepEqual(
    receiver.taken(),
    [...ids.slice(0, committed), ...sentAhead],
    'taken in order, no further than its limit past the last entry committed',
  );
  assert.deepEqual(
    state.entries.sort((a, b) => a - b),
    ids.slice(0, committed),
  );
  assert.equal(
    (await deliveryState(admin, schema)).through,
    committed,
    'the position recorded through the entries committed, and no further',
  );

  // Killed before those entries commit: they never do (their statements are ended with the worker).
  first.kill('SIGKILL');
  await once(first, 'exit');
  await admin.query(
    `SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND classid = 0 AND objid = ` +
      `$1 AND NOT granted`,
    [key],
  );
  await until(
    async () =>
      (
        await admin.query(
          `SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND classid = 0 AND objid = $1 AND NOT granted`,
          [key],
        )
      ).rows.length === 0,
    'the stalled statements ended',
  );
  await unguard();
  await locker.query('SELECT pg_advisory_unlock($1)', [key]);
  assert.deepEqual(
    (await deliveryState(admin, schema)).entries.sort((a, b) => a - b),
    ids.slice(0, committed),
    'nothing of the sending ahead was audited',
  );

  const second = deliverProcess(schema);
  onEnd(t, () => second.kill('SIGTERM'));
  await until(() => new Set(receiver.taken()).size === ids.length, 'every event, from the second worker', 40_000);
  await until(
    async () => (await deliveryState(admin, schema)).through === ids.length,
    'the last position recorded',
    10_000,
  );
  const taken = receiver.taken();
  assert.deepEqual([...new Set(taken)], ids, 'in feed order');
  for (const position of sentAhead)
    assert.ok(taken.filter((p) => p === position).length >= 2, `event ${position} sent again`);
  assert.ok(
    receiver.received.every((r) => r.id === `msg_lev_${r.position}`),
    'every copy of an event with its one webhook-id',
  );
  const { entries } = await deliveryState(admin, schema);
  for (const position of ids) assert.ok(entries.includes(position), `event ${position}'s delivery audited`);
  second.kill('SIGTERM');
  await once(second, 'exit');
});

test('the audit trail refusing entries mid-delivery: the turn stops, the position stays behind the first ' +
  'entry refused, and the event goes again, with the same webhook-id, until its entry is kept', {
  skip,
  timeout: 60_000,
}, async (t) => {
  const { backend, schema, admin } = await postgresStore(t);
  const receiver = await startReceiver(t);
  await backend.subscriptions.add({ client: 'dwp', events: ['death.registered'], fields: [] });
  await backend.webhooks.setEndpoint('dwp', { url: receiver.url }, { secret: newSecret() });
  const ids = Array.from({ length: 12 }, (_, i) => i + 1);
  const unguard = await guardAuditTrail(admin, schema, 3, `RAISE EXCEPTION 'the test refuses this entry'`);
  const logged: string[] = [];
  const log = {
    info: (_d: object, message: string) => void logged.push(message),
    warn: (_d: object, message: string) => void logged.push(message),
  };
  const delivery = startConfiguredDelivery(SETTINGS, backend, records, log, undefined, {
    pollMs: 100,
    backoff: () => 100,
    unkeptLimit: UNKEPT_LIMIT,
  });
  onEnd(t, () => delivery.stop());
  await loadSources(backend.writer, builtInType('death'), [deaths(ids)]);

  // Refused, the first unkept event is sent again and again; the position never passes it.
  let state = await deliveryState(admin, schema);
  await until(
    async () => {
      state = await deliveryState(admin, schema);
      return state.entries.length >= 3 && receiver.taken().filter((p) => p === state.entries.length + 1).length >= 3;
    },
    'the first event whose entry is refused, sent three times',
    30_000,
  );
  const committed = state.entries.length;
  assert.deepEqual(
    state.entries.sort((a, b) => a - b),
    ids.slice(0, committed),
  );
  await until(
    async () => (await deliveryState(admin, schema)).through === committed,
    'the position through the entries kept',
    10_000,
  );
  assert.ok(
    Math.max(...receiver.taken()) <= committed + UNKEPT_LIMIT + 1,
    `nothing sent further ahead: ${receiver.taken().join()}`,
  );
  assert.ok(logged.includes('webhook delivery interrupted; the subscription is tried again'), logged.join('; '));
  assert.equal((await deliveryState(admin, schema)).through, committed, 'still no further');

  // The trail takes entries again: everything is delivered and audited.
  await unguard();
  await until(() => new Set(receiver.taken()).size === ids.length, 'every event', 20_000);
  await until(
    async () => (await deliveryState(admin, schema)).through === ids.length,
    'the last position recorded',
    10_000,
  );
  assert.deepEqual([...new Set(receiver.taken())], ids, 'in feed order');
  assert.ok(
    receiver.received.every((r) => r.id === `msg_lev_${r.position}`),
    'every copy of an event with its one webhook-id',
  );
  const { entries } = await deliveryState(admin, schema);
  for (const position of ids) assert.ok(entries.includes(position), `event ${position}'s delivery audited`);
});
