/**
 * The phases of `npm run bench:audit` (bench/audit.ts): audited lookups served by one or more
 * processes with their lock waits and cost counters, the trail's capacity against plain INSERTs,
 * and the CPU an entry costs by batch size.
 */
import { randomBytes } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type pg from 'pg';
import { createChainWriter } from '../../src/audit/chain-writer.ts';
import { configReference } from '../../src/config/index.ts';
import { openPostgres } from '../../src/store/pg-driver.ts';
import type { AuditEntry } from '../../src/model/audit.ts';
import { drive } from './drive.ts';
import { contextSwitches, cpuSeconds, localPortsTo, machineCpu } from './proc.ts';
import { type Server, freePort, startServer } from './processes.ts';
import { type Dataset, lookupLists } from './workload.ts';

/**
 * Seconds of load before each phase is measured. Each phase starts its service processes afresh,
 * and each compiles its own code on its share of the requests: four processes on two cores were
 * still compiling after 3 s (V8's optimising compiler a sixth of their CPU), which measured the
 * warming rather than the trail. A service runs for hours; 30 s measures it as it then is.
 */
export const AUDIT_WARMUP_S = 30;

const log = (line: string) => process.stderr.write(`${line}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** What the audit phase measures, from `npm run bench:audit`'s options or `npm run bench -- --audit`. */
export interface AuditBenchOptions {
  readonly databaseUrl: string;
  readonly births: number;
  readonly duration: number;
  readonly warmup: number;
  readonly rounds: number;
  readonly processes: readonly number[];
  readonly connections: number;
  readonly capacitySeconds: number;
  readonly batch: number;
  readonly batchCostSeconds: number;
  readonly levApi: string;
  /** Another lev-api command served in the same rounds, alternating with `levApi`. */
  readonly against?: string;
  /** Node options for each service process (a CPU profile, say). */
  readonly nodeArgs?: readonly string[];
  readonly keep: boolean;
}
type Options = AuditBenchOptions;

/** The service's environment: ours without any of the service's settings, then the benchmark's. */
export function serviceEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const { name } of configReference()) delete env[name];
  return { ...env, HOST: '127.0.0.1', LOG_LEVEL: 'warn', AUTH_MODE: 'mock', ...extra };
}

/** Lock waits of the schema's backends, sampled every 50 ms until stopped. */
function sampleLockWaits(admin: pg.Client, applicationName: string) {
  let samples = 0;
  let waiting = 0;
  let advisory = 0;
  let most = 0;
  const events = new Map<string, number>();
  let running = true;
  const done = (async () => {
    while (running) {
      const { rows } = await admin.query<{ waiting: number; advisory: number }>(
        `SELECT count(*) FILTER (WHERE a.wait_event_type = 'Lock')::int AS waiting,
                count(*) FILTER (WHERE l.locktype = 'advisory' AND NOT l.granted)::int AS advisory
           FROM pg_stat_activity a LEFT JOIN pg_locks l ON l.pid = a.pid AND NOT l.granted
          WHERE a.application_name = $1`,
        [applicationName],
      );
      const active = await admin.query<{ event: string; n: number }>(
        `SELECT CASE WHEN state = 'active' THEN coalesce(wait_event_type || ':' || wait_event, 'on CPU') ` +
          `ELSE state END AS event, count(*)::int AS n
           FROM pg_stat_activity WHERE application_name = $1 GROUP BY 1`,
        [applicationName],
      );
      for (const { event, n } of active.rows) events.set(event, (events.get(event) ?? 0) + n);
      samples++;
      waiting += rows[0].waiting;
      advisory += rows[0].advisory;
      most = Math.max(most, rows[0].waiting);
      await sleep(50);
    }
  })();
  return async () => {
    running = false;
    await done;
    // What the service's backends were doing, on average over the samples: the five most seen.
    const doing = [...events]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 5)
      .map(([event, n]) => `${event} ${(n / Math.max(samples, 1)).toFixed(2)}`);
    return {
      samples,
      meanWaiting: waiting / Math.max(samples, 1),
      meanAdvisoryWaiting: advisory / Math.max(samples, 1),
      mostWaiting: most,
      doing,
    };
  };
}

export interface ProcessesRow {
  /** The lev-api command served. */
  build: string;
  round: number;
  processes: number;
  rps: number;
  perProcess: number[];
  p99Ms: number;
  entriesPerSecond: number;
  lockWaits: Awaited<ReturnType<ReturnType<typeof sampleLockWaits>>>;
  cost: PhaseCost;
}

/** Where a phase's time went: CPU a lookup, audit batches, commits and WAL flushes a second. */
export interface PhaseCost {
  /**
   * CPU milliseconds a lookup: in the service processes, their database backends, and this process (the
   * load generator).
   */
  readonly serviceMs: number;
  readonly backendsMs: number;
  readonly loadMs: number;
  /** The machine's busy share of its cores over the phase (all processes, other users' too). */
  readonly machineBusy: number;
  /** Audit entries a batch (one INSERT, one commit), on average. */
  readonly entriesPerBatch: number;
  readonly commitsPerSecond: number;
  readonly walSyncsPerSecond: number;
  /** Database connections each service process held. */
  readonly connections: number[];
  /**
   * The service processes' wake-ups a lookup (voluntary context switches: each a turn of an event loop that
   * had run dry) and preemptions a lookup.
   */
  readonly wakeups: number;
  readonly preemptions: number;
}

/** Counters read before and after a phase, for its cost. */
async function costCounters(admin: pg.Client, applicationName: string, servers: readonly Server[]) {
  const backends = (
    await admin.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE application_name = $1', [
      applicationName,
    ])
  ).rows.map((r) => r.pid);
  const db = (
    await admin.query<{ commits: string }>(
      'SELECT xact_commit::text AS commits FROM pg_stat_database WHERE datname = current_database()',
    )
  ).rows[0];
  const wal = (await admin.query<{ syncs: string }>('SELECT wal_sync::text AS syncs FROM pg_stat_wal')).rows[0];
  return {
    at: performance.now(),
    service: servers.reduce((sum, s) => sum + (cpuSeconds(s.pid) ?? NaN), 0),
    switches: servers
      .map((s) => contextSwitches(s.pid))
      .reduce((a, b) => ({ voluntary: a.voluntary + b.voluntary, involuntary: a.involuntary + b.involuntary })),
    backends: new Map(backends.map((pid) => [pid, cpuSeconds(pid) ?? NaN])),
    load: process.cpuUsage(),
    machine: machineCpu(),
    commits: Number(db.commits),
    walSyncs: Number(wal.syncs),
  };
}

export async function processesPhase(
  opts: Options,
  admin: pg.Client,
  schema: string,
  dataset: Dataset,
  n: number,
  round: number,
  build = opts.levApi,
): Promise<ProcessesRow> {
  const applicationName = `${schema}_svc`;
  const url = `${opts.databaseUrl}${opts.databaseUrl.includes('?') ? '&' : '?'}application_name=${applicationName}`;
  const servers: Server[] = [];
  try {
    for (let i = 0; i < n; i++) {
      const port = await freePort();
      const env = serviceEnv({
        DATABASE_URL: url,
        DATABASE_SCHEMA: schema,
        PORT: String(port),
        DATABASE_POOL_SIZE: String(opts.connections / n),
      });
      servers.push(
        await startServer(`service ${i + 1} of ${n}`, [...(opts.nodeArgs ?? [])], [build, 'serve'], env, port, 120),
      );
    }
    const per = opts.connections / n;
    const load = (duration: number) =>
      Promise.all(
        servers.map((server, i) =>
          drive(
            { url: server.url, duration, connections: per, timeout: 10 },
            lookupLists({ ...dataset, seed: `${dataset.seed}-${i}` }, per),
            { kind: 'max' },
          ),
        ),
      );
    if (opts.warmup) await load(opts.warmup);
    const before = Number((await admin.query(`SELECT count(*) AS n FROM ${schema}.audit_log`)).rows[0].n);
    const lastId = (await admin.query(`SELECT coalesce(max(id), 0)::text AS id FROM ${schema}.audit_log`)).rows[0].id;
    const start = await costCounters(admin, applicationName, servers);
    const stop = sampleLockWaits(admin, applicationName);
    const results = await load(opts.duration);
    const lockWaits = await stop();
    const end = await costCounters(admin, applicationName, servers);
    const after = Number((await admin.query(`SELECT count(*) AS n FROM ${schema}.audit_log`)).rows[0].n);
    const batches = (
      await admin.query<{ entries: string; batches: string }>(
        `SELECT count(*)::text AS entries, count(DISTINCT (writer, at))::text AS batches ` +
          `FROM ${schema}.audit_log WHERE id > $1::bigint`,
        [lastId],
      )
    ).rows[0];
    for (const result of results) {
      const failed = Object.entries(result.statuses).filter(([status]) => Number(status) >= 500);
      if (result.errors || failed.length)
        throw new Error(
          `refusing to report: ${result.errors} request(s) failed, statuses ${JSON.stringify(result.statuses)}`,
        );
    }
    const lookups = results.reduce((sum, r) => sum + r.responses, 0);
    const seconds = (end.at - start.at) / 1000;
    let backendSeconds = 0;
    for (const [pid, was] of start.backends) backendSeconds += (cpuSeconds(pid) ?? was) - was;
    // Measured after `end`, so backends read a moment later: the difference is a few ms over the phase.
    const loadCpu = process.cpuUsage(start.load);
    const cost: PhaseCost = {
      serviceMs: ((end.service - start.service) * 1000) / lookups,
      backendsMs: (backendSeconds * 1000) / lookups,
      loadMs: (loadCpu.user + loadCpu.system) / 1000 / lookups,
      machineBusy:
        start.machine && end.machine
          ? (end.machine.busy - start.machine.busy) / (end.machine.total - start.machine.total)
          : NaN,
      entriesPerBatch: Number(batches.entries) / Math.max(Number(batches.batches), 1),
      commitsPerSecond: (end.commits - start.commits) / seconds,
      walSyncsPerSecond: (end.walSyncs - start.walSyncs) / seconds,
      connections: servers.map(
        (server) => localPortsTo(server.pid, Number(new URL(opts.databaseUrl).port || 5432)).length,
      ),
      wakeups: (end.switches.voluntary - start.switches.voluntary) / lookups,
      preemptions: (end.switches.involuntary - start.switches.involuntary) / lookups,
    };
    const row: ProcessesRow = {
      build,
      cost,
      round,
      processes: n,
      rps: results.reduce((sum, r) => sum + r.rps, 0),
      perProcess: results.map((r) => Math.round(r.rps)),
      p99Ms: Math.max(...results.map((r) => r.latencyMs.p99)),
      entriesPerSecond: (after - before) / opts.duration,
      lockWaits,
    };
    log(
      `round ${round}, ${opts.against ? `${build}, ` : ''}${n} process(es): ${Math.round(row.rps)} audited ` +
        `lookups/s (${row.perProcess.join(' + ')}), p99 ${row.p99Ms.toFixed(1)} ms; ` +
        `CPU a lookup: service ${cost.serviceMs.toFixed(3)} ms, backends ${cost.backendsMs.toFixed(3)} ms, ` +
        `load generator ${cost.loadMs.toFixed(3)} ms (machine ${(cost.machineBusy * 100).toFixed(0)}% busy); ` +
        `${cost.entriesPerBatch.toFixed(1)} entries a batch, ${Math.round(cost.commitsPerSecond)} ` +
        `commits/s, ${Math.round(cost.walSyncsPerSecond)} WAL flushes/s; ` +
        `connections ${cost.connections.join('+')}; ` +
        `service wake-ups a lookup ${cost.wakeups.toFixed(2)}, preemptions ${cost.preemptions.toFixed(2)}; ` +
        `backends waiting on a lock: ${lockWaits.meanWaiting.toFixed(2)} on average ` +
        `(advisory ${lockWaits.meanAdvisoryWaiting.toFixed(2)}), at most ${lockWaits.mostWaiting}, ` +
        `over ${lockWaits.samples} samples; backends: ${lockWaits.doing.join(', ')}`,
    );
    return row;
  } finally {
    for (const server of servers) await server.stop();
  }
}

const entryOf = (writer: number, i: number): AuditEntry => ({
  username: `bench-user-${writer}@example.gov.uk`,
  client: 'bench-client',
  groups: ['/bench'],
  dataset: 'birth',
  operation: 'lookup',
  path: `/v1/registration/birth/${100000000 + i}`,
  query: '',
  results: 1,
  requestId: `req-${writer}-${i}`,
  records: [{ type: 'birth', id: 100000000 + i }],
});

/** The same rows as the chained writer's statement, without writer, seq or hash, into a table with no chain. */
const PLAIN =
  `
INSERT INTO audit_plain (at, username, client, groups, dataset, operation, path, query, results, request_id, records)
SELECT $1::timestamptz, e.username, e.client, e.groups, e.dataset, e.operation, e.path, e.query, e.results, ` +
  `e.request_id, e.records
  FROM jsonb_to_recordset($2::jsonb) AS e(username text, client text, groups text[], dataset text, operation ` +
  `text, path text, query text,
                                          results integer, request_id text, records text[])`;

export async function capacityPhase(opts: Options, schema: string, writers: number, kind: 'chained' | 'plain') {
  const drivers = Array.from({ length: writers }, () =>
    openPostgres({
      url: opts.databaseUrl,
      schema,
      poolSize: 1,
      statementTimeoutMs: 30_000,
      applicationName: `${schema}_cap`,
    }),
  );
  try {
    const until = performance.now() + opts.capacitySeconds * 1000;
    const counts = await Promise.all(
      drivers.map(async (driver, w) => {
        const write = createChainWriter(driver, `bench-${kind}-${writers}-${w}-${randomBytes(3).toString('hex')}`);
        let written = 0;
        while (performance.now() < until) {
          const batch = Array.from({ length: opts.batch }, (_, i) => entryOf(w, written + i));
          if (kind === 'chained') await write(batch);
          else {
            const rows = batch.map((e) => ({
              ...e,
              request_id: e.requestId,
              records: e.records?.map((r) => `${r.type}:${r.id}`),
            }));
            await driver.query(PLAIN, [new Date().toISOString(), JSON.stringify(rows)], { prepare: true });
          }
          written += batch.length;
        }
        return written;
      }),
    );
    const perSecond = counts.reduce((a, b) => a + b, 0) / opts.capacitySeconds;
    log(
      `trail capacity, ${writers} writer(s), ${kind}: ${Math.round(perSecond)} entries/s in batches of ${opts.batch}`,
    );
    return { writers, kind, entriesPerSecond: perSecond };
  } finally {
    await Promise.all(drivers.map((d) => d.close()));
  }
}

/**
 * What one batch of the audit trail costs in CPU, by its size: one writer appending batches of `size`
 * entries back to back; CPU microseconds an entry in this process (the writer's node side) and in its
 * database backend, from which the cost of a batch itself (statement, commit) and of an entry in it
 * can be told apart.
 */
export async function batchCostPhase(opts: Options, admin: pg.Client, schema: string, size: number) {
  const applicationName = `${schema}_cost`;
  const driver = openPostgres({
    url: opts.databaseUrl,
    schema,
    poolSize: 1,
    statementTimeoutMs: 30_000,
    applicationName,
  });
  try {
    const write = createChainWriter(driver, `bench-cost-${size}-${randomBytes(3).toString('hex')}`);
    let written = 0;
    const next = () => Array.from({ length: size }, (_, i) => entryOf(0, written + i));
    await write(next());
    written += size;
    const [{ pid }] = (
      await admin.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE application_name = $1', [
        applicationName,
      ])
    ).rows;
    const backendBefore = cpuSeconds(pid) ?? NaN;
    const nodeBefore = process.cpuUsage();
    const until = performance.now() + opts.batchCostSeconds * 1000;
    let entries = 0;
    while (performance.now() < until) {
      await write(next());
      written += size;
      entries += size;
    }
    const node = process.cpuUsage(nodeBefore);
    const backendUs = ((cpuSeconds(pid) ?? NaN) - backendBefore) * 1e6;
    const result = { size, entries, nodeUs: (node.user + node.system) / entries, backendUs: backendUs / entries };
    log(
      `batch cost, batches of ${size}: ${entries} entries; CPU an entry: node ${result.nodeUs.toFixed(1)} ` +
        `µs, backend ${result.backendUs.toFixed(1)} µs`,
    );
    return result;
  } finally {
    await driver.close();
  }
}

/** The newest modification time under a folder. */
function newest(folder: string): number {
  let time = 0;
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    time = Math.max(time, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return time;
}

/**
 * Refuses a checkout whose compiled form is older than its sources: bin/lev-api.js would then serve
 * the TypeScript through tsx's loader, a second heap and more CPU a request, and the comparison
 * would measure that rather than the trail.
 */
export function assertCompiled(levApi: string) {
  const root = join(dirname(levApi), '..');
  let compiled = 0;
  try {
    compiled = statSync(join(root, 'dist', 'cli.js')).mtimeMs;
  } catch {
    // Not built at all.
  }
  if (compiled < newest(join(root, 'src')))
    throw new Error(
      `${root}: dist/ is older than src/ (or missing): run 'npm run build' there first, so the service runs compiled`,
    );
}

export type BatchCost = Awaited<ReturnType<typeof batchCostPhase>>;
export type Capacity = Awaited<ReturnType<typeof capacityPhase>>;
