/**
 * `npm run bench`: throughput, latency, CPU and memory of the service, next to
 * a ceiling (a bare node:http server answering a fixed body of the same size).
 *
 * For each store (the embedded one always; PostgreSQL when DATABASE_URL is
 * set) it generates records, starts `lev-api serve` as a process of its own,
 * checks that lookups and searches answer as expected, warms it up, then runs
 * each scenario closed loop (maximum throughput) and at a fixed offered rate
 * (latency), reading the server's CPU time and peak RSS from /proc around each
 * phase. A run in which any request failed or was answered 5xx is not reported.
 *
 * All traffic goes to 127.0.0.1. docs/performance.md says how to run it and what it found.
 */
import { createHash, randomBytes } from 'node:crypto';
import { cpus, tmpdir } from 'node:os';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import type { Request } from 'autocannon';
import { configReference } from '../src/config/index.ts';
import { tracingConfigReference } from '../src/config/tracing.ts';
import { DEFAULT_FIRST_ID } from '../src/generate/records.ts';
import { type DriveSettings, type Mode, drive } from './lib/drive.ts';
import { type PhaseWindow, cpuSeconds, localPortsTo, machineCpu, memory, procAvailable, resetPeak } from './lib/proc.ts';
import { type Server, freePort, run, runMeasured, startServer, stopCommands } from './lib/processes.ts';
import { AUDIT_WARMUP_S, runAuditBench } from './audit.ts';
import { type Row, table } from './lib/report.ts';
import { geometricMean, median } from './lib/stats.ts';
import { type ReadResult, type WaitResult, feedHead, percentile, readEvery, waitingReaders } from './lib/events.ts';
import {
  type Dataset,
  GENERATED_TYPES,
  type GeneratedType,
  countsOf,
  IDENTITY,
  lookupLists,
  lookupPath,
  searchLists,
  searchPath,
  searchQueries,
  suggestionLists,
  verificationLists,
  verificationPath,
  verificationQueries,
  warmupLists,
} from './lib/workload.ts';

const USAGE = `npm run bench -- [options]

  --duration S           seconds of load per phase (default 10)
  --rounds N             run the scenarios N times over, every other time in reverse order (default 1): drift
                         in the machine's speed then falls on every scenario alike, and comparisons take the
                         median of the rounds
  --connections N        connections, closed loop and fixed rate alike (default 20)
  --rate R|P%            offered requests a second in the fixed-rate phases (default 2000), or a share
                         of the same scenario's closed-loop throughput (e.g. 50%)
  --warmup S             seconds of mixed load before each server is measured (default 3; 0 for none)
  --embedded-births N    births generated for the embedded store (default 50000)
  --embedded-others N    deaths, marriages and partnerships each, embedded store (default 10000)
  --births N[,N...]      births loaded into PostgreSQL (default 1000000); several sizes are each loaded
                         into a schema of their own and measured in turn, and the run ends with how
                         search latency and memory grew with the size (e.g. --births 100000,10000000)
  --others N[,N...]      deaths, marriages and partnerships each, PostgreSQL (default 200000): one
                         value for every size, or one per size
  --seed S               seed of the generated records and of the request mix (default bench)
  --stores LIST          embedded,postgres (default: embedded, and postgres when DATABASE_URL is set)
  --only LIST            scenarios to run, by name or prefix: lookup, search, search-birth, verify, verify-birth, suggest,
                         suggest-birth, ..., events (default all)
  --events-records N     births the events phase loads into PostgreSQL, in ten files (ten commits) while readers
                         wait (default 100000)
  --events-readers N     readers waiting with wait=30 in the events phase (default 20)
  --modes LIST           max,rate (default both)
  --json FILE            also write the figures as JSON
  --audit                after the stores, the audit phase on PostgreSQL (bench/audit.ts, also
                         npm run bench:audit): 1, 2 and 4 processes sharing --connections, at least 3
                         alternating rounds, lock waits sampled, and the trail's capacity; each
                         phase after --audit-warmup seconds (default 30)
  --audit-warmup S       seconds of load before each audit phase is measured: its service processes
                         start afresh, and each compiles its code on its share of the requests
  --keep                 keep the PostgreSQL schemas and the generated files; a kept schema is named by
                         its sizes and seed (bench_keep_<births>_<others>_<seed>), and a later run with
                         --keep and the same sizes and seed measures it again instead of loading it
  --set NAME=VALUE       a setting of the service measured (repeatable), e.g. --set DATABASE_POOL_SIZE=20;
                         not those the benchmark gives it (HOST, PORT, AUTH_MODE, DATABASE_URL,
                         DATABASE_SCHEMA, LEV_DATA)
  --cpu-prof DIR         run the service under node --cpu-prof, writing the profile and phases.json to DIR
                         (summarise with: node --import tsx bench/profile-summary.ts DIR)

PostgreSQL: DATABASE_URL names the server; the records go into a new schema, dropped at the end
(unless --keep).`;

class UsageError extends Error {}
/** A run that had failed requests or 5xx answers: its figures are not reported. */
class RefusedError extends Error {}

function options() {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    strict: true,
    allowPositionals: false,
    options: {
      duration: { type: 'string', default: '10' },
      rounds: { type: 'string', default: '1' },
      connections: { type: 'string', default: '20' },
      rate: { type: 'string', default: '2000' },
      warmup: { type: 'string', default: '3' },
      'embedded-births': { type: 'string', default: '50000' },
      'embedded-others': { type: 'string', default: '10000' },
      births: { type: 'string', default: '1000000' },
      others: { type: 'string', default: '200000' },
      seed: { type: 'string', default: 'bench' },
      stores: { type: 'string' },
      only: { type: 'string' },
      modes: { type: 'string', default: 'max,rate' },
      json: { type: 'string' },
      keep: { type: 'boolean', default: false },
      'events-records': { type: 'string', default: '100000' },
      'events-readers': { type: 'string', default: '20' },
      audit: { type: 'boolean', default: false },
      'audit-warmup': { type: 'string', default: String(AUDIT_WARMUP_S) },
      'cpu-prof': { type: 'string' },
      set: { type: 'string', multiple: true, default: [] },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const whole = (name: keyof typeof values, min: number, max: number) => {
    const text = values[name] as string;
    const value = /^\d+$/.test(text) ? Number(text) : NaN;
    if (!Number.isSafeInteger(value) || value < min || value > max) throw new UsageError(`--${name} must be a whole number from ${min} to ${max} (got '${text}')`);
    return value;
  };
  const list = (text: string | undefined) => text?.split(',').map((s) => s.trim()).filter(Boolean);
  const databaseUrl = process.env.DATABASE_URL || undefined;
  const stores = list(values.stores) ?? (databaseUrl ? ['embedded', 'postgres'] : ['embedded']);
  for (const store of stores) if (store !== 'embedded' && store !== 'postgres') throw new UsageError(`--stores takes embedded and postgres, not '${store}'`);
  if (stores.includes('postgres') && !databaseUrl) throw new UsageError('--stores postgres needs DATABASE_URL');
  if (values.audit && !databaseUrl) throw new UsageError('--audit measures the audit trail on PostgreSQL: it needs DATABASE_URL');
  const modes = list(values.modes) ?? [];
  for (const mode of modes) if (mode !== 'max' && mode !== 'rate') throw new UsageError(`--modes takes max and rate, not '${mode}'`);
  const only = list(values.only);
  for (const name of only ?? []) {
    if (name !== 'events' && !SCENARIOS.some((s) => s.startsWith(name))) throw new UsageError(`--only: no scenario is named '${name}' (${SCENARIOS.join(', ')})`);
  }
  return {
    help: values.help,
    settings: serviceSettings(values.set),
    duration: whole('duration', 1, 600),
    rounds: whole('rounds', 1, 100),
    connections: whole('connections', 1, 1000),
    rate: rateOption(values.rate, modes),
    warmup: whole('warmup', 0, 600),
    embedded: { births: whole('embedded-births', 1, 10_000_000), others: whole('embedded-others', 1, 10_000_000) },
    postgres: postgresSizes(values.births, values.others),
    seed: values.seed,
    stores: stores as ('embedded' | 'postgres')[],
    scenarios: SCENARIOS.filter((s) => !only || only.some((name) => name !== 'events' && s.startsWith(name))),
    events: !only || only.includes('events') ? { records: whole('events-records', 10, 10_000_000), readers: whole('events-readers', 1, 1000) } : undefined,
    modes: modes as ('max' | 'rate')[],
    json: values.json,
    keep: values.keep,
    audit: values.audit,
    auditWarmup: whole('audit-warmup', 0, 600),
    cpuProf: values['cpu-prof'] === undefined ? undefined : resolve(values['cpu-prof']),
    databaseUrl,
  };
}

/** The benchmark's own settings of the service, which `--set` may not change. */
const DECIDED = ['HOST', 'PORT', 'AUTH_MODE', 'DATABASE_URL', 'DATABASE_SCHEMA', 'LEV_DATA'];

/** `--set NAME=VALUE`: settings of the service, checked by name (the service checks their values as it starts). */
function serviceSettings(items: readonly string[]): Record<string, string> {
  const known = new Set([...configReference(), ...tracingConfigReference()].map(({ name }) => name));
  const settings: Record<string, string> = {};
  for (const item of items) {
    const at = item.indexOf('=');
    const name = item.slice(0, Math.max(at, 0));
    if (at < 1 || !known.has(name)) throw new UsageError(`--set takes NAME=VALUE with NAME a setting of the service (got '${item}')`);
    if (DECIDED.includes(name)) throw new UsageError(`--set: the benchmark decides ${name} itself`);
    settings[name] = item.slice(at + 1);
  }
  return settings;
}

/** `--births` and `--others`: the PostgreSQL datasets, smallest first. */
function postgresSizes(births: string, others: string): { births: number; others: number }[] {
  const numbers = (name: string, text: string) =>
    text.split(',').map((item) => {
      const value = /^\d+$/.test(item.trim()) ? Number(item.trim()) : NaN;
      if (!Number.isSafeInteger(value) || value < 1 || value > 100_000_000) {
        throw new UsageError(`--${name} takes whole numbers from 1 to 100000000, separated by commas (got '${text}')`);
      }
      return value;
    });
  const b = numbers('births', births);
  const o = numbers('others', others);
  if (o.length !== 1 && o.length !== b.length) throw new UsageError(`--others takes one size, or one for each of --births' ${b.length}`);
  const sizes = b.map((value, i) => ({ births: value, others: o.length === 1 ? o[0] : o[i] }));
  return sizes.sort((x, y) => x.births - y.births || x.others - y.others);
}

/** `--rate`: requests a second, or a percentage of the closed-loop throughput. */
function rateOption(text: string, modes: string[]): { perSecond: number } | { percent: number } {
  const match = /^(\d+)(%?)$/.exec(text);
  const value = match ? Number(match[1]) : NaN;
  if (match?.[2]) {
    if (!(value >= 1 && value <= 100)) throw new UsageError(`--rate as a share must be from 1% to 100% (got '${text}')`);
    if (modes.includes('rate') && !modes.includes('max')) throw new UsageError('--rate as a share needs the max mode too (--modes max,rate)');
    return { percent: value };
  }
  if (!(value >= 1 && value <= 1_000_000)) throw new UsageError(`--rate must be a whole number from 1 to 1000000, or a share such as 50% (got '${text}')`);
  return { perSecond: value };
}

const rateText = (rate: Options['rate']) => ('percent' in rate ? `${rate.percent}% of the closed-loop throughput` : `${rate.perSecond}/s`);

// Each type's verification and close matches right after its search: they are compared with it, and
// phases side by side see the same machine when its speed drifts over a run.
const SCENARIOS = ['lookup', ...GENERATED_TYPES.flatMap((type) => [`search-${type}`, `verify-${type}`, `suggest-${type}`])];
type Options = ReturnType<typeof options>;

const log = (line: string) => process.stderr.write(`${line}\n`);

// ---------------------------------------------------------------------------
// Clean-up, also on Ctrl-C
// ---------------------------------------------------------------------------

const cleanups: Array<() => Promise<unknown>> = [];
let cleaning: Promise<void> | undefined;
function cleanUp(): Promise<void> {
  cleaning ??= (async () => {
    await stopCommands();
    for (const cleanup of cleanups.reverse()) await cleanup().catch((error) => log(`clean-up: ${(error as Error).message}`));
  })();
  return cleaning;
}
/** The signal that stopped the run: what fails after it (a load killed on the way) is its doing, not news. */
let stoppedBy: NodeJS.Signals | undefined;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    stoppedBy = signal;
    log(`\n${signal}: stopping the servers and cleaning up`);
    void cleanUp().finally(() => process.exit(130));
  });
}

// ---------------------------------------------------------------------------
// Stores
// ---------------------------------------------------------------------------

const LEV_API = 'bin/lev-api.js';

/**
 * The service's environment: ours without any of the service's settings (so none leaks in from the
 * shell: no TLS, no rate limit, default pool and MAX_RESULTS), then those given with --set, then
 * those the benchmark decides. Callers are identified by the mock identity headers (AUTH_MODE=mock),
 * on both stores.
 */
function serviceEnv(opts: Options, extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const { name } of [...configReference(), ...tracingConfigReference()]) delete env[name];
  return { ...env, HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...opts.settings, AUTH_MODE: 'mock', ...extra };
}

const describeCounts = (dataset: Dataset) =>
  GENERATED_TYPES.map((type) => `${dataset.counts[type].toLocaleString('en-GB')} ${type}s`).join(', ');

const datasetOf = (seed: string, sizes: { births: number; others: number }): Dataset => ({
  seed,
  firstId: DEFAULT_FIRST_ID,
  counts: countsOf(sizes.births, sizes.others),
});

/** A server being measured. */
interface Target {
  /** `ceiling`, `embedded` or `postgres`. */
  readonly store: string;
  readonly server: Server;
  /** CPU seconds so far of each database backend serving the server (where /proc shows them). */
  readonly databaseCpu?: () => Promise<Map<number, number> | undefined>;
}

interface Started extends Target {
  readonly dataset: Dataset;
  /** What preparing the store took, for the JSON. */
  readonly notes: Record<string, unknown>;
  /** The same in a line, for the table's heading. */
  readonly summary: string;
}

const serveArgs = (opts: Options) => ({ nodeArgs: opts.cpuProf ? ['--cpu-prof', '--cpu-prof-dir', opts.cpuProf] : [], args: [LEV_API, 'serve'] });

async function startEmbedded(opts: Options, work: string): Promise<Started> {
  const dataset = datasetOf(opts.seed, opts.embedded);
  const folder = join(work, 'embedded');
  await mkdir(folder);
  const started = performance.now();
  for (const type of GENERATED_TYPES) {
    const count = dataset.counts[type];
    await run([LEV_API, 'generate', '--type', type, '--count', String(count), '--seed', dataset.seed, '--out', join(folder, `${type}.ndjson`)], process.env, 60 + count / 500);
  }
  const generateSeconds = (performance.now() - started) / 1000;
  const port = await freePort();
  const { nodeArgs, args } = serveArgs(opts);
  const total = Object.values(dataset.counts).reduce((a, b) => a + b, 0);
  log(`embedded: starting the service on ${total.toLocaleString('en-GB')} records (it reads LEV_DATA into memory first)`);
  const server = await startServer('embedded service', nodeArgs, args, serviceEnv(opts, { PORT: String(port), LEV_DATA: folder }), port, 120 + total / 100);
  cleanups.push(() => server.stop());
  const startupPeak = memory(server.pid)?.peakMiB ?? null;
  log(`embedded: ready in ${server.startSeconds.toFixed(1)} s (peak RSS while loading ${startupPeak?.toFixed(0) ?? '?'} MiB)`);
  const summary =
    `${describeCounts(dataset)}, generated in ${generateSeconds.toFixed(1)} s; the service was ready in ${server.startSeconds.toFixed(1)} s` +
    (startupPeak === null ? '' : `, its RSS peaking at ${Math.round(startupPeak).toLocaleString('en-GB')} MiB while it loaded them`);
  return {
    store: 'embedded',
    server,
    dataset,
    summary,
    notes: { counts: dataset.counts, generateSeconds, startSeconds: server.startSeconds, startupPeakRssMiB: startupPeak },
  };
}

/** The table a kept schema holds once its records are all loaded, naming what they are. */
const LOADED_MARK = 'bench_loaded';

/** A kept schema's name says what it holds, so that a later run can find it. */
const keptSchemaName = (seed: string, sizes: { births: number; others: number }) =>
  `bench_keep_${sizes.births}_${sizes.others}_${createHash('sha256').update(seed).digest('hex').slice(0, 8)}`;

/** `postgres 1,000,000` when several sizes are measured, else `postgres`. */
const postgresLabel = (opts: Options, sizes: { births: number }) =>
  opts.postgres.length > 1 ? `postgres ${sizes.births.toLocaleString('en-GB')}` : 'postgres';

async function startPostgres(opts: Options, sizes: { births: number; others: number }, work: string): Promise<Started> {
  const label = postgresLabel(opts, sizes);
  const dataset = datasetOf(opts.seed, sizes);
  const url = opts.databaseUrl!;
  const schema = opts.keep ? keptSchemaName(opts.seed, sizes) : `bench_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  await admin.connect();
  cleanups.push(() => admin.end());
  const mark = JSON.stringify(dataset);
  const kept = opts.keep && (await admin.query(`SELECT to_regclass('${schema}.${LOADED_MARK}') IS NOT NULL AS present`)).rows[0].present;
  const reused = kept && (await admin.query(`SELECT dataset FROM ${schema}.${LOADED_MARK}`)).rows[0]?.dataset === mark;
  if (!reused) {
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.query(`CREATE SCHEMA ${schema}`);
  }
  cleanups.push(async () => {
    if (opts.keep) log(`${label}: kept schema ${schema} (drop it with: DROP SCHEMA ${schema} CASCADE)`);
    else await admin.query(`DROP SCHEMA ${schema} CASCADE`);
  });
  const env = serviceEnv(opts, { DATABASE_URL: url, DATABASE_SCHEMA: schema });
  // A kept schema is migrated too: it may be older than the code.
  await run([LEV_API, 'migrate'], env, 3600);
  const loadSeconds: Record<string, number> = {};
  const loaderPeakMiB: Record<string, number | null> = {};
  if (reused) log(`${label}: measuring kept schema ${schema} again (its records are already loaded)`);
  else log(`${label}: schema ${schema}; migrating and loading ${Object.values(dataset.counts).reduce((a, b) => a + b, 0).toLocaleString('en-GB')} records`);
  for (const type of reused ? [] : GENERATED_TYPES) {
    const count = dataset.counts[type];
    // Generated to a file first, so that the load is measured alone (its speed and its peak memory) and sizes its heap by the file.
    const file = join(work, `${label.replace(/\W+/g, '-')}-${type}.ndjson`);
    await run([LEV_API, 'generate', '--type', type, '--count', String(count), '--seed', dataset.seed, '--out', file], process.env, 60 + count / 500);
    const measured = await runMeasured([LEV_API, 'load', '--type', type, file], env, 300 + count / 1000);
    await rm(file, { force: true });
    loadSeconds[type] = measured.seconds;
    loaderPeakMiB[type] = measured.peakMiB;
    log(`${label}: loaded ${count.toLocaleString('en-GB')} ${type} records at ${Math.round(count / measured.seconds).toLocaleString('en-GB')}/s, the loader's RSS peaking at ${measured.peakMiB?.toFixed(0) ?? '?'} MiB`);
  }
  if (!reused) {
    // Fresh statistics, as autovacuum would soon give them, so plans do not depend on its timing.
    const tables = await admin.query<{ tablename: string }>('SELECT tablename FROM pg_tables WHERE schemaname = $1', [schema]);
    for (const { tablename } of tables.rows) await admin.query(`ANALYZE ${schema}."${tablename}"`);
    if (opts.keep) await admin.query(`CREATE TABLE ${schema}.${LOADED_MARK} AS SELECT $1::text AS dataset`, [mark]);
  }
  const size = await admin.query<{ bytes: string }>(
    'SELECT sum(pg_total_relation_size(c.oid))::text AS bytes FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relkind = $2',
    [schema, 'r'],
  );
  const databaseGiB = Number(size.rows[0]?.bytes ?? 0) / 2 ** 30;
  const port = await freePort();
  const { nodeArgs, args } = serveArgs(opts);
  const server = await startServer(`${label} service`, nodeArgs, args, { ...env, PORT: String(port) }, port, 120);
  cleanups.push(() => server.stop());
  log(`${label}: ready in ${server.startSeconds.toFixed(1)} s`);
  // The service's connections, found by their local ports, are the backends whose CPU is its database's.
  const databasePort = Number(new URL(url).port || 5432);
  const databaseCpu = async () => {
    const ports = localPortsTo(server.pid, databasePort);
    if (!ports.length) return undefined;
    const backends = await admin.query<{ pid: number }>(
      "SELECT pid FROM pg_stat_activity WHERE client_port = ANY($1::int[]) AND client_addr IN ('127.0.0.1', '::1')",
      [ports],
    );
    const cpu = new Map<number, number>();
    for (const { pid } of backends.rows) {
      const seconds = cpuSeconds(pid);
      if (seconds !== undefined) cpu.set(pid, seconds);
    }
    return cpu.size ? cpu : undefined;
  };
  const loaded = Object.values(loadSeconds).reduce((a, b) => a + b, 0);
  const rates = GENERATED_TYPES.filter((type) => loadSeconds[type]).map(
    (type) => `${type}s ${Math.round(dataset.counts[type] / loadSeconds[type]).toLocaleString('en-GB')}/s (loader peak ${loaderPeakMiB[type]?.toFixed(0) ?? '?'} MiB)`,
  );
  const how = reused ? 'loaded by an earlier run' : `loaded in ${loaded.toFixed(1)} s: ${rates.join(', ')}`;
  const summary = `${describeCounts(dataset)} in schema ${schema} (${databaseGiB.toFixed(1)} GiB), ${how}; the service was ready in ${server.startSeconds.toFixed(1)} s`;
  return {
    store: label,
    server,
    databaseCpu,
    dataset,
    summary,
    notes: { schema, reused, counts: dataset.counts, loadSeconds, loaderPeakMiB, databaseGiB, startSeconds: server.startSeconds },
  };
}

// ---------------------------------------------------------------------------
// The change feed
// ---------------------------------------------------------------------------

const EVENT_FILES = 10;

/**
 * The events phase: on PostgreSQL, `records` births loaded in ten files (ten commits) while
 * `readers` wait with wait=30, then one reader reads every event of that load at limit=1000; on
 * the embedded store (whose records are loaded at start) one reader reads every event of that
 * start, and the waiting readers follow a mock service adding a registration every second.
 */
async function eventsPhase(opts: Options, settings: { records: number; readers: number }, target: Started, work: string): Promise<string[]> {
  const { server, store } = target;
  const notes: Record<string, unknown> = {};
  let read: ReadResult;
  let waited: WaitResult;
  if (store === 'embedded') {
    read = await readEvery(server.url);
    const port = await freePort();
    const mock = await startServer('embedded mock (events)', [], [LEV_API, 'serve'], serviceEnv(opts, { PORT: String(port), MOCK_EVENT_INTERVAL_S: '1' }), port, 60);
    cleanups.push(() => mock.stop());
    try {
      waited = await waitingReaders(mock.url, settings.readers, await feedHead(mock.url), () => new Promise((resolve) => setTimeout(resolve, 10_000)));
    } finally {
      await mock.stop();
    }
  } else {
    const head = await feedHead(server.url);
    const files: string[] = [];
    const per = Math.ceil(settings.records / EVENT_FILES);
    for (let i = 0; i < EVENT_FILES; i++) {
      const file = join(work, `events-${i}.ndjson`);
      // Ids beyond every generated dataset's.
      const firstId = DEFAULT_FIRST_ID + 500_000_000 + i * per;
      await run([LEV_API, 'generate', '--type', 'birth', '--count', String(per), '--seed', `${opts.seed}-events`, '--first-id', String(firstId), '--out', file], process.env, 60 + per / 500);
      files.push(file);
    }
    const env = serviceEnv(opts, { DATABASE_URL: opts.databaseUrl!, DATABASE_SCHEMA: String((target.notes as { schema: string }).schema) });
    let load: { seconds: number; peakMiB: number | null } | undefined;
    waited = await waitingReaders(server.url, settings.readers, head, async () => {
      load = await runMeasured([LEV_API, 'load', '--type', 'birth', ...files], env, 300 + settings.records / 1000);
    });
    for (const file of files) await rm(file, { force: true });
    read = await readEvery(server.url, head);
    notes.load = { records: per * EVENT_FILES, seconds: load!.seconds, perSecond: (per * EVENT_FILES) / load!.seconds, peakMiB: load!.peakMiB };
  }
  const { latenciesMs } = waited;
  const p50 = percentile(latenciesMs, 50);
  const p99 = percentile(latenciesMs, 99);
  Object.assign(notes, { read, waiting: { readers: settings.readers, answers: latenciesMs.length, p50Ms: p50, p99Ms: p99, maxMs: Math.max(...latenciesMs) } });
  (target.notes as Record<string, unknown>).events = notes;
  const load = notes.load as { records: number; perSecond: number; peakMiB: number | null } | undefined;
  return [
    `events (${store}): one reader read ${read.events.toLocaleString('en-GB')} events at limit=1000 in ${read.seconds.toFixed(2)} s, ` +
      `${Math.round(read.perSecond).toLocaleString('en-GB')} events/s (target 50,000)`,
    `events (${store}): ${settings.readers} readers waiting with wait=30${store === 'embedded' ? ' on the mock adding one a second' : ` while ${load!.records.toLocaleString('en-GB')} births loaded in ${EVENT_FILES} commits`}: ` +
      `${latenciesMs.length} answers, from commit to answer p50 ${p50.toFixed(0)} ms, p99 ${p99.toFixed(0)} ms (target under 500 ms)` +
      (load ? `; the load ran at ${Math.round(load.perSecond).toLocaleString('en-GB')} records/s, its RSS peaking at ${load.peakMiB?.toFixed(0) ?? '?'} MiB` : ''),
  ];
}

// ---------------------------------------------------------------------------
// Checks before measuring
// ---------------------------------------------------------------------------

async function get(url: string) {
  const response = await fetch(url, { headers: IDENTITY, signal: AbortSignal.timeout(10_000) });
  return { status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()) };
}

/**
 * Lookups and searches answer as the generated data says they must; returns a
 * typical rendered record (the median-sized of the first existing births), the
 * ceiling's body.
 */
async function check(server: Server, dataset: Dataset): Promise<Buffer> {
  const fail = (what: string) => {
    throw new Error(`${server.name} does not answer as the generated data says it must: ${what}`);
  };
  const bodies: Buffer[] = [];
  for (let id = dataset.firstId; id < dataset.firstId + Math.min(21, dataset.counts.birth); id++) {
    const answer = await get(server.url + lookupPath('birth', id));
    if (answer.status !== 200 || JSON.parse(answer.body.toString()).id !== id) fail(`birth ${id} answered ${answer.status}`);
    bodies.push(answer.body);
  }
  const missing = await get(server.url + lookupPath('birth', dataset.firstId + dataset.counts.birth));
  if (missing.status !== 404) fail(`a missing birth answered ${missing.status}`);
  for (const type of GENERATED_TYPES) {
    for (const sample of searchQueries(dataset, type).slice(0, 20)) {
      const answer = await get(server.url + searchPath(type, sample.query));
      if (answer.status !== 200) fail(`a ${type} search answered ${answer.status}`);
      const ids = (JSON.parse(answer.body.toString()) as { id: number }[]).map((r) => r.id);
      const truncated = answer.headers.get('x-results-truncated') === 'true';
      if (sample.expectId === null ? ids.length > 0 : !ids.includes(sample.expectId) && !truncated) {
        fail(`${type} search ${JSON.stringify(sample.query)} found [${ids.join(', ')}], expected ${sample.expectId ?? 'nothing'}`);
      }
    }
  }
  for (const type of GENERATED_TYPES) {
    const samples = verificationQueries(dataset, type).slice(0, 40);
    let verified = 0;
    for (const sample of samples) {
      const answer = await get(server.url + verificationPath(type, sample.query));
      const body = answer.body.toString();
      if (answer.status !== 200 || (body !== '{"verified":true}' && body !== '{"verified":false}')) fail(`a ${type} verification answered ${answer.status} ${body}`);
      if (!sample.fromRecord && body !== '{"verified":false}') fail(`${type} verification ${JSON.stringify(sample.query)} verified a surname no record has`);
      if (sample.fromRecord && body === '{"verified":true}') verified++;
    }
    // A record's own details fail only when it is blocked or replaced (rare), or another record shares them.
    const fromRecords = samples.filter((s) => s.fromRecord).length;
    if (verified < 0.8 * fromRecords) fail(`only ${verified} of ${fromRecords} ${type} verifications made from records verified`);
  }
  return bodies.sort((a, b) => a.length - b.length)[Math.floor(bodies.length / 2)];
}

// ---------------------------------------------------------------------------
// Phases
// ---------------------------------------------------------------------------

const windows: PhaseWindow[] = [];
const rows: Row[] = [];

/**
 * Throughput is compared in the closed loop (at a fixed rate the offered rate decides it): a store's
 * to the higher of the ceilings measured just before and just after it, since something else on the
 * machine can only lower a ceiling and so must not flatter a store; a later ceiling's to the first,
 * which shows the drift.
 */
function compareToCeilings(measured: Row[]) {
  const ceilings = measured.flatMap((row, at) => (row.store === 'ceiling' && row.mode === 'max' ? [{ at, rps: row.rps }] : []));
  if (!ceilings.length) return;
  measured.forEach((row, at) => {
    if (row.mode !== 'max') return;
    if (row.store === 'ceiling') return void (row.ratioToCeiling = row.rps / ceilings[0].rps);
    const around = [ceilings.filter((c) => c.at < at).at(-1), ceilings.find((c) => c.at > at)];
    row.ratioToCeiling = row.rps / Math.max(...around.map((c) => c?.rps ?? 0));
  });
}

/** How far apart the ceiling's measurements in one run may be before the run is called unsteady. */
const CEILING_DRIFT = 0.1;

function ceilingDriftNote(): string[] {
  const ceilings = rows.filter((row) => row.store === 'ceiling' && row.mode === 'max').map((row) => row.rps);
  if (ceilings.length < 2) return [];
  const [low, high] = [Math.min(...ceilings), Math.max(...ceilings)];
  if (high / low - 1 <= CEILING_DRIFT) return [];
  const text = (rps: number) => Math.round(rps).toLocaleString('en-GB');
  return [
    `NOTE: the ceiling ranged from ${text(low)} to ${text(high)} req/s during the run (${Math.round((high / low - 1) * 100)}% apart): ` +
      "the machine's speed changed. Each store's ratios are to the higher of the ceilings just before and after it, yet may be off by as much; " +
      'run again on a quieter machine.',
  ];
}

/** Phases in which other processes (not the server, its database backends or the load generator) used much of the machine. */
function busyMachineNote(): string[] {
  const busy = rows.filter((row) => (row.otherCpuPercent ?? 0) > 20);
  if (!busy.length) return [];
  const shares = busy.map((row) => Math.round(row.otherCpuPercent!));
  const phases = busy.length <= 3 ? busy.map((row) => `${row.store} ${row.scenario} ${row.mode}`).join(', ') : `${busy.length} of ${rows.length} phases`;
  return [
    `NOTE: other processes used ${Math.min(...shares) === Math.max(...shares) ? shares[0] : `${Math.min(...shares)}–${Math.max(...shares)}`}% of a core during ${phases} ` +
      '(otherCpuPercent in the JSON): those figures are disturbed; run again on a quiet machine.',
  ];
}

/**
 * With several PostgreSQL sizes: each search's p99 at the fixed rate, and the server's peak memory,
 * on the largest dataset against the smallest.
 */
function growth(): string[] {
  const stores = [...new Set(rows.filter((row) => row.store.startsWith('postgres ')).map((row) => row.store))];
  if (stores.length < 2) return [];
  const [small, large] = [stores[0], stores[stores.length - 1]];
  const find = (store: string, scenario: string) => rows.find((row) => row.store === store && row.scenario === scenario && row.mode === 'rate');
  const ratios = SCENARIOS.flatMap((scenario) => {
    const [a, b] = [find(small, scenario), find(large, scenario)];
    return a && b ? [`${scenario} ${b.latencyMs.p99.toFixed(2)} ÷ ${a.latencyMs.p99.toFixed(2)} = ${(b.latencyMs.p99 / a.latencyMs.p99).toFixed(2)}×`] : [];
  });
  const peak = (store: string) => Math.max(...rows.filter((row) => row.store === store).map((row) => row.server.peakRssMiB ?? 0));
  return [
    '',
    `Growth from ${small.slice('postgres '.length)} to ${large.slice('postgres '.length)} births:`,
    ...(ratios.length ? [`- p99 at the fixed rate: ${ratios.join('; ')}`] : []),
    `- the server's peak RSS over all phases: ${peak(small).toFixed(0)} MiB, then ${peak(large).toFixed(0)} MiB`,
  ];
}

/**
 * Each type's closed-loop verification throughput over its search's, and the server's CPU per
 * request the other way up (search over verification), on each store: verification should not cost
 * more. With several rounds, each round's ratio compares phases run one after the other, and the
 * median of the rounds is given with their range; over all types, the geometric mean of every pair.
 */
function verificationAgainstSearch(): string[] {
  const told = (values: number[]) =>
    values.length > 1 ? `${median(values).toFixed(2)} (${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)})` : values[0].toFixed(2);
  const lines = [...new Set(rows.map((row) => row.store))].flatMap((store) => {
    const closed = (scenario: string) => rows.filter((row) => row.store === store && row.scenario === scenario && row.mode === 'max');
    // Each type's search and verification of the same round.
    const pairs = new Map(
      GENERATED_TYPES.map((type) => [
        type,
        closed(`search-${type}`).flatMap((search) => {
          const verify = closed(`verify-${type}`).find((row) => row.round === search.round);
          return verify ? [{ round: search.round, search, verify }] : [];
        }),
      ]),
    );
    const ratios = GENERATED_TYPES.flatMap((type) => {
      const measured = pairs.get(type) ?? [];
      if (!measured.length) return [];
      const cpu = measured.map(({ search, verify }) => (search.server.cpuMicrosPerRequest ?? NaN) / (verify.server.cpuMicrosPerRequest ?? NaN)).filter(Number.isFinite);
      return [`${type} ${told(measured.map(({ search, verify }) => verify.rps / search.rps))}${cpu.length ? `, CPU ${told(cpu)}` : ''}`];
    });
    // The store's verification throughput against its search throughput: every pair of every type and round.
    const overall = geometricMean([...pairs.values()].flat().map(({ search, verify }) => verify.rps / search.rps));
    if (ratios.length > 1 && overall) {
      const interval = overall.interval ? ` (95% interval ${overall.interval.low.toFixed(2)}–${overall.interval.high.toFixed(2)})` : '';
      ratios.push(`all types ${overall.mean.toFixed(2)}${interval} over ${overall.count} pairs`);
    }
    return ratios.length ? [`- ${store}: ${ratios.join('; ')}`] : [];
  });
  const rounds = Math.max(1, ...rows.map((row) => row.round ?? 1));
  return lines.length
    ? [
        '',
        `Verification req/s over the same type's search req/s (closed loop), and CPU: the search's server CPU per request over the verification's${rounds > 1 ? `; the median of ${rounds} rounds (their range)` : ''}:`,
        ...lines,
      ]
    : [];
}

/**
 * Each type's closed-loop close-match throughput over its search's (issue 24 asks for a fifth at
 * least), and the close matches' p99 at the fixed rate, on each store; the median of the rounds.
 */
function suggestionsAgainstSearch(): string[] {
  const lines = [...new Set(rows.map((row) => row.store))].flatMap((store) => {
    const of = (scenario: string, mode: 'max' | 'rate') => rows.filter((row) => row.store === store && row.scenario === scenario && row.mode === mode);
    const told = GENERATED_TYPES.flatMap((type) => {
      const searches = of(`search-${type}`, 'max');
      const ratios = of(`suggest-${type}`, 'max').flatMap((suggest) => {
        const search = searches.find((row) => row.round === suggest.round);
        return search ? [suggest.rps / search.rps] : [];
      });
      const fixed = of(`suggest-${type}`, 'rate');
      if (!ratios.length && !fixed.length) return [];
      const p99 = fixed.length ? `, p99 ${median(fixed.map((row) => row.latencyMs.p99)).toFixed(1)} ms at ${fixed[0].offered}/s` : '';
      return [`${type} ${ratios.length ? median(ratios).toFixed(2) : '-'}${p99}`];
    });
    return told.length ? [`- ${store}: ${told.join('; ')}`] : [];
  });
  return lines.length ? ['', "Close matches' req/s over the same type's search req/s (closed loop), and their p99 at the fixed rate:", ...lines] : [];
}

const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);

async function phase(opts: Options, { store, server, databaseCpu }: Target, scenario: string, lists: Request[][], mode: Mode, seconds = opts.duration): Promise<Row> {
  const settings: DriveSettings = { url: server.url, duration: seconds, connections: opts.connections, timeout: 10 };
  const peakReset = resetPeak(server.pid);
  // Where the peak cannot be reset, also sample RSS (bounded: one reading every 200 ms while the phase runs).
  let sampledPeak = 0;
  const sampler = peakReset || !procAvailable ? undefined : setInterval(() => (sampledPeak = Math.max(sampledPeak, memory(server.pid)?.rssMiB ?? 0)), 200);
  const databaseBefore = await databaseCpu?.();
  const cpuBefore = cpuSeconds(server.pid);
  const machineBefore = machineCpu();
  const generatorBefore = process.cpuUsage();
  const startUs = monotonicUs();
  const started = performance.now();
  let result;
  try {
    result = await drive(settings, lists, mode);
  } finally {
    if (sampler) clearInterval(sampler);
  }
  const wall = (performance.now() - started) / 1000;
  windows.push({ store, scenario, mode: mode.kind, pid: server.pid, startUs, endUs: monotonicUs() });
  const cpuAfter = cpuSeconds(server.pid);
  const machineAfter = machineCpu();
  const generator = process.cpuUsage(generatorBefore);
  const mem = memory(server.pid);
  const databaseAfter = await databaseCpu?.();
  // Backends that were there before count from then; those opened during the phase, all their time.
  const database = databaseAfter ? [...databaseAfter].reduce((total, [pid, after]) => total + after - (databaseBefore?.get(pid) ?? 0), 0) : null;

  const cpu = cpuBefore === undefined || cpuAfter === undefined ? null : cpuAfter - cpuBefore;
  const count = (test: (status: number) => boolean) => Object.entries(result.statuses).reduce((n, [status, c]) => n + (test(Number(status)) ? c : 0), 0);
  const serverErrors = count((s) => s >= 500);
  const row: Row = {
    store,
    scenario,
    mode: mode.kind,
    offered: mode.kind === 'rate' ? mode.rate : null,
    connections: opts.connections,
    seconds: result.seconds,
    responses: result.responses,
    rps: result.rps,
    ratioToCeiling: null,
    saturated: mode.kind === 'rate' && result.rps < 0.95 * mode.rate,
    latencyMs: result.latencyMs,
    errors: result.errors,
    timeouts: result.timeouts,
    statuses: result.statuses,
    otherNon2xx: count((s) => (s < 200 || s >= 300) && s !== 404),
    notFoundShare: result.responses ? (result.statuses['404'] ?? 0) / result.responses : 0,
    server: {
      pid: server.pid,
      cpuSeconds: cpu,
      cpuMicrosPerRequest: cpu === null || !result.responses ? null : (cpu / result.responses) * 1e6,
      cpuPercent: cpu === null ? null : (cpu / wall) * 100,
      peakRssMiB: mem ? (peakReset ? mem.peakMiB : Math.max(sampledPeak, mem.rssMiB)) : null,
      rssAfterMiB: mem?.rssMiB ?? null,
    },
    database:
      database === null
        ? null
        : { cpuSeconds: database, cpuMicrosPerRequest: result.responses ? (database / result.responses) * 1e6 : null, cpuPercent: (database / wall) * 100 },
    machineCpuPercent:
      machineBefore && machineAfter && machineAfter.total > machineBefore.total
        ? ((machineAfter.busy - machineBefore.busy) / (machineAfter.total - machineBefore.total)) * 100
        : null,
    generatorCpuPercent: ((generator.user + generator.system) / 1e6 / wall) * 100,
    otherCpuPercent: null,
  };
  if (row.machineCpuPercent !== null && row.server.cpuPercent !== null) {
    row.otherCpuPercent = Math.max(0, row.machineCpuPercent * cpus().length - row.server.cpuPercent - row.generatorCpuPercent - (row.database?.cpuPercent ?? 0));
  }
  const load = mode.kind === 'max' ? 'max' : `${mode.rate}/s`;
  log(
    `${store} ${scenario} ${load}: ${Math.round(row.rps)} req/s, p50 ${row.latencyMs.p50.toFixed(2)} ms, p99 ${row.latencyMs.p99.toFixed(2)} ms, ` +
      `server CPU ${row.server.cpuMicrosPerRequest?.toFixed(0) ?? '?'} µs/req`,
  );
  if (row.errors > 0 || serverErrors > 0) {
    throw new RefusedError(
      `refusing to report this run: in ${store} ${scenario} (${load}), ${row.errors} request(s) failed (${row.timeouts} timed out) ` +
        `and ${serverErrors} were answered 5xx (statuses ${JSON.stringify(row.statuses)})`,
    );
  }
  return row;
}

function listsFor(scenario: string, dataset: Dataset, connections: number): Request[][] {
  if (scenario === 'lookup') return lookupLists(dataset, connections);
  if (scenario.startsWith('verify-')) return verificationLists(dataset, scenario.slice('verify-'.length) as GeneratedType, connections);
  if (scenario.startsWith('suggest-')) return suggestionLists(dataset, scenario.slice('suggest-'.length) as GeneratedType, connections);
  return searchLists(dataset, scenario.slice('search-'.length) as GeneratedType, connections);
}

/** Runs a scenario in each mode; the closed loop first, as a relative rate is a share of its throughput. */
async function scenarioPhases(opts: Options, target: Target, scenario: string, lists: Request[][], modes = opts.modes, round?: number) {
  let max: Row | undefined;
  for (const kind of ['max', 'rate'] as const) {
    if (!modes.includes(kind)) continue;
    if (kind === 'max') {
      max = { ...(await phase(opts, target, scenario, lists, { kind })), round };
      rows.push(max);
    } else {
      const rate = 'percent' in opts.rate ? Math.max(1, Math.round((max!.rps * opts.rate.percent) / 100)) : opts.rate.perSecond;
      rows.push({ ...(await phase(opts, target, scenario, lists, { kind, rate })), round });
    }
  }
}

/**
 * The ceiling, measured before each store's phases (`before`, the store's name, past the first) and
 * once more after the last store's (`after`), in the closed loop only but the first time: a machine
 * shared with others can change speed within a run, over a long load especially, so each store is
 * compared to the ceilings on either side of it (compareToCeilings), and the spread of them all tells
 * how steady the run was.
 */
async function measureCeiling(opts: Options, work: string, body: Buffer, dataset: Dataset, when?: { before: string } | 'after') {
  const bodyFile = join(work, 'ceiling-body.json');
  await writeFile(bodyFile, body);
  const port = await freePort();
  const server = await startServer('ceiling', ['--import', 'tsx'], ['bench/ceiling.ts'], { ...process.env, PORT: String(port), BODY_FILE: bodyFile }, port, 60);
  cleanups.push(() => server.stop());
  try {
    // The same requests as the lookups, so request parsing costs the same.
    const lists = lookupLists(dataset, opts.connections);
    const target = { store: 'ceiling', server };
    if (opts.warmup) await phase(opts, target, 'warm-up', lists, { kind: 'max' }, opts.warmup);
    const scenario = `fixed ${body.length} B body`;
    if (when === undefined) await scenarioPhases(opts, target, scenario, lists);
    else await scenarioPhases(opts, target, `${scenario}, ${when === 'after' ? 'after the stores' : `before ${when.before}`}`, lists, ['max']);
  } finally {
    await server.stop();
  }
}

// ---------------------------------------------------------------------------

async function main(): Promise<number> {
  let opts: Options;
  try {
    opts = options();
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      log(`bench: ${(error as Error).message}\n\nUsage: ${USAGE}`);
      return 2;
    }
    throw error;
  }
  if (opts.help) {
    console.log(`Usage: ${USAGE}`);
    return 0;
  }
  if (!procAvailable) log('bench: /proc is not available here; server CPU and memory are not reported');
  // The service is measured as production runs it: compiled (bin/lev-api.js runs dist/ when it is current).
  log('bench: compiling the service (npm run build)');
  await run(['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], process.env, 300);
  if (opts.cpuProf) await mkdir(opts.cpuProf, { recursive: true });

  const work = await mkdtemp(join(tmpdir(), 'lev-bench-'));
  cleanups.push(async () => {
    if (opts.keep) log(`kept the generated records in ${work}`);
    else await rm(work, { recursive: true, force: true });
  });
  const machine = cpus();
  const meta = {
    date: new Date().toISOString(),
    node: process.version,
    cpu: `${machine[0]?.model ?? 'unknown'} × ${machine.length}`,
    duration: opts.duration,
    connections: opts.connections,
    rate: rateText(opts.rate),
    warmup: opts.warmup,
    seed: opts.seed,
    settings: opts.settings,
    stores: {} as Record<string, unknown>,
  };

  const summaries: string[] = [];
  const eventLines: string[] = [];
  let ceilingMeasured: { body: Buffer; dataset: Dataset } | undefined;
  const starts = opts.stores.flatMap((store) =>
    store === 'embedded' ? [() => startEmbedded(opts, work)] : opts.postgres.map((sizes) => () => startPostgres(opts, sizes, work)),
  );
  for (const start of starts) {
    const target = await start();
    const { server, dataset, notes } = target;
    meta.stores[target.store] = notes;
    summaries.push(`${target.store}: ${target.summary}`);
    const body = await check(server, dataset);
    if (!ceilingMeasured) {
      await measureCeiling(opts, work, body, dataset);
      ceilingMeasured = { body, dataset };
    } else if (opts.modes.includes('max')) await measureCeiling(opts, work, ceilingMeasured.body, ceilingMeasured.dataset, { before: target.store });
    if (opts.warmup) await phase(opts, target, 'warm-up', warmupLists(dataset, opts.connections), { kind: 'max' }, opts.warmup);
    if (opts.events) eventLines.push(...(await eventsPhase(opts, opts.events, target, work)));
    for (let round = 1; round <= opts.rounds; round++) {
      // Every other round runs the list backwards, so that of each pair of scenarios compared (a type's
      // search and verification) neither is always measured second, when the heap is fuller and the
      // machine has drifted further the same way.
      for (const scenario of round % 2 ? opts.scenarios : [...opts.scenarios].reverse()) {
        await scenarioPhases(opts, target, scenario, listsFor(scenario, dataset, opts.connections), opts.modes, opts.rounds > 1 ? round : undefined);
      }
    }
    await server.stop();
  }
  if (ceilingMeasured && opts.modes.includes('max')) await measureCeiling(opts, work, ceilingMeasured.body, ceilingMeasured.dataset, 'after');
  compareToCeilings(rows);

  if (opts.cpuProf) await writeFile(join(opts.cpuProf, 'phases.json'), `${JSON.stringify(windows, null, 2)}\n`);
  const lines = [
    `lev-api benchmark, ${meta.date}: Node ${meta.node} on ${meta.cpu}; ${opts.duration} s a phase, ${opts.connections} connections, fixed rate ${rateText(opts.rate)}` +
      Object.entries(opts.settings).map(([name, value]) => `; ${name}=${value}`).join(''),
    ...summaries,
    '',
    table(rows),
    '',
    'load: "max" is closed loop; "N/s" is the offered rate ("sat." when under 95% of it was answered). × ceiling compares closed-loop throughput',
    'to the higher of the ceilings measured just before and after it (a later ceiling, to the first).',
    'Latencies are of the requests sent once every connection was set up. CPU is the server process (user + system), per',
    "request and as a share of one core; peak RSS is the server's during the phase. DB CPU is the PostgreSQL backends serving",
    'it (when on this machine).',
    ...eventLines,
    ...verificationAgainstSearch(),
    ...suggestionsAgainstSearch(),
    ...growth(),
    ...ceilingDriftNote(),
    ...busyMachineNote(),
  ];
  if (opts.audit) {
    log('audit phase: 1, 2 and 4 processes, then the trail\'s capacity');
    lines.push(
      '',
      `The audit trail (${opts.postgres[0].births.toLocaleString('en-GB')} births, ${opts.connections} connections shared, ${Math.max(3, opts.rounds)} rounds):`,
      await runAuditBench({
        databaseUrl: opts.databaseUrl!,
        births: opts.postgres[0].births,
        duration: opts.duration,
        warmup: opts.auditWarmup,
        rounds: Math.max(3, opts.rounds),
        processes: [1, 2, 4],
        connections: opts.connections - (opts.connections % 4),
        capacitySeconds: Math.max(1, Math.round(opts.duration / 2)),
        batch: 10,
        batchCostSeconds: 3,
        levApi: resolve(LEV_API),
        keep: false,
      }),
    );
  }
  console.log(lines.join('\n'));
  if (opts.json) {
    await writeFile(opts.json, `${JSON.stringify({ meta, rows }, null, 2)}\n`);
    log(`wrote ${opts.json}`);
  }
  return 0;
}

try {
  process.exitCode = await main();
} catch (error) {
  if (!stoppedBy) log(error instanceof RefusedError ? `bench: ${error.message}` : `bench: ${(error as Error).stack ?? error}`);
  process.exitCode = 1;
} finally {
  await cleanUp();
}
