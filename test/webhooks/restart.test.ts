/**
 * A real PostgreSQL server restarted (`pg_ctl restart -m fast`) while webhooks are being delivered:
 * a private server of the test's own (initdb into a temporary folder, on a free port; the shared
 * server at 127.0.0.1:5432 is never touched), migrations, a delivery worker and real receivers.
 * Every event arrives, in feed order per subscription; an event sent twice carries the same
 * webhook-id; the worker and the pool resume by themselves, and loads after the restart are
 * delivered too.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { accessSync, chownSync, constants, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { loadSources } from '../../src/load/loader.ts';
import { postgresBackend } from '../../src/backend/postgres.ts';
import { migrate } from '../../src/store/migrations.ts';
import { openPostgres } from '../../src/store/pg-driver.ts';
import { newSecret } from '../../src/webhooks/signing.ts';
import { startConfiguredDelivery } from '../../src/webhooks/start.ts';
import { SETTINGS, type Receiver, startReceiver, until } from './receiver.ts';
import { deaths } from '../death-source.ts';
import { builtInType, builtInTypes as records } from '../record-types.ts';

const run = promisify(execFile);
const BIN = process.env.POSTGRES_BIN ?? '/usr/lib/postgresql/15/bin';

/**
 * Why the test cannot run here, or false: it needs PostgreSQL's server binaries and an OS user to run them
 * (initdb refuses root).
 */
async function unavailable(): Promise<string | false> {
  for (const tool of ['initdb', 'pg_ctl']) {
    try {
      accessSync(join(BIN, tool), constants.X_OK);
    } catch {
      return `no ${join(BIN, tool)} (PostgreSQL's server binaries; POSTGRES_BIN names another folder)`;
    }
  }
  if (process.getuid?.() === 0) {
    try {
      await run('id', ['-u', 'postgres']);
      await run('runuser', ['--help']);
    } catch {
      return 'running as root without a postgres OS user and runuser to run the server as';
    }
  }
  return false;
}
const skip = await unavailable();

/** Runs a server binary as the `postgres` OS user when this process is root (initdb and postgres refuse root). */
const asPostgres = (tool: string, args: string[]) =>
  process.getuid?.() === 0
    ? run('runuser', ['-u', 'postgres', '--', join(BIN, tool), ...args])
    : run(join(BIN, tool), args);

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A server of the test's own, in a temporary folder: its URL, and how to restart it. */
async function privateServer(t: { after(fn: () => unknown): void }) {
  const folder = mkdtempSync(join(tmpdir(), 'lev-pg-restart-'));
  if (process.getuid?.() === 0) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: group } = await run('id', ['-g', 'postgres']);
    chownSync(folder, Number(stdout.trim()), Number(group.trim()));
  }
  const data = join(folder, 'data');
  const port = await freePort();
  await asPostgres('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8']);
  const options = `-p ${port} -k ${folder} -c listen_addresses=127.0.0.1 -c fsync=off`;
  const pgCtl = (...args: string[]) =>
    asPostgres('pg_ctl', ['-D', data, '-l', join(folder, 'server.log'), '-o', options, '-w', '-t', '60', ...args]);
  await pgCtl('start');
  t.after(async () => {
    await asPostgres('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => {});
    rmSync(folder, { recursive: true, force: true });
  });
  return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, restart: () => pgCtl('-m', 'fast', 'restart') };
}

const idsFrom = (first: number, n: number) => Array.from({ length: n }, (_, i) => first + i);

/**
 * What a receiver must have been given: every position once at least, first copies in feed order, every
 * copy with its one webhook-id.
 */
function assertComplete(receiver: Receiver, expected: readonly number[], name: string) {
  const taken = receiver.taken();
  const firsts = [...new Set(taken)];
  assert.deepEqual(firsts, expected, `${name}: every event, in feed order`);
  assert.ok(
    receiver.received.every((r) => r.id === `msg_lev_${r.position}`),
    `${name}: every copy of an event with its one webhook-id`,
  );
  return taken.length - firsts.length;
}

test('a PostgreSQL server restarted mid-delivery: nothing lost, in order, duplicates only with the same ' +
  'webhook-id, delivery resuming by itself', {
  skip,
  timeout: 180_000,
}, async (t) => {
  const server = await privateServer(t);
  const driver = openPostgres({ url: server.url, poolSize: 4, statementTimeoutMs: 10_000 });
  // after the server's own teardown: what it hears meanwhile is ignored, as any lost connection
  t.after(() => driver.close());
  await migrate(driver);
  const backend = postgresBackend(driver, records);

  // Two subscriptions, each with its receiver; enough events that delivery is under way at the restart.
  const receivers = [await startReceiver(t), await startReceiver(t)];
  for (const [index, receiver] of receivers.entries()) {
    await backend.subscriptions.add({ client: `dept-${index}`, events: ['death.registered'], fields: [] });
    await backend.webhooks.setEndpoint(`dept-${index}`, { url: receiver.url }, { secret: newSecret() });
  }
  const logged: string[] = [];
  const log = {
    info: (_d: object, message: string) => void logged.push(message),
    warn: (_d: object, message: string) => void logged.push(message),
  };
  const delivery = startConfiguredDelivery(SETTINGS, backend, records, log, undefined, {
    pollMs: 100,
    backoff: () => 100,
    slots: 2,
    batch: 20,
  });
  t.after(() => delivery.stop());

  const before = 3000;
  await loadSources(backend.writer, builtInType('death'), [deaths(idsFrom(1, before))]);
  const bootTime = async () =>
    (await driver.query<{ at: Date }>('SELECT pg_postmaster_start_time() AS at'))[0].at.getTime();
  const firstBoot = await bootTime();
  await until(() => receivers.every((r) => r.taken().length >= 100), 'delivery under way', 60_000);
  await server.restart();
  const takenAtRestart = receivers.map((r) => new Set(r.taken()).size);
  assert.ok(
    takenAtRestart.every((n) => n < before),
    `delivery was still under way at the restart (${takenAtRestart.join(', ')} of ${before})`,
  );

  // The pool opens new connections by itself: a load after the restart commits, and is delivered too.
  await until(
    async () => (await bootTime().catch(() => firstBoot)) !== firstBoot,
    'the restarted server answering',
    30_000,
  );
  await loadSources(backend.writer, builtInType('death'), [deaths(idsFrom(before + 1, 100))]);
  const expected = Array.from({ length: before + 100 }, (_, i) => i + 1);
  await until(
    () => receivers.every((r) => new Set(r.taken()).size === expected.length),
    'every event at both receivers',
    120_000,
  );

  const duplicates = receivers.map((receiver, index) => assertComplete(receiver, expected, `dept-${index}`));
  // At least once: what was in flight at the restart (a position not yet recorded) may come twice, never
  // more than a few.
  assert.ok(
    duplicates.every((n) => n <= 40),
    `duplicates: ${duplicates.join(', ')}`,
  );
  for (const [index] of receivers.entries()) {
    await until(
      async () => (await backend.webhooks.get(`dept-${index}`))!.deliveredThrough === expected.length,
      `dept-${index}'s position recorded through the last event`,
      10_000,
    );
  }
  // The worker noticed, and said so once it could work again.
  assert.ok(
    logged.some((message) => /paused|interrupted/.test(message)),
    logged.join('; '),
  );
  const [{ entries }] = await driver.query<{ entries: number }>(
    `SELECT count(*)::int AS entries FROM audit_log WHERE username = 'lev-api-deliver'`,
  );
  assert.ok(entries >= 2 * expected.length, `every delivery audited (${entries} entries)`);
});
