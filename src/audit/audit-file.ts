/**
 * The embedded store's audit trail on disk: NDJSON, one chained entry a
 * line, in a file that is rotated when it reaches its size (`FILE` becomes
 * `FILE.1`, `FILE.1` becomes `FILE.2`, and the oldest kept goes). Each file
 * opens with a line naming the hash its first entry is chained to, so the
 * files left after rotation still verify, and a file's start is checked
 * against the end of the one before it when that one is still there.
 */
import { createReadStream } from 'node:fs';
import { type FileHandle, open, readFile, readdir, rename, rm } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
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

/** A run of consecutive files (no gap between them), checked as one chain anchored at its oldest file's first line. */
export interface CheckedSegment {
  /** The oldest file of the run, and the newest. */
  readonly from: string;
  readonly to: string;
  readonly files: number;
  /** Entries checked in the run (up to and including a broken one). */
  readonly entries: number;
  readonly ok: boolean;
}

export interface FileProblem {
  /** The file at fault: the missing one, for a gap. */
  readonly file: string;
  /** The line at fault; 0 when the whole file is (a gap). */
  readonly line: number;
  readonly reason: string;
  /** Entries checked before it, in all files, oldest first. */
  readonly entries: number;
}

export type FileVerifyResult =
  | { ok: true; entries: number; files: number; fromGenesis: boolean }
  | {
      ok: false;
      /** The first problem, oldest first: entries counted up to and including it. */
      entries: number;
      file: string;
      line: number;
      reason: string;
      /** Every problem found, the first one among them. */
      problems: readonly FileProblem[];
      /** What was checked on each side of a gap. */
      segments: readonly CheckedSegment[];
    };

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The trail's numbered files, oldest first, with the numbers missing among them (a gap is a deleted or renamed file). */
async function trailFiles(path: string): Promise<{ files: string[]; missing: Set<string> }> {
  const numbered = new RegExp(`^${escapeRegExp(basename(path))}\\.([1-9][0-9]*)$`);
  const names: string[] = await readdir(dirname(path)).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [] as string[];
    throw error;
  });
  const numbers = new Set<number>();
  for (const name of names) {
    const match = numbered.exec(name);
    if (match) numbers.add(Number(match[1]));
  }
  if (names.includes(basename(path))) numbers.add(0);
  if (numbers.size === 0) throw new Error(`${path}: no such file`);
  const files: string[] = [];
  const missing = new Set<string>();
  for (let n = Math.max(...numbers); n >= 0; n--) {
    files.push(rotated(path, n));
    if (!numbers.has(n)) missing.add(rotated(path, n));
  }
  return { files, missing };
}

/**
 * Checks the chain across the trail's files, oldest first. The oldest file's head line anchors
 * it (the genesis hash when nothing was rotated away); each later file must start where the
 * one before it ended. A missing file in the numbering is a failure naming it; the files on
 * each side of it are still checked, each run from its own oldest file's head line.
 */
export async function verifyAuditFiles(path: string): Promise<FileVerifyResult> {
  const { files, missing } = await trailFiles(path);
  const problems: FileProblem[] = [];
  const segments: CheckedSegment[] = [];
  let entries = 0;
  let fromGenesis = false;
  let run: { from: string; to: string; files: number; entries: number; ok: boolean; previous: string | undefined } | undefined;
  const endRun = () => {
    if (run) segments.push({ from: run.from, to: run.to, files: run.files, entries: run.entries, ok: run.ok });
    run = undefined;
  };
  for (const file of files) {
    if (missing.has(file)) {
      endRun();
      problems.push({
        file,
        line: 0,
        entries,
        reason: 'missing: the rotated files are numbered without gaps, so it was deleted or renamed; the chain cannot be followed across it',
      });
      continue;
    }
    if (!run) run = { from: file, to: file, files: 0, entries: 0, ok: true, previous: undefined };
    run.to = file;
    run.files++;
    // A run with a break is not followed further: what comes after it has nothing to be checked against.
    if (!run.ok) continue;
    const checked = await checkFile(file, run.previous, run.from === file && segments.length === 0 && problems.length === 0);
    run.entries += checked.entries;
    entries += checked.entries;
    if (checked.fromGenesis) fromGenesis = true;
    if (checked.problem) {
      run.ok = false;
      problems.push({ ...checked.problem, entries });
    } else run.previous = checked.last;
  }
  endRun();
  if (problems.length === 0) return { ok: true, entries, files: files.length, fromGenesis };
  const [first] = problems;
  return { ok: false, entries: first.entries, file: first.file, line: first.line, reason: first.reason, problems, segments };
}

interface FileCheck {
  readonly entries: number;
  /** The hash the file ends with. */
  readonly last: string | undefined;
  readonly fromGenesis: boolean;
  readonly problem?: Omit<FileProblem, 'entries'>;
}

/** Checks one file's chain, continuing from `previous` (the file before it), or anchored at its own first line. */
async function checkFile(file: string, previous: string | undefined, oldest: boolean): Promise<FileCheck> {
  let line = 0;
  let entries = 0;
  let fromGenesis = false;
  const lines = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity });
  const broken = (reason: string): FileCheck => {
    lines.close();
    return { entries, last: previous, fromGenesis, problem: { file, line, reason } };
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
        fromGenesis = oldest && previous === GENESIS_HASH;
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
  return { entries, last: previous, fromGenesis };
}
