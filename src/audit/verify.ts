/**
 * Reads the audit trail and checks it: the chain written before writers had
 * chains of their own (in id order, from the genesis hash, to the origin
 * row's head), each writer's chain (in seq order, from its start bound to
 * the origin), and every checkpoint, stored or handed in by a witness,
 * against the entries they name.
 */
import type { SqlExecutor } from '../store/driver.ts';
import type { AuditEntry, ChainedEntry, Checkpoint } from '../model/audit.ts';
import { AT_ISO, GENESIS_HASH, chainHash, recordOfKey, writerStart } from './chain.ts';
import { ORIGIN } from './chain-writer.ts';
import { checkpointFault } from './checkpoint.ts';
import { storedCheckpoints } from './checkpoint-writer.ts';

interface StoredEntry extends ChainedEntry {
  readonly id: string;
  /** The writer whose chain holds the entry, and its place there; absent for entries of the chain before writers. */
  readonly writer?: string;
  readonly seq?: number;
}

interface Row {
  id: string;
  at: string;
  username: string;
  client: string;
  groups: string[];
  dataset: string;
  operation: AuditEntry['operation'];
  path: string;
  query: string;
  results: number;
  request_id: string;
  records: string[] | null;
  events: string[] | null;
  fields: string[] | null;
  writer: string | null;
  seq: string | null;
  hash: string;
}

const COLUMNS =
  `id::text, ${AT_ISO} AS at, username, client, groups, dataset, operation, path, query, results, ` +
  `request_id, records, events, fields, writer, seq::text AS seq, hash`;

function storedEntry({ request_id, records, events, fields, writer, seq, ...row }: Row): StoredEntry {
  return {
    ...row,
    results: Number(row.results),
    requestId: request_id,
    ...(records ? { records: records.map(recordOfKey) } : {}),
    ...(events ? { events } : {}),
    ...(fields ? { fields } : {}),
    ...(writer === null ? {} : { writer, seq: Number(seq) }),
  };
}

/** Days (UTC), both inclusive; either bound may be left open. */
interface DayRange {
  readonly from?: string;
  readonly to?: string;
}

/** The entries within a day range, after the entry with id $1: the export's filter, for counting and reading alike. */
const IN_RANGE = 'id > $1::bigint AND ($2::date IS NULL OR at >= $2::date) AND ($3::date IS NULL OR at < $3::date + 1)';

/** How many entries `auditEntries` gives for the range (as of the same snapshot, in a transaction that has one). */
export async function countAuditEntries(db: SqlExecutor, range: DayRange = {}): Promise<number> {
  const [{ count }] = await db.query<{ count: string }>(
    `SELECT count(*)::text AS count FROM audit_log WHERE ${IN_RANGE}`,
    ['0', range.from ?? null, range.to ?? null],
  );
  return Number(count);
}

/** Entries in id order, optionally within [from, to] days (UTC), a page at a time. */
export async function* auditEntries(
  db: SqlExecutor,
  range: DayRange = {},
  pageSize = 5000,
): AsyncGenerator<StoredEntry> {
  let after = '0';
  for (;;) {
    const rows = await db.query<Row>(
      `SELECT ${COLUMNS} FROM audit_log WHERE ${IN_RANGE} ORDER BY audit_log.id LIMIT $4`,
      [after, range.from ?? null, range.to ?? null, pageSize],
    );
    for (const row of rows) yield storedEntry(row);
    if (rows.length < pageSize) return;
    after = rows[rows.length - 1].id;
  }
}

/** The entries of the chain before writers, in id order. */
async function* originEntries(db: SqlExecutor, pageSize: number): AsyncGenerator<StoredEntry> {
  let after = '0';
  for (;;) {
    const rows = await db.query<Row>(
      `SELECT ${COLUMNS} FROM audit_log WHERE writer IS NULL AND id > $1::bigint ORDER BY audit_log.id LIMIT $2`,
      [after, pageSize],
    );
    for (const row of rows) yield storedEntry(row);
    if (rows.length < pageSize) return;
    after = rows[rows.length - 1].id;
  }
}

/** Every writer's entries, writer by writer, each in its chain's order: the (writer, seq) index read in order. */
async function* writerEntries(db: SqlExecutor, pageSize: number): AsyncGenerator<StoredEntry> {
  let after: [string, string] = ['', '0'];
  for (;;) {
    const rows = await db.query<Row>(
      `SELECT ${COLUMNS} FROM audit_log WHERE writer IS NOT NULL AND (writer, seq) > ($1, $2::bigint) ORDER BY ` +
        `audit_log.writer, audit_log.seq LIMIT $3`,
      [...after, pageSize],
    );
    for (const row of rows) yield storedEntry(row);
    if (rows.length < pageSize) return;
    const last = rows[rows.length - 1];
    after = [last.writer as string, last.seq as string];
  }
}

export type VerifyResult =
  | { ok: true; entries: number; writers?: number; checkpoints?: number }
  | { ok: false; entries: number; brokenAt: string; reason: string };

const broken = (entries: number, brokenAt: string, reason: string): VerifyResult => ({
  ok: false,
  entries,
  brokenAt,
  reason,
});
const FOLLOWS =
  'does not follow from the entry before it: it was altered, or an entry before it was removed, altered, ' +
  'inserted or moved';

/**
 * Checks a chain of entries from `previous` (the genesis hash for a whole trail); reports the first entry
 * whose hash does not follow from its predecessor.
 */
export async function verifyEntries(
  entries: AsyncIterable<ChainedEntry & { id?: string }> | Iterable<ChainedEntry & { id?: string }>,
  previous = GENESIS_HASH,
): Promise<VerifyResult> {
  let count = 0;
  for await (const entry of entries) {
    count++;
    if (chainHash(previous, entry.at, entry) !== entry.hash) {
      const which = entry.id === undefined ? `entry ${count}` : `entry ${entry.id}`;
      return broken(count, entry.id ?? String(count), `${which} ${FOLLOWS}`);
    }
    previous = entry.hash;
  }
  return { ok: true, entries: count };
}

interface VerifyOptions {
  /** Checkpoints kept elsewhere, checked like those the trail holds: every head they name must be there, unchanged. */
  readonly witnessed?: readonly Checkpoint[];
  readonly pageSize?: number;
}

/**
 * Checks the whole audit table: the chain before writers ends at the origin's head; each
 * writer's entries are numbered 1, 2, 3... and each follows from the one before it (the first from
 * the writer's start); the stored checkpoints follow from each other; and every checkpoint, stored
 * or witnessed, is signed, starts from the same origin, and names heads the writers' chains pass
 * through, for as many entries as it states.
 */
export async function verifyAuditChain(
  db: SqlExecutor,
  { witnessed = [], pageSize = 5000 }: VerifyOptions = {},
): Promise<VerifyResult> {
  const [originRow] = await db.query<{ head: string; entries: string; last_id: string }>(ORIGIN);
  if (!originRow) return broken(0, 'origin', 'the audit_chain_origin row is missing');
  const origin = { head: originRow.head, entries: Number(originRow.entries), lastId: Number(originRow.last_id) };

  // The checkpoints first (a few a minute), so that the walk through the entries checks each head they name
  // as it passes it.
  const stored = await storedCheckpoints(db);
  let previous = GENESIS_HASH;
  for (const checkpoint of stored) {
    const fault =
      checkpointFault(checkpoint) ??
      (checkpoint.previous === previous ? undefined : 'it does not follow from the checkpoint before it');
    if (fault)
      return broken(
        0,
        `checkpoint ${checkpoint.hash}`,
        `the stored checkpoint of ${checkpoint.at} cannot be trusted: ${fault}`,
      );
    previous = checkpoint.hash;
  }
  for (const checkpoint of witnessed) {
    const fault = checkpointFault(checkpoint);
    if (fault)
      return broken(
        0,
        `checkpoint ${checkpoint.hash}`,
        `the checkpoint of ${checkpoint.at} given cannot be trusted: ${fault}`,
      );
  }
  const all = [...stored.map((c) => ({ c, by: 'stored' })), ...witnessed.map((c) => ({ c, by: 'given' }))];
  for (const { c, by } of all) {
    if (c.origin !== origin.head)
      return broken(
        0,
        `checkpoint ${c.hash}`,
        `the ${by} checkpoint of ${c.at} starts from another origin than the trail's: the entries before writers ` +
          `were changed`,
      );
  }
  // writer -> seq -> the hash a checkpoint says the entry there has, and which checkpoint says it.
  const expected = new Map<string, Map<number, { hash: string; what: string }>>();
  for (const { c, by } of all) {
    for (const head of c.heads) {
      const seqs = expected.get(head.writer) ?? new Map();
      expected.set(head.writer, seqs);
      seqs.set(head.seq, { hash: head.hash, what: `the ${by} checkpoint of ${c.at}` });
    }
  }

  let count = 0;
  let chain = GENESIS_HASH;
  for await (const entry of originEntries(db, pageSize)) {
    count++;
    if (Number(entry.id) > origin.lastId)
      return broken(
        count,
        entry.id,
        `entry ${entry.id} names no writer but comes after the chain before writers ended: it was inserted`,
      );
    if (chainHash(chain, entry.at, entry) !== entry.hash)
      return broken(count, entry.id, `entry ${entry.id} ${FOLLOWS}`);
    chain = entry.hash;
  }
  if (count !== origin.entries || chain !== origin.head) {
    return broken(
      count,
      'origin',
      `the chain before writers holds ${count} entries ending in ${chain.slice(0, 12)}..., not ` +
        `the ${origin.entries} ending in ${origin.head.slice(0, 12)}... its end recorded: entries were removed ` +
        `or added`,
    );
  }

  const seen = new Map<string, number>();
  // '' before the first writer: no writer is named so.
  let writer = '';
  let seq = 0;
  const unreached = (name: string, last: number): VerifyResult | undefined => {
    for (const [at, { what }] of expected.get(name) ?? []) {
      if (at > last)
        return broken(
          count,
          `${name}#${at}`,
          `${what} names entry ${at} of writer ${name}, whose chain ends at ${last}: entries were removed`,
        );
    }
    return undefined;
  };
  for await (const entry of writerEntries(db, pageSize)) {
    count++;
    if (entry.writer !== writer) {
      if (writer !== '') {
        const missing = unreached(writer, seq);
        if (missing) return missing;
      }
      writer = entry.writer as string;
      seq = 0;
      chain = writerStart(writer, origin.head);
    }
    const where = `entry ${entry.id} (writer ${writer}, #${entry.seq})`;
    if (entry.seq !== seq + 1)
      return broken(count, entry.id, `${where} comes after #${seq} of its writer: entries were removed or inserted`);
    if (chainHash(chain, entry.at, entry) !== entry.hash) return broken(count, entry.id, `${where} ${FOLLOWS}`);
    const claimed = expected.get(writer)?.get(seq + 1);
    if (claimed && claimed.hash !== entry.hash)
      return broken(
        count,
        entry.id,
        `${where} is not the entry ${claimed.what} names there: the writer's chain was rewritten`,
      );
    chain = entry.hash;
    seq++;
    seen.set(writer, seq);
  }
  if (writer !== '') {
    const missing = unreached(writer, seq);
    if (missing) return missing;
  }
  for (const [name] of expected) {
    if (!seen.has(name)) {
      const missing = unreached(name, 0);
      if (missing) return missing;
    }
  }
  for (const { c, by } of all) {
    const held = origin.entries + c.heads.reduce((sum, head) => sum + head.seq, 0);
    if (held !== c.entries)
      return broken(
        count,
        `checkpoint ${c.hash}`,
        `the ${by} checkpoint of ${c.at} states ${c.entries} entries but its heads make ${held}`,
      );
  }
  return { ok: true, entries: count, writers: seen.size, checkpoints: stored.length };
}
