/**
 * `lev-api load` runs its load on a worker thread whose heap is bounded: a load streams gigabytes
 * of text through the heap, and V8 lets an unbounded old generation grow to several times what is
 * live before collecting it (a million births peaked near 1 GB while about 150 MB was live). The
 * bound is the same whatever the input: nothing the loader keeps grows with the records (the ids
 * seen are kept in PostgreSQL, src/store/postgres-load-ids.ts). A kill of the process kills the
 * thread with it, so a load cut off still commits nothing.
 */
import { Worker } from 'node:worker_threads';
import { threadEntry } from '../module-folder.ts';
import type { PostgresOptions } from '../store/pg-driver.ts';
import { LoadError, type LoadOptions, type LoadProgress, type LoadResult } from './loader.ts';

/** What the heap holds whatever the input: the batches read ahead and being written, and the code. */
export const LOAD_HEAP_MB = 160;
/**
 * The young generation (where a record's text and objects live until the batch holding them is
 * written): 16 MB rather than V8's 32, which keeps the loader's peak RSS under 300 MB for a
 * million births (measured: 15 MB less at the peak, the old generation unchanged).
 */
const YOUNG_HEAP_MB = 16;

export interface WorkerLoad {
  readonly database: PostgresOptions;
  readonly type: string;
  readonly files: readonly string[];
  readonly options: Omit<LoadOptions, 'onProgress' | 'stdin'>;
}

export type WorkerMessage =
  | { readonly progress: LoadProgress }
  | { readonly result: LoadResult }
  | { readonly failure: { readonly message: string; readonly file?: string; readonly committed?: LoadResult } };

/**
 * Loads `files` as loadFiles does, on a worker thread with a heap of `heapMb` (default LOAD_HEAP_MB);
 * the process's stdin is passed on when a file is `-`.
 */
export function loadInWorker(
  load: WorkerLoad,
  heapMb = LOAD_HEAP_MB,
  onProgress?: (progress: LoadProgress) => void,
): Promise<LoadResult> {
  const { script, eval: fromSources } = threadEntry('load/load-worker');
  const worker = new Worker(script, {
    eval: fromSources,
    workerData: load,
    stdin: load.files.includes('-'),
    resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: YOUNG_HEAP_MB },
  });
  if (load.files.includes('-')) process.stdin.pipe(worker.stdin!);
  return new Promise<LoadResult>((resolve, reject) => {
    let settled = false;
    worker.on('message', (message: WorkerMessage) => {
      if ('progress' in message) onProgress?.(message.progress);
      else if ('result' in message) (settled = true), resolve(message.result);
      else {
        settled = true;
        const { message: text, file, committed } = message.failure;
        reject(file !== undefined && committed ? new LoadError(text, file, committed) : new Error(text));
      }
    });
    worker.on('error', (error: Error & { code?: string }) => {
      settled = true;
      reject(
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? new Error(`the load ran out of its ${heapMb} MB of memory: nothing of the file being loaded was applied`)
          : error,
      );
    });
    worker.on('exit', (code) => {
      if (load.files.includes('-')) process.stdin.unpipe(worker.stdin!);
      if (!settled) reject(new Error(`the load stopped (its thread exited with ${code})`));
    });
  });
}
