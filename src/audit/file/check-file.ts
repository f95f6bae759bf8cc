/**
 * Checking one file of the trail: its first line's link to the file before it, then each entry's
 * hash from the one before it.
 */
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type { ChainedEntry } from '../../model/audit.ts';
import { GENESIS_HASH, chainHash } from '../chain.ts';
import type { FileHead } from './files.ts';
import { wholeLinesEnd } from './tail.ts';

interface FileCheck {
  readonly entries: number;
  /** The hash the file ends with. */
  readonly last: string | undefined;
  readonly fromGenesis: boolean;
  readonly tornTail?: boolean;
  /** Whether the chain passes through the watched hash (the recorded head). */
  readonly holdsHead?: boolean;
  /** The first break in the file: where, why, and the entries of the file verified before it. */
  readonly problem?: { readonly file: string; readonly line: number; readonly reason: string; readonly good: number };
}

/** Checks one file's chain, continuing from `previous` (the file before it), or anchored at its own first line. */
export async function checkFile(
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
  const lines = createInterface({
    input: createReadStream(file, { encoding: 'utf8', end: end === undefined ? undefined : end - 1 }),
    crlfDelay: Infinity,
  });
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
      if (typeof value.previous !== 'string')
        return broken('the first line does not name the hash the file continues from');
      if (previous === undefined) {
        previous = value.previous;
        fromGenesis = oldest && previous === GENESIS_HASH;
      } else if (value.previous !== previous)
        return broken('the file does not continue from the end of the file before it');
      if (value.previous === watch) holdsHead = true;
      observe(value.previous, 0, undefined);
      continue;
    }
    entries++;
    const entry = value as ChainedEntry;
    if (typeof entry.hash !== 'string' || chainHash(previous!, entry.at, entry) !== entry.hash) {
      return broken(
        'the entry does not follow from the one before it: it was altered, or one before it was removed or altered',
      );
    }
    previous = entry.hash;
    good++;
    if (entry.hash === watch) holdsHead = true;
    observe(entry.hash, entries, entry.at);
  }
  if (line === 0) return broken('the file is empty: it has lost even its first line');
  return { entries, last: previous, fromGenesis, tornTail, holdsHead };
}
