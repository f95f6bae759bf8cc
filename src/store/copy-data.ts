/**
 * Rows for `COPY ... FROM STDIN`, written straight into bytes: a buffer that grows as rows are
 * added and is used again for the next batch, so a batch costs no string the size of the batch
 * (nor its UTF-8 copy). Binary rows (`WITH (FORMAT binary)`) need no escaping by this process and
 * no parsing of numbers by the server; text rows are for columns whose text the server should
 * check itself (dates).
 *
 * @see https://www.postgresql.org/docs/15/sql-copy.html#id-1.9.3.55.9.4 (the binary format)
 */

/** The binary format's header: its signature, no flags, no header extension. */
const BINARY_HEADER = Buffer.from('PGCOPY\n\xff\r\n\0\0\0\0\0\0\0\0\0', 'latin1');
const TWO_32 = 2 ** 32;

export class CopyData {
  private buffer: Buffer;
  private length = 0;
  private rows = 0;

  constructor(
    /** `binary` rows start with the format's header and end with its trailer. */
    readonly format: 'binary' | 'text',
    initialBytes = 1 << 16,
  ) {
    this.buffer = Buffer.allocUnsafe(initialBytes);
    this.clear();
  }

  /** Empties it for the next batch, keeping its memory. */
  clear(): void {
    this.length = 0;
    this.rows = 0;
    if (this.format === 'binary') this.bytes(BINARY_HEADER);
  }

  /** Rows written since the last clear. */
  get rowCount(): number {
    return this.rows;
  }

  /** What was written, with the binary trailer; valid until the next write or clear. */
  data(): Uint8Array {
    if (this.format === 'text') return this.buffer.subarray(0, this.length);
    this.room(2);
    this.buffer.writeInt16BE(-1, this.length);
    return this.buffer.subarray(0, this.length + 2);
  }

  /** A row in COPY's text format, as UTF-8: its caller has escaped its values and ended it with a line feed. */
  textRow(row: string): void {
    this.room(row.length * 3);
    this.length += this.buffer.write(row, this.length);
    this.rows++;
  }

  /** Starts a binary row of `fields` fields. */
  row(fields: number): this {
    this.room(2);
    this.buffer.writeInt16BE(fields, this.length);
    this.length += 2;
    this.rows++;
    return this;
  }

  /** A binary `bigint` field from a safe integer. */
  int8(value: number): this {
    this.room(12);
    const high = Math.floor(value / TWO_32);
    this.buffer.writeInt32BE(8, this.length);
    this.buffer.writeInt32BE(high, this.length + 4);
    this.buffer.writeUInt32BE(value - high * TWO_32, this.length + 8);
    this.length += 12;
    return this;
  }

  /** A binary text field (`text`, `json`: their binary form is their UTF-8). */
  string(value: string): this {
    this.room(4 + value.length * 3);
    const start = this.length + 4;
    const written = this.buffer.write(value, start);
    this.buffer.writeInt32BE(written, this.length);
    this.length = start + written;
    return this;
  }

  private bytes(value: Uint8Array) {
    this.room(value.length);
    this.buffer.set(value, this.length);
    this.length += value.length;
  }

  /** Makes room for `bytes` more, doubling. */
  private room(bytes: number) {
    if (this.length + bytes + 2 <= this.buffer.length) return;
    let size = this.buffer.length * 2;
    while (size < this.length + bytes + 2) size *= 2;
    const grown = Buffer.allocUnsafe(size);
    this.buffer.copy(grown, 0, 0, this.length);
    this.buffer = grown;
  }
}
