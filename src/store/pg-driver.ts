import { finished } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFromStdin } from 'pg-copy-streams';
import { CommitOutcomeUnknown, type QueryOptions, type SqlDriver, type SqlExecutor } from './driver.ts';

export interface PostgresOptions {
  readonly url: string;
  /** Names the connections in pg_stat_activity. */
  readonly applicationName?: string;
  /** Schema to work in (search_path); tests use one of their own. */
  readonly schema?: string;
  readonly poolSize: number;
  readonly statementTimeoutMs: number;
  /** Server settings for every connection, beyond the statement timeout and the schema. */
  readonly settings?: Readonly<Record<string, string>>;
}

/** A pool of connections to a PostgreSQL server. */
export function openPostgres(options: PostgresOptions): SqlDriver {
  const settings = [`-c statement_timeout=${options.statementTimeoutMs}`];
  if (options.schema) settings.push(`-c search_path=${options.schema}`);
  for (const [name, value] of Object.entries(options.settings ?? {})) settings.push(`-c ${name}=${value}`);
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize,
    options: settings.join(' '),
    connectionTimeoutMillis: 5000,
    application_name: options.applicationName ?? 'lev-api',
  });
  // A connection the server kills emits 'error', once or more, idle or checked out, and an 'error'
  // without a listener ends the process. pg-pool listens only at times (an idle client; the first
  // error of a `pool.query`), so every client gets a listener of its own for its whole life. What it
  // hears reaches the caller anyway, as the failure of the query that was running.
  const ignore = () => {};
  pool.on('error', ignore);
  pool.on('connect', (client) => client.on('error', ignore));
  // Prepared statements are named after their text, so that each connection prepares a statement
  // the first time it runs it (pg remembers which it has) and only binds and executes it afterwards.
  const statementNames = new Map<string, string>();
  const nameOf = (sql: string) => {
    let name = statementNames.get(sql);
    if (name === undefined) statementNames.set(sql, (name = `lev_${statementNames.size + 1}`));
    return name;
  };
  // pg's callback form: its promise form makes four promises a statement (pg-pool's among them), this one
  // promise, on every request's path (docs/performance.md#tracing).
  const executor = (target: pg.Pool | pg.PoolClient): SqlExecutor => ({
    query<Row>(sql: string, params: readonly unknown[] = [], options?: QueryOptions) {
      const values = params as unknown[];
      const config = options?.prepare ? { name: nameOf(sql), text: sql, values } : { text: sql, values };
      return new Promise<Row[]>((resolve, reject) => {
        target.query(config, (error: Error | undefined, result: pg.QueryResult) =>
          error ? reject(error) : resolve(result.rows as Row[]),
        );
      });
    },
  });
  // COPY needs one connection for its whole run: a transaction's.
  const clientExecutor = (client: pg.PoolClient): SqlExecutor => ({
    ...executor(client),
    async copyFrom(sql, data) {
      const stream = client.query(copyFromStdin(sql));
      stream.end(data);
      await finished(stream);
    },
  });
  const listeners = new Set<() => Promise<void>>();
  return {
    ...executor(pool),
    listen(channel, heard) {
      let stopped = false;
      let client: pg.Client | undefined;
      let retry: NodeJS.Timeout | undefined;
      const open = () => {
        if (stopped) return;
        const current = new pg.Client({
          connectionString: options.url,
          options: settings.join(' '),
          application_name: options.applicationName ?? 'lev-api',
          connectionTimeoutMillis: 5000,
        });
        client = current;
        // A lost connection is opened again a second later; meanwhile waiting readers fall back on their own timers.
        const again = () => {
          current.removeAllListeners('notification');
          current.end().catch(() => {});
          if (!stopped && client === current) retry = setTimeout(open, 1000).unref();
        };
        current.on('error', again);
        current.on('notification', () => heard());
        current
          .connect()
          .then(() => current.query(`LISTEN ${pg.escapeIdentifier(channel)}`))
          .catch(again);
      };
      open();
      const stop = async () => {
        stopped = true;
        listeners.delete(stop);
        clearTimeout(retry);
        await client?.end().catch(() => {});
      };
      listeners.add(stop);
      return stop;
    },
    async exec(sql) {
      await pool.query(sql);
    },
    async transaction(work, { lock } = {}) {
      if (lock !== undefined && !Number.isSafeInteger(lock)) throw new Error(`advisory lock ${lock} is not an integer`);
      const client = await pool.connect();
      let result;
      try {
        // One round trip: the lock is taken by the transaction's first statement, so every later one sees
        // what the previous holder committed.
        await client.query(lock === undefined ? 'BEGIN' : `BEGIN; SELECT pg_advisory_xact_lock(${lock})`);
        result = await work(clientExecutor(client));
      } catch (error) {
        // A failed ROLLBACK means the connection is broken: it is then closed rather than pooled again.
        let broken: Error | undefined;
        await client.query('ROLLBACK').catch((rollback: Error) => (broken = rollback));
        client.release(broken);
        throw error;
      }
      try {
        await client.query('COMMIT');
      } catch (error) {
        // The server refusing the COMMIT (an ERROR) rolled the transaction back, on a connection still good.
        // Anything else (the connection lost, the server's FATAL as it was killed) may have come before the
        // COMMIT reached it or after it was applied: the connection is closed, and the caller told it cannot know.
        const refused = (error as { severity?: string }).severity === 'ERROR';
        client.release(refused ? undefined : (error as Error));
        throw refused ? error : new CommitOutcomeUnknown(error);
      }
      client.release();
      return result;
    },
    close: async () => {
      await Promise.all([...listeners].map((stop) => stop()));
      if (!pool.ended) await pool.end();
    },
  };
}
