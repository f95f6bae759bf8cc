import pg from 'pg';
import type { QueryOptions, SqlDriver, SqlExecutor } from './driver.ts';

export interface PostgresOptions {
  readonly url: string;
  /** Names the connections in pg_stat_activity. */
  readonly applicationName?: string;
  /** Schema to work in (search_path); tests use one of their own. */
  readonly schema?: string;
  readonly poolSize: number;
  readonly statementTimeoutMs: number;
}

/** A pool of connections to a PostgreSQL server. */
export function openPostgres(options: PostgresOptions): SqlDriver {
  const settings = [`-c statement_timeout=${options.statementTimeoutMs}`];
  if (options.schema) settings.push(`-c search_path=${options.schema}`);
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
  const executor = (target: pg.Pool | pg.PoolClient): SqlExecutor => ({
    async query<Row>(sql: string, params: readonly unknown[] = [], options?: QueryOptions) {
      const values = params as unknown[];
      const result = options?.prepare ? await target.query({ name: nameOf(sql), text: sql, values }) : await target.query(sql, values);
      return result.rows as Row[];
    },
  });
  return {
    kind: 'postgres',
    ...executor(pool),
    async exec(sql) {
      await pool.query(sql);
    },
    async transaction(work, { lock } = {}) {
      if (lock !== undefined && !Number.isSafeInteger(lock)) throw new Error(`advisory lock ${lock} is not an integer`);
      const client = await pool.connect();
      let failure: Error | undefined;
      try {
        // One round trip: the lock is taken by the transaction's first statement, so every later one sees
        // what the previous holder committed.
        await client.query(lock === undefined ? 'BEGIN' : `BEGIN; SELECT pg_advisory_xact_lock(${lock})`);
        const result = await work(executor(client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        // A failed ROLLBACK means the connection is broken: it is then closed rather than pooled again.
        await client.query('ROLLBACK').catch((rollback: Error) => (failure = rollback));
        throw error;
      } finally {
        client.release(failure);
      }
    },
    close: async () => {
      if (!pool.ended) await pool.end();
    },
  };
}
