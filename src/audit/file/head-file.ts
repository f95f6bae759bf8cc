/**
 * The file beside the trail that holds the chain's latest head, rewritten after each sync: a hash
 * chain cannot show its own newest entries removed, but a trail that no longer holds the head
 * recorded beside it is refused at start (writer.ts) and reported by verify (verify.ts).
 */
import { createReadStream } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type { ChainedEntry } from '../../model/audit.ts';
import { AuditFileError, type FileHead } from './files.ts';

/** The file beside the trail that holds its head, by default. */
export const defaultHeadPath = (path: string) => `${path}.head`;

/**
 * What the head file holds: the hash that ended the chain at the last sync, and that entry's time (null for a
 * file's first line).
 */
export interface RecordedHead {
  readonly hash: string;
  readonly at: string | null;
}

/** The head file's size: one line, rewritten in place, so a write never leaves it shorter or longer. */
const HEAD_BYTES = 256;

/** The head recorded beside the trail, or undefined when there is no head file. */
export async function readHead(headPath: string): Promise<RecordedHead | undefined> {
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
    throw new AuditFileError(
      `${headPath}: not the audit trail's head file (it holds no hash); run 'lev-api audit verify --file' on the ` +
        `trail beside it`,
    );
  }
  return { hash: value.hash, at: typeof value.at === 'string' ? value.at : null };
}

/** Whether the file's chain passes through `hash`: an entry's hash, or the one its first line continues from. */
export async function holds(path: string, hash: string): Promise<boolean> {
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

interface HeadFile {
  /** Records the head durably, in place. */
  write(head: RecordedHead): Promise<void>;
  /** Gives the file its one line's size, then records the head: at start, whatever the file held. */
  reset(head: RecordedHead): Promise<void>;
  close(): Promise<void>;
}

/** Opens the head file for writing: the one there (`existing`), or a new one. */
export async function openHeadFile(headPath: string, existing: boolean): Promise<HeadFile> {
  const file = await open(headPath, existing ? 'r+' : 'w');
  const write = async (head: RecordedHead) => {
    await file.write(`${JSON.stringify(head).padEnd(HEAD_BYTES - 1)}\n`, 0, 'utf8');
    await file.datasync();
  };
  return {
    write,
    async reset(head) {
      await file.truncate(HEAD_BYTES);
      await write(head);
    },
    close: () => file.close(),
  };
}
