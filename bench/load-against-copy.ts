/**
 * `lev-api load` of a file against a raw COPY of the same file into a one-column table, each into a
 * fresh schema of its own (dropped after), alternating: wall time, and CPU of the client process and
 * of its backends (/proc, sampled every 100 ms), and the client's peak RSS. docs/performance.md.
 *
 *   node --import tsx bench/load-against-copy.ts FILE ROUNDS raw new=bin/lev-api.js old=/path/to/old/bin/lev-api.js
 */
import { spawn } from 'node:child_process';
import pg from 'pg';
import { cpuSeconds, localPortsTo, memory } from './lib/proc.ts';
import { RAW_COPY_TABLE_COLUMNS, rawCopyArgs } from './lib/raw-copy.ts';
const [file, rounds, ...variants] = process.argv.slice(2);
const url = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const admin = new pg.Client({ connectionString: url });
await admin.connect();
const run = (cmd: string, args: string[], env: NodeJS.ProcessEnv) =>
  new Promise<{ wall: number; node: number; db: number; peak: number }>((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(cmd, args, { env, stdio: ['ignore', 'ignore', 'inherit'] });
    const db = new Map<number, number>();
    let node = 0,
      peak = 0;
    const sample = async () => {
      const n = cpuSeconds(child.pid!);
      if (n !== undefined) node = n;
      const m = memory(child.pid!);
      if (m) peak = Math.max(peak, m.peakMiB);
      const ports = localPortsTo(child.pid!, 5432);
      if (ports.length) {
        const { rows } = await admin.query<{ pid: number }>(
          'SELECT pid FROM pg_stat_activity WHERE client_port = ANY($1::int[])',
          [ports],
        );
        for (const { pid } of rows) {
          const c = cpuSeconds(pid);
          if (c !== undefined) db.set(pid, c);
        }
      }
    };
    const timer = setInterval(() => void sample().catch(() => {}), 100);
    child.on('exit', (code) => {
      clearInterval(timer);
      if (code) return reject(new Error(`${cmd} exited ${code}`));
      resolve({ wall: (performance.now() - t0) / 1000, node, db: [...db.values()].reduce((a, b) => a + b, 0), peak });
    });
  });
for (let round = 0; round < Number(rounds); round++) {
  const order = round % 2 ? [...variants].reverse() : variants;
  for (const v of order) {
    const [name, bin] = v.split('=');
    const schema = `pgcost_load_${name}`;
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE; CREATE SCHEMA ${schema}`);
    let r;
    if (name === 'raw') {
      await admin.query(`CREATE TABLE ${schema}.raw_lines ${RAW_COPY_TABLE_COLUMNS}`);
      r = await run('psql', rawCopyArgs(url, `${schema}.raw_lines`, file), process.env);
    } else {
      const env = { ...process.env, DATABASE_URL: url, DATABASE_SCHEMA: schema, LOG_LEVEL: 'warn' };
      await run('node', [bin, 'migrate'], env);
      r = await run('node', [bin, 'load', '--type', 'birth', file], env);
    }
    console.log(
      `round ${round} ${name}: wall ${r.wall.toFixed(1)} s, client CPU ${r.node.toFixed(1)} s, backend ` +
        `CPU ${r.db.toFixed(1)} s, client peak ${r.peak.toFixed(0)} MiB`,
    );
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  }
}
await admin.end();
