/**
 * What PostgreSQL itself takes to put a file's close-match keys into a register that holds records,
 * against what it takes to index them in an empty one: the part of a load into a full register
 * that no work of the loader's can overlap (docs/performance.md, "A file into a full register").
 *
 * On a cluster of the scale bench's own with its settings (bench/lib/scale-database.ts), a register
 * of `--births` generated births and the scale bench's two files of `--increment` births (the latest
 * births, and births of all years, their ids after the register's) are loaded with `lev-api load`;
 * each file's keys are then moved from the key table to a table of their own and the register
 * vacuumed. For each file, each statement below then runs after a checkpoint, in a transaction
 * rolled back, round after round:
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
import type pg from 'pg';
import { cleanUp, cleanUpOnSignals, cleanups } from './lib/cleanup.ts';
import { log } from './lib/log.ts';
import { runMeasured } from './lib/processes.ts';
import { TUNED_SETTINGS, makeDatabase, ownCluster, query, withConnection } from './lib/scale-database.ts';
import { median } from './lib/stats.ts';
import { INCREMENTS, INCREMENT_TITLES, type IncrementName, incrementArgs, incrementFirstId } from './lib/increments.ts';
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

const TABLE = 'birth_suggestion_key';
/** The insert of the keys in table `keys`: `select` (`DISTINCT ` or not), then `after` (an order, ON CONFLICT). */
const insert =
  (select: string, after: string) =>
  (keys: string): string =>
    `INSERT INTO ${TABLE} (key, id) SELECT ${select}s.key, s.id FROM ${keys} s${after}`;

/**
 * Each statement, over the keys of one file in table `keys`; `build` over a copy of them without an
 * index, made in the same transaction before it is timed.
 */
const STATEMENTS: Record<string, (keys: string) => string> = {
  insert: insert('', ' ORDER BY 1, 2'),
  'insert, made distinct': insert('DISTINCT ', ' ORDER BY 1, 2'),
  'insert, unsorted': insert('', ''),
  'insert, on conflict': insert('', ' ORDER BY 1, 2 ON CONFLICT DO NOTHING'),
  build: () => 'ALTER TABLE built ADD PRIMARY KEY (key, id)',
};

/**
 * Each statement over one file's keys, `rounds` times after a checkpoint in a transaction rolled
 * back, the order reversed every other round: the table's rows for the file.
 */
async function timeStatements(client: pg.Client, file: IncrementName): Promise<string[]> {
  const keys = `keys_${file}`;
  const times: Record<string, number[]> = Object.fromEntries(Object.keys(STATEMENTS).map((name) => [name, []]));
  const wal: Record<string, number> = {};
  for (let round = 0; round < rounds; round++) {
    const names = Object.keys(STATEMENTS);
    for (const name of round % 2 ? names.reverse() : names) {
      await client.query('CHECKPOINT');
      await client.query('BEGIN');
      // As the load sets them (store/postgres-write.ts).
      await client.query("SET LOCAL work_mem = '256MB'; SET LOCAL maintenance_work_mem = '512MB'; SET LOCAL jit = off");
      if (name === 'build') await client.query(`CREATE TABLE built AS SELECT key, id FROM ${keys}`);
      const sql = STATEMENTS[name](keys);
      const started = performance.now();
      const explained =
        name === 'build' ? undefined : await client.query(`EXPLAIN (ANALYZE, WAL, TIMING OFF, FORMAT JSON) ${sql}`);
      if (!explained) await client.query(sql);
      times[name].push(performance.now() - started);
      if (explained) wal[name] = explained.rows[0]['QUERY PLAN'][0].Plan['WAL Bytes'] / 2 ** 20;
      await client.query('ROLLBACK');
    }
  }
  const [{ count }] = (await client.query(`SELECT count(*)::int AS count FROM ${keys}`)).rows;
  const rows = [`| **${INCREMENT_TITLES[file]}**: ${count.toLocaleString('en-GB')} keys | | | |`];
  for (const [name, all] of Object.entries(times)) {
    const each = all.map((ms) => (ms / 1000).toFixed(2)).join(', ');
    const written = wal[name] === undefined ? '' : `${wal[name].toFixed(0)} MB`;
    rows.push(`| ${name} | ${(median(all) / 1000).toFixed(2)} s | ${each} | ${written} |`);
  }
  return rows;
}

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
  const generate = ['generate', '--type', 'birth', '--seed'];
  log(`generating ${births.toLocaleString('en-GB')} births, and two files of ${increment.toLocaleString('en-GB')}`);
  await runMeasured([LEV_API, ...generate, 'scale', '--count', String(births), '--out', register], process.env, 3600);
  await runMeasured([LEV_API, 'migrate'], env, 300, { stdout: 'stderr' });
  await runMeasured([LEV_API, 'load', '--type', 'birth', register], env, 300 + births / 1000, { stdout: 'stderr' });
  await rm(register, { force: true });
  for (const name of INCREMENTS) {
    const path = join(work, `${name}.ndjson`);
    await runMeasured([LEV_API, ...incrementArgs(name, increment, 'scale'), '--out', path], process.env, 600);
    await runMeasured([LEV_API, 'load', '--type', 'birth', path], env, 600, { stdout: 'stderr' });
    const first = incrementFirstId(name, increment);
    const ids = `id BETWEEN ${first} AND ${first + increment - 1}`;
    await query(database.url, `CREATE TABLE keys_${name} AS SELECT key, id FROM ${TABLE} WHERE ${ids}`);
    await query(database.url, `DELETE FROM ${TABLE} WHERE ${ids}`);
  }
  await query(database.url, 'VACUUM (ANALYZE)');

  const rows: string[] = [];
  await withConnection(database.url, async (client) => {
    for (const file of INCREMENTS) rows.push(...(await timeStatements(client, file)));
  });
  console.log(
    `the close-match keys of ${increment.toLocaleString('en-GB')} births into a register of ` +
      `${births.toLocaleString('en-GB')}; ${server.description}`,
  );
  console.log('| statement | median | rounds | WAL |\n|---|---:|---|---:|');
  for (const row of rows) console.log(row);
}

try {
  await main();
} finally {
  await cleanUp();
}
