/**
 * The close-match indexes of a serving process live on a thread of their own, which finds and
 * scores close matches there (suggestion-thread-worker.ts) while the event loop serves everything
 * else: on PostgreSQL with SUGGESTION_INDEX=service, and on the embedded store.
 *
 * Why: a close match costs six to twelve searches' CPU (half a millisecond to a millisecond), most
 * of it finding and scoring candidates. On the event loop that time held up every other request,
 * and one thread could use only one core while the database and the callers left the other partly
 * idle (docs/performance.md). The thread takes the matching; the event loop keeps the route, the
 * records' reads, their rendering and the audit. Each message is a query's three details and the
 * five or so matches answered, a few hundred bytes copied.
 *
 * Where the thread's indexes come from:
 * - `postgres`: the thread builds them from the search keys and follows the change feed itself,
 *   through connections of its own (followed-suggestion-index.ts);
 * - `fed`: the process sends it every record's search keys at start, then each written record's
 *   (the embedded store, whose records are held by the event loop's thread). A message sent after a
 *   write reaches the thread after the write's, so a close match sees every record written before it.
 *
 * While the thread's indexes are being built, and while it is down (it is started again after
 * RETRY_MS, and a fed one sent everything again), `closeMatches` answers undefined, and the caller
 * finds the close matches on the event loop as it would without the thread: slower, never different.
 *
 * SUGGEST_THREADS starts several such threads, each with its own copy of the indexes (its memory
 * each): a close match goes to the built thread with the fewest questions outstanding. One thread
 * matches on one core; where its core is busy and others are free, more threads match on them
 * (docs/performance.md). A position is reached when every thread has reached it, so a close match
 * asked after a write sees it whichever thread answers.
 */
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { type CloseMatchOptions, type CloseMatcher, type CloseMatches, closeMatches } from '../match/suggest.ts';
import { threadEntry } from '../module-folder.ts';
import type { SearchKey } from '../model/records.ts';
import type { RecordReader } from '../model/store.ts';
import type { FollowedSuggestionIndexes } from './followed-suggestion-index.ts';
import type { PostgresOptions } from './pg-driver.ts';

/** How long after the thread stopped before starting it again. */
const RETRY_MS = 1_000;
/** How long `stop` waits for the thread to close its connections before ending it. */
const STOP_MS = 5_000;
/** The thread's connections: one statement at a time, and the feed's listening connection. */
const THREAD_POOL_SIZE = 2;

/**
 * A type's register as the process sends it: how many records it has, and the search keys of some (none: the
 * record has gone).
 */
export interface FedRecords {
  readonly type: string;
  readonly records: number;
  readonly keyed: readonly (readonly [id: number, keys: readonly SearchKey[]])[];
}

/** What a fed thread's indexes are fed from (the embedded store's records). */
export interface FedSource {
  /** The type's count of records, and the search keys of `ids` (of every record when not given). */
  records(type: string, ids?: readonly number[]): FedRecords;
  /** Calls `heard` with the ids of each write, as it is applied. */
  onWrite(heard: (type: string, ids: readonly number[]) => void): void;
}

/** What the thread is started with: PostgreSQL's connection settings, or none when it is fed. */
export interface SuggestionThreadData {
  readonly types: readonly string[];
  readonly connection?: PostgresOptions;
}

/** To the thread: a close match to find, a position to wait for, records to index, or the end. */
export type ToThread =
  | {
      readonly id: number;
      readonly find: { readonly type: string; readonly query: SearchKey; readonly options: CloseMatchOptions };
    }
  | { readonly id: number; readonly reached: number }
  | { readonly feed: FedRecords }
  | { readonly stop: true };

/**
 * From the thread: the answer to a message (`answer` absent for a close match while the index is
 * being built, and for a position reached), a failure, where the indexes stand, or an error of
 * theirs (its message only: the indexes hold names, and an error never quotes them).
 */
export type FromThread =
  | { readonly id: number; readonly answer?: CloseMatches }
  | { readonly id: number; readonly failure: string }
  | { readonly state: FollowedSuggestionIndexes['state'] }
  | { readonly error: string };

export interface SuggestionThreads extends Pick<FollowedSuggestionIndexes, 'reached' | 'state' | 'stop'> {
  /** The close matches from a thread's index, or undefined while none is built (or every thread is down). */
  closeMatches(type: string, query: SearchKey, options: CloseMatchOptions): Promise<CloseMatches | undefined>;
  /** Whether its threads have been started (ones started when asked have not, before the first question). */
  readonly begun: boolean;
}

export interface SuggestionThreadOptions {
  /**
   * Start the threads at the first close match (or wait for a position) rather than now: the
   * mock's process then starts in well under a second and idles without a thread's heap (about
   * 40 MB), and the first close matches are found on the event loop while the threads build their
   * copies of the index, as they are while they are down.
   */
  readonly whenAsked?: boolean;
  /** How many threads, each with its own copy of the indexes (SUGGEST_THREADS). */
  readonly threads?: number;
}

type Source = { readonly connection: PostgresOptions } | { readonly fed: FedSource };

export function startSuggestionThreads(
  types: readonly string[],
  source: Source,
  onError: (error: Error) => void,
  { whenAsked = false, threads = 1 }: SuggestionThreadOptions = {},
): SuggestionThreads {
  const pool = Array.from({ length: threads }, () => startThread(types, source, onError, whenAsked));
  // Where the search for the least busy thread starts, turned a thread each question so that threads
  // equally busy take turns.
  let turn = 0;
  return {
    closeMatches(type, query, options) {
      let chosen: SuggestionThread | undefined;
      for (let i = 0; i < pool.length; i++) {
        const thread = pool[(turn + i) % pool.length];
        thread.begin();
        if (thread.state.built && (!chosen || thread.outstanding < chosen.outstanding)) chosen = thread;
      }
      turn = (turn + 1) % pool.length;
      return chosen ? chosen.closeMatches(type, query, options) : Promise.resolve(undefined);
    },
    async reached(position) {
      await Promise.all(pool.map((thread) => thread.reached(position)));
    },
    get state() {
      return {
        built: pool.some((thread) => thread.state.built),
        position: Math.min(...pool.map((thread) => thread.state.position)),
      };
    },
    get begun() {
      return pool.some((thread) => thread.begun);
    },
    async stop() {
      await Promise.all(pool.map((thread) => thread.stop()));
    },
  };
}

/** One close-match thread. */
interface SuggestionThread extends SuggestionThreads {
  /** Starts it, if it is not started yet. */
  begin(): void;
  /** How many close matches it has been asked and not yet answered. */
  readonly outstanding: number;
}

function startThread(
  types: readonly string[],
  source: Source,
  onError: (error: Error) => void,
  whenAsked: boolean,
): SuggestionThread {
  let worker: Worker | undefined;
  let begun = false;
  let state: FollowedSuggestionIndexes['state'] = { built: false, position: 0 };
  let stopped = false;
  let nextId = 0;
  const finds = new Map<
    number,
    { resolve: (answer: CloseMatches | undefined) => void; reject: (error: Error) => void }
  >();
  // Kept until answered, and asked again of a thread started after one stopped.
  const waits = new Map<number, { position: number; resolve: () => void }>();

  const start = () => {
    const { script, eval: fromSources } = threadEntry('store/suggestion-thread-worker');
    const data: SuggestionThreadData =
      'connection' in source ? { types, connection: { ...source.connection, poolSize: THREAD_POOL_SIZE } } : { types };
    const started = new Worker(script, { eval: fromSources, workerData: data });
    if ('fed' in source)
      for (const type of types) started.postMessage({ feed: source.fed.records(type) } satisfies ToThread);
    started.on('message', (message: FromThread) => {
      if ('state' in message) state = message.state;
      else if ('error' in message) onError(new Error(message.error));
      else if (finds.has(message.id)) {
        const find = finds.get(message.id)!;
        finds.delete(message.id);
        if ('failure' in message) find.reject(new Error(message.failure));
        else find.resolve(message.answer);
      } else {
        waits.get(message.id)?.resolve();
        waits.delete(message.id);
      }
    });
    started.on('error', (error) => onError(error));
    started.on('exit', (code) => {
      if (worker !== started) return;
      worker = undefined;
      state = { built: false, position: state.position };
      for (const find of finds.values()) find.resolve(undefined);
      finds.clear();
      if (stopped) return;
      onError(new Error(`its thread exited with code ${code}`));
      setTimeout(() => {
        if (stopped) return;
        worker = start();
        for (const [id, { position }] of waits) worker.postMessage({ id, reached: position } satisfies ToThread);
      }, RETRY_MS).unref();
    });
    return started;
  };
  const begin = () => {
    if (begun || stopped) return;
    begun = true;
    worker = start();
  };
  if (!whenAsked) begin();
  if ('fed' in source) {
    source.fed.onWrite((type, ids) => {
      if (!stopped) worker?.postMessage({ feed: source.fed.records(type, ids) } satisfies ToThread);
    });
  }

  return {
    begin,
    get outstanding() {
      return finds.size;
    },
    closeMatches(type, query, options) {
      begin();
      if (!worker || !state.built) return Promise.resolve(undefined);
      const id = nextId++;
      const answered = new Promise<CloseMatches | undefined>((resolve, reject) => finds.set(id, { resolve, reject }));
      worker.postMessage({ id, find: { type, query, options } } satisfies ToThread);
      return answered;
    },
    reached(position) {
      begin();
      const id = nextId++;
      const reached = new Promise<void>((resolve) => waits.set(id, { position, resolve }));
      worker?.postMessage({ id, reached: position } satisfies ToThread);
      return reached;
    },
    get state() {
      return state;
    },
    get begun() {
      return begun;
    },
    async stop() {
      stopped = true;
      const running = worker;
      if (running) {
        const exited = once(running, 'exit');
        running.postMessage({ stop: true } satisfies ToThread);
        const timer = setTimeout(() => void running.terminate(), STOP_MS);
        await exited;
        clearTimeout(timer);
      }
      for (const { resolve } of waits.values()) resolve();
      waits.clear();
    },
  };
}

/** Close matches from the thread, or, while it cannot answer, found on the event loop from `reader`. */
export const threadFirst =
  (thread: SuggestionThreads, reader: Pick<RecordReader, 'suggestionCandidates' | 'registerCounts'>): CloseMatcher =>
  async (type, query, options) =>
    (await thread.closeMatches(type, query, options)) ?? closeMatches(reader, type, query, options);
