/**
 * One phase: a scenario's requests driven at a server in one mode, with the server's CPU and
 * memory, its database's CPU and the machine's read around it; and the ceiling, a bare server
 * answering a fixed body, measured the same way.
 */
import { writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { join } from 'node:path';
import type { Request } from 'autocannon';
import { cleanups } from './cleanup.ts';
import { type DriveSettings, type Mode, drive } from './drive.ts';
import { log } from './log.ts';
import type { Options } from './options.ts';
import { type PhaseWindow, cpuSeconds, machineCpu, memory, procAvailable, resetPeak } from './proc.ts';
import { freePort, startServer } from './processes.ts';
import type { Row } from './report.ts';
import type { Target } from './targets.ts';
import {
  type Dataset,
  type GeneratedType,
  credentialLists,
  lookupLists,
  offerLists,
  searchLists,
  statusListLists,
  suggestionLists,
  verificationLists,
} from './workload.ts';

/** A run that had failed requests or 5xx answers: its figures are not reported. */
export class RefusedError extends Error {}

/** What the run's phases measured, in the order they ran; the windows for --cpu-prof's phases.json. */
export interface Measurements {
  readonly rows: Row[];
  readonly windows: PhaseWindow[];
}

const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);

export async function phase(
  { windows }: Measurements,
  opts: Pick<Options, 'duration' | 'connections'>,
  { store, server, databaseCpu }: Target,
  scenario: string,
  lists: Request[][],
  mode: Mode,
  seconds = opts.duration,
): Promise<Row> {
  const settings: DriveSettings = { url: server.url, duration: seconds, connections: opts.connections, timeout: 10 };
  const peakReset = resetPeak(server.pid);
  // Where the peak cannot be reset, also sample RSS (bounded: one reading every 200 ms while the phase runs).
  let sampledPeak = 0;
  const sampler =
    peakReset || !procAvailable
      ? undefined
      : setInterval(() => (sampledPeak = Math.max(sampledPeak, memory(server.pid)?.rssMiB ?? 0)), 200);
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
  const database = databaseAfter
    ? [...databaseAfter].reduce((total, [pid, after]) => total + after - (databaseBefore?.get(pid) ?? 0), 0)
    : null;

  const cpu = cpuBefore === undefined || cpuAfter === undefined ? null : cpuAfter - cpuBefore;
  const count = (test: (status: number) => boolean) =>
    Object.entries(result.statuses).reduce((n, [status, c]) => n + (test(Number(status)) ? c : 0), 0);
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
        : {
            cpuSeconds: database,
            cpuMicrosPerRequest: result.responses ? (database / result.responses) * 1e6 : null,
            cpuPercent: (database / wall) * 100,
          },
    machineCpuPercent:
      machineBefore && machineAfter && machineAfter.total > machineBefore.total
        ? ((machineAfter.busy - machineBefore.busy) / (machineAfter.total - machineBefore.total)) * 100
        : null,
    generatorCpuPercent: ((generator.user + generator.system) / 1e6 / wall) * 100,
    otherCpuPercent: null,
  };
  if (row.machineCpuPercent !== null && row.server.cpuPercent !== null) {
    row.otherCpuPercent = Math.max(
      0,
      row.machineCpuPercent * cpus().length -
        row.server.cpuPercent -
        row.generatorCpuPercent -
        (row.database?.cpuPercent ?? 0),
    );
  }
  const load = mode.kind === 'max' ? 'max' : `${mode.rate}/s`;
  log(
    `${store} ${scenario} ${load}: ${Math.round(row.rps)} req/s, p50 ${row.latencyMs.p50.toFixed(2)} ms, ` +
      `p99 ${row.latencyMs.p99.toFixed(2)} ms, ` +
      `server CPU ${row.server.cpuMicrosPerRequest?.toFixed(0) ?? '?'} µs/req`,
  );
  if (row.errors > 0 || serverErrors > 0) {
    throw new RefusedError(
      `refusing to report this run: in ${store} ${scenario} (${load}), ${row.errors} request(s) failed ` +
        `(${row.timeouts} timed out) ` +
        `and ${serverErrors} were answered 5xx (statuses ${JSON.stringify(row.statuses)})`,
    );
  }
  return row;
}

export function listsFor(
  scenario: string,
  dataset: Dataset,
  { connections, walletFormat }: Pick<Options, 'connections' | 'walletFormat'>,
): Request[][] {
  if (scenario === 'lookup') return lookupLists(dataset, connections);
  if (scenario === 'credential') return credentialLists(dataset, connections);
  if (scenario === 'status-list') return statusListLists(connections);
  if (scenario === 'offer') return offerLists(dataset, walletFormat, connections);
  if (scenario.startsWith('verify-'))
    return verificationLists(dataset, scenario.slice('verify-'.length) as GeneratedType, connections);
  if (scenario.startsWith('suggest-'))
    return suggestionLists(dataset, scenario.slice('suggest-'.length) as GeneratedType, connections);
  return searchLists(dataset, scenario.slice('search-'.length) as GeneratedType, connections);
}

/** Runs a scenario in each mode; the closed loop first, as a relative rate is a share of its throughput. */
export async function scenarioPhases(
  measurements: Measurements,
  opts: Options,
  target: Target,
  scenario: string,
  lists: Request[][],
  modes = opts.modes,
  round?: number,
) {
  let max: Row | undefined;
  for (const kind of ['max', 'rate'] as const) {
    if (!modes.includes(kind)) continue;
    if (kind === 'max') {
      max = { ...(await phase(measurements, opts, target, scenario, lists, { kind })), round };
      measurements.rows.push(max);
    } else {
      const rate =
        'percent' in opts.rate ? Math.max(1, Math.round((max!.rps * opts.rate.percent) / 100)) : opts.rate.perSecond;
      measurements.rows.push({ ...(await phase(measurements, opts, target, scenario, lists, { kind, rate })), round });
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
export async function measureCeiling(
  measurements: Measurements,
  opts: Options,
  work: string,
  body: Buffer,
  dataset: Dataset,
  when?: { before: string } | 'after',
) {
  const bodyFile = join(work, 'ceiling-body.json');
  await writeFile(bodyFile, body);
  const port = await freePort();
  const server = await startServer(
    'ceiling',
    ['--import', 'tsx'],
    ['bench/ceiling.ts'],
    { ...process.env, PORT: String(port), BODY_FILE: bodyFile },
    port,
    60,
  );
  cleanups.push(() => server.stop());
  try {
    // The same requests as the lookups, so request parsing costs the same.
    const lists = lookupLists(dataset, opts.connections);
    const target = { store: 'ceiling', server };
    if (opts.warmup) await phase(measurements, opts, target, 'warm-up', lists, { kind: 'max' }, opts.warmup);
    const scenario = `fixed ${body.length} B body`;
    if (when === undefined) await scenarioPhases(measurements, opts, target, scenario, lists);
    else
      await scenarioPhases(
        measurements,
        opts,
        target,
        `${scenario}, ${when === 'after' ? 'after the stores' : `before ${when.before}`}`,
        lists,
        ['max'],
      );
  } finally {
    await server.stop();
  }
}
