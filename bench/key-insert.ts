/**
 * What PostgreSQL itself takes to put a file's close-match keys into a register that holds records,
 * against what it takes to index them in an empty one: the part of a load into a full register
 * that no work of the loader's can overlap (docs/performance.md, "A file into a full register").
 *
 * On a cluster of the scale bench's own with its settings (bench/lib/scale-database.ts), a register
 * of `--births` generated births and a file of the latest `--increment` births are loaded with
 * `lev-api load` (the file's ids after the register's, as the scale bench makes it); the file's keys
 * are then moved from the key table to a table of their own and the register vacuumed. Each
 * statement below then runs after a checkpoint, in a transaction rolled back, round after round:
 * - `insert`: the load's own statement (store/postgres-write.ts), the keys in key order;
 * - `insert, made distinct`: the same with `SELECT DISTINCT`;
 * - `insert, unsorted`: the keys in the order they were written;
 * - `insert, on conflict`: with `ON CONFLICT DO NOTHING`, as when a key is there already;
 * - `build`: the keys copied into a table without an index and its primary key built, as a load
 *   into an empty register indexes them.
 * Printed: each statement's median time, and the WAL it wrote (`EXPLAIN (ANALYZE, WAL, TIMING OFF)`).
 *
 *   node --import tsx bench/key-insert.ts [--births 100000] [--increment 100000] [--rounds 3] [--work DIR]
 */
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { cleanUp, cleanUpOnSignals, cleanups } from './lib/cleanup.ts';
import { log } from './lib/log.ts';
import { runMeasured } from './lib/processes.ts';
import { TUNED_SETTINGS, makeDatabase, ownCluster, query, withConnection } from './lib/scale-database.ts';
import { median } from './lib/stats.ts';
import { LEV_API, serviceEnv } from './lib/targets.ts';

const { values } = parseArgs({
  options: {
    births: { type: 'string', default: '100000' },
    increment: { type: 'string', default: '100000' },
    rounds: { type: 'string', default: '3' },
    work: { type: 'string', default: tmpdir() },
  },
});
const births = Number(values.births);
const increment = Number(values.increment);
const rounds = Number(values.rounds);

/** The scale bench's: the increment's ids after any register's, its dates the latest days. */
const INCREMENT_FIRST_ID = 200_000_000;
const LATEST_FROM = '2025-08-08';

const TABLE = 'birth_suggestion_key';
const INSERT = `INSERT INTO ${TABLE} (key, id) SELECT s.key, s.id FROM file_keys s`;
const STATEMENTS: Record<string, string> = {
  insert: `${INSERT} ORDER BY 1, 2`,
  'insert, made distinct': `INSERT INTO ${TABLE} (key, id) SELECT DISTINCT s.key, s.id FROM file_keys s ORDER BY 1, 2`,
  'insert, unsorted': INSERT,
  'insert, on conflict': `${INSERT} ORDER BY 1, 2 ON CONFLICT DO NOTHING`,
  build: 'ALTER TABLE built ADD PRIMARY KEY (key, id)',
};

async function main() {
  cleanUpOnSignals();
  const work = mkdtempSync(join(values.work as string, 'lev-key-insert-'));
  cleanups.push(() => rm(work, { recursive: true, force: true }));
  // The cluster beside the work folder, not in it: the server's user must reach its folder.
  const server = await ownCluster(values.work as string, TUNED_SETTINGS);
  cleanups.push(() => server.stop());
  const database = await makeDatabase(server, 'lev_key_insert');
  cleanups.push(() => database.drop());
  const env = serviceEnv({ settings: {} }, { DATABASE_URL: database.url });
  const register = join(work, 'register.ndjson');
  const file = join(work, 'latest.ndjson');
  const generate = ['generate', '--type', 'birth', '--seed'];
  log(`generating ${births.toLocaleString('en-GB')} births and the file of ${increment.toLocaleString('en-GB')}`);
  await runMeasured([LEV_API, ...generate, 'scale', '--count', String(births), '--out', register], process.env, 600);
  await runMeasured(
    [LEV_API, ...generate, 'scale-latest', '--count', String(increment), '--from', LATEST_FROM, '--first-id'].concat([
      String(INCREMENT_FIRST_ID),
      '--out',
      file,
    ]),
    process.env,
    600,
  );
  await runMeasured([LEV_API, 'migrate'], env, 300, { stdout: 'stderr' });
  for (const loaded of [register, file])
    await runMeasured([LEV_API, 'load', '--type', 'birth', loaded], env, 300 + births / 1000, { stdout: 'stderr' });
  await query(database.url, `CREATE TABLE file_keys AS SELECT key, id FROM ${TABLE} WHERE id >= ${INCREMENT_FIRST_ID}`);
  await query(database.url, `DELETE FROM ${TABLE} WHERE id >= ${INCREMENT_FIRST_ID}`);
  await query(database.url, 'VACUUM (ANALYZE)');
  const [{ keys }] = await query<{ keys: number }>(database.url, 'SELECT count(*)::int AS keys FROM file_keys');

  const times: Record<string, number[]> = Object.fromEntries(Object.keys(STATEMENTS).map((name) => [name, []]));
  const wal: Record<string, number> = {};
  await withConnection(database.url, async (client) => {
    for (let round = 0; round < rounds; round++) {
      const names = Object.keys(STATEMENTS);
      for (const name of round % 2 ? names.reverse() : names) {
        await client.query('CHECKPOINT');
        await client.query('BEGIN');
        // As the load sets them (store/postgres-write.ts).
        await client.query(
          "SET LOCAL work_mem = '256MB'; SET LOCAL maintenance_work_mem = '512MB'; SET LOCAL jit = off",
        );
        await client.query('CREATE TABLE built AS SELECT key, id FROM file_keys');
        const sql = STATEMENTS[name];
        const started = performance.now();
        const explained =
          name === 'build' ? undefined : await client.query(`EXPLAIN (ANALYZE, WAL, TIMING OFF, FORMAT JSON) ${sql}`);
        if (!explained) await client.query(sql);
        times[name].push(performance.now() - started);
        if (explained) wal[name] = explained.rows[0]['QUERY PLAN'][0].Plan['WAL Bytes'] / 2 ** 20;
        await client.query('ROLLBACK');
      }
    }
  });
  console.log(
    `${keys.toLocaleString('en-GB')} close-match keys of ${increment.toLocaleString('en-GB')} births into a ` +
      `register of ${births.toLocaleString('en-GB')}; ${server.description}`,
  );
  console.log('| statement | median | rounds | WAL |\n|---|---:|---|---:|');
  for (const [name, all] of Object.entries(times)) {
    const each = all.map((ms) => (ms / 1000).toFixed(2)).join(', ');
    const written = wal[name] === undefined ? '' : `${wal[name].toFixed(0)} MB`;
    console.log(`| ${name} | ${(median(all) / 1000).toFixed(2)} s | ${each} | ${written} |`);
  }
}

try {
  await main();
} finally {
  await cleanUp();
}
