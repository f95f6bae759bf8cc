/**
 * Appending to the trail's file: continuing the chain it holds when the service starts (after
 * the start's repair, tail.ts, and the check against the recorded head, head-file.ts), rotating
 * it at its size, and recording the head after each sync.
 */
import { type FileHandle, open, rename, rm } from 'node:fs/promises';
import type { ChainedEntry } from '../../model/audit.ts';
import { GENESIS_HASH } from '../chain.ts';
import { AuditFileError, type FileHead, rotated } from './files.ts';
import { holds, openHeadFile, readHead } from './head-file.ts';
import { fileEnd } from './tail.ts';

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

interface AuditFile {
  /** The hash that ends the chain as the file holds it. */
  readonly head: string;
  /** Where a torn last line found at start was moved to. */
  readonly setAside: string | undefined;
  /** Appends entries (already chained to `head`), durably, rotating first if the file is full. */
  append(entries: readonly ChainedEntry[]): Promise<void>;
  close(): Promise<void>;
}

/**
 * Opens the trail's file, continuing the chain it holds (or, when it holds no whole line, the chain of the
 * file before it), or starting one.
 */
export async function openAuditFile(options: AuditFileOptions): Promise<AuditFile> {
  const { path, headPath } = options;
  const current = await fileEnd(path, true);
  const setAside = current?.setAside;
  const end = current?.hash === undefined ? await fileEnd(rotated(path, 1), false) : current;
  let head = end?.hash ?? GENESIS_HASH;
  const recorded = headPath === undefined ? undefined : await readHead(headPath);
  const held = async (hash: string) =>
    (await holds(path, hash)) || (current?.hash === undefined && (await holds(rotated(path, 1), hash)));
  if (recorded && recorded.hash !== head && !(await held(recorded.hash))) {
    throw new AuditFileError(
      `${path} ends before its last recorded head in ${headPath} (the entry of ${
        recorded.at ?? 'the start of a ' + 'file'
      }): ` +
        `entries were removed from its end, or the trail was replaced; run 'lev-api audit verify --file ${path}' ` +
        `to see what is left, ` +
        'and to start a new trail, move the trail and its head file aside',
    );
  }
  const headFile = headPath === undefined ? undefined : await openHeadFile(headPath, recorded !== undefined);
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
    await headFile?.reset({ hash: head, at: end?.at ?? null });
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
      await headFile?.write({ hash: last.hash, at: last.at });
    },
    async close() {
      await handle.close();
      await headFile?.close();
    },
  };
}
