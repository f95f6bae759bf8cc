/**
 * The little a store needs from a PostgreSQL connection. Two implementations:
 * a pool of connections to a server (`pg`) and the embedded, in-process
 * PostgreSQL (PGlite). Both speak the same SQL with `$n` parameters.
 */
export interface QueryOptions {
  /**
   * Prepare the statement once per connection and reuse it: for statements of fixed text run on
   * every request. The embedded store prepares on its database thread, once per statement text.
   */
  readonly prepare?: boolean;
}

export interface SqlExecutor {
  query<Row = Record<string, unknown>>(sql: string, params?: readonly unknown[], options?: QueryOptions): Promise<Row[]>;
}

export interface TransactionOptions {
  /**
   * A transaction-level advisory lock (`pg_advisory_xact_lock`) held from the transaction's start
   * to its end: transactions taking the same lock, in any process, run one after the other, and
   * each one's statements see what the one before it committed.
   */
  readonly lock?: number;
}

export interface SqlDriver extends SqlExecutor {
  readonly kind: 'postgres' | 'embedded';
  /** Runs several statements separated by semicolons, with no parameters. */
  exec(sql: string): Promise<void>;
  /** Runs `work` in one transaction: all of it is applied, or none. */
  transaction<T>(work: (tx: SqlExecutor) => Promise<T>, options?: TransactionOptions): Promise<T>;
  close(): Promise<void>;
}
