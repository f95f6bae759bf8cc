/**
 * Appends batches of audit entries to a writer's own hash chain in the audit
 * table: one INSERT a batch, which needs no lock and no other writer, so
 * processes writing to the same database never wait for each other. Each
 * writer's chain starts from the origin (the end of the chain written before
 * writers had chains of their own), and signed checkpoints bind every
 * writer's head together (checkpoint-writer.ts).
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { SqlExecutor } from '../store/driver.ts';
import type { AuditEntry } from '../model/audit.ts';
import { chainHash, recordKey, writerStart } from './chain.ts';

/** The end of the chain written before writers: where every writer's chain starts. */
export const ORIGIN = 'SELECT head, entries::text AS entries, last_id::text AS last_id FROM audit_chain_origin';

/** A writer's last entry: an index lookup on (writer, seq). */
const WRITER_HEAD =
  'SELECT seq::text AS seq, hash FROM audit_log WHERE writer = $1 ORDER BY audit_log.seq DESC LIMIT 1';

/**
 * The batch in one statement, so in one transaction of its own (and one round trip). The entries
 * travel as one JSON array read as jsonb, each with its place in the writer's chain; the unique
 * (writer, seq) refuses a batch chained to a head that is no longer the writer's last.
 */
const APPEND =
  `
INSERT INTO audit_log (at, username, client, groups, dataset, operation, path, query, results, request_id, ` +
  `records, events, fields, writer, seq, hash)
SELECT $1::timestamptz, e.username, e.client, e.groups, e.dataset, e.operation, e.path, e.query, e.results, ` +
  `e.request_id, e.records, e.events, e.fields, $2, e.seq, e.hash
  FROM jsonb_to_recordset($3::jsonb) AS e(username text, client text, groups text[], dataset text, operation ` +
  `text, path text, query text,
                                          results integer, request_id text, records text[], events text[], ` +
  `fields text[], seq bigint, hash text)`;

/** Whether a batch is in: its last entry, by its place in the writer's chain. */
const LANDED = 'SELECT 1 FROM audit_log WHERE writer = $1 AND seq = $2 AND hash = $3';

interface Head {
  readonly seq: number;
  readonly hash: string;
}

/**
 * Writes one batch at a time: a batch must be committed, or have failed, before the next is given.
 * The entries are stamped `at` (ISO 8601), by default now; only the mock's invented history is older.
 */
type ChainWriter = (entries: readonly AuditEntry[], at?: string) => Promise<void>;

/** A name no other writer has had: where it runs, for operators, and enough randomness to be unique. */
const newWriterName = (): string => `${hostname()}/${process.pid}/${randomBytes(6).toString('hex')}`;

export function createChainWriter(driver: SqlExecutor, writer: string = newWriterName()): ChainWriter {
  // The writer's last entry as this process knows it; undefined until read, and again after any
  // failure, when the batch may be in or not: it is then read from the table before the next.
  let head: Head | undefined;
  let origin: string | undefined;
  const readHead = async (): Promise<Head> => {
    const [last] = await driver.query<{ seq: string; hash: string }>(WRITER_HEAD, [writer], { prepare: true });
    if (last) return { seq: Number(last.seq), hash: last.hash };
    origin ??= (await driver.query<{ head: string }>(ORIGIN))[0]?.head;
    if (origin === undefined) throw new Error('the audit table has no origin row: is the schema migrated?');
    return { seq: 0, hash: writerStart(writer, origin) };
  };

  return async (entries, at = new Date().toISOString()) => {
    const from = (head ??= await readHead());
    let previous = from.hash;
    const rows = entries.map((entry, n) => ({
      username: entry.username,
      client: entry.client,
      groups: entry.groups,
      dataset: entry.dataset,
      operation: entry.operation,
      path: entry.path,
      query: entry.query,
      results: entry.results,
      request_id: entry.requestId,
      // An empty list stays one (not NULL), so that its index entry costs what one record's does: a
      // verification that found no registration must not commit faster than one that found one.
      records: entry.records ? entry.records.map(recordKey) : null,
      events: entry.events?.length ? entry.events : null,
      fields: entry.fields?.length ? entry.fields : null,
      seq: from.seq + n + 1,
      hash: (previous = chainHash(previous, at, entry)),
    }));
    const written: Head = { seq: from.seq + entries.length, hash: previous };
    head = undefined;
    try {
      await driver.query(APPEND, [at, writer, JSON.stringify(rows)], { prepare: true });
    } catch (error) {
      // The server refusing the statement (an ERROR) rolled it back. Anything else (the connection lost,
      // the server's FATAL as it was killed) may have come before the statement committed or after: the
      // batch is looked for, and its callers answered (data or 503) by whether it is in. If even that
      // fails, it counts as not written: the one case where an entry may stand for a request that got no
      // data, never the other way round.
      if ((error as { severity?: string }).severity === 'ERROR') throw error;
      const landed = await driver.query(LANDED, [writer, written.seq, written.hash]).catch(() => []);
      if (landed.length === 0) throw error;
    }
    head = written;
  };
}
