/**
 * Fills in the close-match keys (schema/v8-suggestion-keys.ts; numbers since
 * schema/v10-numeric-suggestion-keys.ts) of records stored before they existed, or before they
 * were numbers: run by `lev-api migrate` once the migrations are applied. A batch of records at a
 * time, each batch in a transaction that also records how far it got, so an interrupted backfill resumes
 * where it stopped. Keys are worked out from each record's stored search keys by the code a load
 * uses (match/keys.ts), so they are what a load would have written. Each batch holds a SHARE lock
 * on the records it reads: a load of the same type waits for it, and it for a load.
 */
import { suggestionKeyValues } from '../match/keys.ts';
import type { SearchKey } from '../model/records.ts';
import type { SqlDriver, SqlExecutor } from './driver.ts';
import { tableNames } from './record-tables.ts';

const BACKFILL_BATCH = 5000;

interface BackfillProgress {
  readonly type: string;
  /** Records given keys by this run so far. */
  readonly records: number;
  readonly done: boolean;
}

export interface BackfillOptions {
  /** Records read a transaction. */
  readonly batch?: number;
  /** Hears of each batch. */
  readonly onProgress?: (progress: BackfillProgress) => void;
}

/** Gives keys to every record of each type whose backfill is not done. Returns the records it gave keys to, by type. */
/**
 * The close-match keys of stored records, worked out again from the search keys stored with them
 * (what they were written from), as two columns for `unnest($1::bigint[], $2::bigint[])`.
 */
export function suggestionKeyColumns(rows: readonly { id: string; search_keys: string }[]): {
  keys: number[];
  ids: string[];
} {
  const keys: number[] = [];
  const ids: string[] = [];
  for (const row of rows) {
    for (const key of suggestionKeyValues(JSON.parse(row.search_keys) as SearchKey[])) {
      keys.push(key);
      ids.push(row.id);
    }
  }
  return { keys, ids };
}

export async function backfillSuggestionKeys(
  driver: SqlDriver,
  { batch = BACKFILL_BATCH, onProgress }: BackfillOptions = {},
): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const type of await pendingBackfills(driver)) {
    const t = tableNames(type);
    counts[type] = 0;
    for (;;) {
      const given = await driver.transaction(async (tx) => {
        await tx.query(`LOCK TABLE ${t.records} IN SHARE MODE`);
        const [state] = await tx.query<{ after_id: string; done: boolean }>(
          'SELECT after_id::text AS after_id, done FROM suggestion_key_backfill WHERE type = $1 FOR UPDATE',
          [type],
        );
        if (state.done) return 0;
        const rows = await tx.query<{ id: string; search_keys: string }>(
          // Ordered by the column, not the text of the same name the select list makes: by that text the
          // batch would be the first of every later record sorted as words, read whole each batch, and an id
          // of fewer digits than the one before it would be passed over.
          `SELECT r.id::text AS id, r.search_keys FROM ${t.records} r WHERE r.id > $1 ORDER BY r.id LIMIT $2`,
          [state.after_id, batch],
        );
        if (!rows.length) {
          await tx.query('UPDATE suggestion_key_backfill SET done = true WHERE type = $1', [type]);
          return 0;
        }
        const { keys, ids } = suggestionKeyColumns(rows);
        // In the index's order, as a load inserts them: each leaf page of the keys' primary key is then
        // visited once a batch, not once for each of its keys in the records' order.
        await tx.query(
          `INSERT INTO ${t.suggestionKeys} (key, id) SELECT * FROM unnest($1::bigint[], $2::bigint[]) ` +
            'ORDER BY 1, 2 ON CONFLICT DO NOTHING',
          [keys, ids],
        );
        await tx.query('UPDATE suggestion_key_backfill SET after_id = $2 WHERE type = $1', [
          type,
          rows[rows.length - 1].id,
        ]);
        return rows.length;
      });
      counts[type] += given;
      if (given === 0) {
        // Rows written by transactions are visible to an index-only scan once a vacuum has marked
        // their pages so: until autovacuum came to it, each candidate a query counts would cost a
        // visit to the table.
        if (counts[type] > 0) await driver.exec(`VACUUM (ANALYZE) ${t.suggestionKeys}`);
        onProgress?.({ type, records: counts[type], done: true });
        break;
      }
      onProgress?.({ type, records: counts[type], done: false });
    }
  }
  return counts;
}

/**
 * The types whose backfill is not done (none before migration 8; all again after migration 10): close matches
 * of their older records cannot be found yet.
 */
export async function pendingBackfills(db: SqlExecutor): Promise<string[]> {
  const [{ present }] = await db.query<{ present: boolean }>(
    "SELECT to_regclass('suggestion_key_backfill') IS NOT NULL AS present",
  );
  if (!present) return [];
  const rows = await db.query<{ type: string }>(
    'SELECT type FROM suggestion_key_backfill WHERE NOT done ORDER BY type',
  );
  return rows.map((row) => row.type);
}
