/**
 * Writes audit entries with group commit: the requests read in one turn of
 * the event loop, and those that arrive while a write is in flight, are
 * committed together in the next transaction, so the trail does not cap
 * throughput, yet each request still waits until its own entry is durably
 * committed before any data is sent.
 */
import type { SqlDriver, SqlExecutor } from '../store/driver.ts';
import { type AuditEntry, GENESIS_HASH, chainHash } from './chain.ts';

export interface AuditTrail {
  /** Resolves once the entry is committed; rejects if it could not be. */
  record(entry: AuditEntry): Promise<void>;
  /** Waits for queued entries to be written. */
  flush(): Promise<void>;
}

interface Pending {
  readonly entry: AuditEntry;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

// Serialises chain extension across every process writing to the same database.
const CHAIN_LOCK = 7_240_002;

export const AT_ISO = `to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * Appends a batch chained to `$3`, the hash the writer believes ends the chain, but only if it
 * does ($2, the genesis hash, stands for the end of an empty trail): all the entries go in, or
 * none. Ids come from the sequence in the batch's order, so id order is chain order. The entries
 * travel as one JSON array.
 */
const APPEND_IF_HEAD = `
INSERT INTO audit_log (at, username, client, groups, dataset, operation, path, query, results, request_id, hash)
SELECT $1::timestamptz, e.username, e.client, e.groups, e.dataset, e.operation, e.path, e.query, e.results, e.request_id, e.hash
  FROM ROWS FROM (json_to_recordset($4::json) AS (username text, client text, groups text[], dataset text, operation text,
                                                  path text, query text, results integer, request_id text, hash text))
       WITH ORDINALITY AS e(username, client, groups, dataset, operation, path, query, results, request_id, hash, n)
 WHERE coalesce((SELECT hash FROM audit_log ORDER BY id DESC LIMIT 1), $2) = $3
 ORDER BY e.n
RETURNING id`;

const HEAD = 'SELECT hash FROM audit_log ORDER BY id DESC LIMIT 1';

/** What a writer knows of the chain: the last hash it wrote, and whether it was still the head when it last looked. */
interface Chain {
  readonly head: string | undefined;
  readonly alone: boolean;
}

/**
 * Appends the entries; run under the chain lock. A writer that was alone when it last wrote
 * guesses that the head is still its own last hash: one statement, which inserts nothing if the
 * guess is wrong. Otherwise, or then, the head is read and the batch chained to it: under the
 * lock nothing else can extend the chain in between. Reading also tells whether the writer is
 * still alone (the head is its own), and so whether to guess next time: a process writing on its
 * own needs one statement a batch, and processes writing together two, not three.
 */
async function append(tx: SqlExecutor, entries: readonly AuditEntry[], chain: Chain): Promise<Chain> {
  const at = new Date().toISOString();
  const insert = async (head: string) => {
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
    const added = await tx.query(APPEND_IF_HEAD, [at, GENESIS_HASH, head, JSON.stringify(rows)], { prepare: true });
    return added.length === entries.length ? previous : undefined;
  };
  if (chain.alone && chain.head !== undefined) {
    const head = await insert(chain.head);
    if (head !== undefined) return { head, alone: true };
  }
  const [last] = await tx.query<{ hash: string }>(HEAD, [], { prepare: true });
  const actual = last?.hash ?? GENESIS_HASH;
  const head = await insert(actual);
  if (head === undefined) throw new Error('the audit chain moved while its lock was held');
  return { head, alone: actual === chain.head };
}

export function createAuditTrail(driver: SqlDriver, { maxBatch = 1000 } = {}): AuditTrail {
  let queue: Pending[] = [];
  let writing: Promise<void> | undefined;
  // Only a guess at the chain's head, which append checks.
  let chain: Chain = { head: undefined, alone: false };

  const drain = async () => {
    while (queue.length) {
      const batch = queue.slice(0, maxBatch);
      queue = queue.slice(batch.length);
      try {
        const entries = batch.map((pending) => pending.entry);
        chain = await driver.transaction((tx) => append(tx, entries, chain), { lock: CHAIN_LOCK });
        for (const pending of batch) pending.resolve();
      } catch (error) {
        for (const pending of batch) pending.reject(error);
      }
    }
    writing = undefined;
  };

  return {
    record(entry) {
      return new Promise<void>((resolve, reject) => {
        queue.push({ entry, resolve, reject });
        // Written from the event loop's next turn, so that every request read in this turn joins the batch.
        writing ??= new Promise<void>((resolve) => setImmediate(resolve)).then(drain);
      });
    },
    async flush() {
      while (writing) await writing;
    },
  };
}
