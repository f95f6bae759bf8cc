/**
 * Lookups answered with a streaming replica against the primary alone (docs/postgresql.md, "Streaming
 * replicas"): a throwaway cluster of a primary and one standby (test/store/pg-cluster.ts, the
 * machine's own server untouched), births loaded into the primary with `lev-api load`, then two
 * services over it, one given the primary alone and one given the standby as DATABASE_READ_URLS,
 * measured alternately in closed loop (20 connections, the benchmark's lookups). Prints each phase,
 * the medians, their ratio, and the reads the replicated service asked of the primary instead
 * (lev_db_primary_fallback_reads_total). On one machine the standby shares the cores: the ratio
 * shows what the read path costs, not the capacity a replica on its own server adds.
 *
 *   node --import tsx bench/replicas.ts [--births N] [--seconds S] [--rounds R]
 */
import { execFile as execFileCallback } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { promisify } from 'node:util';
import { DEFAULT_FIRST_ID } from '../src/generate/records.ts';
import { startCluster } from '../test/store/pg-cluster.ts';
import { drive } from './lib/drive.ts';
import { ROOT, freePort, startServer, type Server } from './lib/processes.ts';
import { IDENTITY, countsOf, lookupLists, warmupLists, type Dataset } from './lib/workload.ts';

const execFile = promisify(execFileCallback);
const { values } = parseArgs({
  options: {
    births: { type: 'string', default: '200000' },
    seconds: { type: 'string', default: '8' },
    rounds: { type: 'string', default: '3' },
  },
});
const births = Number(values.births);
const seconds = Number(values.seconds);
const rounds = Number(values.rounds);
const BIN = join(ROOT, 'bin', 'lev-api.js');

const cleanups: (() => unknown)[] = [];
const folder = mkdtempSync(join(tmpdir(), 'lev-replicas-'));
cleanups.push(() => rmSync(folder, { recursive: true, force: true }));
try {
  const cluster = await startCluster(
    { after: (fn) => void (fn && cleanups.push(() => fn({} as never, () => {}))) },
    { standbys: 1 },
  );
  const {
    primary,
    standbys: [standby],
  } = cluster;
  const cli = (args: string[]) =>
    execFile(process.execPath, [BIN, ...args], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: primary.url },
      maxBuffer: 1 << 26,
    });
  const file = join(folder, 'births.ndjson');
  await cli(['migrate']);
  await cli([
    'generate',
    '--type',
    'birth',
    '--count',
    String(births),
    '--seed',
    'bench',
    '--first-id',
    String(DEFAULT_FIRST_ID),
    '--out',
    file,
  ]);
  await cli(['load', '--type', 'birth', file]);
  await cluster.caughtUp(undefined, 120_000);
  console.log(`replicas: ${births.toLocaleString('en-GB')} births loaded into the primary and replayed by the standby`);

  const start = async (name: string, env: Record<string, string>): Promise<Server> => {
    const port = await freePort();
    const base: NodeJS.ProcessEnv = {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      AUTH_MODE: 'mock',
      DATABASE_URL: primary.url,
      ...env,
    };
    for (const key of Object.keys(base)) if (key.startsWith('LEV_DATA')) delete base[key];
    const server = await startServer(name, [], [BIN, 'serve'], base, port, 60);
    cleanups.push(() => server.stop());
    return server;
  };
  const servers = [
    await start('primary alone', {}),
    await start('with a replica', { DATABASE_READ_URLS: standby.url }),
  ];
  const dataset: Dataset = { seed: 'bench', firstId: DEFAULT_FIRST_ID, counts: countsOf(births, 0) };
  for (const server of servers)
    await drive(
      { url: server.url, duration: 3, connections: 20, timeout: 10 },
      warmupLists(dataset, 20).map((list) => list.filter((r) => String(r.path).includes('/birth/'))),
      { kind: 'max' },
    );
  const fallbacks = async (server: Server) => {
    const text = await (await fetch(`${server.url}/metrics`, { headers: IDENTITY })).text();
    return [...text.matchAll(/^lev_db_primary_fallback_reads_total\{reason="(\w+)"\} (\d+)/gm)].reduce(
      (sum, match) => sum + Number(match[2]),
      0,
    );
  };
  const rps = new Map<string, number[]>(servers.map((s) => [s.name, []]));
  let asked = 0;
  let fellBack = 0;
  for (let round = 0; round < rounds; round++) {
    for (const server of round % 2 ? [...servers].reverse() : servers) {
      const before = await fallbacks(server);
      const result = await drive(
        { url: server.url, duration: seconds, connections: 20, timeout: 10 },
        lookupLists(dataset, 20),
        { kind: 'max' },
      );
      const after = await fallbacks(server);
      if (server === servers[1]) {
        asked += result.responses;
        fellBack += after - before;
      }
      rps.get(server.name)!.push(result.rps);
      const other = Object.entries(result.statuses).filter(([status]) => status !== '200');
      console.log(
        `round ${round + 1} ${server.name}: ${Math.round(result.rps)}/s, ` +
          `p99 ${result.latencyMs.p99.toFixed(1)} ms${other.length ? `, other statuses ${JSON.stringify(other)}` : ''}`,
      );
    }
  }
  const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
  const [alone, replicated] = servers.map((s) => median(rps.get(s.name)!));
  console.log(
    `medians: primary alone ${Math.round(alone)}/s, with a replica ${Math.round(replicated)}/s: ` +
      `ratio ${(replicated / alone).toFixed(2)}`,
  );
  console.log(
    `with a replica, ${fellBack} of ${asked} lookups ` +
      `(${((100 * fellBack) / Math.max(1, asked)).toFixed(2)}%) were asked of the primary instead`,
  );
} finally {
  for (const cleanup of cleanups.reverse()) await cleanup();
}
