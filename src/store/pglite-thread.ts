/**
 * The thread that owns the embedded database. PGlite runs PostgreSQL in
 * WebAssembly, synchronously: on the event loop's thread every statement
 * would stall HTTP. Here it runs beside it, on the other core, and answers
 * the driver's messages (pglite-driver.ts). It also runs the service's audit
 * trails, so that a batch of entries is one message rather than a
 * transaction's worth of them.
 *
 * Started through pglite-thread-entry.js when run from the TypeScript sources.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, messages } from '@electric-sql/pglite';
import { type AuditTrail, createAuditTrail } from '../audit/trail.ts';
import type { SqlDriver, SqlExecutor } from './driver.ts';
import { connectionDriver } from './pglite-connection.ts';
import { type Ready, type Reply, type Request, toWire } from './pglite-protocol.ts';
import { createSession } from './pglite-session.ts';

const port = parentPort!;
const isDatabaseError = (error: unknown) => error instanceof messages.DatabaseError;

interface OpenTransaction {
  /** The transaction's statements, once it has begun; rejects if it could not. */
  readonly ready: Promise<SqlExecutor>;
  /** Settles once it is committed or rolled back. */
  readonly done: Promise<void>;
  end(commit: boolean): void;
}

const ROLLBACK = Symbol('rollback');

/** A transaction whose statements and end come in messages: it holds the connection until then. */
function begin(db: SqlDriver): OpenTransaction {
  let begun!: (tx: SqlExecutor) => void;
  let end!: (commit: boolean) => void;
  const started = new Promise<SqlExecutor>((resolve) => (begun = resolve));
  const ending = new Promise<boolean>((resolve) => (end = resolve));
  const done = db
    .transaction(async (tx) => {
      begun(tx);
      if (!(await ending)) throw ROLLBACK;
    })
    .catch((error) => {
      if (error !== ROLLBACK) throw error;
    });
  // Should it end before it began, its statements fail.
  const ready = Promise.race([started, done.then(() => Promise.reject(new Error('Transaction is closed')))]);
  ready.catch(() => {});
  return { ready, done, end };
}

function serve(db: SqlDriver) {
  const transactions = new Map<number, OpenTransaction>();
  const trails = new Map<number, AuditTrail>();
  const executor = async (tx: number | undefined): Promise<SqlExecutor> => {
    if (tx === undefined) return db;
    const open = transactions.get(tx);
    if (!open) throw new Error('Transaction is closed');
    return open.ready;
  };

  const handle = async (request: Exclude<Request, { op: 'begin' }>): Promise<unknown[] | undefined> => {
    switch (request.op) {
      case 'query':
        return (await executor(request.tx)).query(request.sql, request.params, { prepare: request.prepare });
      case 'exec':
        await db.exec(request.sql);
        return undefined;
      case 'end': {
        const open = transactions.get(request.tx);
        if (!open) throw new Error('Transaction is closed');
        transactions.delete(request.tx);
        open.end(request.commit);
        await open.done;
        return undefined;
      }
      case 'audit': {
        let trail = trails.get(request.trail);
        if (!trail) trails.set(request.trail, (trail = createAuditTrail(db, request.options)));
        await Promise.all(request.entries.map((entry) => trail.record(entry)));
        return undefined;
      }
      case 'close':
        await Promise.all([...trails.values()].map((trail) => trail.flush()));
        await db.close();
        return undefined;
    }
  };

  const fail = (id: number, error: unknown) => {
    try {
      port.postMessage({ id, error: toWire(error, isDatabaseError) } satisfies Reply);
    } catch {
      // A field that cannot be cloned must not leave the caller waiting: the error goes without its fields.
      const { name, message, stack, database } = toWire(error, isDatabaseError);
      port.postMessage({ id, error: { name, message, stack, database, fields: {} } } satisfies Reply);
    }
  };
  port.on('message', (request: Request) => {
    // Unanswered: the transaction's statements follow without waiting, and fail with BEGIN's error if it failed.
    if (request.op === 'begin') return void transactions.set(request.tx, begin(db));
    handle(request)
      .then((rows) => port.postMessage({ id: request.id, rows } satisfies Reply))
      .catch((error) => fail(request.id, error));
  });
}

try {
  const { dataDir } = workerData as { dataDir?: string };
  const pglite = await PGlite.create(dataDir);
  // In memory, a commit's write-ahead log has nowhere durable to go: writing it out at each commit
  // (into memory too) bought nothing and cost the audit trail's one-statement batches about a
  // tenth of their time. Commits are as atomic and as visible as before; with a data directory,
  // where the log is what survives a crash, they still wait for it.
  if (dataDir === undefined) await pglite.exec('SET synchronous_commit = off');
  serve(
    connectionDriver(createSession(pglite), async () => {
      if (!pglite.closed) await pglite.close();
    }),
  );
  port.postMessage({ ready: true } satisfies Ready);
} catch (error) {
  port.postMessage({ ready: false, error: toWire(error, isDatabaseError) } satisfies Ready);
}
