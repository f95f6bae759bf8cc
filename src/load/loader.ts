/**
 * The one way records get into a store, for `lev-api load`, for LEV_DATA
 * and for the built-in mock records: sources (files, stdin, the mock) of JSON
 * arrays or NDJSON, of v1 records or the existing service's rows, streamed
 * in constant memory: the ids seen so far are kept by the store where it can
 * (PostgreSQL), and in a map here otherwise (the embedded store, which holds
 * the records themselves in memory anyway).
 *
 * Each source is written in one transaction, in batches written by id, so a
 * source is applied entirely or not at all. By default the first invalid
 * record stops the load and rolls its source back; with `skipInvalid` invalid
 * records are written to a rejects file (NDJSON) and the rest is loaded. An
 * id given twice in one load is invalid where it is given again, and the
 * reason names where it was first. Loading the same file again changes
 * nothing: each record is counted as inserted, updated (its data or search
 * keys changed) or unchanged.
 *
 * While one batch is being written the next one is parsed and checked, so
 * the database and this process work at the same time.
 */
import { createReadStream, createWriteStream, fstat, type Stats, type WriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { once } from 'node:events';
import { resolve } from 'node:path';
import { type RecordType, recordType } from './conversion.ts';
import { mayHoldEscapes, storableRecord } from './storable.ts';
import type { RecordDescription } from '../records/define.ts';
import type { RecordToWrite, WriteCounts } from '../model/records.ts';
import type { LoadIds, RecordWriter } from '../model/store.ts';
import { readAhead } from './read-ahead.ts';
import { streamEntries } from './stream-entries.ts';
import { LevError } from '../errors.ts';
import { databaseFailure } from '../store/driver.ts';

export const DEFAULT_BATCH_SIZE = 5000;
/**
 * Records read and checked ahead of the batch being written: enough to keep this process busy
 * while the database writes, and bounded in records rather than batches, so that the memory they
 * hold (about 4 KB a birth, text and keys) does not grow with --batch.
 */
const READ_AHEAD_RECORDS = 10_000;
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
  /** The traced load's W3C traceparent, kept with its events (the worker thread has no tracer of its own). */
  readonly traceParent?: string;
}

export interface LoadProgress {
  /** The source being read, as named in messages (`stdin` for `-`). */
  readonly file: string;
  /** Records read so far, in all files. */
  readonly records: number;
  readonly bytesRead: number;
  /** Total size of the input when every file's size is known (regular files). */
  readonly totalBytes: number | undefined;
  readonly elapsedMs: number;
}

interface LoadCounts {
  /** Entries read: inserted + updated + unchanged + rejected. */
  read: number;
  inserted: number;
  updated: number;
  unchanged: number;
  /** Invalid entries, an id given again among them, written to the rejects file. */
  rejected: number;
}

export interface LoadResult extends LoadCounts {
  readonly seconds: number;
  /** Where rejected records were written (with `skipInvalid`). */
  readonly rejectsPath: string | undefined;
}

/** A load that stopped. `committed` counts the sources loaded (and committed) before the one that failed. */
export class LoadError extends LevError {
  constructor(
    message: string,
    /** The source rolled back, as named in messages. */
    readonly file: string,
    readonly committed: LoadResult,
    options?: ErrorOptions,
  ) {
    super(message, { code: 'Load', cause: options?.cause });
  }
}

/** Thrown inside a file's transaction to roll it back. */
class StopLoad extends Error {}

const zero = (): LoadCounts => ({ read: 0, inserted: 0, updated: 0, unchanged: 0, rejected: 0 });

function add(into: LoadCounts, counts: Partial<LoadCounts> | WriteCounts) {
  for (const [key, value] of Object.entries(counts) as [keyof LoadCounts, number][]) into[key] += value;
}

const displayName = (file: string) => (file === '-' ? 'stdin' : file);
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

/** Something to load: a file, stdin, or text in hand such as the built-in records. */
export interface Source {
  /** As messages name it. */
  readonly name: string;
  /** Its size in bytes when known, for the progress. */
  readonly size: number | undefined;
  open(): AsyncIterable<Buffer | string> | Iterable<Buffer | string>;
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

/** Files (a path, or `-` for stdin) as sources; every file must exist before anything is loaded. */
export async function fileSources(
  files: readonly string[],
  stdin: AsyncIterable<Buffer | string> = process.stdin,
): Promise<Source[]> {
  const sizes = await Promise.all(files.map(sizeOf));
  return files.map((file, i) => ({
    name: displayName(file),
    size: sizes[i],
    open: () => (file === '-' ? stdin : createReadStream(file, { highWaterMark: READ_CHUNK_BYTES })),
  }));
}

/**
 * Where an entry was, as one number (a map of a million of them stays small): its source's index and its line
 * or item number there.
 */
const SOURCE_SHIFT = 2 ** 32;
const position = (source: number, number: number) => source * SOURCE_SHIFT + number;

/** The ids of a load kept here: a number each for an id and its position (about 30 MB for a million). */
function loadIdsInMemory(): LoadIds {
  const seen = new Map<number, number>();
  return {
    async add(ids, positions) {
      const repeats = new Map<number, number>();
      ids.forEach((id, i) => {
        const first = seen.get(id);
        if (first === undefined) seen.set(id, positions[i]);
        else repeats.set(id, first);
      });
      return repeats;
    },
    async close() {
      seen.clear();
    },
  };
}

/**
 * Loads `files` (a path, or `-` for stdin) of records of the type `description` describes through `writer`.
 * Returns the counts; throws a LoadError when a file cannot be loaded (the
 * files before it stay loaded; nothing of it is applied).
 */
export async function loadFiles(
  writer: RecordWriter,
  description: RecordDescription,
  files: readonly string[],
  options: LoadOptions = {},
): Promise<LoadResult> {
  const rejectsPath = options.skipInvalid ? (options.rejectsPath ?? defaultRejectsPath(files)) : undefined;
  if (rejectsPath && files.some((file) => file !== '-' && resolve(file) === resolve(rejectsPath))) {
    throw new Error(`${rejectsPath}: the rejects file cannot be one of the files to load`);
  }
  return loadSources(writer, description, await fileSources(files, options.stdin), { ...options, rejectsPath });
}

/**
 * Loads sources of records of the type `description` describes through `writer`, each source in
 * one transaction.
 */
export async function loadSources(
  writer: RecordWriter,
  description: RecordDescription,
  sources: readonly Source[],
  options: LoadOptions = {},
): Promise<LoadResult> {
  const type = recordType(description);
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  if (!Number.isInteger(batchSize) || batchSize < 1)
    throw new Error(`the batch size must be a positive integer, not ${batchSize}`);

  const started = performance.now();
  const totals = zero();
  const result = (): LoadResult => ({
    ...totals,
    seconds: (performance.now() - started) / 1000,
    rejectsPath: rejects?.path,
  });
  const sizes = sources.map((source) => source.size);
  const totalBytes = sizes.every((size) => size !== undefined) ? sizes.reduce((a, b) => a! + b!, 0) : undefined;
  let bytesRead = 0;

  const formats: (string | undefined)[] = [];
  const describe = (at: number) => {
    const source = Math.floor(at / SOURCE_SHIFT);
    const number = at % SOURCE_SHIFT;
    return formats[source] === 'json-array'
      ? `${sources[source].name} item ${number}`
      : `${sources[source].name}:${number}`;
  };
  const givenAlready = (id: number, first: number) => `/id: ${id} was given already, at ${describe(first)}`;

  const rejects = options.skipInvalid
    ? new RejectsWriter(options.rejectsPath ?? defaultRejectsPath(sources.map((s) => s.name)))
    : undefined;
  // Every id loaded so far, with where it was: an id given again is refused, naming both places.
  // Kept by the store where it can (PostgreSQL: on disk), so that memory does not grow with the file.
  const ids = (await writer.loadIds?.()) ?? loadIdsInMemory();
  try {
    for (const [index, source] of sources.entries()) {
      const counts = zero();
      // The checked records of the source, a batch at a time; an invalid one (without skipInvalid) ends them
      // with StopLoad.
      async function* batches(): AsyncGenerator<RecordToWrite[]> {
        // The records checked since the last batch went, where each was, and its text; an id's
        // place among them, to find one given twice in the batch; and the entries rejected
        // meanwhile (an id given twice in the batch with its reason to come), written in file
        // order once the batch's ids are checked against the load's.
        let batch: RecordToWrite[] = [];
        let places: number[] = [];
        let texts: string[] = [];
        let inBatch = new Map<number, number>();
        let rejected: { at: number; reason: string; entry: string; repeatOf?: number }[] = [];
        /**
         * Checks the batch's ids against the load's: its records to write, the rest rejected (or the first of
         * them stops the load).
         */
        const settle = async (): Promise<RecordToWrite[]> => {
          const repeats = batch.length
            ? await ids.add(
                batch.map((record) => record.id),
                places,
              )
            : new Map<number, number>();
          const kept = repeats.size ? [] : batch;
          if (repeats.size) {
            batch.forEach((record, i) => {
              const first = repeats.get(record.id);
              if (first === undefined) kept.push(record);
              else
                rejected.push({
                  at: places[i],
                  reason: givenAlready(record.id, first),
                  entry: JSON.stringify(JSON.parse(texts[i])),
                });
            });
          }
          const out = rejected;
          if (repeats.size) out.sort((a, b) => a.at - b.at);
          for (const entry of out) {
            // Given twice in this batch, and perhaps in one before it: named where first given.
            const reason =
              entry.repeatOf === undefined
                ? entry.reason
                : givenAlready(entry.repeatOf, repeats.get(entry.repeatOf) ?? inBatch.get(entry.repeatOf)!);
            if (!rejects)
              throw new StopLoad(`${describe(entry.at)}: invalid ${type.description.name} record: ${reason}`);
            counts.rejected++;
            await rejects.write(
              `{"position":${JSON.stringify(describe(entry.at))},"reason":${JSON.stringify(reason)},` +
                `"entry":${entry.entry}}\n`,
            );
          }
          batch = [];
          places = [];
          texts = [];
          inBatch = new Map();
          rejected = [];
          return kept;
        };
        const reject = async (at: number, reason: string, entry: string, repeatOf?: number) => {
          rejected.push({ at, reason, entry, repeatOf });
          // Without skipInvalid the first invalid entry stops the load, unless an id given again before it does.
          if (!rejects || rejected.length >= batchSize) {
            const kept = await settle();
            if (kept.length) return kept;
          }
          return undefined;
        };
        for await (const chunk of streamEntries(source.open())) {
          formats[index] = chunk.format;
          for (const entry of chunk.entries) {
            counts.read++;
            const here = position(index, entry.number);
            let ready: RecordToWrite[] | undefined;
            let value: unknown;
            if (entry.invalidUtf8) {
              const reason =
                'not valid UTF-8: it holds bytes that are no UTF-8 character (each shown as \\ud800 in the ' +
                'rejects file)';
              ready = await reject(here, reason, JSON.stringify(entry.text));
            } else {
              try {
                value = JSON.parse(entry.text);
              } catch (error) {
                ready = await reject(here, `not valid JSON (${(error as Error).message})`, JSON.stringify(entry.text));
              }
            }
            if (value !== undefined) {
              const stored = toLoad(type, value, entry.text);
              if ('reason' in stored) ready = await reject(here, stored.reason, JSON.stringify(value));
              else if (inBatch.has(stored.id)) ready = await reject(here, '', JSON.stringify(value), stored.id);
              else {
                inBatch.set(stored.id, here);
                batch.push(stored);
                places.push(here);
                texts.push(entry.text);
                if (batch.length >= batchSize) ready = await settle();
              }
            }
            if (ready?.length) yield ready;
          }
          bytesRead += chunk.bytes;
          options.onProgress?.({
            file: source.name,
            records: totals.read + counts.read,
            bytesRead,
            totalBytes,
            elapsedMs: performance.now() - started,
          });
        }
        const last = await settle();
        if (last.length) yield last;
      }
      try {
        add(
          counts,
          await writer.write(
            type.description.name,
            readAhead(batches(), Math.max(1, Math.round(READ_AHEAD_RECORDS / batchSize))),
            { traceParent: options.traceParent },
          ),
        );
      } catch (error) {
        // An invalid record names its own position; anything else (a broken file, the database) names the source.
        const message =
          error instanceof StopLoad
            ? error.message
            : `${source.name}: ${databaseFailure(error) ?? (error as Error).message}`;
        throw new LoadError(message, source.name, result(), { cause: error });
      }
      add(totals, counts);
    }
  } finally {
    await ids.close();
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
