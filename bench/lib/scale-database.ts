/**
 * Where the scale bench's registers live: a throwaway PostgreSQL cluster of its own (initdb into a
 * temporary folder, on a free port of 127.0.0.1, as the `postgres` system user when run as root),
 * so that server settings (memory, WAL, autovacuum) can be tuned without touching anyone's server;
 * or, given `--server URL`, a server already running, where only the settings a database may hold
 * are set. Either way each size is loaded into a new database, dropped after it. Every step is bounded.
 */
import { execFile as execFileCallback, execFileSync } from 'node:child_process';
import { appendFileSync, chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { log } from './log.ts';
import { freePort } from './processes.ts';

const execFile = promisify(execFileCallback);
const STEP_TIMEOUT_MS = 120_000;

/**
 * The settings of the bench's own cluster: a dedicated server of this machine's size (24 GiB, 2
 * cores, SSD) tuned the usual way for a register that outgrows memory and is loaded in bulk, durable
 * as production is (fsync and full-page writes stay on). `--pg-set NAME=VALUE` changes one.
 */
export const TUNED_SETTINGS: Readonly<Record<string, string>> = {
  shared_buffers: '4GB',
  effective_cache_size: '12GB',
  work_mem: '32MB',
  maintenance_work_mem: '1GB',
  max_wal_size: '16GB',
  min_wal_size: '1GB',
  checkpoint_timeout: '15min',
  checkpoint_completion_target: '0.9',
  // lz4, not pglz (what `on` means): a file of births of all years into a register of ten million
  // writes a full-page image of most index pages it changes, and compressing them with pglz made
  // the load three times as long as with lz4 (docs/performance.md).
  wal_compression: 'lz4',
  wal_buffers: '64MB',
  random_page_cost: '1.1',
  effective_io_concurrency: '200',
  autovacuum_vacuum_scale_factor: '0.05',
  autovacuum_analyze_scale_factor: '0.02',
  autovacuum_vacuum_insert_scale_factor: '0.05',
  max_connections: '100',
};

/** Settings a database may hold (ALTER DATABASE ... SET), for a server the bench does not own. */
const PER_DATABASE = new Set([
  'effective_cache_size',
  'work_mem',
  'maintenance_work_mem',
  'random_page_cost',
  'effective_io_concurrency',
]);

/**
 * The settings reported with the figures, read back from the server: those above, and what makes them mean
 * anything.
 */
const REPORTED = [
  'server_version',
  ...Object.keys(TUNED_SETTINGS),
  'fsync',
  'full_page_writes',
  'synchronous_commit',
  'autovacuum',
];

export interface PostgresServer {
  /** How the figures name it: own cluster or a server given. */
  readonly description: string;
  /** Settings to give each database made (empty for the own cluster, whose server has them all). */
  readonly databaseSettings: Readonly<Record<string, string>>;
  /** A URL of the server with the database name replaced. */
  url(database: string): string;
  /** The server's log file, where the bench owns the server. */
  readonly log?: string;
  stop(): Promise<void>;
}

/** Starts a cluster of the bench's own under `work` with `settings`; stop() stops it and removes its folder. */
export async function ownCluster(work: string, settings: Readonly<Record<string, string>>): Promise<PostgresServer> {
  const bindir = execFileSync('pg_config', ['--bindir'], { encoding: 'utf8', timeout: 10_000 }).trim();
  for (const tool of ['initdb', 'pg_ctl'])
    if (!existsSync(join(bindir, tool))) throw new Error(`${tool} is not in ${bindir}: give --server URL instead`);
  const root = mkdtempSync(join(work, 'lev-scale-pg-'));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8', timeout: 10_000 }));
    chownSync(root, id('-u'), id('-g'));
  }
  // The server refuses to run as root.
  const tool = async (name: string, args: readonly string[]) => {
    const [file, argv] = asRoot
      ? ['runuser', ['-u', 'postgres', '--', join(bindir, name), ...args]]
      : [join(bindir, name), [...args]];
    try {
      await execFile(file, argv, { timeout: STEP_TIMEOUT_MS, cwd: root });
    } catch (error) {
      const { stderr, stdout } = error as { stderr?: string; stdout?: string };
      throw new Error(`${name} ${args.join(' ')} failed: ${stderr || stdout || (error as Error).message}`);
    }
  };
  const data = join(root, 'data');
  let started = false;
  const stop = async () => {
    if (started)
      await tool('pg_ctl', ['stop', '-D', data, '-m', 'fast', '-w', '-t', '60']).catch((error) =>
        log(`clean-up: ${(error as Error).message}`),
      );
    started = false;
    rmSync(root, { recursive: true, force: true });
  };
  try {
    await tool('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-instructions']);
    const port = await freePort();
    const all = {
      ...settings,
      listen_addresses: "'127.0.0.1'",
      port: String(port),
      unix_socket_directories: `'${root}'`,
    };
    appendFileSync(
      join(data, 'postgresql.auto.conf'),
      Object.entries(all)
        .map(([key, value]) => `${key} = ${quoted(value)}\n`)
        .join(''),
    );
    const serverLog = join(root, 'server.log');
    await tool('pg_ctl', ['start', '-D', data, '-w', '-t', '60', '-l', serverLog]);
    started = true;
    return {
      description: `own cluster (initdb in ${root}, port ${port})`,
      databaseSettings: {},
      url: (database) => `postgres://postgres@127.0.0.1:${port}/${database}`,
      log: serverLog,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** A setting's value as postgresql.conf takes it: numbers and words bare, anything else quoted. */
const quoted = (value: string) =>
  /^'.*'$/.test(value) || /^[\w.]+$/.test(value) ? value : `'${value.replace(/'/g, "''")}'`;

/** A server already running (`--server URL`): each database made gets those of `settings` a database may hold. */
export function givenServer(serverUrl: string, settings: Readonly<Record<string, string>>): PostgresServer {
  return {
    description: `server ${new URL(serverUrl).host} (not the bench's: server-wide settings are its own)`,
    databaseSettings: Object.fromEntries(Object.entries(settings).filter(([name]) => PER_DATABASE.has(name))),
    url: (database) => {
      const url = new URL(serverUrl);
      url.pathname = `/${database}`;
      return url.toString();
    },
    stop: async () => {},
  };
}

/** The settings in force in `database` of `server`, by name. */
export async function settingsInForce(url: string): Promise<Record<string, string>> {
  const rows = await withConnection(
    url,
    async (client) =>
      (
        await client.query<{ name: string; value: string }>(
          'SELECT name, current_setting(name) AS value FROM unnest($1::text[]) AS name WHERE name IN (SELECT ' +
            'name FROM pg_settings)',
          [REPORTED],
        )
      ).rows,
  );
  return Object.fromEntries(
    rows.sort((a, b) => REPORTED.indexOf(a.name) - REPORTED.indexOf(b.name)).map((row) => [row.name, row.value]),
  );
}

/** Makes database `name` on `server` (dropping one left by an earlier run) with the server's per-database settings. */
export async function makeDatabase(
  server: PostgresServer,
  name: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new Error(`not a database name: ${name}`);
  await withConnection(server.url('postgres'), async (admin) => {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${name}`);
    for (const [setting, value] of Object.entries(server.databaseSettings)) {
      await admin.query(`ALTER DATABASE ${name} SET ${setting} = '${value.replace(/'/g, "''")}'`);
    }
  });
  return {
    url: server.url(name),
    // FORCE: a load or a service killed on the way may still hold a connection.
    drop: () => query(server.url('postgres'), `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).then(() => {}),
  };
}

/** The most any one statement of the bench's own may take (VACUUM of ten million births, a checkpoint). */
const STATEMENT_BOUND_MS = 3_600_000;

/** `work` on a connection of its own, each statement bounded by STATEMENT_BOUND_MS. */
export async function withConnection<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({
    connectionString: url,
    connectionTimeoutMillis: 10_000,
    statement_timeout: STATEMENT_BOUND_MS,
  });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** One statement on a connection of its own. */
export const query = <Row extends pg.QueryResultRow>(url: string, sql: string): Promise<Row[]> =>
  withConnection(url, async (client) => (await client.query<Row>(sql)).rows);
