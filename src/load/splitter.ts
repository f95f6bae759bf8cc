/**
 * What the two streaming splitters share: an entry is the text of one record
 * with its 1-based position in the file (a line number for NDJSON, an item
 * number for a JSON array). Splitters are fed decoded text chunk by chunk and
 * hold at most one unfinished entry, so memory stays constant however large
 * the file.
 */
import { LevError } from '../errors.ts';

export interface RawEntry {
  /** Line number (NDJSON) or item number (JSON array), from 1. */
  readonly number: number;
  readonly text: string;
  /** The entry held bytes that are not UTF-8 (src/load/utf8-decoder.ts): invalid whatever its text parses to. */
  readonly invalidUtf8?: true;
}

export interface Splitter {
  readonly format: 'ndjson' | 'json-array';
  /** Appends the entries completed by `chunk` to `out`. */
  push(chunk: string, out: RawEntry[]): void;
  /** Appends the last entry, if any; throws a SyntaxError if the input stopped half way. */
  end(out: RawEntry[]): void;
}

/** An entry larger than this is refused rather than buffered: a file without line breaks must not exhaust memory. */
export const MAX_ENTRY_CHARS = 64 * 1024 * 1024;

/** A file that cannot be split into entries at all (unlike a single bad entry, which is rejected on its own). */
export class FileSyntaxError extends LevError {
  constructor(message: string) {
    super(message, { code: 'FileSyntax' });
  }
}
