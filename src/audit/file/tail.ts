/**
 * The end of an audit file: where its whole lines end, and, when the service starts, a torn last
 * line (a write a crash cut short) moved aside so that the chain continues from the last whole
 * entry.
 */
import { createReadStream } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import type { ChainedEntry } from '../../model/audit.ts';
import { AuditFileError, type FileHead, NEWLINE } from './files.ts';

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
export async function wholeLinesEnd(handle: FileHandle, size: number): Promise<number> {
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
  /**
   * The hash the file's last whole line ends the chain with (its head line's, when it holds no entry);
   * undefined when it has no whole line.
   */
  readonly hash: string | undefined;
  /** The last entry's time; null when the file holds only its first line. */
  readonly at?: string | null;
  /** Where a torn last line was moved to. */
  readonly setAside?: string;
}

/** Moves the bytes from `end` to `size` to a file of their own, durably, then cuts them off the trail. */
async function setTornLineAside(handle: FileHandle, path: string, end: number, size: number): Promise<string> {
  const setAside = setAsidePath(path);
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
  return setAside;
}

/**
 * Reads where the chain ends in the file (undefined when there is no file). A last line without
 * its line break was never acknowledged (an answer waits for its entry's write): with `repair`
 * it is moved to a file of its own, kept for investigation, and cut off the trail; without, it
 * is passed over. A last whole line that does not hold a hash stops it, naming the line.
 */
export async function fileEnd(path: string, repair: boolean): Promise<FileEnd | undefined> {
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
    const setAside = end < size && repair ? await setTornLineAside(handle, path, end, size) : undefined;
    if (end === 0) return { hash: undefined, setAside };
    const start = (await lastBreakBefore(handle, end - 1)) + 1;
    const bytes = Buffer.alloc(end - 1 - start);
    await handle.read(bytes, 0, bytes.length, start);
    const damaged = async (what: string) =>
      new AuditFileError(
        `${path} line ${await linesBefore(path, end)}: ${what}, so the chain cannot be continued from it; ` +
          `run 'lev-api audit verify --file ${path}' to see the damage, and move the damaged files aside to ` +
          `start a new trail`,
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
