/**
 * What one lookup statement costs against statements of several ids: 20,000 lookups of ids spread
 * over the births of a loaded schema, through a pool of ten connections as the service's, one id a
 * statement (`id = $1`) and 2, 4 and 8 (`id = ANY($1)`), three alternating rounds; CPU a lookup of
 * this process (the driver) and of its backends (/proc). docs/performance.md.
 *
 *   node --import tsx bench/statement-cost.ts SCHEMA [DATABASE_URL]
 */
import { cpuSeconds, localPortsTo } from './lib/proc.ts';
import { openPostgres } from '../src/store/pg-driver.ts';
import pg from 'pg';
const [schema, url = 'postgres://postgres@127.0.0.1:5432/test'] = process.argv.slice(2);
const admin = new pg.Client({ connectionString: url });
await admin.connect();
const driver = openPostgres({ url, schema, poolSize: 10, statementTimeoutMs: 30000 });
const N = 20000;
const ids = Array.from({ length: N }, (_, i) => String(100_000_000 + ((i * 7919) % 200000)));
const backends = async () => {
  const ports = localPortsTo(process.pid, 5432);
  const { rows } = await admin.query(
    'SELECT pid FROM pg_stat_activity WHERE client_port = ANY($1::int[]) AND pid <> pg_backend_pid()',
    [ports],
  );
  return rows.reduce((a: number, r: any) => a + (cpuSeconds(r.pid) ?? 0), 0);
};
const run = async (k: number) => {
  const sql =
    k === 1
      ? 'SELECT data::text AS data FROM birth_registration WHERE id = $1'
      : 'SELECT id::text AS id, data::text AS data FROM birth_registration WHERE id = ANY($1::bigint[])';
  let next = 0;
  const worker = async () => {
    while (next < N) {
      const batch = ids.slice(next, next + k);
      next += k;
      await driver.query(sql, [k === 1 ? batch[0] : batch], { prepare: true });
    }
  };
  await Promise.all(Array.from({ length: 10 }, worker));
};
await run(1);
await run(4); // every connection open and prepared
for (let round = 0; round < 3; round++)
  for (const k of round % 2 ? [8, 4, 2, 1] : [1, 2, 4, 8]) {
    const d0 = await backends();
    const c0 = process.cpuUsage();
    await run(k);
    const c = process.cpuUsage(c0);
    const d1 = await backends();
    console.log(
      `batch ${k}: backend ${(((d1 - d0) / N) * 1e6).toFixed(1)} µs/lookup, ` +
        `client ${((c.user + c.system) / N).toFixed(1)} µs/lookup`,
    );
  }
await driver.close();
await admin.end();
