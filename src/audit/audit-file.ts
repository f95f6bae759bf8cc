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
import { basename, dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import type { ChainedEntry, Checkpoint } from '../types/audit.ts';
import { GENESIS_HASH, chainHash } from './chain.ts';
import { checkpointFault } from './checkpoint.ts';
import { LevError } from '../errors.ts';

export interface AuditFileOptions {
  readonly path: string;
  /** Size at which the file is rotated. */
  readonly maxBytes: number;
  /** Rotated files kept besides the current one. */
  readonly keep: number;
  /**
   * Where the chain's latest head is kept, rewritten after each sync: a hash chain cannot show
   * its own newest entries removed, but a trail that no longer holds the head recorded beside it
   * is refused at start and reported by verify.
   */
  readonly headPath?: string;
}

/** The file beside the trail that holds its head, by default. */
export const defaultHeadPath = (path: string) => `${path}.head`;

/** What the head file holds: the hash that ended the chain at the last sync, and that entry's time (null for a file's first line). */
interface RecordedHead {
  readonly hash: string;
  readonly at: string | null;
}

/** The head file's size: one line, rewritten in place, so a write never leaves it shorter or longer. */
const HEAD_BYTES = 256;

interface FileHead {
  /** The hash the file's first entry is chained to. */
  readonly previous: string;
}

const rotated = (path: string, n: number) => (n === 0 ? path : `${path}.${n}`);

export interface AuditFile {
  /** The hash that ends the chain as the file holds it. */
  readonly head: string;
  /** Where a torn last line found at start was moved to. */
  readonly setAside: string | undefined;
  /** Appends entries (already chained to `head`), durably, rotating first if the file is full. */
  append(entries: readonly ChainedEntry[]): Promise<void>;
  close(): Promise<void>;
}

/** An audit file the service cannot continue from: the message names the file, the line and what to run. */
export class AuditFileError extends LevError {
  constructor(message: string, options?: ErrorOptions) {
    super(message, { code: 'AuditFile', cause: options?.cause });
  }
}

const NEWLINE = 0x0a;
/** How much of a file's end is read at a time, looking for its last lines. */
const TAIL_BLOCK = 64 * 1024;

/** The offset of the last line break before `end` in the file, or -1. */
async function lastBreakBefore(handle: FileHandle, end: number): Promise<number> {
  const block = Buffer.alloc(Math.min(TAIL_BLOCK, Math.max(end, 1)));
  while (end > 0) {
    const start = Math.max(0, end - block.length);
    const { bytesRead } = await handle.read(block, 0, end - start, start);
    const at = block.subarray(0, bytesRead).lastIndexOf(NEWLINE);
    if (at !== -1) return start + at;
    end = start;
  }
  return -1;
}

/**
 * Where the file's whole lines end: its size when it ends with a line break (or is empty), else
 * the byte after its last one, where a torn last line starts (0 when it has no whole line).
 */
async function wholeLinesEnd(handle: FileHandle, size: number): Promise<number> {
  if (size === 0) return 0;
  const last = Buffer.alloc(1);
  await handle.read(last, 0, 1, size - 1);
  if (last[0] === NEWLINE) return size;
  return (await lastBreakBefore(handle, size)) + 1;
}

/** The number of line breaks before `end`: the line number of the line ending there. */
async function linesBefore(path: string, end: number): Promise<number> {
  let count = 0;
  for await (const chunk of createReadStream(path, { end: end - 1 }) as AsyncIterable<Buffer>) {
    for (let at = chunk.indexOf(NEWLINE); at !== -1; at = chunk.indexOf(NEWLINE, at + 1)) count++;
  }
  return count;
}

/** Where a torn last line goes when the service starts: beside the trail, named for the time it was found. */
const setAsidePath = (path: string) => `${path}.torn-${new Date().toISOString().replace(/[:.]/g, '-')}`;

interface FileEnd {
  /** The hash the file's last whole line ends the chain with (its head line's, when it holds no entry); undefined when it has no whole line. */
  readonly hash: string | undefined;
  /** The last entry's time; null when the file holds only its first line. */
  readonly at?: string | null;
  /** Where a torn last line was moved to. */
  readonly setAside?: string;
}

/**
 * Reads where the chain ends in the file (undefined when there is no file). A last line without
 * its line break was never acknowledged (an answer waits for its entry's write): with `repair`
 * it is moved to a file of its own, kept for investigation, and cut off the trail; without, it
 * is passed over. A last whole line that does not hold a hash stops it, naming the line.
 */
async function fileEnd(path: string, repair: boolean): Promise<FileEnd | undefined> {
  let handle: FileHandle;
  try {
    handle = await open(path, repair ? 'r+' : 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const size = (await handle.stat()).size;
    const end = await wholeLinesEnd(handle, size);
    let setAside: string | undefined;
    if (end < size && repair) {
      setAside = setAsidePath(path);
      const torn = Buffer.alloc(size - end);
      await handle.read(torn, 0, torn.length, end);
      // Kept durably before it leaves the trail.
      const aside = await open(setAside, 'wx');
      try {
        await aside.write(torn);
        await aside.datasync();
      } finally {
        await aside.close();
      }
      await handle.truncate(end);
      await handle.datasync();
    }
    if (end === 0) return { hash: undefined, setAside };
    const start = (await lastBreakBefore(handle, end - 1)) + 1;
    const bytes = Buffer.alloc(end - 1 - start);
    await handle.read(bytes, 0, bytes.length, start);
    const damaged = async (what: string) =>
      new AuditFileError(
        `${path} line ${await linesBefore(path, end)}: ${what}, so the chain cannot be continued from it; ` +
          `run 'lev-api audit verify --file ${path}' to see the damage, and move the damaged files aside to start a new trail`,
      );
    let parsed: Partial<ChainedEntry & FileHead>;
    try {
      parsed = JSON.parse(bytes.toString('utf8'));
    } catch (error) {
      throw await damaged(`the last line is not valid JSON (${(error as Error).message})`);
    }
    const hash = parsed?.hash ?? parsed?.previous;
    if (typeof hash !== 'string') throw await damaged('the last line holds no hash');
    return { hash, at: typeof parsed.at === 'string' ? parsed.at : null, setAside };
  } finally {
    await handle.close();
  }
}

/** The head recorded beside the trail, or undefined when there is no head file. */
async function readHead(headPath: string): Promise<RecordedHead | undefined> {
  let text: string;
  try {
    text = await readFile(headPath, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  let value: Partial<RecordedHead> | undefined;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined;
  }
  if (typeof value?.hash !== 'string') {
    throw new AuditFileError(`${headPath}: not the audit trail's head file (it holds no hash); run 'lev-api audit verify --file' on the trail beside it`);
  }
  return { hash: value.hash, at: typeof value.at === 'string' ? value.at : null };
}

/** Whether the file's chain passes through `hash`: an entry's hash, or the one its first line continues from. */
async function holds(path: string, hash: string): Promise<boolean> {
  try {
    const lines = createInterface({ input: createReadStream(path, 'utf8'), crlfDelay: Infinity });
    for await (const text of lines) {
      if (!text.includes(hash)) continue;
      try {
        const value = JSON.parse(text) as Partial<ChainedEntry & FileHead>;
        if (value.hash === hash || value.previous === hash) return true;
      } catch {
        // Damage is verify's to report; here it only does not hold the head.
      }
    }
    return false;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

/** Opens the trail's file, continuing the chain it holds (or, when it holds no whole line, the chain of the file before it), or starting one. */
export async function openAuditFile(options: AuditFileOptions): Promise<AuditFile> {
  const { path, headPath } = options;
  const current = await fileEnd(path, true);
  const setAside = current?.setAside;
  const end = current?.hash === undefined ? await fileEnd(rotated(path, 1), false) : current;
  let head = end?.hash ?? GENESIS_HASH;
  const recorded = headPath === undefined ? undefined : await readHead(headPath);
  const held = async (hash: string) => (await holds(path, hash)) || (current?.hash === undefined && (await holds(rotated(path, 1), hash)));
  if (recorded && recorded.hash !== head && !(await held(recorded.hash))) {
    throw new AuditFileError(
      `${path} ends before its last recorded head in ${headPath} (the entry of ${recorded.at ?? 'the start of a file'}): ` +
        `entries were removed from its end, or the trail was replaced; run 'lev-api audit verify --file ${path}' to see what is left, ` +
        'and to start a new trail, move the trail and its head file aside',
    );
  }
  const headFile = headPath === undefined ? undefined : await open(headPath, recorded ? 'r+' : 'w');
  const writeHead = async (written: RecordedHead) => {
    if (!headFile) return;
    await headFile.write(`${JSON.stringify(written).padEnd(HEAD_BYTES - 1)}\n`, 0, 'utf8');
    await headFile.datasync();
  };
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
  try {
    await headFile?.truncate(HEAD_BYTES);
    await writeHead({ hash: head, at: end?.at ?? null });
  } catch (error) {
    await handle!.close();
    await headFile?.close();
    throw error;
  }
  return {
    get head() {
      return head;
    },
    setAside,
    async append(entries) {
      if (entries.length === 0) return;
      const text = entries.map((entry) => `${JSON.stringify(entry)}\n`).join('');
      if (size > 0 && size + Buffer.byteLength(text) > options.maxBytes) await rotate();
      await write(text);
      // Each request waits for its entry: on disk before the answer goes.
      await handle.datasync();
      const last = entries[entries.length - 1];
      head = last.hash;
      // Only once the entries are on disk: a head the trail does not hold would read as a cut.
      await writeHead({ hash: last.hash, at: last.at });
    },
    async close() {
      await handle.close();
      await headFile?.close();
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
  /**
   * A file missing from the numbering, a break in the chain, a trail that ends before its recorded
   * head, or one that does not hold what a checkpoint given says it held.
   */
  readonly kind: 'gap' | 'chain' | 'cut' | 'checkpoint';
  /** The file at fault: the missing one, for a gap. */
  readonly file: string;
  /** The line at fault; 0 when the whole file is (a gap). */
  readonly line: number;
  readonly reason: string;
  /** Entries checked up to it, in all files, oldest first (the one at fault among them). */
  readonly entries: number;
  /** For a break in the chain: the entries before it that were verified, in all files. */
  readonly good?: number;
}

/** What is said of the trail's end whatever the chain's state. */
interface TrailNotes {
  /** The newest file's last line has no line break: a write in progress, or one a crash cut short (never acknowledged); it is not checked. */
  tornTail?: true;
  /** Torn last lines the service set aside when it started, kept for investigation. */
  setAside?: readonly string[];
  /** The head file the trail was checked against, when there is one. */
  head?: string;
  /** Checkpoints given that were checked against the entries they bind. */
  checkpoints?: number;
  /** Checkpoints given that bind only entries in files rotated away, so could not be checked: their times. */
  uncheckable?: readonly string[];
}

export type FileVerifyResult =
  | ({ ok: true; entries: number; files: number; fromGenesis: boolean } & TrailNotes)
  | ({
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
    } & TrailNotes);

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The trail's numbered files, oldest first, with the numbers missing among them (a gap is a deleted or renamed file). */
async function trailFiles(path: string): Promise<{ files: string[]; missing: Set<string>; setAside: string[] }> {
  const numbered = new RegExp(`^${escapeRegExp(basename(path))}\\.([1-9][0-9]*)$`);
  const torn = new RegExp(`^${escapeRegExp(basename(path))}\\.torn-`);
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
  const setAside = names.filter((name) => torn.test(name)).sort().map((name) => join(dirname(path), name));
  if (numbers.size === 0) throw new Error(`${path}: no such file`);
  const files: string[] = [];
  const missing = new Set<string>();
  for (let n = Math.max(...numbers); n >= 0; n--) {
    files.push(rotated(path, n));
    if (!numbers.has(n)) missing.add(rotated(path, n));
  }
  return { files, missing, setAside };
}

/**
 * Checks the chain across the trail's files, oldest first. The oldest file's head line anchors
 * it (the genesis hash when nothing was rotated away); each later file must start where the
 * one before it ended. A missing file in the numbering is a failure naming it; the files on
 * each side of it are still checked, each run from its own oldest file's head line.
 */
export async function verifyAuditFiles(path: string, headPath = defaultHeadPath(path), witnessed: readonly Checkpoint[] = []): Promise<FileVerifyResult> {
  const problems: FileProblem[] = [];
  // Where each hash a checkpoint names lies in the chain, as entries counted before it (a file's first line) or up to it (an entry).
  const watched = new Set(witnessed.flatMap((c) => [c.origin, ...c.heads.map((h) => h.hash)]));
  const found = new Map<string, number>();
  // The oldest entry's time in the files kept: a checkpoint after it must be found in them.
  let oldestAt: string | undefined;
  const observe = (hash: string, n: number, at: string | undefined) => {
    oldestAt ??= at;
    if (watched.has(hash) && !found.has(hash)) found.set(hash, n);
  };
  let recorded: RecordedHead | undefined;
  try {
    recorded = await readHead(headPath);
  } catch (error) {
    problems.push({ kind: 'cut', file: headPath, line: 1, entries: 0, reason: (error as Error).message.replace(`${headPath}: `, '') });
  }
  const { files, missing, setAside } = await trailFiles(path).catch((error: Error) => {
    // A head with no trail at all: everything was removed.
    if (recorded) return { files: [] as string[], missing: new Set<string>(), setAside: [] as string[] };
    throw error;
  });
  let tornTail = false;
  let headSeen = false;
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
        kind: 'gap',
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
    const checked = await checkFile(file, run.previous, run.from === file && segments.length === 0 && problems.length === 0, file === path, recorded?.hash, (hash, n, at) =>
      observe(hash, entries + n, at),
    );
    if (checked.tornTail) tornTail = true;
    if (checked.holdsHead) headSeen = true;
    const before = entries;
    run.entries += checked.entries;
    entries += checked.entries;
    if (checked.fromGenesis) fromGenesis = true;
    if (checked.problem) {
      run.ok = false;
      const { good, ...problem } = checked.problem;
      problems.push({ ...problem, kind: 'chain', entries, good: before + good });
    } else run.previous = checked.last;
  }
  endRun();
  if (recorded && !headSeen) {
    problems.push({
      kind: 'cut',
      file: path,
      line: 0,
      entries,
      reason: `ends before its last recorded head in ${headPath} (the entry of ${recorded.at ?? 'the start of a file'}): its newest entries were removed, or the trail was replaced`,
    });
  }
  // Only a whole chain says anything about the checkpoints: a broken one is reported for itself.
  const uncheckable: string[] = [];
  const whole = problems.length === 0;
  for (const checkpoint of witnessed) {
    const fault = checkpointFault(checkpoint) ?? embeddedCheckpointFault(checkpoint);
    if (fault) problems.push({ kind: 'checkpoint', file: path, line: 0, entries, reason: `the checkpoint of ${checkpoint.at} given cannot be taken at its word: ${fault}` });
    else if (whole) {
      const held = heldFault(checkpoint, found, entries, fromGenesis || (oldestAt !== undefined && checkpoint.at >= oldestAt));
      if (held === 'rotated away') uncheckable.push(checkpoint.at);
      else if (held) problems.push({ kind: 'checkpoint', file: path, line: 0, entries, reason: `the checkpoint of ${checkpoint.at} given ${held}` });
    }
  }
  const notes: TrailNotes = {
    ...(witnessed.length ? { checkpoints: witnessed.length - uncheckable.length } : {}),
    ...(uncheckable.length ? { uncheckable } : {}),
    ...(tornTail ? { tornTail: true } : {}),
    ...(setAside.length ? { setAside } : {}),
    ...(recorded ? { head: headPath } : {}),
  };
  if (problems.length === 0) return { ok: true, entries, files: files.length, fromGenesis, ...notes };
  const [first] = problems;
  return { ok: false, entries: first.entries, file: first.file, line: first.line, reason: first.reason, problems, segments, ...notes };
}

/**
 * Why a checkpoint cannot be of an audit file: the embedded store's checkpoints name one writer,
 * the process, whose chain runs from where its file ended when it started (the checkpoint's origin).
 */
function embeddedCheckpointFault(checkpoint: Checkpoint): string | undefined {
  if (checkpoint.heads.length > 1 || checkpoint.heads.some((head) => head.writer !== 'embedded')) return "it names the PostgreSQL trail's writers, not an audit file's";
  if (checkpoint.entries !== (checkpoint.heads[0]?.seq ?? 0)) return `it states ${checkpoint.entries} entries but its head makes ${checkpoint.heads[0]?.seq ?? 0}`;
  return undefined;
}

/**
 * Whether the chain holds what the checkpoint says it held: the hash it starts from, and its head
 * that many entries after it. 'rotated away' when neither is in the files kept and `kept` says they
 * need not be (the files were rotated, and the checkpoint is older than their oldest entry).
 */
function heldFault(checkpoint: Checkpoint, found: ReadonlyMap<string, number>, entries: number, kept: boolean): string | undefined {
  const [head] = checkpoint.heads;
  const start = found.get(checkpoint.origin);
  const end = head && found.get(head.hash);
  if (start === undefined) {
    // Its start rotated away: its head, when the files kept should hold it, must be in them.
    if (end !== undefined) return undefined;
    if (!kept) return 'rotated away';
    return `names ${head ? 'a head and ' : ''}a start the chain does not pass through: the trail was rewritten`;
  }
  if (!head) return undefined;
  if (end === start + head.seq) return undefined;
  if (start + head.seq > entries) return `names entry ${head.seq} after its start, but the chain ends ${entries - start} entries after it: entries were removed`;
  return `names a head that is not the entry ${head.seq} after its start: the chain was rewritten${end === undefined ? '' : ', or entries removed or inserted'}`;
}

interface FileCheck {
  readonly entries: number;
  /** The hash the file ends with. */
  readonly last: string | undefined;
  readonly fromGenesis: boolean;
  readonly tornTail?: boolean;
  /** Whether the chain passes through the watched hash (the recorded head). */
  readonly holdsHead?: boolean;
  readonly problem?: Omit<FileProblem, 'entries' | 'kind' | 'good'> & { readonly good: number };
}

/** Checks one file's chain, continuing from `previous` (the file before it), or anchored at its own first line. */
async function checkFile(
  file: string,
  previous: string | undefined,
  oldest: boolean,
  newest: boolean,
  watch: string | undefined,
  observe: (hash: string, entries: number, at: string | undefined) => void = () => {},
): Promise<FileCheck> {
  let line = 0;
  let holdsHead = false;
  /** Entries verified so far. */
  let good = 0;
  let entries = 0;
  let fromGenesis = false;
  // The newest file may end with a line being written, or one a crash cut short: only its whole lines are checked.
  let end: number | undefined;
  let tornTail = false;
  if (newest) {
    const handle = await open(file, 'r');
    try {
      const size = (await handle.stat()).size;
      end = await wholeLinesEnd(handle, size);
      tornTail = end < size;
    } finally {
      await handle.close();
    }
    if (end === 0) return { entries, last: previous, fromGenesis, tornTail, holdsHead };
  }
  const lines = createInterface({ input: createReadStream(file, { encoding: 'utf8', end: end === undefined ? undefined : end - 1 }), crlfDelay: Infinity });
  const broken = (reason: string): FileCheck => {
    lines.close();
    return { entries, last: previous, fromGenesis, tornTail, holdsHead, problem: { file, line, reason, good } };
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
      if (value.previous === watch) holdsHead = true;
      observe(value.previous, 0, undefined);
      continue;
    }
    entries++;
    const entry = value as ChainedEntry;
    if (typeof entry.hash !== 'string' || chainHash(previous!, entry.at, entry) !== entry.hash) {
      return broken('the entry does not follow from the one before it: it was altered, or one before it was removed or altered');
    }
    previous = entry.hash;
    good++;
    if (entry.hash === watch) holdsHead = true;
    observe(entry.hash, entries, entry.at);
  }
  if (line === 0) return broken('the file is empty: it has lost even its first line');
  return { entries, last: previous, fromGenesis, tornTail, holdsHead };
}
