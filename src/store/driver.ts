/**
 * The little a store needs from a PostgreSQL connection. Two implementations:
 * a pool of connections to a server (`pg`) and the embedded, in-process
 * PostgreSQL (PGlite). Both speak the same SQL with `$n` parameters.
 */
export interface SqlExecutor {
  query<Row = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<Row[]>;
}

export interface SqlDriver extends SqlExecutor {
  readonly kind: 'postgres' | 'embedded';
  /** Runs several statements separated by semicolons, with no parameters. */
  exec(sql: string): Promise<void>;
  /** Runs `work` in one transaction: all of it is applied, or none. */
  transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
