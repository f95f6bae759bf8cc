/**
 * The servers measured: the embedded store on generated records, and PostgreSQL with them loaded
 * into a schema of its own (kept and measured again with --keep).
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import { configReference } from '../../src/config/index.ts';
import { tracingConfigReference } from '../../src/config/tracing.ts';
import { DEFAULT_FIRST_ID } from '../../src/generate/records.ts';
import { cleanups } from './cleanup.ts';
import { log } from './log.ts';
import type { Options } from './options.ts';
import { cpuSeconds, localPortsTo, memory } from './proc.ts';
import { type Server, freePort, run, runMeasured, startServer } from './processes.ts';
import { type Dataset, GENERATED_TYPES, countsOf } from './workload.ts';

export const LEV_API = 'bin/lev-api.js';

/**
 * The service's environment: ours without any of the service's settings (so none leaks in from the
 * shell: no TLS, no rate limit, default pool and MAX_RESULTS), then those given with --set, then
 * those the benchmark decides. Callers are identified by the mock identity headers (AUTH_MODE=mock),
 * on both stores.
 */
export function serviceEnv(opts: Pick<Options, 'settings'>, extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const { name } of [...configReference(), ...tracingConfigReference()]) delete env[name];
  return { ...env, HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...opts.settings, AUTH_MODE: 'mock', ...extra };
}

/** Seconds until the service's /metrics says its close-match indexes are built (SUGGESTION_INDEX=service). */
export async function indexesBuilt(port: number, timeoutS = 600): Promise<number> {
  const started = performance.now();
  for (;;) {
    const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    if (/^lev_suggestion_index_built 1$/m.test(text)) return (performance.now() - started) / 1000;
    if (performance.now() - started > timeoutS * 1000)
      throw new Error(`the close-match indexes were not built within ${timeoutS} s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const describeCounts = (dataset: Dataset) =>
  GENERATED_TYPES.map((type) => `${dataset.counts[type].toLocaleString('en-GB')} ${type}s`).join(', ');

const datasetOf = (seed: string, sizes: { births: number; others: number }): Dataset => ({
  seed,
  firstId: DEFAULT_FIRST_ID,
  counts: countsOf(sizes.births, sizes.others),
});

/** A server being measured. */
export interface Target {
  /** `ceiling`, `embedded` or `postgres`. */
  readonly store: string;
  readonly server: Server;
  /** CPU seconds so far of each database backend serving the server (where /proc shows them). */
  readonly databaseCpu?: () => Promise<Map<number, number> | undefined>;
}

export interface Started extends Target {
  readonly dataset: Dataset;
  /** What preparing the store took, for the JSON. */
  readonly notes: Record<string, unknown>;
  /** The same in a line, for the table's heading. */
  readonly summary: string;
}

const serveArgs = (opts: Options) => ({
  nodeArgs: opts.cpuProf ? ['--cpu-prof', '--cpu-prof-dir', opts.cpuProf] : [],
  args: [LEV_API, 'serve'],
});

export async function startEmbedded(opts: Options, work: string): Promise<Started> {
  const dataset = datasetOf(opts.seed, opts.embedded);
  const folder = join(work, 'embedded');
  await mkdir(folder);
  const started = performance.now();
  for (const type of GENERATED_TYPES) {
    const count = dataset.counts[type];
    await run(
      [
        LEV_API,
        'generate',
        '--type',
        type,
        '--count',
        String(count),
        '--seed',
        dataset.seed,
        '--out',
        join(folder, `${type}.ndjson`),
      ],
      process.env,
      60 + count / 500,
    );
  }
  const generateSeconds = (performance.now() - started) / 1000;
  const port = await freePort();
  const { nodeArgs, args } = serveArgs(opts);
  const total = Object.values(dataset.counts).reduce((a, b) => a + b, 0);
  log(
    `embedded: starting the service on ${total.toLocaleString('en-GB')} records (it reads LEV_DATA into memory first)`,
  );
  const server = await startServer(
    'embedded service',
    nodeArgs,
    args,
    serviceEnv(opts, { PORT: String(port), LEV_DATA: folder }),
    port,
    120 + total / 100,
  );
  cleanups.push(() => server.stop());
  const startupPeak = memory(server.pid)?.peakMiB ?? null;
  log(
    `embedded: ready in ${server.startSeconds.toFixed(1)} s (peak RSS while ` +
      `loading ${startupPeak?.toFixed(0) ?? '?'} MiB)`,
  );
  const summary =
    `${describeCounts(dataset)}, generated in ${generateSeconds.toFixed(1)} s; the service was ready ` +
    `in ${server.startSeconds.toFixed(1)} s` +
    (startupPeak === null
      ? ''
      : `, its RSS peaking at ${Math.round(startupPeak).toLocaleString('en-GB')} MiB while it loaded them`);
  return {
    store: 'embedded',
    server,
    dataset,
    summary,
    notes: {
      counts: dataset.counts,
      generateSeconds,
      startSeconds: server.startSeconds,
      startupPeakRssMiB: startupPeak,
    },
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

export async function startPostgres(
  opts: Options,
  sizes: { births: number; others: number },
  work: string,
): Promise<Started> {
  const label = postgresLabel(opts, sizes);
  const dataset = datasetOf(opts.seed, sizes);
  const url = opts.databaseUrl!;
  const schema = opts.keep ? keptSchemaName(opts.seed, sizes) : `bench_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  await admin.connect();
  cleanups.push(() => admin.end());
  const mark = JSON.stringify(dataset);
  const kept =
    opts.keep &&
    (await admin.query(`SELECT to_regclass('${schema}.${LOADED_MARK}') IS NOT NULL AS present`)).rows[0].present;
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
  else
    log(
      `${label}: schema ${schema}; migrating and loading ${Object.values(dataset.counts)
        .reduce((a, b) => a + b, 0)
        .toLocaleString('en-GB')} records`,
    );
  for (const type of reused ? [] : GENERATED_TYPES) {
    const count = dataset.counts[type];
    // Generated to a file first, so that the load is measured alone (its speed and its peak memory) and
    // sizes its heap by the file.
    const file = join(work, `${label.replace(/\W+/g, '-')}-${type}.ndjson`);
    await run(
      [LEV_API, 'generate', '--type', type, '--count', String(count), '--seed', dataset.seed, '--out', file],
      process.env,
      60 + count / 500,
    );
    const measured = await runMeasured([LEV_API, 'load', '--type', type, file], env, 300 + count / 1000);
    await rm(file, { force: true });
    loadSeconds[type] = measured.seconds;
    loaderPeakMiB[type] = measured.peakMiB;
    log(
      `${label}: loaded ${count.toLocaleString('en-GB')} ${type} records ` +
        `at ${Math.round(count / measured.seconds).toLocaleString('en-GB')}/s, the loader's RSS peaking ` +
        `at ${measured.peakMiB?.toFixed(0) ?? '?'} MiB`,
    );
  }
  if (!reused) {
    // Fresh statistics, as autovacuum would soon give them, so plans do not depend on its timing.
    const tables = await admin.query<{ tablename: string }>('SELECT tablename FROM pg_tables WHERE schemaname = $1', [
      schema,
    ]);
    for (const { tablename } of tables.rows) await admin.query(`ANALYZE ${schema}."${tablename}"`);
    if (opts.keep) await admin.query(`CREATE TABLE ${schema}.${LOADED_MARK} AS SELECT $1::text AS dataset`, [mark]);
  }
  const size = await admin.query<{ bytes: string }>(
    'SELECT sum(pg_total_relation_size(c.oid))::text AS bytes FROM pg_class c JOIN pg_namespace n ON n.oid = ' +
      'c.relnamespace WHERE n.nspname = $1 AND c.relkind = $2',
    [schema, 'r'],
  );
  const databaseGiB = Number(size.rows[0]?.bytes ?? 0) / 2 ** 30;
  const port = await freePort();
  const { nodeArgs, args } = serveArgs(opts);
  const server = await startServer(`${label} service`, nodeArgs, args, { ...env, PORT: String(port) }, port, 120);
  cleanups.push(() => server.stop());
  log(`${label}: ready in ${server.startSeconds.toFixed(1)} s`);
  if (env.SUGGESTION_INDEX === 'service')
    log(`${label}: close-match indexes built in the service in ${(await indexesBuilt(port)).toFixed(1)} s more`);
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
    (type) =>
      `${type}s ${Math.round(dataset.counts[type] / loadSeconds[type]).toLocaleString('en-GB')}/s (loader ` +
      `peak ${loaderPeakMiB[type]?.toFixed(0) ?? '?'} MiB)`,
  );
  const how = reused ? 'loaded by an earlier run' : `loaded in ${loaded.toFixed(1)} s: ${rates.join(', ')}`;
  const summary =
    `${describeCounts(dataset)} in schema ${schema} (${databaseGiB.toFixed(1)} GiB), ${how}; ` +
    `the service was ready in ${server.startSeconds.toFixed(1)} s`;
  return {
    store: label,
    server,
    databaseCpu,
    dataset,
    summary,
    notes: {
      schema,
      reused,
      counts: dataset.counts,
      loadSeconds,
      loaderPeakMiB,
      databaseGiB,
      startSeconds: server.startSeconds,
    },
  };
}
