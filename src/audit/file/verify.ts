/**
 * `lev-api audit verify --file`: the chain checked across the trail's files, oldest first, against
 * the head recorded beside it and the checkpoints a witness kept.
 */
import { readdir } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Checkpoint } from '../../model/audit.ts';
import { checkpointFault } from '../checkpoint.ts';
import { checkFile } from './check-file.ts';
import { embeddedCheckpointFault, heldFault } from './checkpoints.ts';
import { rotated } from './files.ts';
import { type RecordedHead, defaultHeadPath, readHead } from './head-file.ts';

/** A run of consecutive files (no gap between them), checked as one chain anchored at its oldest file's first line. */
interface CheckedSegment {
  /** The oldest file of the run, and the newest. */
  readonly from: string;
  readonly to: string;
  readonly files: number;
  /** Entries checked in the run (up to and including a broken one). */
  readonly entries: number;
  readonly ok: boolean;
}

interface FileProblem {
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
  /**
   * The newest file's last line has no line break: a write in progress, or one a crash cut short (never
   * acknowledged); it is not checked.
   */
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

type FileVerifyResult =
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

/**
 * The trail's numbered files, oldest first, with the numbers missing among them (a gap is a deleted or
 * renamed file).
 */
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
  const setAside = names
    .filter((name) => torn.test(name))
    .sort()
    .map((name) => join(dirname(path), name));
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
export async function verifyAuditFiles(
  path: string,
  headPath = defaultHeadPath(path),
  witnessed: readonly Checkpoint[] = [],
): Promise<FileVerifyResult> {
  const problems: FileProblem[] = [];
  // Where each hash a checkpoint names lies in the chain, as entries counted before it (a file's first line)
  // or up to it (an entry).
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
    problems.push({
      kind: 'cut',
      file: headPath,
      line: 1,
      entries: 0,
      reason: (error as Error).message.replace(`${headPath}: `, ''),
    });
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
  let run:
    | { from: string; to: string; files: number; entries: number; ok: boolean; previous: string | undefined }
    | undefined;
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
        reason:
          'missing: the rotated files are numbered without gaps, so it was deleted or renamed; the chain cannot ' +
          'be followed across it',
      });
      continue;
    }
    if (!run) run = { from: file, to: file, files: 0, entries: 0, ok: true, previous: undefined };
    run.to = file;
    run.files++;
    // A run with a break is not followed further: what comes after it has nothing to be checked against.
    if (!run.ok) continue;
    const checked = await checkFile(
      file,
      run.previous,
      run.from === file && segments.length === 0 && problems.length === 0,
      file === path,
      recorded?.hash,
      (hash, n, at) => observe(hash, entries + n, at),
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
      reason: `ends before its last recorded head in ${headPath} (the entry of ${
        recorded.at ?? 'the start of a ' + 'file'
      }): its newest entries were removed, or the trail was replaced`,
    });
  }
  // Only a whole chain says anything about the checkpoints: a broken one is reported for itself.
  const uncheckable: string[] = [];
  const whole = problems.length === 0;
  for (const checkpoint of witnessed) {
    const fault = checkpointFault(checkpoint) ?? embeddedCheckpointFault(checkpoint);
    if (fault)
      problems.push({
        kind: 'checkpoint',
        file: path,
        line: 0,
        entries,
        reason: `the checkpoint of ${checkpoint.at} given cannot be taken at its word: ${fault}`,
      });
    else if (whole) {
      const held = heldFault(
        checkpoint,
        found,
        entries,
        fromGenesis || (oldestAt !== undefined && checkpoint.at >= oldestAt),
      );
      if (held === 'rotated away') uncheckable.push(checkpoint.at);
      else if (held)
        problems.push({
          kind: 'checkpoint',
          file: path,
          line: 0,
          entries,
          reason: `the checkpoint of ${checkpoint.at} given ${held}`,
        });
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
  return {
    ok: false,
    entries: first.entries,
    file: first.file,
    line: first.line,
    reason: first.reason,
    problems,
    segments,
    ...notes,
  };
}
