/**
 * `npm run bench:push`: push delivery (docs/events.md, "Push delivery") on PostgreSQL.
 *
 * Ten subscriptions, each with a receiver on 127.0.0.1: one answering 500 for the first
 * `--fail-s` seconds, one slow (`--slow-ms` per answer), the rest at once. `lev-api deliver`
 * processes (`--workers`, `--slots` each) deliver:
 *   1. throughput: `--events` deaths committed in one load; events delivered per second across
 *      all receivers until every healthy one has them all, then the failing one catching up,
 *      each receiver checked to have every event, in feed order;
 *   2. latency: `--rate` events a second, each its own commit, for `--duration` seconds; from
 *      commit (the event's `time`) to a healthy receiver's answer, p50/p99.
 * For each phase, the database's work per delivery from PostgreSQL's statistics: transactions
 * committed in the database (each statement outside a transaction is one; give the bench a
 * database of its own, or others' work is counted too) and the scans and updates of this schema's
 * delivery tables (its own whatever else runs). The statistics are flushed about once a second,
 * so each phase is read a little after its deliveries end.
 * Needs DATABASE_URL; works in a schema of its own, dropped at the end.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { type Source, loadSources } from '../src/load/loader.ts';
import { postgresBackend } from '../src/backend/postgres.ts';
import { eventTypes } from '../src/records/changes.ts';
import { loadRecordTypes } from '../src/records/index.ts';
import { migrate } from '../src/store/migrations.ts';
import { openPostgres } from '../src/store/pg-driver.ts';
import { newSecret } from '../src/webhooks/signing.ts';
import { percentile } from './lib/events.ts';

/** The record types, read once by this script. */
const records = await loadRecordTypes();
const deathType = records.find((d) => d.name === 'death')!;

const { values } = parseArgs({
  options: {
    events: { type: 'string', default: '100000' },
    rate: { type: 'string', default: '100' },
    duration: { type: 'string', default: '30' },
    'fail-s': { type: 'string', default: '30' },
    'slow-ms': { type: 'string', default: '200' },
    workers: { type: 'string', default: '1' },
    slots: { type: 'string', default: '16' },
  },
});
const count = (name: keyof typeof values) => {
  const n = Number(values[name]);
  if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} must be a whole number`);
  return n;
};
const EVENTS = count('events');
const RATE = count('rate');
const DURATION_S = count('duration');
const FAIL_MS = count('fail-s') * 1000;
const SLOW_MS = count('slow-ms');
const WORKERS = count('workers');
const SLOTS = count('slots');
const url = process.env.DATABASE_URL;
if (!url) {
  console.error('bench:push needs DATABASE_URL (delivery state is kept in PostgreSQL)');
  process.exit(2);
}
const BIN = fileURLToPath(new URL('../bin/lev-api.js', import.meta.url));
const SUBSCRIPTIONS = 10;

interface Receiver {
  readonly name: string;
  readonly kind: 'healthy' | 'failing' | 'slow';
  readonly positions: number[];
  /** Milliseconds from commit to answer, for each event taken. */
  readonly latencies: number[];
  server?: Server;
  url?: string;
}

async function startReceiver(receiver: Receiver, started: number) {
  receiver.server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const answer = () => {
        if (receiver.kind === 'failing' && Date.now() - started < FAIL_MS) return void response.writeHead(500).end();
        const event = JSON.parse(Buffer.concat(chunks).toString());
        receiver.positions.push(Number(event.id));
        receiver.latencies.push(Date.now() - Date.parse(event.time));
        response.writeHead(204).end();
      };
      if (receiver.kind === 'slow') setTimeout(answer, SLOW_MS);
      else answer();
    });
  });
  await new Promise<void>((resolve) => receiver.server!.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(receiver.server!.address() as AddressInfo).port}/hook`;
}

const deaths = (first: number, n: number): Source => ({
  name: 'bench deaths',
  size: undefined,
  async *open() {
    for (let i = 0; i < n; i += 1000) {
      const lines: string[] = [];
      for (let id = first + i; id < first + Math.min(n, i + 1000); id++) {
        lines.push(
          JSON.stringify({
            id,
            deceased: {
              forenames: 'Bench',
              surname: `Person${id}`,
              dateOfDeath: '2024-03-01',
              dateOfBirth: '1940-01-01',
            },
            status: { blocked: false },
          }),
        );
      }
      yield `${lines.join('\n')}\n`;
    }
  },
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
async function until(condition: () => boolean, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) return false;
    await sleep(20);
  }
  return true;
}
interface DatabaseWork {
  readonly transactions: number;
  readonly endpointScans: number;
  readonly endpointUpdates: number;
  readonly subscriptionScans: number;
}
/**
 * What PostgreSQL has counted so far: the database's transactions, and the scans and updates of the
 * schema's delivery tables.
 */
async function databaseWork(): Promise<DatabaseWork> {
  const { rows } = await admin.query<Record<keyof DatabaseWork, string>>(
    `SELECT (SELECT xact_commit + xact_rollback FROM pg_stat_database WHERE datname = current_database()) AS ` +
      `"transactions",
            (SELECT coalesce(seq_scan, 0) + coalesce(idx_scan, 0) FROM pg_stat_user_tables WHERE schemaname ` +
      `= $1 AND relname = 'webhook_endpoint') AS "endpointScans",
            (SELECT n_tup_upd FROM pg_stat_user_tables WHERE schemaname = $1 AND relname = ` +
      `'webhook_endpoint') AS "endpointUpdates",
            (SELECT coalesce(seq_scan, 0) + coalesce(idx_scan, 0) FROM pg_stat_user_tables WHERE schemaname ` +
      `= $1 AND relname = 'feed_subscription') AS "subscriptionScans"`,
    [schema],
  );
  return Object.fromEntries(
    Object.entries(rows[0]).map(([key, value]) => [key, Number(value)]),
  ) as unknown as DatabaseWork;
}
const perDelivery = (before: DatabaseWork, after: DatabaseWork, deliveries: number) =>
  (Object.keys(before) as (keyof DatabaseWork)[])
    .map((key) => `${key} ${((after[key] - before[key]) / deliveries).toFixed(3)}`)
    .join(', ');
/**
 * CPU seconds the delivery workers have used so far (Linux: /proc/PID/stat, user + system, in clock ticks
 * of 10 ms).
 */
function workersCpuS() {
  let ticks = 0;
  for (const worker of workers) {
    const fields = readFileSync(`/proc/${worker.pid}/stat`, 'utf8')
      .replace(/^.*\) /, '')
      .split(' ');
    ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks / 100;
}
/** PostgreSQL's statistics reach the views within a second of the work (PGSTAT_MIN_INTERVAL). */
const STATS_FLUSH_MS = 1500;

const inOrder = (positions: readonly number[]) => positions.every((p, i) => i === 0 || p > positions[i - 1]);

const schema = `bench_push_${randomBytes(4).toString('hex')}`;
const admin = new pg.Client({ connectionString: url });
await admin.connect();
await admin.query(`CREATE SCHEMA ${schema}`);
const driver = openPostgres({ url, schema, poolSize: 4, statementTimeoutMs: 600_000 });
const workers: ChildProcess[] = [];
const receivers: Receiver[] = Array.from({ length: SUBSCRIPTIONS }, (_, i) => ({
  name: `bench-${i + 1}`,
  kind: i === 0 ? 'failing' : i === 1 ? 'slow' : 'healthy',
  positions: [],
  latencies: [],
}));
try {
  await migrate(driver);
  const backend = postgresBackend(driver, records);
  const started = Date.now();
  for (const receiver of receivers) {
    await startReceiver(receiver, started);
    await backend.subscriptions.add({ client: receiver.name, events: eventTypes(records), fields: [] });
    await backend.webhooks.setEndpoint(receiver.name, { url: receiver.url! }, { secret: newSecret() });
  }
  const env = { ...process.env, DATABASE_SCHEMA: schema, WEBHOOK_ALLOW_HTTP: 'loopback', LOG_LEVEL: 'warn' };
  for (let i = 0; i < WORKERS; i++)
    workers.push(
      spawn(process.execPath, [BIN, 'deliver', '--slots', String(SLOTS)], {
        env,
        stdio: ['ignore', 'ignore', 'inherit'],
      }),
    );

  // 1. Throughput.
  const loadStart = Date.now();
  await loadSources(backend.writer, deathType, [deaths(1, EVENTS)]);
  const committed = Date.now();
  const workBefore = await databaseWork();
  const cpuBefore = workersCpuS();
  // One event at a time per subscription, in order: the slow receiver is bounded by its own answers
  // (1000 / --slow-ms a second), so the rate in all is taken until the fast receivers have everything.
  const fast = receivers.filter((r) => r.kind === 'healthy');
  const allFast = await until(() => fast.every((r) => r.positions.length >= EVENTS), 3_600_000);
  const fastDone = Date.now();
  const deliveredByThen = receivers.reduce((sum, r) => sum + r.positions.length, 0);
  const caughtUp = await until(
    () => receivers[0].positions.length >= EVENTS && receivers[1].positions.length >= EVENTS,
    3_600_000,
  );
  const allDone = Date.now();
  const delivered = receivers.reduce((sum, r) => sum + r.positions.length, 0);
  const cpuAfter = workersCpuS();
  await sleep(STATS_FLUSH_MS);
  const workAfter = await databaseWork();
  console.log(`load of ${EVENTS} events: ${((committed - loadStart) / 1000).toFixed(1)} s`);
  console.log(
    `throughput: ${Math.round(deliveredByThen / ((fastDone - committed) / 1000))} events/s delivered in all ` +
      `until the ${fast.length} fast receivers had every event ` +
      `(${((fastDone - committed) / 1000).toFixed(1)} s)${allFast ? '' : ' (TIMED OUT)'}; the slow one ` +
      `took ${receivers[1].positions.length} by then`,
  );
  console.log(
    `the failing receiver (500 for ${FAIL_MS / 1000} s) and the slow one: both caught ` +
      `up ${((allDone - committed) / 1000).toFixed(1)} s after the ` +
      `commit${caughtUp ? '' : ' (TIMED OUT)'}; ${delivered} events delivered in all`,
  );
  for (const r of receivers) {
    const complete = new Set(r.positions).size === EVENTS && inOrder([...new Set(r.positions)]);
    if (!complete)
      console.log(
        `  ${r.name} (${r.kind}): ${new Set(r.positions).size} of ${EVENTS} ` +
          `events${inOrder(r.positions) ? '' : ', OUT OF ORDER'}`,
      );
  }
  console.log(
    `database work a delivery, from the commit until every receiver had every ` +
      `event: ${perDelivery(workBefore, workAfter, delivered)}; the workers' ` +
      `CPU ${(((cpuAfter - cpuBefore) * 1e6) / delivered).toFixed(0)} µs`,
  );
  console.log(
    `every receiver has every event, in order: ${
      receivers.every((r) => new Set(r.positions).size === EVENTS && inOrder([...new Set(r.positions)])) ? 'yes' : 'NO'
    }`,
  );

  // 2. Latency at a steady rate.
  for (const r of receivers) r.latencies.length = 0;
  const steady = RATE * DURATION_S;
  const steadyBefore = await databaseWork();
  const steadyCpuBefore = workersCpuS();
  const steadyDelivered = receivers.reduce((sum, r) => sum + r.positions.length, 0);
  const begin = Date.now();
  for (let i = 0; i < steady; i++) {
    const due = begin + (i * 1000) / RATE;
    if (due > Date.now()) await sleep(due - Date.now());
    await loadSources(backend.writer, deathType, [deaths(EVENTS + 1 + i, 1)]);
  }
  await until(() => fast.every((r) => r.latencies.length >= steady), 60_000);
  const latencies = fast.flatMap((r) => r.latencies);
  const steadyCpuAfter = workersCpuS();
  const steadyDeliveries = receivers.reduce((sum, r) => sum + r.positions.length, 0) - steadyDelivered;
  await sleep(STATS_FLUSH_MS);
  const steadyAfter = await databaseWork();
  console.log(
    `latency at ${RATE} events/s for ${DURATION_S} s, commit to a healthy receiver's 2xx ` +
      `(${latencies.length} deliveries): p50 ${percentile(latencies, 50)} ms, ` +
      `p99 ${percentile(latencies, 99)} ms, max ${Math.max(...latencies)} ms`,
  );
  console.log(
    `database work a delivery at the steady rate (the loads' own commits ` +
      `included): ${perDelivery(steadyBefore, steadyAfter, steadyDeliveries)}; the workers' ` +
      `CPU ${(((steadyCpuAfter - steadyCpuBefore) * 1e6) / steadyDeliveries).toFixed(0)} µs`,
  );
} finally {
  for (const worker of workers) worker.kill('SIGTERM');
  await Promise.all(
    workers.map(
      (worker) => new Promise((resolve) => (worker.exitCode !== null ? resolve(null) : worker.once('exit', resolve))),
    ),
  );
  for (const r of receivers) r.server?.close();
  await driver.close();
  await admin.query(`DROP SCHEMA ${schema} CASCADE`);
  await admin.end();
}
