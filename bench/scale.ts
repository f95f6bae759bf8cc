/**
 * `npm run bench:scale`: how the service on PostgreSQL grows with the register. For each size of
 * births (100,000, 1,000,000 and 10,000,000 by default), in a database of its own made and dropped
 * here, on a throwaway PostgreSQL cluster of the bench's own (tuned, settings reported) or a server
 * given: generation streamed to a file, `lev-api load` of it against a raw COPY of the same file,
 * the database's size and its indexes', then `lev-api serve` (SUGGESTION_INDEX=service): the
 * close-match index's build time, lookups, searches, verifications and close matches of births
 * drawn across the register (closed loop, then p50/p99 at a fixed rate), its RSS, close-match recall
 * at 10 on the error model, a new reader's catch-up on the change feed, and `lev-api audit verify`
 * over the entries the run wrote. One Markdown table (a row a size) on stdout, the figures as JSON,
 * and the growth as an SVG chart. docs/performance.md, "The scale bench".
 *
 * All traffic goes to 127.0.0.1; every phase is bounded, the whole run by --max-minutes; the
 * databases (and the own cluster) are removed at the end, on failure and on Ctrl-C too.
 */
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { loadRecordTypes } from '../src/records/index.ts';
import { tableNames } from '../src/store/record-tables.ts';
import { cleanUp, cleanUpOnSignals, cleanups, stopSignal } from './lib/cleanup.ts';
import { readEvery } from './lib/events.ts';
import { log } from './lib/log.ts';
import { type Measurements, RefusedError, phase } from './lib/phases.ts';
import { freePort, runMeasured, startServer } from './lib/processes.ts';
import { RAW_COPY_TABLE_COLUMNS, rawCopyArgs } from './lib/raw-copy.ts';
import { writeChart } from './lib/scale-chart.ts';
import {
  TUNED_SETTINGS,
  givenServer,
  makeDatabase,
  ownCluster,
  query,
  settingsInForce,
  withConnection,
  type PostgresServer,
} from './lib/scale-database.ts';
import {
  OPERATIONS,
  type Operation,
  type OperationFigures,
  type ScaleIncrement,
  type ScaleIncrementRound,
  type ScaleResults,
  type ScaleRow,
  report,
} from './lib/scale-report.ts';
import { measureRecall, sampleRegister, scaleWorkload } from './lib/scale-workload.ts';
import { median } from './lib/stats.ts';
import { INCREMENTS, type IncrementName, incrementArgs } from './lib/increments.ts';
import { LEV_API, indexesBuilt, serviceEnv } from './lib/targets.ts';
import { UsageError, serviceSettings } from './lib/options.ts';
import { bundle } from '../scripts/bundle.ts';

const USAGE = `npm run bench:scale -- [options]

  --sizes N[,N...]       births in each register measured (default 100000,1000000,10000000)
  --duration S           seconds of each closed-loop and fixed-rate phase (default 10)
  --warmup S             seconds of mixed requests before the phases (default 3; 0 for none)
  --connections N        connections, closed loop (default 20)
  --rounds N             closed-loop rounds of each operation, taken in turn; the median is reported (default 3)
  --rate R               offered requests a second in the fixed-rate phases (default 200)
  --sample N             births sampled from the register for the requests (default 5000)
  --increment N          births in each of the two files loaded into the full register and into an empty one:
                         the latest registrations, and births of every year (default 100000)
  --increment-rounds N   files of each kind, each loaded into an empty register then into the full one; the
                         medians are reported (default 3)
  --recall-seconds S     most seconds of the recall phase (default 120)
  --feed-seconds S       seconds a new reader reads the change feed from its start (default 10)
  --seed S               seed of the generated births and of the requests (default scale)
  --server URL           a PostgreSQL server already running (its databases made and dropped here) instead of
                         the bench's own cluster; only settings a database may hold are set there
  --pg-set NAME=VALUE    a PostgreSQL setting of the own cluster (repeatable), over the bench's tuned ones
  --set NAME=VALUE       a setting of the service measured (repeatable), over its defaults
  --work DIR             where the generated files and the own cluster go (default the system's temporary folder)
  --json FILE            the figures as JSON (default bench/results/scale-<date>.json)
  --chart FILE           the growth chart (default docs/images/scale.svg)
  --chart-only FILE      only redraw the chart from a JSON file a run wrote, to --chart
  --max-minutes M        stop the whole run (cleaning up) after M minutes (default 180)`;

/** Whether `text` is a PostgreSQL URL of this machine's loopback address. */
function isLoopbackPostgres(text: string): boolean {
  try {
    const url = new URL(text);
    return /^postgres(ql)?:$/.test(url.protocol) && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
  } catch {
    return false;
  }
}

function options(args: string[]) {
  const { values } = parseArgs({
    args,
    strict: true,
    options: {
      sizes: { type: 'string', default: '100000,1000000,10000000' },
      duration: { type: 'string', default: '10' },
      warmup: { type: 'string', default: '3' },
      connections: { type: 'string', default: '20' },
      rounds: { type: 'string', default: '3' },
      rate: { type: 'string', default: '200' },
      sample: { type: 'string', default: '5000' },
      increment: { type: 'string', default: '100000' },
      'increment-rounds': { type: 'string', default: '3' },
      'recall-seconds': { type: 'string', default: '120' },
      'feed-seconds': { type: 'string', default: '10' },
      seed: { type: 'string', default: 'scale' },
      server: { type: 'string' },
      'pg-set': { type: 'string', multiple: true, default: [] },
      set: { type: 'string', multiple: true, default: [] },
      work: { type: 'string', default: tmpdir() },
      json: { type: 'string' },
      chart: { type: 'string', default: 'docs/images/scale.svg' },
      'chart-only': { type: 'string' },
      'max-minutes': { type: 'string', default: '180' },
      help: { type: 'boolean', default: false },
    },
  });
  const whole = (name: string, text: string, min: number, max: number) => {
    const value = Number(text);
    if (!Number.isSafeInteger(value) || value < min || value > max)
      throw new UsageError(`--${name} must be a whole number from ${min} to ${max} (got '${text}')`);
    return value;
  };
  const pgSettings: Record<string, string> = { ...TUNED_SETTINGS };
  for (const setting of values['pg-set']) {
    const match = /^([a-z_]+)=(.+)$/.exec(setting);
    if (!match) throw new UsageError(`--pg-set takes NAME=VALUE (got '${setting}')`);
    pgSettings[match[1]] = match[2];
  }
  if (values.server !== undefined && !isLoopbackPostgres(values.server)) {
    throw new UsageError(
      `--server must be a postgres:// URL of 127.0.0.1, not '${values.server}': the bench sends traffic nowhere else`,
    );
  }
  const settings = serviceSettings(values.set);
  if (settings.SUGGESTION_INDEX) throw new UsageError('--set: the scale bench measures SUGGESTION_INDEX=service');
  return {
    help: values.help,
    sizes: [...new Set(values.sizes.split(',').map((size) => whole('sizes', size, 1000, 100_000_000)))].sort(
      (a, b) => a - b,
    ),
    duration: whole('duration', values.duration, 1, 600),
    warmup: whole('warmup', values.warmup, 0, 600),
    connections: whole('connections', values.connections, 1, 500),
    rounds: whole('rounds', values.rounds, 1, 20),
    rate: whole('rate', values.rate, 1, 100_000),
    sample: whole('sample', values.sample, 10, 1_000_000),
    increment: whole('increment', values.increment, 1000, 10_000_000),
    incrementRounds: whole('increment-rounds', values['increment-rounds'], 1, 9),
    recallSeconds: whole('recall-seconds', values['recall-seconds'], 1, 3600),
    feedSeconds: whole('feed-seconds', values['feed-seconds'], 1, 3600),
    seed: values.seed,
    server: values.server,
    pgSettings,
    settings,
    work: values.work,
    json: values.json ?? `bench/results/scale-${new Date().toISOString().slice(0, 10)}.json`,
    chart: values.chart,
    chartOnly: values['chart-only'],
    maxMinutes: whole('max-minutes', values['max-minutes'], 1, 24 * 60),
  };
}
type Options = ReturnType<typeof options>;

const records = await loadRecordTypes();
const birth = records.find((description) => description.name === 'birth')!;
const BIRTH_TABLES = tableNames('birth');

/** The sizes of the database, of each of its tables (with their indexes and TOAST) and of each index. */
async function databaseSizes(url: string): Promise<ScaleRow['database']> {
  return withConnection(url, async (client) => {
    const total = await client.query<{ bytes: string }>('SELECT pg_database_size(current_database())::text AS bytes');
    const relations = await client.query<{ name: string; kind: string; bytes: string }>(
      `SELECT c.relname AS name, c.relkind AS kind,
              (CASE WHEN c.relkind = 'i' THEN pg_relation_size(c.oid) ELSE pg_total_relation_size(c.oid) ` +
        `END)::text AS bytes
         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' AND c.relkind IN ('r', 'i') ORDER BY c.relname`,
    );
    const of = (kind: string) =>
      Object.fromEntries(relations.rows.filter((row) => row.kind === kind).map((row) => [row.name, Number(row.bytes)]));
    return { bytes: Number(total.rows[0].bytes), tables: of('r'), indexes: of('i') };
  });
}

/** The longest the bench waits for autovacuum to finish before loading the increments. */
const SETTLE_BOUND_S = 300;

/**
 * The tables the run's requests wrote vacuumed, a checkpoint, then a wait (at most SETTLE_BOUND_S)
 * until no autovacuum worker runs in the database: whether it got there, and how long it took.
 */
async function settle(url: string): Promise<{ quiet: boolean; seconds: number }> {
  const started = performance.now();
  await query(url, 'VACUUM (ANALYZE) audit_log');
  await query(url, 'CHECKPOINT');
  const seconds = () => (performance.now() - started) / 1000;
  while (seconds() < SETTLE_BOUND_S) {
    const [{ vacuuming }] = await query<{ vacuuming: number }>(
      url,
      "SELECT count(*)::int AS vacuuming FROM pg_stat_activity WHERE backend_type = 'autovacuum worker' AND " +
        'datname = current_database()',
    );
    if (vacuuming === 0) return { quiet: true, seconds: seconds() };
    await sleep(1000);
  }
  return { quiet: false, seconds: seconds() };
}

/** Each kind's files, one a round: the same births are loaded into the empty and the full registers. */
type Increments = Readonly<Record<IncrementName, readonly string[]>>;

/** Generates the increment files once, for every size. */
async function generateIncrements(opts: Options, work: string): Promise<Increments> {
  const files: Record<IncrementName, string[]> = { latest: [], allYears: [] };
  for (let round = 0; round < opts.incrementRounds; round++) {
    for (const name of INCREMENTS) {
      const file = join(work, `scale-increment-${name}-${round}.ndjson`);
      cleanups.push(() => rm(file, { force: true }));
      const args = incrementArgs(name, opts.increment, opts.seed, round);
      await runMeasured([LEV_API, ...args, '--out', file], process.env, 600);
      files[name].push(file);
    }
  }
  return files;
}

/** `lev-api load` of an increment file into the database of `env`, after a checkpoint: its rate a second. */
async function loadIncrement(opts: Options, env: NodeJS.ProcessEnv, file: string): Promise<number> {
  await query(env.DATABASE_URL!, 'CHECKPOINT');
  const load = await runMeasured([LEV_API, 'load', '--type', 'birth', file], env, 300 + opts.increment / 1000, {
    stdout: 'stderr',
  });
  return opts.increment / load.seconds;
}

/**
 * Each increment file loaded into an empty register of its own on the same server, then at once
 * into the full one, round after round: a round's two loads are a minute apart, so the drift of the
 * machine over a run (files of 100,000 of the latest births have loaded into an empty register in
 * 7.8 to 12.9 s within an hour) falls on both, and the medians of the rounds are reported. Each
 * round's files stay in the full register (at 100,000 births, the third round's go into registers
 * of 500,000 and 600,000).
 */
async function loadIncrements(
  opts: Options,
  server: PostgresServer,
  full: NodeJS.ProcessEnv,
  increments: Increments,
  label: string,
): Promise<Record<IncrementName, ScaleIncrement>> {
  const rounds: Record<IncrementName, ScaleIncrementRound[]> = { latest: [], allYears: [] };
  for (let round = 0; round < opts.incrementRounds; round++) {
    for (const name of INCREMENTS) {
      const file = increments[name][round];
      const empty = await makeDatabase(server, 'lev_scale_empty');
      cleanups.push(empty.drop);
      const env = serviceEnv({ settings: {} }, { DATABASE_URL: empty.url });
      await runMeasured([LEV_API, 'migrate'], env, 300, { stdout: 'stderr' });
      const intoEmpty = await loadIncrement(opts, env, file);
      await empty.drop();
      cleanups.splice(cleanups.indexOf(empty.drop), 1);
      const intoFull = await loadIncrement(opts, full, file);
      rounds[name].push({ intoEmpty, intoFull });
      log(
        `${label}: the ${name} increment's round ${round + 1} loaded into an empty register at ` +
          `${Math.round(intoEmpty).toLocaleString('en-GB')}/s, into the full one at ` +
          `${Math.round(intoFull).toLocaleString('en-GB')}/s`,
      );
    }
  }
  const summary = (name: IncrementName): ScaleIncrement => ({
    births: opts.increment,
    perSecond: median(rounds[name].map((round) => round.intoFull)),
    ofEmpty: median(rounds[name].map((round) => round.intoFull / round.intoEmpty)),
    rounds: rounds[name],
  });
  return { latest: summary('latest'), allYears: summary('allYears') };
}

/** Every figure of one size: its own database, made and dropped here. */
async function measureSize(
  opts: Options,
  server: PostgresServer,
  births: number,
  work: string,
  increments: Increments,
): Promise<{ row: ScaleRow; settings: Record<string, string> }> {
  const label = births.toLocaleString('en-GB');
  const database = await makeDatabase(server, `lev_scale_${births}`);
  const dropDatabase = async () => {
    await database.drop();
    log(`${label}: dropped its database`);
  };
  cleanups.push(dropDatabase);
  // Read in the database itself: on a server given, some are the database's own.
  const settings = await settingsInForce(database.url);
  const env = serviceEnv(opts, { SUGGESTION_INDEX: 'service', DATABASE_URL: database.url });
  await runMeasured([LEV_API, 'migrate'], env, 300, { stdout: 'stderr' });

  // Generated to a file, streamed (the generator never holds the register), then loaded from it.
  const file = join(work, `scale-births-${births}.ndjson`);
  cleanups.push(() => rm(file, { force: true }));
  log(`${label}: generating ${label} births to ${file}`);
  const generate = [
    LEV_API,
    'generate',
    '--type',
    'birth',
    '--count',
    String(births),
    '--seed',
    opts.seed,
    '--out',
    file,
  ];
  const generated = await runMeasured(generate, process.env, 120 + births / 2000);
  const bytes = (await stat(file)).size;
  log(`${label}: generated ${(bytes / 2 ** 20).toFixed(0)} MiB in ${generated.seconds.toFixed(1)} s; a raw COPY of it`);
  await query(database.url, `CREATE TABLE scale_raw_copy ${RAW_COPY_TABLE_COLUMNS}`);
  const copy = await runMeasured(rawCopyArgs(database.url, 'scale_raw_copy', file), process.env, 120 + births / 5000, {
    command: 'psql',
    stdout: 'stderr',
  });
  // Its space is given back before the load, so the load starts from the same empty database.
  await query(database.url, 'DROP TABLE scale_raw_copy');
  await query(database.url, 'CHECKPOINT');
  log(`${label}: raw COPY in ${copy.seconds.toFixed(1)} s; lev-api load`);
  const load = await runMeasured([LEV_API, 'load', '--type', 'birth', file], env, 300 + births / 1000, {
    stdout: 'stderr',
  });
  await rm(file, { force: true });
  log(
    `${label}: loaded at ${Math.round(births / load.seconds).toLocaleString('en-GB')}/s, the loader's RSS ` +
      `peaking at ${load.peakMiB?.toFixed(0) ?? '?'} MiB`,
  );
  // As docs/postgresql.md asks of an operator after a first load of millions: otherwise autovacuum
  // comes to the records and the feed's events (the load vacuums only the keys) while they are served,
  // and the first read of each page writes it again to set its hint bits.
  const vacuumStarted = performance.now();
  await query(database.url, 'VACUUM (ANALYZE)');
  const vacuumSeconds = (performance.now() - vacuumStarted) / 1000;
  log(`${label}: VACUUM (ANALYZE) after the load in ${vacuumSeconds.toFixed(1)} s`);
  // Then the load's and the vacuum's pages checkpointed, and autovacuum left to finish, before the
  // service is measured: otherwise the checkpointer writes them back through the phases, spread over
  // most of checkpoint_timeout, and the phases measure the load's tail as well as the register.
  const quietAfterLoad = await settle(database.url);
  log(
    `${label}: the server settled after the load in ${quietAfterLoad.seconds.toFixed(1)} s` +
      (quietAfterLoad.quiet ? '' : ' (autovacuum still running)'),
  );
  const sizes = await databaseSizes(database.url);

  const port = await freePort();
  const service = await startServer(
    `service (${label})`,
    [],
    [LEV_API, 'serve'],
    { ...env, PORT: String(port) },
    port,
    300,
    { stdout: 'stderr' },
  );
  cleanups.push(() => service.stop());
  const indexBuildSeconds = service.startSeconds + (await indexesBuilt(port, 300 + births / 2000));
  log(
    `${label}: ready in ${service.startSeconds.toFixed(1)} s, the close-match index ` +
      `built ${indexBuildSeconds.toFixed(1)} s after start`,
  );

  const sampled = await sampleRegister(database.url, BIRTH_TABLES.records, births, opts.sample, 1);
  const workload = scaleWorkload(birth, sampled, opts.connections, opts.seed);
  log(`${label}: ${sampled.length} births sampled from the register`);
  const measurements: Measurements = { rows: [], windows: [] };
  const target = { store: `postgres ${label}`, server: service };
  if (opts.warmup) {
    const mixed = workload.lookup.map((_, c) =>
      OPERATIONS.flatMap((operation) => workload[operation][c].slice(0, 100)),
    );
    await phase(measurements, opts, target, 'warm-up', mixed, { kind: 'max' }, opts.warmup);
  }
  // The closed-loop phases in rounds, each operation in turn, so that a drift of the machine (a
  // neighbour, autovacuum) falls on every operation rather than on one; the median is reported.
  const maxRounds = Object.fromEntries(OPERATIONS.map((operation) => [operation, [] as number[]])) as Record<
    Operation,
    number[]
  >;
  let rssMiB: number | null = null;
  const peak = (row: { server: { peakRssMiB: number | null } }) => {
    if (row.server.peakRssMiB !== null) rssMiB = Math.max(rssMiB ?? 0, row.server.peakRssMiB);
  };
  for (let round = 0; round < opts.rounds; round++) {
    for (const operation of OPERATIONS) {
      const max = await phase(measurements, opts, target, operation, workload[operation], { kind: 'max' });
      maxRounds[operation].push(max.rps);
      peak(max);
    }
  }
  const operations = {} as Record<Operation, OperationFigures>;
  for (const operation of OPERATIONS) {
    const fixed = await phase(measurements, opts, target, operation, workload[operation], {
      kind: 'rate',
      rate: opts.rate,
    });
    peak(fixed);
    operations[operation] = {
      maxRps: median(maxRounds[operation]),
      maxRpsRounds: maxRounds[operation],
      rateRps: fixed.rps,
      p50Ms: fixed.latencyMs.p50,
      p99Ms: fixed.latencyMs.p99,
    };
  }

  const recalled = await measureRecall(service.url, workload.recall, opts.recallSeconds);
  log(`${label}: recall at 10 ${recalled.found} of ${recalled.asked}`);
  const feed = await readEvery(service.url, undefined, opts.feedSeconds);
  log(`${label}: a new reader read ${feed.events} events in ${feed.seconds.toFixed(1)} s`);
  await service.stop();

  const [{ entries }] = await query<{ entries: string }>(
    database.url,
    'SELECT count(*)::text AS entries FROM audit_log',
  );
  const verified = await runMeasured([LEV_API, 'audit', 'verify'], env, 120 + Number(entries) / 2000, {
    stdout: 'stderr',
  });
  log(`${label}: lev-api audit verify of ${entries} entries in ${verified.seconds.toFixed(1)} s`);
  // Last, as they add to the register: the two files loaded into the full register, one after the other,
  // on a server as quiet as the empty registers' loads had: the run's own writes (its audit entries)
  // checkpointed and vacuumed first, which is not the load's work.
  const settledIn = await settle(database.url);
  const still = settledIn.quiet ? '' : ' (autovacuum still running)';
  log(`${label}: the server settled in ${settledIn.seconds.toFixed(1)} s${still}`);
  const loaded = await loadIncrements(opts, server, env, increments, label);

  await dropDatabase();
  cleanups.splice(cleanups.indexOf(dropDatabase), 1);
  const row: ScaleRow = {
    births,
    generate: { seconds: generated.seconds, bytes },
    load: {
      seconds: load.seconds,
      perSecond: births / load.seconds,
      peakRssMiB: load.peakMiB,
      copySeconds: copy.seconds,
      timesCopy: load.seconds / copy.seconds,
      vacuumSeconds,
      increments: loaded,
    },
    database: sizes,
    service: { readySeconds: service.startSeconds, indexBuildSeconds, rssMiB },
    operations,
    recall: { asked: recalled.asked, found: recalled.found, notAsked: workload.notAsked },
    feed: { events: feed.events, seconds: feed.seconds, perSecond: feed.perSecond },
    audit: { entries: Number(entries), verifySeconds: verified.seconds },
  };
  return { row, settings };
}

async function main(): Promise<number> {
  let opts: Options;
  try {
    opts = options(process.argv.slice(2));
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      log(`bench:scale: ${(error as Error).message}\n\nUsage: ${USAGE}`);
      return 2;
    }
    throw error;
  }
  if (opts.help) {
    console.log(`Usage: ${USAGE}`);
    return 0;
  }
  if (opts.chartOnly) {
    const results = JSON.parse(await readFile(opts.chartOnly, 'utf8')) as ScaleResults;
    await writeChart(results, opts.chart);
    log(`wrote ${opts.chart} from ${opts.chartOnly}`);
    return 0;
  }
  // The whole run is bounded: past --max-minutes it stops, cleaning up as on Ctrl-C.
  const watchdog = setTimeout(() => {
    log(`bench:scale: stopping after ${opts.maxMinutes} minutes (--max-minutes)`);
    void cleanUp().finally(() => process.exit(1));
  }, opts.maxMinutes * 60_000);
  watchdog.unref();

  log('bench:scale: compiling the service (scripts/bundle.ts)');
  await bundle();
  const work = await mkdtemp(join(opts.work, 'lev-scale-'));
  cleanups.push(() => rm(work, { recursive: true, force: true }));
  const server = opts.server ? givenServer(opts.server, opts.pgSettings) : await ownCluster(opts.work, opts.pgSettings);
  cleanups.push(() => server.stop());
  log(`bench:scale: PostgreSQL: ${server.description}`);
  const machine = cpus();
  const increments = await generateIncrements(opts, work);
  const rows: ScaleRow[] = [];
  let settings: Record<string, string> = {};
  for (const births of opts.sizes) {
    const measured = await measureSize(opts, server, births, work, increments);
    rows.push(measured.row);
    settings = measured.settings;
  }
  const results: ScaleResults = {
    meta: {
      date: new Date().toISOString(),
      command: `npm run bench:scale${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`,
      node: process.version,
      cpu: `${machine[0]?.model ?? 'unknown'} × ${machine.length}`,
      duration: opts.duration,
      rounds: opts.rounds,
      connections: opts.connections,
      rate: opts.rate,
      seed: opts.seed,
      server: server.description.replace(/ \(initdb in [^,]+, port \d+\)/, ' (initdb)'),
      settings,
      ...(Object.keys(opts.settings).length ? { service: opts.settings } : {}),
    },
    rows,
  };
  console.log(report(results));
  await mkdir(dirname(opts.json), { recursive: true });
  await writeFile(opts.json, `${JSON.stringify(results, null, 2)}\n`);
  log(`wrote ${opts.json}`);
  await writeChart(results, opts.chart);
  log(`wrote ${opts.chart}`);
  return 0;
}

cleanUpOnSignals();
try {
  process.exitCode = await main();
} catch (error) {
  if (!stopSignal())
    log(
      error instanceof RefusedError
        ? `bench:scale: ${error.message}`
        : `bench:scale: ${(error as Error).stack ?? error}`,
    );
  process.exitCode = 1;
} finally {
  await cleanUp();
}
