/**
 * Bulk load of data files (JSON arrays or NDJSON, of v1 records or the
 * existing service's rows) into a store, streamed in constant memory.
 *
 * Each file is loaded in one transaction, in batches upserted by id, so a
 * file is applied entirely or not at all. By default the first invalid
 * record stops the load and rolls its file back; with `skipInvalid` invalid
 * records are written to a rejects file (NDJSON) and the rest is loaded.
 * Loading the same file again changes nothing: each record is counted as
 * inserted, updated (its data or search keys changed) or unchanged.
 *
 * While one batch is being written the next one is parsed and checked, so
 * the database and this process work at the same time.
 */
import { createReadStream, createWriteStream, fstat, type Stats, type WriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { once } from 'node:events';
import { resolve } from 'node:path';
import { type RecordType, recordType } from '../data/entries.ts';
import { mayHoldEscapes, storableRecord } from '../data/storable.ts';
import { records } from '../records/index.ts';
import type { RecordStore, UpsertCounts } from '../store/record-store.ts';
import { type RecordToWrite, upsertRecords } from '../store/upsert.ts';
import { streamEntries } from './stream-entries.ts';

export const DEFAULT_BATCH_SIZE = 5000;
/** How much of a file is read at a time. */
const READ_CHUNK_BYTES = 1 << 20;

export interface LoadOptions {
  /** Write invalid records to the rejects file and load the rest, instead of stopping at the first. */
  readonly skipInvalid?: boolean;
  /** Where rejected records go (NDJSON); default `<first file>.rejects.ndjson`. */
  readonly rejectsPath?: string;
  /** Records per upsert; default 5,000. */
  readonly batchSize?: number;
  /** Called as the load goes (after every chunk read): throttle in the callee. */
  readonly onProgress?: (progress: LoadProgress) => void;
  /** What `-` reads; default process.stdin. */
  readonly stdin?: AsyncIterable<Buffer | string>;
}

export interface LoadProgress {
  /** The file being read, as named in messages (`stdin` for `-`). */
  readonly file: string;
  /** Records read so far, in all files. */
  readonly records: number;
  readonly bytesRead: number;
  /** Total size of the input when every file's size is known (regular files). */
  readonly totalBytes: number | undefined;
  readonly elapsedMs: number;
}

export interface LoadCounts {
  /** Entries read: inserted + updated + unchanged + rejected + duplicates. */
  read: number;
  inserted: number;
  updated: number;
  unchanged: number;
  rejected: number;
  /** Entries superseded by a later entry with the same id in the same batch (the last one is kept). */
  duplicates: number;
}

export interface LoadResult extends LoadCounts {
  readonly seconds: number;
  /** Where rejected records were written (with `skipInvalid`). */
  readonly rejectsPath: string | undefined;
}

/** A load that stopped. `committed` counts the files loaded (and committed) before the one that failed. */
export class LoadError extends Error {
  override name = 'LoadError';
  constructor(
    message: string,
    /** The file rolled back, as named in messages. */
    readonly file: string,
    readonly committed: LoadResult,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** Thrown inside a file's transaction to roll it back. */
class StopLoad extends Error {}

const zero = (): LoadCounts => ({ read: 0, inserted: 0, updated: 0, unchanged: 0, rejected: 0, duplicates: 0 });

function add(into: LoadCounts, counts: Partial<LoadCounts> | UpsertCounts) {
  for (const [key, value] of Object.entries(counts) as [keyof LoadCounts, number][]) into[key] += value;
}

export const displayName = (file: string) => (file === '-' ? 'stdin' : file);
export const defaultRejectsPath = (files: readonly string[]) => `${displayName(files[0] ?? 'load')}.rejects.ndjson`;

/**
 * The record an entry holds, as storableRecord checks it.
 * A v1 entry on one line is sent as written, saving a JSON.stringify.
 */
function toLoad(type: RecordType, value: unknown, text: string): RecordToWrite | { reason: string } {
  const stored = storableRecord(type, value, mayHoldEscapes(text));
  if ('reason' in stored) return stored;
  // JSON.stringify never writes a raw line break; a line of NDJSON holds none either.
  const sentAsWritten = stored.data === value && !text.includes('\n');
  return { id: stored.id, keys: stored.keys, json: sentAsWritten ? text : JSON.stringify(stored.data) };
}

/** Appends NDJSON lines to a file, waiting when the disk falls behind. */
class RejectsWriter {
  private readonly stream: WriteStream;
  private failure: Error | undefined;
  constructor(readonly path: string) {
    this.stream = createWriteStream(path);
    this.stream.on('error', (error) => (this.failure = error));
  }
  async write(line: string) {
    if (this.failure) throw this.failure;
    if (!this.stream.write(line)) await once(this.stream, 'drain');
  }
  async close() {
    if (this.failure) throw this.failure;
    this.stream.end();
    await once(this.stream, 'close');
    if (this.failure) throw this.failure;
  }
}

async function sizeOf(file: string): Promise<number | undefined> {
  try {
    const info = file === '-' ? await fstatStdin() : await stat(file);
    if (info?.isDirectory()) throw new Error(`${file}: is a folder, not a file`);
    return info?.isFile() ? info.size : undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new Error(`${file}: no such file`);
    throw error;
  }
}

/** What stdin is: its size is known when it is redirected from a file. */
const fstatStdin = () =>
  new Promise<Stats | undefined>((resolve) => fstat(0, (error, info) => resolve(error ? undefined : info)));

/**
 * Loads `files` (a path, or `-` for stdin) of records of `type` into `store`.
 * Returns the counts; throws a LoadError when a file cannot be loaded (the
 * files before it stay loaded; nothing of it is applied).
 */
export async function loadFiles(
  store: RecordStore,
  typeName: string,
  files: readonly string[],
  options: LoadOptions = {},
): Promise<LoadResult> {
  const description = records.find((d) => d.name === typeName);
  if (!description) throw new Error(`unknown record type ${typeName}`);
  const type = recordType(description);
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new Error(`the batch size must be a positive integer, not ${batchSize}`);

  const started = performance.now();
  const totals = zero();
  const result = (): LoadResult => ({
    ...totals,
    seconds: (performance.now() - started) / 1000,
    rejectsPath: rejects?.path,
  });

  // Every file must exist before anything is loaded; their sizes give the progress an end.
  const sizes = await Promise.all(files.map(sizeOf));
  const totalBytes = sizes.every((size) => size !== undefined) ? sizes.reduce((a, b) => a! + b!, 0) : undefined;
  let bytesRead = 0;

  const rejectsPath = options.skipInvalid ? (options.rejectsPath ?? defaultRejectsPath(files)) : undefined;
  if (rejectsPath && files.some((file) => file !== '-' && resolve(file) === resolve(rejectsPath))) {
    throw new Error(`${rejectsPath}: the rejects file cannot be one of the files to load`);
  }
  const rejects = rejectsPath ? new RejectsWriter(rejectsPath) : undefined;
  try {
    for (const file of files) {
      const name = displayName(file);
      const counts = zero();
      try {
        await store.driver.transaction(async (tx) => {
          const input =
            file === '-' ? (options.stdin ?? process.stdin) : createReadStream(file, { highWaterMark: READ_CHUNK_BYTES });
          let batch = new Map<number, RecordToWrite>();
          let writing: Promise<void> | undefined;
          const flush = async () => {
            if (writing) await writing;
            writing = undefined;
            if (batch.size === 0) return;
            const ready = [...batch.values()];
            batch = new Map();
            writing = upsertRecords(tx, type.description.name, ready).then((upserted) => add(counts, upserted));
            // Awaited before the next batch or the end; this only keeps an early failure from going unobserved.
            writing.catch(() => {});
          };
          const reject = async (position: string, reason: string, entryJson: string) => {
            if (!rejects) throw new StopLoad(`${position}: invalid ${type.description.name} record: ${reason}`);
            counts.rejected++;
            await rejects.write(
              `{"position":${JSON.stringify(position)},"reason":${JSON.stringify(reason)},"entry":${entryJson}}\n`,
            );
          };

          try {
            for await (const chunk of streamEntries(input)) {
              const position = chunk.format === 'json-array' ? (n: number) => `${name} item ${n}` : (n: number) => `${name}:${n}`;
              for (const entry of chunk.entries) {
                counts.read++;
                let value: unknown;
                try {
                  value = JSON.parse(entry.text);
                } catch (error) {
                  await reject(position(entry.number), `not valid JSON (${(error as Error).message})`, JSON.stringify(entry.text));
                  continue;
                }
                const stored = toLoad(type, value, entry.text);
                if ('reason' in stored) {
                  await reject(position(entry.number), stored.reason, JSON.stringify(value));
                  continue;
                }
                if (batch.has(stored.id)) counts.duplicates++;
                batch.set(stored.id, stored);
                if (batch.size >= batchSize) await flush();
              }
              bytesRead += chunk.bytes;
              options.onProgress?.({
                file: name,
                records: totals.read + counts.read,
                bytesRead,
                totalBytes,
                elapsedMs: performance.now() - started,
              });
            }
            await flush();
            await writing;
          } catch (error) {
            await writing?.catch(() => {});
            throw error;
          }
        });
      } catch (error) {
        // An invalid record names its own position; anything else (a broken file, the database) names the file.
        const message = error instanceof StopLoad ? error.message : `${name}: ${(error as Error).message}`;
        throw new LoadError(message, name, result(), { cause: error });
      }
      add(totals, counts);
    }
  } finally {
    await rejects?.close();
  }
  return result();
}

/** `read N, inserted N, updated N, unchanged N, rejected N in S s (R records/s)` */
export function summary(result: LoadResult): string {
  const rate = result.seconds > 0 ? Math.round(result.read / result.seconds) : result.read;
  return (
    `read ${result.read}, inserted ${result.inserted}, updated ${result.updated}, unchanged ${result.unchanged}, ` +
    `rejected ${result.rejected} in ${result.seconds.toFixed(1)} s (${rate} records/s)`
  );
}
