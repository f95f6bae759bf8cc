/**
 * UTF-8 decoding that does not hide bad bytes. Node's decoders turn bytes
 * that are no UTF-8 character into U+FFFD, which then passes for text (a
 * surname stored as `Sm\uFFFD\uFFFDth`), and a real U+FFFD in the source
 * cannot be told from one. Here each bad byte becomes a lone surrogate
 * instead: no valid UTF-8 decodes to one, so an entry holding one held bytes
 * that were not UTF-8, wherever the chunks were cut. Valid chunks (all but
 * the damaged) are checked by Node's native `isUtf8` and decoded natively.
 */
import { isUtf8 } from 'node:buffer';

/** What a byte that is no UTF-8 character decodes to: a lone surrogate, which valid UTF-8 never gives. */
const BAD_BYTE = '\uD800';

/** A surrogate without its pair: in decoded text, the mark of bytes that were not UTF-8. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether decoded text held bytes that were not UTF-8. */
export const holdsBadBytes = (text: string) => LONE_SURROGATE.test(text);

/** The bytes a sequence led by `lead` has in all; 0 for a byte that cannot lead one. */
function sequenceLength(lead: number): number {
  if (lead < 0x80) return 1;
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 0;
}

/**
 * The range the byte after `lead` must be in (RFC 3629: no overlong forms, surrogates or code points past
 * U+10FFFF).
 */
function secondByteRange(lead: number): [number, number] {
  if (lead === 0xe0) return [0xa0, 0xbf];
  if (lead === 0xed) return [0x80, 0x9f];
  if (lead === 0xf0) return [0x90, 0xbf];
  if (lead === 0xf4) return [0x80, 0x8f];
  return [0x80, 0xbf];
}

/** How many bytes at the end of `bytes` start a sequence the next chunk may complete (0 to 3). */
function unfinishedTail(bytes: Buffer): number {
  for (let back = 1; back <= Math.min(3, bytes.length); back++) {
    const byte = bytes[bytes.length - back];
    if ((byte & 0xc0) === 0x80) continue;
    const length = sequenceLength(byte);
    return length > back ? back : 0;
  }
  return 0;
}

/** Decodes bytes known to hold some that are not UTF-8: valid runs natively, each bad byte as BAD_BYTE. */
function decodeMarking(bytes: Buffer): string {
  let text = '';
  let run = 0;
  let i = 0;
  while (i < bytes.length) {
    const lead = bytes[i];
    const length = sequenceLength(lead);
    let valid = length > 0 && i + length <= bytes.length;
    if (valid && length > 1) {
      const [low, high] = secondByteRange(lead);
      valid = bytes[i + 1] >= low && bytes[i + 1] <= high;
      for (let k = 2; valid && k < length; k++) valid = (bytes[i + k] & 0xc0) === 0x80;
    }
    if (valid) {
      i += length;
      continue;
    }
    text += bytes.toString('utf8', run, i) + BAD_BYTE;
    i++;
    run = i;
  }
  return text + bytes.toString('utf8', run, i);
}

export class Utf8Decoder {
  /** Bytes of a sequence the last chunk ended inside. */
  private pending: Buffer | undefined;
  /** Whether any bytes so far were not UTF-8: until then no entry needs looking at. */
  sawBadBytes = false;
  /**
   * Decodes the bytes known to be UTF-8, always whole sequences (a cut one waits in `pending`), so
   * its own streaming state stays empty. Streaming, Node 20's TextDecoder decodes through ICU
   * straight into UTF-16, four times as fast as Buffer#toString('utf8') (or TextDecoder without
   * `stream`, the same path) on chunks of records that hold some non-ASCII names: the largest cost
   * of a load's own CPU (docs/performance.md). A byte-order mark is kept as text, as toString kept
   * it: a chunk may start with U+FEFF inside a value, and stream-entries.ts drops the file's own.
   */
  private readonly valid = new TextDecoder('utf-8', { ignoreBOM: true });

  write(chunk: Buffer): string {
    const bytes = this.pending ? Buffer.concat([this.pending, chunk]) : chunk;
    const tail = unfinishedTail(bytes);
    this.pending = tail ? Buffer.from(bytes.subarray(bytes.length - tail)) : undefined;
    return this.decode(tail ? bytes.subarray(0, bytes.length - tail) : bytes);
  }

  /** What is left at the end of the input: a sequence cut short is bad bytes. */
  end(): string {
    const rest = this.pending;
    this.pending = undefined;
    return rest ? this.decode(rest) : '';
  }

  private decode(bytes: Buffer): string {
    if (isUtf8(bytes)) return this.valid.decode(bytes, { stream: true });
    this.sawBadBytes = true;
    return decodeMarking(bytes);
  }
}
