/**
 * Two builds of the service on one kept schema (`npm run bench -- --keep`), measured in the same run:
 * each scenario in closed loop at 20 connections, the builds alternating (A B, then B A), with the
 * CPU a request of each service process and of its backends (found by its connections' ports;
 * `NaN` when the pool's connections changed during the phase). docs/performance.md.
 *
 *   node --import tsx bench/serve-against.ts A/bin/lev-api.js B/bin/lev-api.js SCHEMA [SECONDS] [ROUNDS] \
 *     [lookup,search-birth,verify-birth,suggest-birth] [BIRTHS] [OTHERS]
 *
 * SCHEMA `embedded:FOLDER` compares the two on the embedded store instead, each loading the
 * generated records of FOLDER (`lev-api generate --seed bench` into `<type>.ndjson`, as `npm run
 * bench` writes them): no backends, and no DATABASE_URL needed.
 *
 * AB_ENV (JSON: {"A": {...}, "B": {...}}) gives each side settings of its own, e.g. B with
 * SUGGESTION_INDEX=service (whose indexes are built before anything is measured), or a
 * DATABASE_SCHEMA of its own (two builds whose schemas differ, each loaded by its own build).
 *
 * RATE (requests a second) drives each phase at that rate instead of in closed loop, so that both
 * builds serve the same load: a request's CPU falls as the rate rises (each turn of the event loop
 * shares its calls into the kernel among more requests), and in closed loop the cheaper build
 * answers more, so a closed-loop ratio holds the rates' difference as well as the builds'.
 *
 * SEED names the --seed the schema was loaded with (default bench), so that the ids and searches find records.
 */
import pg from 'pg';
import { drive, type Mode } from './lib/drive.ts';
import { cpuSeconds, cpuTimes, localPortsTo } from './lib/proc.ts';
import { freePort, startServer, type Server } from './lib/processes.ts';
import { indexesBuilt } from './lib/targets.ts';
import {
  countsOf,
  type Dataset,
  type GeneratedType,
  lookupLists,
  searchLists,
  suggestionLists,
  verificationLists,
  warmupLists,
} from './lib/workload.ts';
import { DEFAULT_FIRST_ID } from '../src/generate/records.ts';

const [
  aBin,
  bBin,
  schema,
  seconds = '8',
  rounds = '3',
  scenarios = 'lookup,search-birth',
  births = '200000',
  others = '20000',
] = process.argv.slice(2);
const url = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const dataset: Dataset = {
  seed: process.env.SEED ?? 'bench',
  firstId: DEFAULT_FIRST_ID,
  counts: countsOf(Number(births), Number(others)),
};
const embedded = schema.startsWith('embedded:') ? schema.slice('embedded:'.length) : undefined;
const admin = embedded ? undefined : new pg.Client({ connectionString: url });
await admin?.connect();
const extra = JSON.parse(process.env.AB_ENV ?? '{}');
const start = async (name: string, bin: string, i: number): Promise<Server & { app: string }> => {
  const port = await freePort();
  const app = `serve_against_${i}`;
  const store = embedded
    ? { LEV_DATA: embedded }
    : { DATABASE_URL: `${url}?application_name=${app}`, DATABASE_SCHEMA: extra[name]?.DATABASE_SCHEMA ?? schema };
  const env: Record<string, string | undefined> = {
    ...process.env,
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    AUTH_MODE: 'mock',
    PORT: String(port),
    ...(extra[name] ?? {}),
  };
  for (const k of Object.keys(env)) if (k.startsWith('LEV_DATA') || k.startsWith('DATABASE_')) delete env[k];
  Object.assign(env, store);
  const nodeArgs = process.env.CPU_PROF_DIR
    ? ['--cpu-prof', '--cpu-prof-dir', `${process.env.CPU_PROF_DIR}/${name}`]
    : [];
  const s = await startServer(name, nodeArgs, [bin, 'serve'], env, port, embedded ? 300 : 60);
  if (env.SUGGESTION_INDEX === 'service')
    console.log(`${name}: close-match indexes built in ${(await indexesBuilt(port)).toFixed(1)} s more`);
  return { ...s, app };
};
const servers = [await start('A', aBin, 0), await start('B', bBin, 1)];
/** CPU seconds of each backend serving the server now, by pid (a pid /proc no longer has is left out). */
const backendCpu = async (app: string) => {
  if (!admin) return new Map<number, number>();
  const s = servers.find((x) => x.app === app)!;
  const ports = localPortsTo(s.pid, 5432);
  const { rows } = await admin.query<{ pid: number }>(
    "SELECT pid FROM pg_stat_activity WHERE client_port = ANY($1::int[]) AND client_addr IN ('127.0.0.1', '::1')",
    [ports],
  );
  const cpu = new Map<number, number>();
  for (const { pid } of rows) {
    const seconds = cpuSeconds(pid);
    if (seconds !== undefined) cpu.set(pid, seconds);
  }
  return cpu;
};
/** The backends' CPU between two readings; NaN when the pool's connections changed meanwhile. */
const backendDelta = (before: Map<number, number>, after: Map<number, number>) =>
  before.size === after.size && [...before.keys()].every((pid) => after.has(pid))
    ? [...after].reduce((sum, [pid, seconds]) => sum + seconds - (before.get(pid) as number), 0)
    : NaN;
const lists = (scenario: string) => {
  if (scenario === 'lookup') return lookupLists(dataset, 20);
  const [kind, type] = scenario.split(/-(.*)/s);
  if (kind === 'search') return searchLists(dataset, type, 20);
  if (kind === 'verify') return verificationLists(dataset, type, 20);
  if (kind === 'suggest') return suggestionLists(dataset, type as GeneratedType, 20);
  throw new Error(`${scenario}: not a scenario this compares (lookup, search-<type>, verify-<type>, suggest-<type>)`);
};
const mode: Mode = process.env.RATE ? { kind: 'rate', rate: Number(process.env.RATE) } : { kind: 'max' };
for (const s of servers)
  await drive({ url: s.url, duration: 5, connections: 20, timeout: 10 }, warmupLists(dataset, 20), { kind: 'max' });
const results: Record<string, { svc: number[]; db: number[]; rps: number[] }> = {};
for (let round = 0; round < Number(rounds); round++) {
  for (const scenario of scenarios.split(',')) {
    const order = round % 2 ? [...servers].reverse() : servers;
    for (const s of order) {
      const l = lists(scenario);
      const c0 = cpuSeconds(s.pid)!;
      const us0 = cpuTimes(s.pid)!;
      const d0 = await backendCpu(s.app);
      const r = await drive({ url: s.url, duration: Number(seconds), connections: 20, timeout: 10 }, l, mode);
      const c1 = cpuSeconds(s.pid)!;
      const us1 = cpuTimes(s.pid)!;
      const d1 = await backendCpu(s.app);
      const bad = Object.entries(r.statuses).filter(([k]) => k !== '200' && k !== '404');
      const n = r.responses;
      const key = `${s.name} ${scenario}`;
      results[key] ??= { svc: [], db: [], rps: [] };
      results[key].svc.push(((c1 - c0) / n) * 1e6);
      results[key].db.push((backendDelta(d0, d1) / n) * 1e6);
      results[key].rps.push(r.rps);
      console.log(
        `round ${round} ${key}: ${Math.round(r.rps)}/s svc ${(((c1 - c0) / n) * 1e6).toFixed(0)} µs/req ` +
          `(user ${(((us1.user - us0.user) / n) * 1e6).toFixed(0)} ` +
          `sys ${(((us1.system - us0.system) / n) * 1e6).toFixed(0)}) ` +
          `db ${((backendDelta(d0, d1) / n) * 1e6).toFixed(0)} µs/req p99 ${r.latencyMs.p99.toFixed(0)} ` +
          `errors ${r.errors} ${bad.length ? JSON.stringify(bad) : ''}`,
      );
    }
  }
}
const med = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];
for (const [key, v] of Object.entries(results))
  console.log(
    `${key}: median svc ${med(v.svc).toFixed(0)} µs, db ${med(v.db).toFixed(0)} µs, ${Math.round(med(v.rps))}/s`,
  );
for (const s of servers) await s.stop();
await admin?.end();
