/**
 * The embedded store's audit trail on disk: NDJSON, one chained entry a
 * line, in a file that is rotated when it reaches its size (`FILE` becomes
 * `FILE.1`, `FILE.1` becomes `FILE.2`, and the oldest kept goes). Each file
 * opens with a line naming the hash its first entry is chained to, so the
 * files left after rotation still verify, and a file's start is checked
 * against the end of the one before it when that one is still there.
 */
import { createReadStream } from 'node:fs';
import { type FileHandle, open, readFile, rename, rm, stat } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type { ChainedEntry } from '../types/audit.ts';
import { GENESIS_HASH, chainHash } from './chain.ts';

export interface AuditFileOptions {
  readonly path: string;
  /** Size at which the file is rotated. */
  readonly maxBytes: number;
  /** Rotated files kept besides the current one. */
  readonly keep: number;
}

interface FileHead {
  /** The hash the file's first entry is chained to. */
  readonly previous: string;
}

const rotated = (path: string, n: number) => (n === 0 ? path : `${path}.${n}`);

export interface AuditFile {
  /** The hash that ends the chain as the file holds it. */
  readonly head: string;
  /** Appends entries (already chained to `head`), durably, rotating first if the file is full. */
  append(entries: readonly ChainedEntry[]): Promise<void>;
  close(): Promise<void>;
}

/** The last entry's hash in the file, or the hash its head line names; undefined when there is no file. */
async function lastHash(path: string): Promise<string | undefined> {
  const text = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (text === undefined) return undefined;
  const lines = text.split('\n').filter(Boolean);
  const last = lines.at(-1);
  if (last === undefined) return undefined;
  const parsed = JSON.parse(last) as Partial<ChainedEntry & FileHead>;
  const hash = parsed.hash ?? parsed.previous;
  if (typeof hash !== 'string') throw new Error(`${path}: its last line holds no hash; run 'lev-api audit verify --file ${path}'`);
  return hash;
}

/** Opens the trail's file, continuing the chain it holds, or starting one. */
export async function openAuditFile(options: AuditFileOptions): Promise<AuditFile> {
  let head = (await lastHash(options.path)) ?? GENESIS_HASH;
  let handle: FileHandle;
  let size: number;
  const start = async () => {
    handle = await open(options.path, 'a');
    size = (await handle.stat()).size;
    if (size === 0) await write(`${JSON.stringify({ previous: head } satisfies FileHead)}\n`);
  };
  const write = async (text: string) => {
    await handle.write(text);
    size += Buffer.byteLength(text);
  };
  const rotate = async () => {
    await handle.close();
    await rm(rotated(options.path, options.keep), { force: true });
    for (let n = options.keep - 1; n >= 0; n--) {
      await rename(rotated(options.path, n), rotated(options.path, n + 1)).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error;
      });
    }
    await start();
  };
  await start();
  return {
    get head() {
      return head;
    },
    async append(entries) {
      if (entries.length === 0) return;
      const text = entries.map((entry) => `${JSON.stringify(entry)}\n`).join('');
      if (size > 0 && size + Buffer.byteLength(text) > options.maxBytes) await rotate();
      await write(text);
      // Each request waits for its entry: on disk before the answer goes.
      await handle.datasync();
      head = entries[entries.length - 1].hash;
    },
    async close() {
      await handle.close();
    },
  };
}

export type FileVerifyResult =
  | { ok: true; entries: number; files: number; fromGenesis: boolean }
  | { ok: false; entries: number; file: string; line: number; reason: string };

/** The trail's files that exist, oldest first. */
async function trailFiles(path: string): Promise<string[]> {
  const files: string[] = [];
  for (let n = 0; ; n++) {
    const file = rotated(path, n);
    const exists = await stat(file).then(() => true, () => false);
    if (!exists) {
      if (n === 0) throw new Error(`${path}: no such file`);
      // Rotated files are numbered without gaps; a gap ends them.
      break;
    }
    files.push(file);
  }
  return files.reverse();
}

/**
 * Checks the chain across the trail's files, oldest first. The oldest file's head line anchors
 * it (the genesis hash when nothing was rotated away); each later file must start where the
 * one before it ended.
 */
export async function verifyAuditFiles(path: string): Promise<FileVerifyResult> {
  const files = await trailFiles(path);
  let previous: string | undefined;
  let fromGenesis = false;
  let entries = 0;
  for (const file of files) {
    let line = 0;
    const lines = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity });
    const broken = (reason: string): FileVerifyResult => {
      lines.close();
      return { ok: false, entries, file, line, reason };
    };
    for await (const text of lines) {
      line++;
      if (!text) continue;
      let value: Partial<ChainedEntry & FileHead>;
      try {
        value = JSON.parse(text);
      } catch {
        return broken('not valid JSON');
      }
      if (line === 1) {
        if (typeof value.previous !== 'string') return broken('the first line does not name the hash the file continues from');
        if (previous === undefined) {
          previous = value.previous;
          fromGenesis = previous === GENESIS_HASH;
        } else if (value.previous !== previous) return broken('the file does not continue from the end of the file before it');
        continue;
      }
      entries++;
      const entry = value as ChainedEntry;
      if (typeof entry.hash !== 'string' || chainHash(previous!, entry.at, entry) !== entry.hash) {
        return broken('the entry does not follow from the one before it: it was altered, or one before it was removed or altered');
      }
      previous = entry.hash;
    }
    if (line === 0) return broken('the file is empty: it has lost even its first line');
  }
  return { ok: true, entries, files: files.length, fromGenesis };
}
