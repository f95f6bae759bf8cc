/**
 * The entries of a data file as it streams in: a JSON array when its first
 * non-blank character is `[`, else NDJSON. Yields the entries each chunk
 * completes, with the number of bytes that chunk held (for progress).
 */
import { JsonArraySplitter } from './json-array-entries.ts';
import { NdjsonSplitter } from './ndjson-entries.ts';
import type { RawEntry, Splitter } from './splitter.ts';
import { Utf8Decoder, holdsBadBytes } from './utf8-decoder.ts';

interface EntryChunk {
  readonly entries: RawEntry[];
  readonly bytes: number;
  readonly format: Splitter['format'] | undefined;
}

export async function* streamEntries(
  input: AsyncIterable<Buffer | string> | Iterable<Buffer | string>,
): AsyncGenerator<EntryChunk> {
  const decoder = new Utf8Decoder();
  /** Marks the entries that held bytes that were not UTF-8 (looked for only once such bytes were seen). */
  const marked = (entries: RawEntry[]) =>
    decoder.sawBadBytes
      ? entries.map((entry) => (holdsBadBytes(entry.text) ? { ...entry, invalidUtf8: true as const } : entry))
      : entries;
  let splitter: Splitter | undefined;
  /** Blank text before the first value, after its last line break; and the line breaks dropped before it. */
  let head = '';
  let blankLines = 0;
  const start = (text: string): string | undefined => {
    head += text;
    if (head.charCodeAt(0) === 0xfeff) head = head.slice(1);
    const first = head.search(/\S/);
    if (first === -1) {
      // Still blank: keep only the line count, so a long blank start costs no memory.
      const lastBreak = head.lastIndexOf('\n');
      if (lastBreak !== -1) {
        for (let i = 0; i <= lastBreak; i++) if (head.charCodeAt(i) === 10) blankLines++;
        head = head.slice(lastBreak + 1);
      }
      return undefined;
    }
    splitter = head[first] === '[' ? new JsonArraySplitter() : new NdjsonSplitter(blankLines);
    const all = head;
    head = '';
    return all;
  };
  for await (const chunk of input) {
    const bytes = typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length;
    let text: string | undefined = typeof chunk === 'string' ? chunk : decoder.write(chunk);
    const entries: RawEntry[] = [];
    if (!splitter) text = start(text);
    if (splitter && text !== undefined) splitter.push(text, entries);
    yield { entries: marked(entries), bytes, format: splitter?.format };
  }
  const entries: RawEntry[] = [];
  let rest: string | undefined = decoder.end();
  if (!splitter && rest) rest = start(rest);
  if (splitter) {
    if (rest) splitter.push(rest, entries);
    splitter.end(entries);
  }
  yield { entries: marked(entries), bytes: 0, format: splitter?.format };
}
