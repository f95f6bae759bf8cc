/**
 * Writes audit entries with group commit: requests that arrive while a write
 * is in flight are queued and committed together in the next transaction, so
 * the trail does not cap throughput, yet each request still waits until its
 * own entry is durably committed before any data is sent.
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

async function append(tx: SqlExecutor, entries: readonly AuditEntry[]) {
  await tx.query('SELECT pg_advisory_xact_lock($1)', [CHAIN_LOCK]);
  const [last] = await tx.query<{ hash: string }>('SELECT hash FROM audit_log ORDER BY id DESC LIMIT 1');
  let previous = last?.hash ?? GENESIS_HASH;
  const at = new Date().toISOString();
  const hashes = entries.map((entry) => (previous = chainHash(previous, at, entry)));
  const column = <K extends keyof AuditEntry>(key: K) => entries.map((entry) => entry[key]);
  // Ids are taken first, in order, so that id order is chain order.
  const ids = await tx.query<{ id: string }>(
    `SELECT nextval(pg_get_serial_sequence('audit_log', 'id'))::text AS id FROM generate_series(1, $1::int)`,
    [entries.length],
  );
  await tx.query(
    `INSERT INTO audit_log (id, at, username, client, groups, dataset, operation, path, query, results, request_id, hash)
     SELECT id, $1::timestamptz, u, c, string_to_array(g, chr(31)), d, o, p, q, r, i, h
       FROM unnest($2::bigint[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::int[], $11::text[], $12::text[])
            AS e(id, u, c, g, d, o, p, q, r, i, h)`,
    [
      at,
      ids.map((row) => row.id),
      column('username'),
      column('client'),
      // Arrays of arrays must be rectangular in PostgreSQL: groups travel joined by a unit separator.
      entries.map((entry) => entry.groups.join('\u001f')),
      column('dataset'),
      column('operation'),
      column('path'),
      column('query'),
      column('results'),
      column('requestId'),
      hashes,
    ],
  );
}

export function createAuditTrail(driver: SqlDriver, { maxBatch = 1000 } = {}): AuditTrail {
  let queue: Pending[] = [];
  let writing: Promise<void> | undefined;

  const drain = async () => {
    while (queue.length) {
      const batch = queue.slice(0, maxBatch);
      queue = queue.slice(batch.length);
      try {
        await driver.transaction((tx) => append(tx, batch.map((pending) => pending.entry)));
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
        writing ??= drain();
      });
    },
    async flush() {
      while (writing) await writing;
    },
  };
}
