/**
 * The write of a batch of registrations into PostgreSQL:
 * records upserted by id with their search keys as loaded, unchanged ones
 * left alone, the search-key rows of changed ones replaced.
 *
 * Its parameters cost next to nothing to send: the records travel as one
 * text of JSON documents separated by line breaks (compact JSON never holds
 * a raw line break), split by the server, and the search-key rows as one
 * JSON document. (An array parameter such as `json[]` makes the `pg` client
 * escape every quote of every record: measured at about 40 µs a birth, as
 * much CPU as parsing and checking it.)
 *
 * The records are stored as `json`, their text as sent: the database checks
 * that it is JSON and nothing more, which costs a third of building jsonb
 * and makes every read's text free. A record counts as changed when its
 * text differs and its content, compared as jsonb, differs too, so a file
 * written with other spacing or key order reloads as unchanged.
 *
 * The records must have distinct ids: a batch is one INSERT ... ON CONFLICT,
 * which cannot touch a row twice.
 */
import type { RecordToWrite, WriteCounts } from '../types/records.ts';
import type { SqlExecutor } from './driver.ts';
import { tableNames } from './record-tables.ts';

export async function upsertRecords(db: SqlExecutor, type: string, records: readonly RecordToWrite[]): Promise<WriteCounts> {
  if (records.length === 0) return { inserted: 0, updated: 0, unchanged: 0 };
  const t = tableNames(type);
  const ids = records.map((r) => r.id);
  const documents = records.map((r) => r.json).join('\n');
  const searchKeys = records.map((r) => JSON.stringify(r.keys)).join('\n');
  const changed = await db.query<{ id: string; inserted: boolean }>(
    `INSERT INTO ${t.records} AS r (id, data, search_keys)
       SELECT i, d::json, k
         FROM unnest($1::bigint[], string_to_array($2::text, E'\\n'), string_to_array($3::text, E'\\n')) AS u(i, d, k)
     ON CONFLICT (id) DO UPDATE SET data = EXCLUDED.data, search_keys = EXCLUDED.search_keys
       WHERE r.search_keys <> EXCLUDED.search_keys
          OR (r.data::text <> EXCLUDED.data::text AND r.data::jsonb <> EXCLUDED.data::jsonb)
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
