/**
 * Statements on PGlite through PostgreSQL's wire protocol, each in one call.
 *
 * PGlite's own `query()` sends the messages of an extended query (parse,
 * describe, bind, describe, execute, sync) in six calls into WebAssembly, and
 * plans the statement every time: 60 µs for `SELECT $1`, against 20 µs for
 * the same messages in one call with the statement prepared once. On the
 * database's thread (pglite-thread.ts) the audit trail appends every batch
 * with such a statement, so this is much of what that thread does.
 */
import { type PGlite, TransactionAbortedError, messages, parse, protocol } from '@electric-sql/pglite';

export interface Session {
  /** The rows of one statement with `$n` parameters; `prepare` keeps it prepared for the next time. */
  query(sql: string, params: readonly unknown[], prepare: boolean): Promise<unknown[]>;
  /** Statements separated by semicolons, with no parameters. */
  exec(sql: string): Promise<void>;
  /** Opens a transaction: its BEGIN goes with its first statement, a call saved. */
  begin(): void;
  /** Ends the open transaction; throws, as PGlite does, if PostgreSQL rolled it back instead. */
  commit(): Promise<void>;
  rollback(): Promise<void>;
}

const { serialize } = protocol;

/**
 * A parameter as text, the way node-postgres sends it (its `prepareValue`): the statements of this
 * store are written for both drivers, so this is the form they expect. (PGlite would pick a
 * serialiser by the parameter types a describe message reports, which costs a call more.)
 */
export function parameterText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Uint8Array) return `\\x${Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex')}`;
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return arrayLiteral(value);
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

function arrayLiteral(values: readonly unknown[]): string {
  const items = values.map((value) => {
    if (value === null || value === undefined) return 'NULL';
    if (Array.isArray(value)) return arrayLiteral(value);
    return `"${(parameterText(value) as string).replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
  });
  return `{${items.join(',')}}`;
}

/**
 * A Bind message, all parameters and results in text format, after `before` and followed by
 * `after`, in one buffer. PGlite's own encoder measures and copies each string in JavaScript a
 * character at a time, several times over, and joining messages copies them again: for the audit's
 * batch of entries, or a load's tens of megabytes of records, Buffer's native UTF-8 written once
 * is far cheaper.
 */
function withBind(before: readonly Uint8Array[], statement: string, values: readonly (string | null)[], after: Uint8Array): Buffer {
  let length = 4 + 1 + Buffer.byteLength(statement) + 1 + 2 + 2 + 2;
  for (const value of values) length += 4 + (value === null ? 0 : Buffer.byteLength(value));
  let start = 0;
  for (const part of before) start += part.length;
  const message = Buffer.allocUnsafe(start + 1 + length + after.length);
  let at = 0;
  for (const part of before) {
    message.set(part, at);
    at += part.length;
  }
  at = message.writeUInt8(0x42, at);
  at = message.writeInt32BE(length, at);
  at = message.writeUInt8(0, at); // the unnamed portal
  at += message.write(statement, at);
  at = message.writeUInt8(0, at);
  at = message.writeInt16BE(0, at); // every parameter in text
  at = message.writeInt16BE(values.length, at);
  for (const value of values) {
    if (value === null) {
      at = message.writeInt32BE(-1, at);
      continue;
    }
    const bytes = message.write(value, at + 4);
    at = message.writeInt32BE(bytes, at) + bytes;
  }
  at = message.writeInt16BE(0, at); // every result column in text
  message.set(after, at);
  return message;
}

// What follows every Bind: describe its rows, run it, and end the call.
const DESCRIBE_EXECUTE_SYNC = Buffer.concat([serialize.describe({ type: 'P' }), serialize.execute({}), serialize.sync()]);
const SYNC = serialize.sync();
const BEGIN = serialize.query('BEGIN');
const COMMIT = Buffer.concat([serialize.query('COMMIT'), SYNC]);
const ROLLBACK = Buffer.concat([serialize.query('ROLLBACK'), SYNC]);

/** What PGlite's query() adds to a PostgreSQL error: the statement and its parameters. */
function withStatement(error: unknown, query: string, params: readonly unknown[] | undefined): unknown {
  if (error instanceof messages.DatabaseError) Object.assign(error, { query, params, queryOptions: undefined });
  return error;
}

export function createSession(db: PGlite): Session {
  // Statement names by text. Prepared statements belong to the connection, and PGlite is one.
  const prepared = new Map<string, string>();
  let lastName = 0;

  let beginPending = false;
  // A transaction's BEGIN, if it is still to be sent, goes first in the next call.
  const opening = () => {
    if (!beginPending) return [];
    beginPending = false;
    return [BEGIN];
  };
  // runExclusive: PGlite collects one call's answers at a time.
  const run = async (message: Uint8Array) => (await db.runExclusive(() => db.execProtocol(message, { syncToFs: false }))).messages;
  // As PGlite's query() does: outside a transaction, what was written is synced to the data directory.
  const synced = async () => {
    if (!db.isInTransaction()) await db.syncToFs();
  };

  return {
    async query(sql, params, prepare) {
      let name = prepare ? prepared.get(sql) : '';
      const before = opening();
      const preparing = name === undefined;
      if (preparing) {
        name = `lev_${++lastName}`;
        before.push(serialize.parse({ name, text: sql, types: [] }));
      } else if (!prepare) before.push(serialize.parse({ text: sql, types: [] }));
      let answer;
      try {
        answer = await run(withBind(before, name as string, params.map(parameterText), DESCRIBE_EXECUTE_SYNC));
      } catch (error) {
        // A statement prepared in a call that failed is dropped, not left behind (a retry prepares it under a new name).
        if (preparing) await run(Buffer.concat([serialize.close({ type: 'S', name }), SYNC])).catch(() => {});
        throw withStatement(error, sql, params);
      }
      if (preparing) prepared.set(sql, name as string);
      await synced();
      // The last result: a BEGIN sent with the statement has one of its own before it.
      return parse.parseResults(answer, db.parsers).at(-1)?.rows ?? [];
    },

    async exec(sql) {
      try {
        await run(Buffer.concat([...opening(), serialize.query(sql), SYNC]));
      } catch (error) {
        throw withStatement(error, sql, undefined);
      }
      await synced();
    },

    begin() {
      beginPending = true;
    },

    async commit() {
      // Nothing ran: nothing to commit.
      if (beginPending) return void (beginPending = false);
      const answer = await run(COMMIT);
      await synced();
      const done = answer.find((message): message is messages.CommandCompleteMessage => message instanceof messages.CommandCompleteMessage);
      if (done?.text === 'ROLLBACK') throw withStatement(new TransactionAbortedError(), 'COMMIT', undefined);
    },

    async rollback() {
      if (beginPending) return void (beginPending = false);
      await run(ROLLBACK);
      await synced();
    },
  };
}
