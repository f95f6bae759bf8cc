/**
 * NDJSON (one JSON value a line) split into lines as the text streams in.
 * Blank lines are skipped but still counted, so positions are the line
 * numbers an editor shows; a trailing `\r` (CRLF files) is dropped.
 */
import { FileSyntaxError, MAX_ENTRY_CHARS, type RawEntry, type Splitter } from './splitter.ts';

const isBlank = (line: string) => line.length === 0 || line.trim().length === 0;

export class NdjsonSplitter implements Splitter {
  readonly format = 'ndjson';
  /** The unfinished last line of the text so far. */
  private rest = '';
  private line: number;

  /** `firstLine`: line breaks already read before the first chunk given. */
  constructor(
    firstLine = 0,
    private readonly maxEntryChars = MAX_ENTRY_CHARS,
  ) {
    this.line = firstLine;
  }

  push(chunk: string, out: RawEntry[]): void {
    let start = 0;
    let newline = chunk.indexOf('\n');
    if (newline === -1) {
      this.rest += chunk;
      if (this.rest.length > this.maxEntryChars) throw this.tooLong();
      return;
    }
    if (this.rest) {
      this.emit(this.rest + chunk.slice(0, newline), out);
      this.rest = '';
      start = newline + 1;
      newline = chunk.indexOf('\n', start);
    }
    while (newline !== -1) {
      this.emit(chunk.slice(start, newline), out);
      start = newline + 1;
      newline = chunk.indexOf('\n', start);
    }
    this.rest = chunk.slice(start);
    if (this.rest.length > this.maxEntryChars) throw this.tooLong();
  }

  end(out: RawEntry[]): void {
    if (this.rest) this.emit(this.rest, out);
    this.rest = '';
  }

  private emit(line: string, out: RawEntry[]) {
    this.line++;
    if (line.charCodeAt(line.length - 1) === 13) line = line.slice(0, -1);
    if (line.length > this.maxEntryChars) throw this.tooLong();
    if (!isBlank(line)) out.push({ number: this.line, text: line });
  }

  private tooLong() {
    return new FileSyntaxError(`line ${this.line + 1} is longer than ${this.maxEntryChars} characters`);
  }
}
