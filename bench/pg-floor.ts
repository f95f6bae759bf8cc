/**
 * What a lookup on PostgreSQL costs a server that does nothing else: a bare `node:http` server
 * answering `GET /<id>` with the record's stored text, from a Map in memory or from PostgreSQL
 * through the service's own driver and turn batches (pg-driver.ts, turn-batches.ts: one statement
 * a turn, two at once), the same ids and load for both, three rounds alternating. With `--audit`,
 * each answer first waits for an audit entry committed by the store's own trail, as the service's
 * do: the embedded store's (memory-trail.ts) or PostgreSQL's (trail.ts, chain-writer.ts). The difference
 * between the two is what talking to the database costs a process, before any of the service's own
 * work; docs/performance.md compares it with the service's. CPU from /proc: the server's, and its
 * backends'.
 *
 *   node --import tsx bench/pg-floor.ts SCHEMA [--duration 8] [--rounds 3] [--connections 20] [--audit]
 *     [--rate N]   (requests a second offered, rather than as many as the server answers)
 *     [--server-flags '--cpu-prof --cpu-prof-dir DIR']   (Node's flags for the servers)
 */
import { fork } from 'node:child_process';
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { openMemoryTrail } from '../src/audit/memory-trail.ts';
import { postgresAuditTrail } from '../src/audit/trail.ts';
import type { AuditEntry } from '../src/model/audit.ts';
import { openPostgres } from '../src/store/pg-driver.ts';
import { turnBatches } from '../src/store/turn-batches.ts';
import { drive } from './lib/drive.ts';
import { cpuSeconds, localPortsTo } from './lib/proc.ts';
import { freePort } from './lib/processes.ts';

const URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const TABLE = 'birth_registration';

if (process.argv[2] === '--serve') {
  // The server: argv [--serve, mode, schema, port, audit].
  const [, mode, schema, port, audited] = process.argv.slice(2);
  const pool = openPostgres({ url: URL, schema, poolSize: 10, statementTimeoutMs: 30_000 });
  // Statements sent, to tell how many requests each carried.
  let statements = 0;
  const driver = {
    ...pool,
    query: (...args: Parameters<typeof pool.query>) => {
      statements++;
      return pool.query(...args);
    },
  } as typeof pool;
  const rows = await driver.query<{ id: string; data: string }>(
    `SELECT id::text AS id, data::text AS data FROM ${TABLE}`,
  );
  const held = new Map(rows.map((row) => [row.id, row.data]));
  const lookups = turnBatches({
    groupKey: () => '',
    itemKey: (id: string) => id,
    async read(_group, ids) {
      const found = await driver.query<{ id: string; data: string }>(
        `SELECT id::text AS id, data::text AS data FROM ${TABLE} WHERE id = ANY($1::bigint[])`,
        [ids],
        { prepare: true },
      );
      const byId = new Map(found.map((row) => [row.id, row.data]));
      return ids.map((id) => byId.get(id));
    },
  });
  const lookup = mode === 'memory' ? async (id: string) => held.get(id) : (id: string) => lookups(undefined, id);
  const trail =
    audited !== 'true'
      ? undefined
      : mode === 'memory'
        ? await openMemoryTrail({ keep: 1000 })
        : postgresAuditTrail(driver);
  const server = createServer(async (request, response) => {
    const id = (request.url ?? '/').slice(1);
    const text = await lookup(id);
    const entry: AuditEntry = {
      ...{ username: 'bench', client: 'bench', groups: [], dataset: 'birth', operation: 'lookup' },
      ...{ path: `/v1/registration/birth/${id}`, query: '', results: text ? 1 : 0, requestId: id },
    } as AuditEntry;
    await trail?.record(entry);
    response.writeHead(text === undefined ? 404 : 200, { 'content-type': 'application/json' });
    response.end(text ?? '{}');
  });
  // Ended by the bench: exiting rather than killed writes a --cpu-prof profile.
  process.on('SIGTERM', () => process.exit(0));
  process.on('message', () => process.send?.({ statements }));
  server.listen(Number(port), '127.0.0.1', () => process.send?.({ ids: [...held.keys()] }));
} else {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      duration: { type: 'string', default: '8' },
      rounds: { type: 'string', default: '3' },
      connections: { type: 'string', default: '20' },
      audit: { type: 'boolean', default: false },
      rate: { type: 'string' },
      'server-flags': { type: 'string', default: '' },
    },
  });
  const [schema] = positionals;
  if (!schema) throw new Error('usage: bench/pg-floor.ts SCHEMA (a kept bench schema holding births)');
  const admin = new pg.Client({ connectionString: URL });
  await admin.connect();
  const backendsCpu = async (pid: number) => {
    const { rows } = await admin.query<{ pid: number }>(
      'SELECT pid FROM pg_stat_activity WHERE client_port = ANY($1::int[])',
      [localPortsTo(pid, 5432)],
    );
    return rows.reduce((sum, row) => sum + (cpuSeconds(row.pid) ?? 0), 0);
  };
  const phase = async (mode: string) => {
    const port = await freePort();
    const child = fork(import.meta.filename, ['--serve', mode, schema, String(port), String(values.audit)], {
      execArgv: ['--import', 'tsx', ...values['server-flags'].split(' ').filter(Boolean)],
    });
    const ids = await new Promise<string[]>((resolve) =>
      child.once('message', (m) => resolve((m as { ids: string[] }).ids)),
    );
    // Each connection its own list of ids spread over the table; driven as `npm run bench` drives the
    // service (drive.ts), so that a fixed rate arrives as evenly, not in a burst each second.
    const connections = Number(values.connections);
    const lists = Array.from({ length: connections }, (_, c) =>
      Array.from({ length: 2000 }, (_, i) => ({
        method: 'GET' as const,
        path: `/${ids[((c * 2000 + i) * 7919) % ids.length]}`,
      })),
    );
    const load = values.rate ? { kind: 'rate' as const, rate: Number(values.rate) } : { kind: 'max' as const };
    const run = (seconds: number) =>
      drive({ url: `http://127.0.0.1:${port}`, duration: seconds, connections, timeout: 10 }, lists, load);
    await run(3);
    const sent = () =>
      new Promise<number>((resolve) => {
        child.once('message', (m) => resolve((m as { statements: number }).statements));
        child.send('statements?');
      });
    const [server, backends, before] = [cpuSeconds(child.pid!) ?? 0, await backendsCpu(child.pid!), await sent()];
    const result = await run(Number(values.duration));
    const statements = (await sent()) - before;
    const requests = result.responses;
    const serverUs = (((cpuSeconds(child.pid!) ?? 0) - server) * 1e6) / requests;
    const backendUs = (((await backendsCpu(child.pid!)) - backends) * 1e6) / requests;
    child.kill();
    return {
      mode,
      rate: Math.round(requests / Number(values.duration)),
      serverUs,
      backendUs,
      statements: statements / requests,
    };
  };
  for (let round = 0; round < Number(values.rounds); round++) {
    for (const mode of round % 2 ? ['postgres', 'memory'] : ['memory', 'postgres']) {
      const row = await phase(mode);
      // From memory the backends serve nothing: their figure is only connections opening and closing.
      const database =
        mode === 'memory'
          ? ''
          : `, backends ${row.backendUs.toFixed(0)} µs, ${row.statements.toFixed(2)} statements a request`;
      console.log(
        `round ${round + 1} ${mode.padEnd(8)} ${String(row.rate).padStart(6)} req/s, server CPU ` +
          `${row.serverUs.toFixed(0)} µs a request${database}`,
      );
    }
  }
  await admin.end();
}
