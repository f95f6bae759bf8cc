/**
 * Appends batches of audit entries to the hash chain in the audit table: each
 * batch in one transaction, under a lock that every writer of the database,
 * in any process, takes, chained to the entry before it.
 */
import { CommitOutcomeUnknown, type SqlDriver, type SqlExecutor } from '../store/driver.ts';
import type { AuditEntry } from '../types/audit.ts';
import { GENESIS_HASH, chainHash } from './chain.ts';

// Serialises chain extension across every process writing to the same database.
const CHAIN_LOCK = 7_240_002;

/** The hash that ends the chain: the last entry's. */
const HEAD = 'SELECT hash FROM audit_log ORDER BY id DESC LIMIT 1';

/**
 * Appends a batch chained to `$3`, the hash the writer believes ends the chain, but only if it
 * does ($2, the genesis hash, stands for the end of an empty trail): all the entries go in, or
 * none. Ids come from the sequence in the batch's order, so id order is chain order. The entries
 * travel as one JSON array, read as jsonb: for a batch of 10, 250-265 µs of a PostgreSQL backend's
 * CPU against 265-285 µs with json_to_recordset. The answer is how many
 * went in: one row rather than one per entry.
 */
const APPEND_IF_HEAD = `
WITH added AS (
  INSERT INTO audit_log (at, username, client, groups, dataset, operation, path, query, results, request_id, hash)
  SELECT $1::timestamptz, e.username, e.client, e.groups, e.dataset, e.operation, e.path, e.query, e.results, e.request_id, e.hash
    FROM ROWS FROM (jsonb_to_recordset($4::jsonb) AS (username text, client text, groups text[], dataset text, operation text,
                                                      path text, query text, results integer, request_id text, hash text))
         WITH ORDINALITY AS e(username, client, groups, dataset, operation, path, query, results, request_id, hash, n)
   WHERE coalesce((${HEAD}), $2) = $3
   ORDER BY e.n
  RETURNING 1
)
SELECT count(*)::int AS added FROM added`;

/** Whether a batch is in: its last entry's hash, among the entries of its time (which the index on `at` finds). */
const LANDED = 'SELECT 1 FROM audit_log WHERE at = $1::timestamptz AND hash = $2';

/** What a writer knows of the chain: the last hash it wrote, and whether it was still the head when it last looked. */
interface Chain {
  readonly head: string | undefined;
  readonly alone: boolean;
}

/** Appends the entries chained to `head` if it ends the chain; the hash that then ends it, or undefined if it did not. */
async function appendIfHead(db: SqlExecutor, entries: readonly AuditEntry[], at: string, head: string): Promise<string | undefined> {
  let previous = head;
  const rows = entries.map((entry) => ({
    username: entry.username,
    client: entry.client,
    groups: entry.groups,
    dataset: entry.dataset,
    operation: entry.operation,
    path: entry.path,
    query: entry.query,
    results: entry.results,
    request_id: entry.requestId,
    hash: (previous = chainHash(previous, at, entry)),
  }));
  const [{ added }] = await db.query<{ added: number }>(APPEND_IF_HEAD, [at, GENESIS_HASH, head, JSON.stringify(rows)], { prepare: true });
  return added === entries.length ? previous : undefined;
}

/**
 * Appends the entries; run under the chain lock. A writer that was alone when it last wrote
 * guesses that the head is still its own last hash: one statement, which inserts nothing if the
 * guess is wrong. Otherwise, or then, the head is read and the batch chained to it: under the
 * lock nothing else can extend the chain in between. Reading also tells whether the writer is
 * still alone (the head is its own), and so whether to guess next time: a process writing on its
 * own needs one statement a batch, and processes writing together two, not three.
 */
async function append(tx: SqlExecutor, entries: readonly AuditEntry[], at: string, chain: Chain): Promise<Chain> {
  const guessed = chain.alone && chain.head !== undefined ? await appendIfHead(tx, entries, at, chain.head) : undefined;
  if (guessed !== undefined) return { head: guessed, alone: true };
  const [last] = await tx.query<{ hash: string }>(HEAD, [], { prepare: true });
  const actual = last?.hash ?? GENESIS_HASH;
  const head = await appendIfHead(tx, entries, at, actual);
  if (head === undefined) throw new Error('the audit chain moved while its lock was held');
  return { head, alone: actual === chain.head };
}

/**
 * Writes one batch at a time: a batch must be committed, or have failed, before the next is given.
 * The entries are stamped `at` (ISO 8601), by default now; only the mock's invented history is older.
 */
export type ChainWriter = (entries: readonly AuditEntry[], at?: string) => Promise<void>;

export function createChainWriter(driver: SqlDriver): ChainWriter {
  // Only a guess at the chain's head, which append checks.
  let chain: Chain = { head: undefined, alone: false };
  return async (entries, at = new Date().toISOString()) => {
    let written: Chain | undefined;
    try {
      chain = await driver.transaction(async (tx) => (written = await append(tx, entries, at, chain)), { lock: CHAIN_LOCK });
    } catch (error) {
      // The connection failed during the COMMIT: the batch is in or not, and its callers are answered
      // (data or 503) by which, so it is looked for. If even that fails, the batch counts as not written:
      // the one case where an entry may stand for a request that got no data, never the other way round.
      if (!(error instanceof CommitOutcomeUnknown) || written === undefined) throw error;
      const landed = await driver.query(LANDED, [at, written.head]).catch(() => []);
      if (landed.length === 0) throw error;
      chain = written;
    }
  };
}
