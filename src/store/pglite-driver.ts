/**
 * The embedded store: PostgreSQL compiled to WebAssembly (PGlite), in memory
 * unless given a data directory. PGlite runs synchronously, so it has a thread
 * of its own (pglite-thread.ts) and this driver sends it messages: the event
 * loop's thread serves HTTP while the other core runs the database, and the
 * audit trails' writing with it.
 */
import { Worker } from 'node:worker_threads';
import { messages } from '@electric-sql/pglite';
import { type AuditTrailHost, batchPerTurn } from '../audit/trail.ts';
import type { QueryOptions, SqlDriver, SqlExecutor } from './driver.ts';
import { type Ready, type Reply, type Request, fromWire } from './pglite-protocol.ts';

type DistributiveOmit<T, K extends keyof T> = T extends unknown ? Omit<T, K> : never;
type Call = DistributiveOmit<Exclude<Request, { op: 'begin' }>, 'id'>;

interface Pending {
  resolve(rows: unknown[] | undefined): void;
  reject(error: Error): void;
}

const DatabaseError = messages.DatabaseError as unknown as new (message: string, length: number, name: string) => Error;

/**
 * The thread's code: compiled (dist/, `npm run build`), the JavaScript of pglite-thread.ts; run from
 * the TypeScript sources, an entry that loads them through tsx (see pglite-thread-entry.js).
 */
const threadFile = import.meta.url.endsWith('.ts') ? './pglite-thread-entry.js' : './pglite-thread.js';

/** Options about a process's main script, which a worker refuses; each takes a value, joined by `=` or next. */
const SCRIPT_OPTIONS = new Set(['-e', '--eval', '-p', '--print', '--input-type']);

/**
 * The node options a thread is started with: the process's own (`--cpu-prof`, `--import`, …) less
 * those about its main script, so that a service started by `node --input-type=module -e` still
 * opens its embedded store.
 */
export function threadExecArgv(execArgv: readonly string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < execArgv.length; i++) {
    const [name, value] = execArgv[i].split(/=(.*)/s, 2);
    if (!SCRIPT_OPTIONS.has(name)) kept.push(execArgv[i]);
    else if (value === undefined) i++;
  }
  return kept;
}

/** Starts the thread and waits until PGlite is open there; its errors are rethrown here. */
async function startThread(dataDir: string | undefined): Promise<Worker> {
  const worker = new Worker(new URL(threadFile, import.meta.url), { workerData: { dataDir }, execArgv: threadExecArgv(process.execArgv) });
  try {
    const ready = await new Promise<Ready>((resolve, reject) => {
      const exited = (code: number) => reject(new Error(`the embedded database's thread stopped while starting (exit code ${code})`));
      worker.once('exit', exited);
      worker.once('error', reject);
      worker.once('message', (message: Ready) => {
        worker.off('exit', exited).off('error', reject);
        resolve(message);
      });
    });
    if (!ready.ready) throw fromWire(ready.error, DatabaseError);
    return worker;
  } catch (error) {
    await worker.terminate();
    throw error;
  }
}

export async function openEmbedded(dataDir?: string): Promise<SqlDriver & AuditTrailHost> {
  const worker = await startThread(dataDir);
  const pending = new Map<number, Pending>();
  let lastId = 0;
  let lastTransaction = 0;
  let lastTrail = 0;
  let stopped: Error | undefined;
  let closing: Promise<void> | undefined;

  const stop = (error: Error) => {
    stopped ??= error;
    for (const call of pending.values()) call.reject(error);
    pending.clear();
  };
  worker.on('error', stop);
  worker.on('exit', (code) => stop(new Error(`the embedded database's thread has stopped (exit code ${code})`)));
  worker.on('message', (reply: Reply) => {
    const call = pending.get(reply.id);
    if (!call) return;
    pending.delete(reply.id);
    // Idle, the thread must not keep the process alive; while a caller waits on it, it must.
    if (pending.size === 0) worker.unref();
    if (reply.error) call.reject(fromWire(reply.error, DatabaseError));
    else call.resolve(reply.rows);
  });
  worker.unref();

  const send = (call: Call) =>
    new Promise<unknown[] | undefined>((resolve, reject) => {
      if (stopped) return reject(stopped);
      const id = ++lastId;
      pending.set(id, { resolve, reject });
      if (pending.size === 1) worker.ref();
      worker.postMessage({ ...call, id } satisfies Request);
    });

  const executor = (tx?: number): SqlExecutor => ({
    async query<Row>(sql: string, params: readonly unknown[] = [], options?: QueryOptions) {
      return (await send({ op: 'query', sql, params, tx, prepare: options?.prepare })) as Row[];
    },
  });

  return {
    kind: 'embedded',
    ...executor(),
    async exec(sql) {
      await send({ op: 'exec', sql });
    },
    // PGlite is one connection that runs one transaction at a time, in this process alone: every
    // transaction already runs after the one before it, as an advisory lock (options.lock) would make it.
    // The thread, which alone talks to PGlite, keeps the connection for the transaction from its BEGIN to
    // its end and queues anything else (pglite-thread.ts): a lock on this side would hold back only this
    // side's callers, and cost a round trip to BEGIN. BEGIN is not waited for: the first statement's
    // answer says whether it began.
    async transaction(work) {
      const tx = ++lastTransaction;
      if (!stopped) worker.postMessage({ op: 'begin', tx } satisfies Request);
      let result;
      try {
        result = await work(executor(tx));
      } catch (error) {
        await send({ op: 'end', tx, commit: false }).catch(() => {});
        throw error;
      }
      await send({ op: 'end', tx, commit: true });
      return result;
    },
    // The thread groups the entries of every turn that arrive while it writes, as group commit does
    // here, so a turn's entries are sent at once rather than after the previous batch's commit.
    hostAuditTrail(options) {
      const trail = ++lastTrail;
      return batchPerTurn(
        async (entries) => {
          await send({ op: 'audit', trail, options, entries });
        },
        { overlap: true },
      );
    },
    // Closing twice is harmless, as with the pg pool.
    close() {
      closing ??= (async () => {
        await send({ op: 'close' }).catch(() => {});
        stop(new Error('the embedded database is closed'));
        await worker.terminate();
      })();
      return closing;
    },
  };
}
