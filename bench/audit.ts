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
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { DEFAULT_FIRST_ID } from '../src/generate/records.ts';
import {
  AUDIT_WARMUP_S,
  type AuditBenchOptions,
  type BatchCost,
  type Capacity,
  type ProcessesRow,
  assertCompiled,
  batchCostPhase,
  capacityPhase,
  processesPhase,
  serviceEnv,
} from './lib/audit-phases.ts';
import { auditTables } from './lib/audit-report.ts';
import { pipe, run, stopCommands } from './lib/processes.ts';
import type { Dataset } from './lib/workload.ts';

export { AUDIT_WARMUP_S, type AuditBenchOptions };

const USAGE =
  `npm run bench:audit -- [options]     (needs DATABASE_URL)

  --births N          births loaded (default 100000)
  --duration S        seconds of load per phase (default 10)
  --warmup S          seconds of the same load before each phase is measured (default ${AUDIT_WARMUP_S}; 0 for none)
  --rounds N          rounds of 1, 2 and 4 processes, every other one in reverse order (default 3)
  --processes LIST    process counts compared (default 1,2,4)
  --connections N     database connections shared by the processes, and client connections (default 20)
  --capacity-seconds S  seconds of each trail-capacity phase (default 5; 0 to skip)
  --batch N           entries a batch in the capacity phases (default 10)
  --batch-cost-seconds S  seconds of each batch-cost phase: one writer, batches of 1 to 16 entries, CPU an ` +
  `entry (default 3; 0 to skip)
  --lev-api PATH      the lev-api command to serve, migrate and load with (default this checkout's)
  --against PATH      also serve with this lev-api command (another checkout of the same schema), in
                      the same rounds, alternating with --lev-api's, for a comparison in one run
  --node-args ARGS    node options for each service process, space-separated (say --node-args='--cpu-prof ` +
  `--cpu-prof-dir=/tmp/prof')
  --keep              keep the schema`;

const log = (line: string) => process.stderr.write(`${line}\n`);

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
    if (!Number.isSafeInteger(value) || value < min || value > max)
      throw new Error(`--${name} must be a whole number from ${min} to ${max} (got '${text}')`);
    return value;
  };
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) throw new Error('DATABASE_URL is not set: the audit phase measures PostgreSQL');
  const processes = values.processes.split(',').map((p) => whole('processes', p, 1, 16));
  const connections = whole('connections', values.connections, 1, 200);
  for (const n of processes)
    if (connections % n) throw new Error(`--connections ${connections} cannot be shared evenly by ${n} processes`);
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
    await pipe(
      [opts.levApi, 'generate', '--type', 'birth', '--count', String(opts.births), '--seed', 'bench'],
      [opts.levApi, 'load', '--type', 'birth', '-'],
      env,
      300 + opts.births / 1000,
    );
    await admin.query(`ANALYZE ${schema}.birth_registration_v1`).catch(() => {});
    const dataset: Dataset = {
      seed: 'bench',
      firstId: DEFAULT_FIRST_ID,
      counts: { birth: opts.births, death: 0, marriage: 0, partnership: 0 },
    };

    const rows: ProcessesRow[] = [];
    for (let round = 1; round <= opts.rounds; round++) {
      const order = round % 2 ? opts.processes : [...opts.processes].reverse();
      const builds = opts.against
        ? round % 2
          ? [opts.levApi, opts.against]
          : [opts.against, opts.levApi]
        : [opts.levApi];
      for (const n of order)
        for (const build of builds) rows.push(await processesPhase(opts, admin, schema, dataset, n, round, build));
    }
    const costs: BatchCost[] = [];
    if (opts.batchCostSeconds)
      for (const size of [1, 2, 4, 8, 16]) costs.push(await batchCostPhase(opts, admin, schema, size));
    const capacity: Capacity[] = [];
    const chained = await admin.query(`SELECT to_regclass('${schema}.audit_chain_origin') IS NOT NULL AS present`);
    if (opts.capacitySeconds && chained.rows[0].present) {
      // The same columns and the same indexes for reading (time, user and time, records); without the
      // chain's columns, and so without its (writer, seq) index: what the chain itself costs.
      await admin.query(
        `CREATE TABLE ${schema}.audit_plain (LIKE ${schema}.audit_log INCLUDING DEFAULTS INCLUDING INDEXES)`,
      );
      await admin.query(`ALTER TABLE ${schema}.audit_plain DROP COLUMN hash, DROP COLUMN writer, DROP COLUMN seq`);
      for (const writers of [1, 2, 4])
        for (const kind of ['chained', 'plain'] as const)
          capacity.push(await capacityPhase(opts, schema, writers, kind));
    }

    return auditTables(opts, rows, costs, capacity);
  } finally {
    await cleanUp();
  }
}

// Run as `npm run bench:audit`, not when imported by bench/run.ts.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  let opts: AuditBenchOptions | undefined;
  try {
    opts = options();
  } catch (error) {
    console.error(`bench:audit: ${(error as Error).message}\n\n${USAGE}`);
    process.exitCode = 2;
  }
  if (opts) console.log(await runAuditBench(opts));
}
