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
 * The options, the servers measured (targets), the checks and the phases are in lib/.
 */
import { cpus, tmpdir } from 'node:os';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { runAuditBench } from './audit.ts';
import { check } from './lib/checks.ts';
import { cleanUp, cleanUpOnSignals, cleanups, stopSignal } from './lib/cleanup.ts';
import {
  busyMachineNote,
  ceilingDriftNote,
  compareToCeilings,
  growth,
  suggestionsAgainstSearch,
  verificationAgainstSearch,
} from './lib/comparisons.ts';
import { eventsPhase } from './lib/events-phase.ts';
import { log } from './lib/log.ts';
import { pickUpPhases, walletLines } from './lib/pick-up-phase.ts';
import { type Options, USAGE, UsageError, options, rateText } from './lib/options.ts';
import { type Measurements, RefusedError, listsFor, measureCeiling, phase, scenarioPhases } from './lib/phases.ts';
import { procAvailable } from './lib/proc.ts';
import { table } from './lib/report.ts';
import { LEV_API, startEmbedded, startPostgres } from './lib/targets.ts';
import { type Dataset, warmupLists } from './lib/workload.ts';
import { bundle } from '../scripts/bundle.ts';

async function main(): Promise<number> {
  let opts: Options;
  try {
    opts = options(process.argv.slice(2));
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
  log('bench: compiling the service (scripts/bundle.ts)');
  await bundle();
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
    walletFormat: opts.walletFormat,
    seed: opts.seed,
    settings: opts.settings,
    stores: {} as Record<string, unknown>,
  };

  const measurements: Measurements = { rows: [], windows: [] };
  const summaries: string[] = [];
  const eventLines: string[] = [];
  let ceilingMeasured: { body: Buffer; dataset: Dataset } | undefined;
  const starts = opts.stores.flatMap((store) =>
    store === 'embedded'
      ? [() => startEmbedded(opts, work)]
      : opts.postgres.map((sizes) => () => startPostgres(opts, sizes, work)),
  );
  for (const start of starts) {
    const target = await start();
    const { server, dataset, notes } = target;
    meta.stores[target.store] = notes;
    summaries.push(`${target.store}: ${target.summary}`);
    const body = await check(server, dataset);
    if (!ceilingMeasured) {
      await measureCeiling(measurements, opts, work, body, dataset);
      ceilingMeasured = { body, dataset };
    } else if (opts.modes.includes('max'))
      await measureCeiling(measurements, opts, work, ceilingMeasured.body, ceilingMeasured.dataset, {
        before: target.store,
      });
    if (opts.warmup)
      await phase(
        measurements,
        opts,
        target,
        'warm-up',
        warmupLists(dataset, opts.connections),
        { kind: 'max' },
        opts.warmup,
      );
    if (opts.events) eventLines.push(...(await eventsPhase(opts, opts.events, target, work)));
    for (let round = 1; round <= opts.rounds; round++) {
      // Every other round runs the list backwards, so that of each pair of scenarios compared (a type's
      // search and verification) neither is always measured second, when the heap is fuller and the
      // machine has drifted further the same way.
      for (const scenario of round % 2 ? opts.scenarios : [...opts.scenarios].reverse()) {
        const numbered = opts.rounds > 1 ? round : undefined;
        if (scenario === 'pick-up') await pickUpPhases(measurements, opts, target, dataset, numbered);
        else
          await scenarioPhases(
            measurements,
            opts,
            target,
            scenario,
            listsFor(scenario, dataset, opts),
            opts.modes,
            numbered,
          );
      }
    }
    await server.stop();
  }
  if (ceilingMeasured && opts.modes.includes('max'))
    await measureCeiling(measurements, opts, work, ceilingMeasured.body, ceilingMeasured.dataset, 'after');
  compareToCeilings(measurements.rows);

  if (opts.cpuProf)
    await writeFile(join(opts.cpuProf, 'phases.json'), `${JSON.stringify(measurements.windows, null, 2)}\n`);
  const lines = [
    `lev-api benchmark, ${meta.date}: Node ${meta.node} on ${meta.cpu}; ${opts.duration} s a ` +
      `phase, ${opts.connections} connections, fixed rate ${rateText(opts.rate)}` +
      Object.entries(opts.settings)
        .map(([name, value]) => `; ${name}=${value}`)
        .join(''),
    ...summaries,
    '',
    table(measurements.rows),
    '',
    'load: "max" is closed loop; "N/s" is the offered rate ("sat." when under 95% of it was answered). × ' +
      'ceiling compares closed-loop throughput',
    'to the higher of the ceilings measured just before and after it (a later ceiling, to the first).',
    'Latencies are of the requests sent once every connection was set up. CPU is the server process (user + ' +
      'system), per',
    "request and as a share of one core; peak RSS is the server's during the phase. DB CPU is the PostgreSQL " +
      'backends serving',
    'it (when on this machine).',
    ...eventLines,
    ...walletLines(measurements.rows, opts.walletFormat),
    ...verificationAgainstSearch(measurements.rows),
    ...suggestionsAgainstSearch(measurements.rows),
    ...growth(measurements.rows),
    ...ceilingDriftNote(measurements.rows),
    ...busyMachineNote(measurements.rows),
  ];
  if (opts.audit) {
    log("audit phase: 1, 2 and 4 processes, then the trail's capacity");
    lines.push(
      '',
      `The audit trail (${opts.postgres[0].births.toLocaleString('en-GB')} births, ${opts.connections} ` +
        `connections shared, ${Math.max(3, opts.rounds)} rounds):`,
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
    await writeFile(opts.json, `${JSON.stringify({ meta, rows: measurements.rows }, null, 2)}\n`);
    log(`wrote ${opts.json}`);
  }
  return 0;
}

cleanUpOnSignals();
try {
  process.exitCode = await main();
} catch (error) {
  if (!stopSignal())
    log(error instanceof RefusedError ? `bench: ${error.message}` : `bench: ${(error as Error).stack ?? error}`);
  process.exitCode = 1;
} finally {
  await cleanUp();
}
