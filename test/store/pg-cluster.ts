/**
 * Throwaway PostgreSQL clusters for the tests of replication and failover: a primary made with
 * `initdb` and streaming standbys cloned from it with `pg_basebackup -R`, each on a free port
 * under a temporary folder, run as the `postgres` system user when the tests run as root (the
 * server refuses root), and stopped and removed when the test ends, whether it passed or not.
 * The machine's own server is never touched. Where the server binaries are not installed the
 * tests skip, but not under CI=true: there they fail, so that a run cannot pass untested.
 */
import { execFile as execFileCallback, execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, appendFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { TestContext } from 'node:test';
import pg from 'pg';

const execFile = promisify(execFileCallback);
/** No step of a cluster's life may hang a test run. */
const STEP_TIMEOUT_MS = 60_000;

/** The folder of initdb, pg_ctl and pg_basebackup, or why there is none. */
function findBinaries(): { bindir: string } | { missing: string } {
  let bindir: string;
  try {
    bindir = execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim();
  } catch {
    return { missing: 'pg_config is not installed' };
  }
  for (const tool of ['initdb', 'pg_ctl', 'pg_basebackup']) {
    if (!existsSync(join(bindir, tool))) return { missing: `${tool} is not in ${bindir}` };
  }
  return { bindir };
}

/**
 * Why the cluster tests cannot run here (a reason to skip them), or false when they can. Under
 * CI=true a missing binary throws instead.
 */
export function clusterUnavailable(): string | false {
  const found = findBinaries();
  if ('bindir' in found) return false;
  if (process.env.CI === 'true')
    throw new Error(
      `CI=true, but the PostgreSQL server binaries are missing (${found.missing}): the cluster tests cannot ` +
        `be skipped in CI`,
    );
  return `PostgreSQL server binaries missing: ${found.missing}`;
}

/** A port nothing listens on at the moment of asking. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface ClusterNode {
  readonly name: string;
  readonly port: number;
  /** `postgres://postgres@127.0.0.1:PORT/postgres`. */
  readonly url: string;
  /** `host:port`, for multi-host connection strings. */
  readonly address: string;
  /** `pg_ctl stop`: `immediate` is a crash (no shutdown checkpoint, standbys told nothing). */
  stop(mode?: 'immediate' | 'fast'): Promise<void>;
  start(): Promise<void>;
  /** `pg_ctl promote`, waiting until the node accepts writes. */
  promote(): Promise<void>;
  /** One statement on a connection of its own. */
  query<Row = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<Row[]>;
}

export interface Cluster {
  readonly primary: ClusterNode;
  readonly standbys: readonly ClusterNode[];
  /** Waits until these standbys (by default all) have replayed all the primary has written. */
  caughtUp(nodes?: readonly ClusterNode[], timeoutMs?: number): Promise<void>;
}

export interface ClusterOptions {
  /** How many streaming standbys (default 1). */
  readonly standbys?: number;
  /** Server settings added to every node's postgresql.conf. */
  readonly settings?: Readonly<Record<string, string | number>>;
}

/** Makes a cluster for the test `t`, removed when it ends. Call only where `clusterUnavailable()` is false. */
export async function startCluster(t: Pick<TestContext, 'after'>, options: ClusterOptions = {}): Promise<Cluster> {
  const found = findBinaries();
  if (!('bindir' in found)) throw new Error(found.missing);
  const { bindir } = found;
  const root = mkdtempSync(join(tmpdir(), 'lev-cluster-'));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }));
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }));
    chownSync(root, uid, gid);
  }
  const run = async (tool: string, args: readonly string[]) => {
    const [file, argv] = asRoot
      ? ['runuser', ['-u', 'postgres', '--', join(bindir, tool), ...args]]
      : [join(bindir, tool), [...args]];
    try {
      await execFile(file, argv, { timeout: STEP_TIMEOUT_MS, cwd: root });
    } catch (error) {
      const { stderr, stdout } = error as { stderr?: string; stdout?: string };
      throw new Error(`${tool} ${args.join(' ')} failed: ${stderr || stdout || (error as Error).message}`);
    }
  };
  const nodes: { dir: string }[] = [];
  // Registered before anything starts, so a cluster half made is removed too.
  t.after(async () => {
    for (const { dir } of nodes) await run('pg_ctl', ['stop', '-D', dir, '-m', 'immediate']).catch(() => {});
    rmSync(root, { recursive: true, force: true });
  });

  const settings: Record<string, string | number> = {
    listen_addresses: "'127.0.0.1'",
    unix_socket_directories: `'${root}'`,
    wal_level: 'replica',
    max_wal_senders: 10,
    hot_standby: 'on',
    // Frequent feedback, so the primary's view of its standbys (and their lag) is current.
    wal_receiver_status_interval: '1s',
    shared_buffers: '16MB',
    max_connections: 60,
    // Nothing here outlives the test: durability against the machine's crash is not what is tested.
    fsync: 'off',
    full_page_writes: 'off',
    ...options.settings,
  };

  const node = async (name: string, port: number): Promise<ClusterNode> => {
    const dir = join(root, name);
    const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
    const ctl = (...args: string[]) => run('pg_ctl', [...args, '-D', dir]);
    const self: ClusterNode = {
      name,
      port,
      url,
      address: `127.0.0.1:${port}`,
      stop: (mode = 'fast') => ctl('stop', '-m', mode, '-w'),
      start: () => ctl('start', '-w', '-t', '30', '-l', join(root, `${name}.log`)),
      async promote() {
        await ctl('promote', '-w', '-t', '30');
      },
      async query<Row>(sql: string, params: readonly unknown[] = []) {
        const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
        client.on('error', () => {});
        await client.connect();
        try {
          return (await client.query(sql, params as unknown[])).rows as Row[];
        } finally {
          await client.end().catch(() => {});
        }
      },
    };
    return self;
  };

  const configure = (dir: string, name: string, port: number) =>
    appendFileSync(
      join(dir, 'postgresql.auto.conf'),
      Object.entries({ ...settings, port, cluster_name: `'${name}'` })
        .map(([key, value]) => `${key} = ${value}\n`)
        .join(''),
    );

  const primaryPort = await freePort();
  const primaryDir = join(root, 'primary');
  nodes.push({ dir: primaryDir });
  await run('initdb', [
    '-D',
    primaryDir,
    '-U',
    'postgres',
    '--auth=trust',
    '-E',
    'UTF8',
    '--no-sync',
    '--no-instructions',
  ]);
  configure(primaryDir, 'primary', primaryPort);
  const primary = await node('primary', primaryPort);
  await primary.start();

  const standbys: ClusterNode[] = [];
  for (let i = 1; i <= (options.standbys ?? 1); i++) {
    const name = `standby${i}`;
    const port = await freePort();
    const dir = join(root, name);
    nodes.push({ dir });
    // -R writes standby.signal and primary_conninfo; cluster_name names it to the primary
    // (pg_stat_replication's application_name, and synchronous_standby_names).
    await run('pg_basebackup', [
      '-h',
      '127.0.0.1',
      '-p',
      String(primaryPort),
      '-U',
      'postgres',
      '-D',
      dir,
      '-R',
      '-X',
      'stream',
      '--no-sync',
    ]);
    configure(dir, name, port);
    const standby = await node(name, port);
    await standby.start();
    standbys.push(standby);
  }

  return {
    primary,
    standbys,
    async caughtUp(nodes = standbys, timeoutMs = 20_000) {
      const until = Date.now() + timeoutMs;
      const [{ lsn }] = await primary.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn');
      for (const standby of nodes) {
        for (;;) {
          const [row] = await standby
            .query<{ behind: boolean }>('SELECT pg_last_wal_replay_lsn() < $1::pg_lsn AS behind', [lsn])
            .catch(() => [{ behind: true }]);
          if (!row.behind) break;
          if (Date.now() > until) throw new Error(`${standby.name} has not replayed ${lsn} after ${timeoutMs} ms`);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }
    },
  };
}
