/**
 * The loader's upsert: the same effect and counts as RecordStore.upsert
 * (records upserted by id with their search keys as loaded, unchanged ones
 * left alone, the search-key rows of changed ones replaced), but with
 * parameters that cost next to nothing to send. RecordStore.upsert passes
 * `jsonb[]`, which the `pg` client turns into an array literal by escaping
 * every quote of every record: measured at about 40 µs a birth, as much
 * CPU as parsing and checking it, and the load shares the machine with the
 * database. Here the records travel as one text of JSON documents separated
 * by line breaks (compact JSON never holds a raw line break), split by the
 * server, and the search-key rows as one JSON document.
 *
 * It writes the same columns as RecordStore.upsert, so a change to the
 * record tables must change both (the loader's tests load through each and
 * expect no change from the other).
 *
 * The records must have distinct ids: a batch is one INSERT ... ON CONFLICT,
 * which cannot touch a row twice.
 */
import type { SqlExecutor } from '../store/driver.ts';
import { type StoredRecord, type UpsertCounts, tableNames } from '../store/record-store.ts';

/** A record ready to send: its data already as compact JSON, so a batch holds strings rather than object trees. */
export interface BulkRecord {
  readonly id: number;
  /** The record's data as JSON with no raw line break. */
  readonly json: string;
  readonly keys: StoredRecord['keys'];
}

export async function bulkUpsert(db: SqlExecutor, type: string, records: readonly BulkRecord[]): Promise<UpsertCounts> {
  if (records.length === 0) return { inserted: 0, updated: 0, unchanged: 0 };
  const t = tableNames(type);
  const ids = records.map((r) => r.id);
  const documents = records.map((r) => r.json).join('\n');
  // As RecordStore.upsert stores them, so that either may load what the other did and see no change.
  const searchKeys = records.map((r) => JSON.stringify(r.keys)).join('\n');
  const changed = await db.query<{ id: string; inserted: boolean }>(
    `INSERT INTO ${t.records} AS r (id, data, search_keys)
       SELECT i, d::jsonb, k
         FROM unnest($1::bigint[], string_to_array($2::text, E'\\n'), string_to_array($3::text, E'\\n')) AS u(i, d, k)
     ON CONFLICT (id) DO UPDATE SET data = EXCLUDED.data, search_keys = EXCLUDED.search_keys
       WHERE r.data IS DISTINCT FROM EXCLUDED.data OR r.search_keys IS DISTINCT FROM EXCLUDED.search_keys
     RETURNING id::text, (xmax = 0) AS inserted`,
    [ids, documents, searchKeys],
  );
  if (changed.length === 0) return { inserted: 0, updated: 0, unchanged: records.length };

  const updatedIds: string[] = [];
  const changedIds = new Set<string>();
  for (const row of changed) {
    changedIds.add(row.id);
    if (!row.inserted) updatedIds.push(row.id);
  }
  // A record just inserted has no keys yet (keys cascade away with their record).
  if (updatedIds.length) await db.query(`DELETE FROM ${t.keys} WHERE id = ANY($1::bigint[])`, [updatedIds]);
  const keys: { i: number; d: string; s: string; f: string }[] = [];
  for (const r of records) {
    if (!changedIds.has(String(r.id))) continue;
    for (const k of r.keys) keys.push({ i: r.id, d: k.date, s: k.surname, f: k.forenames });
  }
  if (keys.length) {
    await db.query(
      `INSERT INTO ${t.keys} (id, date, surname, forenames)
         SELECT i, d, s, f FROM json_to_recordset($1::json) AS k(i bigint, d date, s text, f text)
       ON CONFLICT DO NOTHING`,
      [JSON.stringify(keys)],
    );
  }
  const inserted = changed.length - updatedIds.length;
  return { inserted, updated: updatedIds.length, unchanged: records.length - changed.length };
}
