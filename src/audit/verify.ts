/**
 * Reads the audit trail in order, in pages, recomputing the hash chain.
 */
import type { SqlExecutor } from '../store/driver.ts';
import type { AuditEntry, ChainedEntry } from '../types/audit.ts';
import { AT_ISO, GENESIS_HASH, chainHash } from './chain.ts';

export interface StoredEntry extends ChainedEntry {
  readonly id: string;
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
  hash: string;
}

/** Entries in id order, optionally within [from, to] days (UTC), a page at a time. */
export async function* auditEntries(db: SqlExecutor, range: { from?: string; to?: string } = {}, pageSize = 5000): AsyncGenerator<StoredEntry> {
  let after = '0';
  for (;;) {
    const rows = await db.query<Row>(
      `SELECT id::text, ${AT_ISO} AS at, username, client, groups, dataset, operation, path, query, results, request_id, hash
         FROM audit_log
        WHERE id > $1::bigint AND ($2::date IS NULL OR at >= $2::date) AND ($3::date IS NULL OR at < $3::date + 1)
        ORDER BY audit_log.id LIMIT $4`,
      [after, range.from ?? null, range.to ?? null, pageSize],
    );
    for (const { request_id, ...row } of rows) yield { ...row, results: Number(row.results), requestId: request_id };
    if (rows.length < pageSize) return;
    after = rows[rows.length - 1].id;
  }
}

export type VerifyResult = { ok: true; entries: number } | { ok: false; entries: number; brokenAt: string; reason: string };

/** Checks a chain of entries from `previous` (the genesis hash for a whole trail); reports the first entry whose hash does not follow from its predecessor. */
export async function verifyEntries(
  entries: AsyncIterable<ChainedEntry & { id?: string }> | Iterable<ChainedEntry & { id?: string }>,
  previous = GENESIS_HASH,
): Promise<VerifyResult> {
  let count = 0;
  for await (const entry of entries) {
    count++;
    if (chainHash(previous, entry.at, entry) !== entry.hash) {
      const which = entry.id === undefined ? `entry ${count}` : `entry ${entry.id}`;
      return {
        ok: false,
        entries: count,
        brokenAt: entry.id ?? String(count),
        reason: `${which} does not follow from the entry before it: it was altered, or an entry before it was removed or altered`,
      };
    }
    previous = entry.hash;
  }
  return { ok: true, entries: count };
}

/** Checks the whole chain of the audit table. */
export const verifyAuditChain = (db: SqlExecutor): Promise<VerifyResult> => verifyEntries(auditEntries(db));
