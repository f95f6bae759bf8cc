/**
 * The little the PostgreSQL backend needs from its connections: a pool of
 * connections to a server (`pg-driver.ts`), or a stand-in a test wraps
 * around one. SQL with `$n` parameters.
 */
export interface QueryOptions {
  /**
   * Prepare the statement once per connection and reuse it: for statements of fixed text run on
   * every request.
   */
  readonly prepare?: boolean;
}

export interface SqlExecutor {
  query<Row = Record<string, unknown>>(
    sql: string,
    params?: readonly unknown[],
    options?: QueryOptions,
  ): Promise<Row[]>;
  /**
   * Sends `data` (rows in the COPY's format: text, or bytes) to a `COPY ... FROM STDIN`; a transaction's
   * connection can.
   */
  copyFrom?(sql: string, data: string | Uint8Array): Promise<void>;
}

interface TransactionOptions {
  /**
   * A transaction-level advisory lock (`pg_advisory_xact_lock`) held from the transaction's start
   * to its end: transactions taking the same lock, in any process, run one after the other, and
   * each one's statements see what the one before it committed.
   */
  readonly lock?: number;
}

/**
 * The connection failed on the way to or from a COMMIT: the server may have applied the
 * transaction or not, and the driver cannot tell which. A caller that must know looks in the
 * database for what the transaction wrote. `code` is the underlying error's, for logs.
 */
export class CommitOutcomeUnknown extends Error {
  readonly code: string | undefined;
  constructor(cause: unknown) {
    super('The connection failed during COMMIT: the transaction may or may not have been applied', { cause });
    this.name = 'CommitOutcomeUnknown';
    this.code = (cause as { code?: string } | undefined)?.code;
  }
}

export interface SqlDriver extends SqlExecutor {
  /** Runs several statements separated by semicolons, with no parameters. */
  exec(sql: string): Promise<void>;
  /**
   * Runs `work` in one transaction: all of it is applied, or none. Rejects with CommitOutcomeUnknown
   * when the connection failed during the COMMIT (which of all or none is then not known).
   */
  transaction<T>(work: (tx: SqlExecutor) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /**
   * Calls `heard` on each NOTIFY on `channel`, through a connection of its own (reopened when it
   * fails) until the returned function or `close` stops it.
   */
  listen?(channel: string, heard: () => void): () => Promise<void>;
  close(): Promise<void>;
}

const SOCKET_FAILURES = new Set(['EPIPE', 'ECONNRESET', 'ECONNREFUSED', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTCONN']);

/**
 * What an operator reads when the database itself failed under a command, rather than the socket's
 * bare words ("write EPIPE"): the connection lost or refused (a socket error, SQLSTATE class 08), or
 * the server shutting down (57P01-57P03, as when a primary is stopped for a failover).
 */
export function databaseFailure(error: unknown): string | undefined {
  const { code, message } = (error ?? {}) as { code?: string; message?: string };
  if (code === 'ECONNREFUSED' || code === '57P03')
    return `the database refused the connection (${code}): is the server running, and is it the primary?`;
  if (
    (code && (SOCKET_FAILURES.has(code) || code.startsWith('08') || /^57P0[12]$/.test(code))) ||
    /Connection terminated/i.test(message ?? '')
  ) {
    return (
      `the connection to the database was lost (${code ?? message}): the server stopped, failed over, or ` +
      `the network failed`
    );
  }
  return undefined;
}
