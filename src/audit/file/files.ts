/**
 * The embedded store's audit trail on disk: NDJSON, one chained entry a line, in a file that is
 * rotated when it reaches its size (`FILE` becomes `FILE.1`, `FILE.1` becomes `FILE.2`, and the
 * oldest kept goes). Each file opens with a line naming the hash its first entry is chained to,
 * so the files left after rotation still verify, and a file's start is checked against the end
 * of the one before it when that one is still there. This module holds what the writer
 * (writer.ts), the start's repair (tail.ts), the head file (head-file.ts) and the verifier
 * (verify.ts) share.
 */
import { LevError } from '../../errors.ts';

/** A file's first line. */
export interface FileHead {
  /** The hash the file's first entry is chained to. */
  readonly previous: string;
}

/** The trail's file `n` rotations old: 0 is the file written to. */
export const rotated = (path: string, n: number) => (n === 0 ? path : `${path}.${n}`);

export const NEWLINE = 0x0a;

/** An audit file the service cannot continue from: the message names the file, the line and what to run. */
export class AuditFileError extends LevError {
  constructor(message: string, options?: ErrorOptions) {
    super(message, { code: 'AuditFile', cause: options?.cause });
  }
}
