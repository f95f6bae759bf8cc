/**
 * What PostgreSQL itself takes to put a file's keys into a register that holds records, against
 * what it takes to index them in an empty one: the close-match keys, inserted after the file is
 * read, where no work of the loader's overlaps them, and the search keys, copied as it is read
 * (docs/performance.md, "A file into a full register").
 *
 * On a cluster of the scale bench's own with its settings (bench/lib/scale-database.ts), a register
 * of `--births` generated births and the scale bench's two files of `--increment` births (the latest
 * births, and births of all years, their ids after the register's) are loaded with `lev-api load`;
 * each file's close-match keys and search keys are then moved from their tables to tables of their
 * own and the register vacuumed. For each file, each statement below then runs after a checkpoint,
 * in a transaction rolled back, round after round:
 * - `insert`: the load's own statement (store/postgres-write.ts), the keys in key order;
 * - `insert, made distinct`: the same with `SELECT DISTINCT`;
 * - `insert, unsorted`: the keys in the order they were written;
 * - `insert, on conflict`: with `ON CONFLICT DO NOTHING`, as when a key is there already;
 * - `build`: the keys copied into a table without an index and its primary key built, as a load
 *   into an empty register indexes them;
 * - `search keys, inserted`: the file's search keys into the register's table, in the file's order;
 * - `search keys, into an empty table`: the same into an empty table with the same indexes and
 *   foreign key.
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
const SEARCH_KEYS = 'birth_search_key';
const SEARCH_KEY_COLUMNS = 'date, surname, forenames, id';
/** A file's close-match keys, and its search keys, each in a table of their own. */
const keysOf = (file: IncrementName) => `keys_${file}`;
const searchKeysOf = (file: IncrementName) => `search_keys_${file}`;
/** The insert of a file's close-match keys: `select` (`DISTINCT ` or not), then `after` (an order, ON CONFLICT). */
const insert =
  (select: string, after: string) =>
  (file: IncrementName): string =>
    `INSERT INTO ${TABLE} (key, id) SELECT ${select}s.key, s.id FROM ${keysOf(file)} s${after}`;
/** The insert of a file's search keys into `table`, in the file's order (its ids'), as the load copies them. */
const insertSearchKeys = (table: string) => (file: IncrementName) =>
  `INSERT INTO ${table} (${SEARCH_KEY_COLUMNS}) SELECT ${SEARCH_KEY_COLUMNS} FROM ${searchKeysOf(file)} ORDER BY id`;

/**
 * A statement timed over one file's keys, after `prepare` (made in the same transaction, untimed);
 * `explained`: timed under EXPLAIN (ANALYZE, WAL), which reports the WAL it wrote.
 */
interface Timed {
  readonly prepare?: (file: IncrementName) => string;
  readonly sql: (file: IncrementName) => string;
  readonly explained: boolean;
}

/**
 * Each statement: the close-match keys' (the load's own and its variants, and `build`, over a copy
 * of them without an index), then the search keys' (which a load into a register that holds
 * records copies into the live table too: into the register, and into an empty table with the same
 * indexes, as a load into an empty register puts them).
 */
const STATEMENTS: Record<string, Timed> = {
  insert: { sql: insert('', ' ORDER BY 1, 2'), explained: true },
  'insert, made distinct': { sql: insert('DISTINCT ', ' ORDER BY 1, 2'), explained: true },
  'insert, unsorted': { sql: insert('', ''), explained: true },
  'insert, on conflict': { sql: insert('', ' ORDER BY 1, 2 ON CONFLICT DO NOTHING'), explained: true },
  build: {
    prepare: (file) => `CREATE TABLE built AS SELECT key, id FROM ${keysOf(file)}`,
    sql: () => 'ALTER TABLE built ADD PRIMARY KEY (key, id)',
    explained: false,
  },
  'search keys, inserted': { sql: insertSearchKeys(SEARCH_KEYS), explained: true },
  // With the foreign key the register's table has: a load checks it for every search key, into an
  // empty register too.
  'search keys, into an empty table': {
    prepare: () =>
      `CREATE TABLE empty_search_keys (LIKE ${SEARCH_KEYS} INCLUDING INDEXES, ` +
      'FOREIGN KEY (id) REFERENCES birth_registration (id))',
    sql: insertSearchKeys('empty_search_keys'),
    explained: true,
  },
};

/**
 * Each statement over one file's keys, `rounds` times after a checkpoint in a transaction rolled
 * back, the order reversed every other round: the table's rows for the file.
 */
async function timeStatements(client: pg.Client, file: IncrementName): Promise<string[]> {
  const times: Record<string, number[]> = Object.fromEntries(Object.keys(STATEMENTS).map((name) => [name, []]));
  const wal: Record<string, number> = {};
  for (let round = 0; round < rounds; round++) {
    const names = Object.keys(STATEMENTS);
    for (const name of round % 2 ? names.reverse() : names) {
      await client.query('CHECKPOINT');
      await client.query('BEGIN');
      // As the load sets them (store/postgres-write.ts).
      await client.query("SET LOCAL work_mem = '256MB'; SET LOCAL maintenance_work_mem = '512MB'; SET LOCAL jit = off");
      const statement = STATEMENTS[name];
      if (statement.prepare) await client.query(statement.prepare(file));
      const sql = statement.sql(file);
      const started = performance.now();
      const explained = statement.explained
        ? await client.query(`EXPLAIN (ANALYZE, WAL, TIMING OFF, FORMAT JSON) ${sql}`)
        : undefined;
      if (!explained) await client.query(sql);
      times[name].push(performance.now() - started);
      if (explained) wal[name] = explained.rows[0]['QUERY PLAN'][0].Plan['WAL Bytes'] / 2 ** 20;
      await client.query('ROLLBACK');
    }
  }
  const counted = async (table: string) =>
    ((await client.query(`SELECT count(*)::int AS count FROM ${table}`)).rows[0].count as number).toLocaleString(
      'en-GB',
    );
  const rows = [
    `| **${INCREMENT_TITLES[file]}**: ${await counted(keysOf(file))} close-match keys, ` +
      `${await counted(searchKeysOf(file))} search keys | | | |`,
  ];
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
    await query(database.url, `CREATE TABLE ${keysOf(name)} AS SELECT key, id FROM ${TABLE} WHERE ${ids}`);
    await query(database.url, `DELETE FROM ${TABLE} WHERE ${ids}`);
    const searchKeys = `SELECT ${SEARCH_KEY_COLUMNS} FROM ${SEARCH_KEYS} WHERE ${ids}`;
    await query(database.url, `CREATE TABLE ${searchKeysOf(name)} AS ${searchKeys}`);
    await query(database.url, `DELETE FROM ${SEARCH_KEYS} WHERE ${ids}`);
  }
  await query(database.url, 'VACUUM (ANALYZE)');

  const rows: string[] = [];
  await withConnection(database.url, async (client) => {
    for (const file of INCREMENTS) rows.push(...(await timeStatements(client, file)));
  });
  console.log(
    `the keys of ${increment.toLocaleString('en-GB')} births into a register of ` +
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
