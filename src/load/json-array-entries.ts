/**
 * A JSON array split into the text of its top-level elements as the text
 * streams in, so a file of any size is read in constant memory. It tracks
 * only what decides where an element ends: whether it is inside a string,
 * after a backslash in one, and how deeply brackets and braces nest. Each
 * element's own syntax is left to JSON.parse, so one malformed element is
 * rejected on its own; only a file whose array structure is broken (not an
 * array, unclosed, missing or trailing commas, content after the array, a
 * bracket closed by a brace or the other way round) stops with a
 * FileSyntaxError. Such an error names the item and the line it starts on:
 * an item whose bracket or brace is not closed swallows the items after it,
 * so where the file ends says nothing of where it broke.
 */
import { FileSyntaxError, MAX_ENTRY_CHARS, type RawEntry, type Splitter } from './splitter.ts';

/** Where the splitter is: before `[`, after `[`, after `,`, inside an element, after `]`. */
const State = { Before: 0, Open: 1, Comma: 2, Value: 3, Done: 4 } as const;
type State = (typeof State)[keyof typeof State];

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const NEWLINE = 0x0a;
const isSpace = (c: number) => c === 0x20 || c === NEWLINE || c === 0x0d || c === 0x09;

/** The line breaks in text[from, to). */
function breaks(text: string, from = 0, to = text.length): number {
  let count = 0;
  for (let at = text.indexOf('\n', from); at !== -1 && at < to; at = text.indexOf('\n', at + 1)) count++;
  return count;
}

export class JsonArraySplitter implements Splitter {
  readonly format = 'json-array';
  private state: State = State.Before;
  private inString = false;
  private escaped = false;
  private depth = 0;
  /** The closing character each open bracket or brace of the current element expects, innermost last. */
  private readonly closers: number[] = [];
  /** Line breaks in the chunks before the current one. */
  private lines = 0;
  /** Text of the current element from earlier chunks. */
  private partial = '';
  private item = 0;

  constructor(private readonly maxEntryChars = MAX_ENTRY_CHARS) {}

  push(chunk: string, out: RawEntry[]): void {
    let { state, inString, escaped, depth } = this;
    /** Where the current element starts in this chunk (0 when it began in an earlier one). */
    let start = 0;
    const length = chunk.length;
    for (let i = 0; i < length; i++) {
      const c = chunk.charCodeAt(i);
      if (state === State.Value) {
        if (inString) {
          if (escaped) escaped = false;
          else if (c === BACKSLASH) escaped = true;
          else if (c === QUOTE) inString = false;
          continue;
        }
        if (c === QUOTE) inString = true;
        else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
          depth++;
          this.closers.push(c === OPEN_BRACE ? CLOSE_BRACE : CLOSE_BRACKET);
        } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
          if (depth > 0) {
            depth--;
            if (this.closers.pop() !== c) {
              const opened = c === CLOSE_BRACE ? '[' : '{';
              throw this.error(
                `item ${this.item} (from line ${this.itemLine(chunk, start)}): '${chunk[i]}' on ` +
                  `line ${this.lines + 1 + breaks(chunk, 0, i)} ` +
                  `closes a '${opened}': a bracket or brace in the item is not closed, or one is too many`,
              );
            }
          } else if (c === CLOSE_BRACKET) {
            this.emit(this.partial + chunk.slice(start, i), out);
            state = State.Done;
          } else throw this.error(`unexpected '}' in item ${this.item}`);
        } else if (c === COMMA && depth === 0) {
          this.emit(this.partial + chunk.slice(start, i), out);
          state = State.Comma;
        }
        continue;
      }
      if (isSpace(c)) continue;
      switch (state) {
        case State.Before:
          if (c !== OPEN_BRACKET) throw this.error(`expected '[' to open the array, found '${chunk[i]}'`);
          state = State.Open;
          break;
        case State.Open:
        case State.Comma:
          if (c === CLOSE_BRACKET) {
            if (state === State.Comma) throw this.error(`a comma after item ${this.item} is followed by ']'`);
            state = State.Done;
          } else if (c === COMMA) {
            throw this.error(`item ${this.item + 1} is missing (two commas in a row)`);
          } else {
            // The first character of an element: re-read it in the Value state.
            this.item++;
            this.partial = '';
            start = i;
            state = State.Value;
            i--;
          }
          break;
        case State.Done:
          throw this.error(`unexpected '${chunk[i]}' after the end of the array`);
      }
    }
    if (state === State.Value) {
      this.partial += chunk.slice(start);
      if (this.partial.length > this.maxEntryChars)
        throw this.error(`item ${this.item} is longer than ${this.maxEntryChars} characters`);
    }
    this.lines += breaks(chunk);
    Object.assign(this, { state, inString, escaped, depth });
  }

  /**
   * The line the current item starts on, `start` being where it starts in `chunk` (0 when it began in an
   * earlier one).
   */
  private itemLine(chunk: string, start: number): number {
    return this.lines + 1 + breaks(chunk, 0, start) - breaks(this.partial);
  }

  /** Whether the unfinished item's text is a whole JSON value: then the file really ends after it. */
  private itemIsWhole(): boolean {
    try {
      JSON.parse(this.partial);
      return true;
    } catch {
      return false;
    }
  }

  end(_out: RawEntry[]): void {
    if (this.state === State.Done) return;
    if (this.state === State.Before) throw this.error('the file is empty: expected a JSON array');
    if (this.state !== State.Value) throw this.error('the file ends before the array is closed');
    const line = this.itemLine('', 0);
    if (this.inString) {
      throw this.error(
        `the file ends inside item ${this.item} (in a string): the array is not closed ` +
          `(it starts on line ${line}; a quote in it is not closed, or the file was cut short)`,
      );
    }
    if (this.depth > 0) {
      throw this.error(
        `the file ends inside item ${this.item}: the array is not closed ` +
          `(it starts on line ${line}; a bracket or brace in it is not closed, or the file was cut short)`,
      );
    }
    if (this.itemIsWhole()) throw this.error(`the file ends after item ${this.item}: the array is not closed`);
    throw this.error(
      `the file ends inside item ${this.item}, which is not valid JSON (from line ${line}): ` +
        "a ',' between items or the closing ']' is missing, or the file was cut short",
    );
  }

  private emit(text: string, out: RawEntry[]) {
    this.partial = '';
    out.push({ number: this.item, text: text.trimEnd() });
  }

  private error(message: string) {
    return new FileSyntaxError(`not a valid JSON array: ${message}`);
  }
}
