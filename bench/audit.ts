/**
 * `npm run bench:audit`: the audit trail at scale, on PostgreSQL (DATABASE_URL).
 *
 * 1. Audited lookups answered by one service process with 20 database connections, then by two
 *    and by four processes sharing the same 20 connections (and the same 20 client connections)
 *    between them, alternating the order round by round. While each phase runs, the service's
 *    backends waiting on a lock are sampled from pg_stat_activity and pg_locks every 50 ms.
 * 2. The trail's own capacity: entries a second that 1, 2 and 4 writers (each with its own pool,
 *    batches of --batch) append to their chains, against plain INSERTs of the same rows, in the
 *    same batches, into a table with the same columns and reading indexes and no chain.
 *
 * `--lev-api PATH` serves, migrates and loads with another checkout's bin/lev-api.js (in its own
 * schema), so an earlier design of the trail can be measured the same way. All traffic goes to
 * 127.0.0.1 and the database; every phase is bounded by --duration.
 */
import { randomBytes } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { createChainWriter } from '../src/audit/chain-writer.ts';
import { configReference } from '../src/config/index.ts';
import { DEFAULT_FIRST_ID } from '../src/generate/records.ts';
import { openPostgres } from '../src/store/pg-driver.ts';
import type { AuditEntry } from '../src/types/audit.ts';
import { drive } from './lib/drive.ts';
import { contextSwitches, cpuSeconds, localPortsTo, machineCpu } from './lib/proc.ts';
import { type Server, freePort, pipe, run, startServer, stopCommands } from './lib/processes.ts';
import { geometricMean, median } from './lib/stats.ts';
import { type Dataset, lookupLists } from './lib/workload.ts';

/**
 * Seconds of load before each phase is measured. Each phase starts its service processes afresh,
 * and each compiles its own code on its share of the requests: four processes on two cores were
 * still compiling after 3 s (V8's optimising compiler a sixth of their CPU), which measured the
 * warming rather than the trail. A service runs for hours; 30 s measures it as it then is.
 */
export const AUDIT_WARMUP_S = 30;

const USAGE = `npm run bench:audit -- [options]     (needs DATABASE_URL)

  --births N          births loaded (default 100000)
  --duration S        seconds of load per phase (default 10)
  --warmup S          seconds of the same load before each phase is measured (default ${AUDIT_WARMUP_S}; 0 for none)
  --rounds N          rounds of 1, 2 and 4 processes, every other one in reverse order (default 3)
  --processes LIST    process counts compared (default 1,2,4)
  --connections N     database connections shared by the processes, and client connections (default 20)
  --capacity-seconds S  seconds of each trail-capacity phase (default 5; 0 to skip)
  --batch N           entries a batch in the capacity phases (default 10)
  --batch-cost-seconds S  seconds of each batch-cost phase: one writer, batches of 1 to 16 entries, CPU an entry (default 3; 0 to skip)
  --lev-api PATH      the lev-api command to serve, migrate and load with (default this checkout's)
  --against PATH      also serve with this lev-api command (another checkout of the same schema), in
                      the same rounds, alternating with --lev-api's, for a comparison in one run
  --node-args ARGS    node options for each service process, space-separated (say --node-args='--cpu-prof --cpu-prof-dir=/tmp/prof')
  --keep              keep the schema`;

const log = (line: string) => process.stderr.write(`${line}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function options() {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: {
      births: { type: 'string', default: '100000' },
      duration: { type: 'string', default: '10' },
      warmup: { type: 'string', default: String(AUDIT_WARMUP_S) },
      rounds: { type: 'string', default: '3' },
      processes: { type: 'string', default: '1,2,4' },
      connections: { type: 'string', default: '20' },
      'capacity-seconds': { type: 'string', default: '5' },
      batch: { type: 'string', default: '10' },
      'batch-cost-seconds': { type: 'string', default: '3' },
      'lev-api': { type: 'string', default: 'bin/lev-api.js' },
      against: { type: 'string' },
      'node-args': { type: 'string', default: '' },
      keep: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const whole = (name: string, text: string, min: number, max: number) => {
    const value = Number(text);
    if (!Number.isSafeInteger(value) || value < min || value > max) throw new Error(`--${name} must be a whole number from ${min} to ${max} (got '${text}')`);
    return value;
  };
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) throw new Error('DATABASE_URL is not set: the audit phase measures PostgreSQL');
  const processes = values.processes.split(',').map((p) => whole('processes', p, 1, 16));
  const connections = whole('connections', values.connections, 1, 200);
  for (const n of processes) if (connections % n) throw new Error(`--connections ${connections} cannot be shared evenly by ${n} processes`);
  return {
    databaseUrl,
    births: whole('births', values.births, 100, 100_000_000),
    duration: whole('duration', values.duration, 1, 3600),
    warmup: whole('warmup', values.warmup, 0, 600),
    rounds: whole('rounds', values.rounds, 1, 100),
    processes,
    connections,
    capacitySeconds: whole('capacity-seconds', values['capacity-seconds'], 0, 3600),
    batch: whole('batch', values.batch, 1, 1000),
    batchCostSeconds: whole('batch-cost-seconds', values['batch-cost-seconds'], 0, 3600),
    levApi: resolve(values['lev-api']),
    against: values.against === undefined ? undefined : resolve(values.against),
    nodeArgs: values['node-args'].split(' ').filter(Boolean),
    keep: values.keep,
  };
}
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
function serviceEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
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
        `SELECT CASE WHEN state = 'active' THEN coalesce(wait_event_type || ':' || wait_event, 'on CPU') ELSE state END AS event, count(*)::int AS n
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
    const doing = [...events].sort((a, b) => b[1] - a[1]).slice(0, 5).map(([event, n]) => `${event} ${(n / Math.max(samples, 1)).toFixed(2)}`);
    return { samples, meanWaiting: waiting / Math.max(samples, 1), meanAdvisoryWaiting: advisory / Math.max(samples, 1), mostWaiting: most, doing };
  };
}

interface ProcessesRow {
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
interface PhaseCost {
  /** CPU milliseconds a lookup: in the service processes, their database backends, and this process (the load generator). */
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
  /** The service processes' wake-ups a lookup (voluntary context switches: each a turn of an event loop that had run dry) and preemptions a lookup. */
  readonly wakeups: number;
  readonly preemptions: number;
}

/** Counters read before and after a phase, for its cost. */
async function costCounters(admin: pg.Client, applicationName: string, servers: readonly Server[]) {
  const backends = (await admin.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE application_name = $1', [applicationName])).rows.map((r) => r.pid);
  const db = (await admin.query<{ commits: string }>('SELECT xact_commit::text AS commits FROM pg_stat_database WHERE datname = current_database()')).rows[0];
  const wal = (await admin.query<{ syncs: string }>('SELECT wal_sync::text AS syncs FROM pg_stat_wal')).rows[0];
  return {
    at: performance.now(),
    service: servers.reduce((sum, s) => sum + (cpuSeconds(s.pid) ?? NaN), 0),
    switches: servers.map((s) => contextSwitches(s.pid)).reduce((a, b) => ({ voluntary: a.voluntary + b.voluntary, involuntary: a.involuntary + b.involuntary })),
    backends: new Map(backends.map((pid) => [pid, cpuSeconds(pid) ?? NaN])),
    load: process.cpuUsage(),
    machine: machineCpu(),
    commits: Number(db.commits),
    walSyncs: Number(wal.syncs),
  };
}

async function processesPhase(opts: Options, admin: pg.Client, schema: string, dataset: Dataset, n: number, round: number, build = opts.levApi): Promise<ProcessesRow> {
  const applicationName = `${schema}_svc`;
  const url = `${opts.databaseUrl}${opts.databaseUrl.includes('?') ? '&' : '?'}application_name=${applicationName}`;
  const servers: Server[] = [];
  try {
    for (let i = 0; i < n; i++) {
      const port = await freePort();
      const env = serviceEnv({ DATABASE_URL: url, DATABASE_SCHEMA: schema, PORT: String(port), DATABASE_POOL_SIZE: String(opts.connections / n) });
      servers.push(await startServer(`service ${i + 1} of ${n}`, [...(opts.nodeArgs ?? [])], [build, 'serve'], env, port, 120));
    }
    const per = opts.connections / n;
    const load = (duration: number) =>
      Promise.all(
        servers.map((server, i) => drive({ url: server.url, duration, connections: per, timeout: 10 }, lookupLists({ ...dataset, seed: `${dataset.seed}-${i}` }, per), { kind: 'max' })),
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
        `SELECT count(*)::text AS entries, count(DISTINCT (writer, at))::text AS batches FROM ${schema}.audit_log WHERE id > $1::bigint`,
        [lastId],
      )
    ).rows[0];
    for (const result of results) {
      const failed = Object.entries(result.statuses).filter(([status]) => Number(status) >= 500);
      if (result.errors || failed.length) throw new Error(`refusing to report: ${result.errors} request(s) failed, statuses ${JSON.stringify(result.statuses)}`);
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
      machineBusy: start.machine && end.machine ? (end.machine.busy - start.machine.busy) / (end.machine.total - start.machine.total) : NaN,
      entriesPerBatch: Number(batches.entries) / Math.max(Number(batches.batches), 1),
      commitsPerSecond: (end.commits - start.commits) / seconds,
      walSyncsPerSecond: (end.walSyncs - start.walSyncs) / seconds,
      connections: servers.map((server) => localPortsTo(server.pid, Number(new URL(opts.databaseUrl).port || 5432)).length),
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
      `round ${round}, ${opts.against ? `${build}, ` : ''}${n} process(es): ${Math.round(row.rps)} audited lookups/s (${row.perProcess.join(' + ')}), p99 ${row.p99Ms.toFixed(1)} ms; ` +
        `CPU a lookup: service ${cost.serviceMs.toFixed(3)} ms, backends ${cost.backendsMs.toFixed(3)} ms, load generator ${cost.loadMs.toFixed(3)} ms (machine ${(cost.machineBusy * 100).toFixed(0)}% busy); ` +
        `${cost.entriesPerBatch.toFixed(1)} entries a batch, ${Math.round(cost.commitsPerSecond)} commits/s, ${Math.round(cost.walSyncsPerSecond)} WAL flushes/s; connections ${cost.connections.join('+')}; ` +
        `service wake-ups a lookup ${cost.wakeups.toFixed(2)}, preemptions ${cost.preemptions.toFixed(2)}; ` +
        `backends waiting on a lock: ${lockWaits.meanWaiting.toFixed(2)} on average (advisory ${lockWaits.meanAdvisoryWaiting.toFixed(2)}), at most ${lockWaits.mostWaiting}, over ${lockWaits.samples} samples; backends: ${lockWaits.doing.join(', ')}`,
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
const PLAIN = `
INSERT INTO audit_plain (at, username, client, groups, dataset, operation, path, query, results, request_id, records)
SELECT $1::timestamptz, e.username, e.client, e.groups, e.dataset, e.operation, e.path, e.query, e.results, e.request_id, e.records
  FROM jsonb_to_recordset($2::jsonb) AS e(username text, client text, groups text[], dataset text, operation text, path text, query text,
                                          results integer, request_id text, records text[])`;

async function capacityPhase(opts: Options, schema: string, writers: number, kind: 'chained' | 'plain') {
  const drivers = Array.from({ length: writers }, () => openPostgres({ url: opts.databaseUrl, schema, poolSize: 1, statementTimeoutMs: 30_000, applicationName: `${schema}_cap` }));
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
            const rows = batch.map((e) => ({ ...e, request_id: e.requestId, records: e.records?.map((r) => `${r.type}:${r.id}`) }));
            await driver.query(PLAIN, [new Date().toISOString(), JSON.stringify(rows)], { prepare: true });
          }
          written += batch.length;
        }
        return written;
      }),
    );
    const perSecond = counts.reduce((a, b) => a + b, 0) / opts.capacitySeconds;
    log(`trail capacity, ${writers} writer(s), ${kind}: ${Math.round(perSecond)} entries/s in batches of ${opts.batch}`);
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
async function batchCostPhase(opts: Options, admin: pg.Client, schema: string, size: number) {
  const applicationName = `${schema}_cost`;
  const driver = openPostgres({ url: opts.databaseUrl, schema, poolSize: 1, statementTimeoutMs: 30_000, applicationName });
  try {
    const write = createChainWriter(driver, `bench-cost-${size}-${randomBytes(3).toString('hex')}`);
    let written = 0;
    const next = () => Array.from({ length: size }, (_, i) => entryOf(0, written + i));
    await write(next());
    written += size;
    const [{ pid }] = (await admin.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE application_name = $1', [applicationName])).rows;
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
    log(`batch cost, batches of ${size}: ${entries} entries; CPU an entry: node ${result.nodeUs.toFixed(1)} µs, backend ${result.backendUs.toFixed(1)} µs`);
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
function assertCompiled(levApi: string) {
  const root = join(dirname(levApi), '..');
  let compiled = 0;
  try {
    compiled = statSync(join(root, 'dist', 'cli.js')).mtimeMs;
  } catch {
    // Not built at all.
  }
  if (compiled < newest(join(root, 'src'))) throw new Error(`${root}: dist/ is older than src/ (or missing): run 'npm run build' there first, so the service runs compiled`);
}

/** Runs the audit phase in a schema of its own (dropped after, unless `keep`); the figures as Markdown tables. */
export async function runAuditBench(opts: AuditBenchOptions): Promise<string> {
  for (const build of [opts.levApi, ...(opts.against ? [opts.against] : [])]) assertCompiled(build);
  const schema = `bench_audit_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: opts.databaseUrl });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  const cleanUp = async () => {
    await stopCommands();
    if (!opts.keep) await admin.query(`DROP SCHEMA ${schema} CASCADE`).catch(() => {});
    await admin.end();
  };
  process.once('SIGINT', () => void cleanUp().finally(() => process.exit(130)));
  try {
    const env = serviceEnv({ DATABASE_URL: opts.databaseUrl, DATABASE_SCHEMA: schema });
    await run([opts.levApi, 'migrate'], env, 600);
    log(`schema ${schema}: loading ${opts.births.toLocaleString('en-GB')} births`);
    await pipe([opts.levApi, 'generate', '--type', 'birth', '--count', String(opts.births), '--seed', 'bench'], [opts.levApi, 'load', '--type', 'birth', '-'], env, 300 + opts.births / 1000);
    await admin.query(`ANALYZE ${schema}.birth_registration_v1`).catch(() => {});
    const dataset: Dataset = { seed: 'bench', firstId: DEFAULT_FIRST_ID, counts: { birth: opts.births, death: 0, marriage: 0, partnership: 0 } };

    const rows: ProcessesRow[] = [];
    for (let round = 1; round <= opts.rounds; round++) {
      const order = round % 2 ? opts.processes : [...opts.processes].reverse();
      const builds = opts.against ? (round % 2 ? [opts.levApi, opts.against] : [opts.against, opts.levApi]) : [opts.levApi];
      for (const n of order) for (const build of builds) rows.push(await processesPhase(opts, admin, schema, dataset, n, round, build));
    }
    const costs: Awaited<ReturnType<typeof batchCostPhase>>[] = [];
    if (opts.batchCostSeconds) for (const size of [1, 2, 4, 8, 16]) costs.push(await batchCostPhase(opts, admin, schema, size));
    const capacity: Awaited<ReturnType<typeof capacityPhase>>[] = [];
    const chained = await admin.query(`SELECT to_regclass('${schema}.audit_chain_origin') IS NOT NULL AS present`);
    if (opts.capacitySeconds && chained.rows[0].present) {
      // The same columns and the same indexes for reading (time, user and time, records); without the
      // chain's columns, and so without its (writer, seq) index: what the chain itself costs.
      await admin.query(`CREATE TABLE ${schema}.audit_plain (LIKE ${schema}.audit_log INCLUDING DEFAULTS INCLUDING INDEXES)`);
      await admin.query(`ALTER TABLE ${schema}.audit_plain DROP COLUMN hash, DROP COLUMN writer, DROP COLUMN seq`);
      for (const writers of [1, 2, 4]) for (const kind of ['chained', 'plain'] as const) capacity.push(await capacityPhase(opts, schema, writers, kind));
    }

    // Each round's n-process throughput against the same round's one process (of the same build); the figure is their geometric mean.
    const one = opts.processes[0];
    const builds = opts.against ? [opts.levApi, opts.against] : [opts.levApi];
    const label = (build: string) => (opts.against ? `${build}: ` : '');
    const lines = [`| processes | audited lookups/s (median of ${opts.rounds}) | against ${one} process (geometric mean, 95% interval) | backends waiting on a lock (mean) | on an advisory lock (mean) |`, '|---|---|---|---|---|'];
    for (const build of builds) {
      for (const n of opts.processes) {
        const mine = rows.filter((r) => r.build === build && r.processes === n);
        const ratios = mine.map((r) => r.rps / rows.find((o) => o.build === build && o.round === r.round && o.processes === one)!.rps);
        const mean = geometricMean(ratios);
        const interval = mean?.interval ? ` (${mean.interval.low.toFixed(2)}-${mean.interval.high.toFixed(2)})` : '';
        lines.push(
          `| ${label(build)}${n} | ${Math.round(median(mine.map((r) => r.rps)))} | ${mean?.mean.toFixed(2) ?? '?'}${interval} | ${median(mine.map((r) => r.lockWaits.meanWaiting)).toFixed(2)} | ${median(mine.map((r) => r.lockWaits.meanAdvisoryWaiting)).toFixed(2)} |`,
        );
      }
    }
    if (opts.against) {
      // The two builds against each other, round by round, at each process count.
      lines.push('', `| processes | ${opts.levApi} against ${opts.against} (geometric mean of the rounds) |`, '|---|---|');
      for (const n of opts.processes) {
        const ratios = rows
          .filter((r) => r.build === opts.levApi && r.processes === n)
          .map((r) => r.rps / rows.find((o) => o.build === opts.against && o.round === r.round && o.processes === n)!.rps);
        lines.push(`| ${n} | ${geometricMean(ratios)?.mean.toFixed(2) ?? '?'} |`);
      }
    }
    lines.push(
      '',
      '| processes | CPU ms a lookup: service | database backends | load generator | machine busy | service wake-ups a lookup | entries a batch | commits/s | WAL flushes/s | connections a process |',
      '|---|---|---|---|---|---|---|---|---|---|',
    );
    for (const build of builds) {
      for (const n of opts.processes) {
        const mine = rows.filter((r) => r.build === build && r.processes === n).map((r) => r.cost);
        const mid = (pick: (c: PhaseCost) => number) => median(mine.map(pick));
        lines.push(
          `| ${label(build)}${n} | ${mid((c) => c.serviceMs).toFixed(3)} | ${mid((c) => c.backendsMs).toFixed(3)} | ${mid((c) => c.loadMs).toFixed(3)} | ${(mid((c) => c.machineBusy) * 100).toFixed(0)}% | ${mid((c) => c.wakeups).toFixed(2)} | ` +
            `${mid((c) => c.entriesPerBatch).toFixed(1)} | ${Math.round(mid((c) => c.commitsPerSecond))} | ${Math.round(mid((c) => c.walSyncsPerSecond))} | ${mine[0]?.connections.join(', ')} |`,
        );
      }
    }
    if (costs.length) {
      lines.push('', '| entries a batch | CPU µs an entry: writer (node) | its backend | together |', '|---|---|---|---|');
      for (const c of costs) lines.push(`| ${c.size} | ${c.nodeUs.toFixed(1)} | ${c.backendUs.toFixed(1)} | ${(c.nodeUs + c.backendUs).toFixed(1)} |`);
    }
    if (capacity.length) {
      lines.push('', '| writers | chained entries/s | plain INSERT entries/s | chained against plain |', '|---|---|---|---|');
      for (const writers of [1, 2, 4]) {
        const [c, p] = (['chained', 'plain'] as const).map((kind) => capacity.find((x) => x.writers === writers && x.kind === kind)!.entriesPerSecond);
        lines.push(`| ${writers} | ${Math.round(c)} | ${Math.round(p)} | ${(c / p).toFixed(2)} |`);
      }
    }
    return lines.join('\n');
  } finally {
    await cleanUp();
  }
}

// Run as `npm run bench:audit`, not when imported by bench/run.ts.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  let opts: Options | undefined;
  try {
    opts = options();
  } catch (error) {
    console.error(`bench:audit: ${(error as Error).message}\n\n${USAGE}`);
    process.exitCode = 2;
  }
  if (opts) console.log(await runAuditBench(opts));
}
