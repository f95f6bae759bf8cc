/**
 * The embedded store's reads, served from memory.
 *
 * The embedded database is filled once at start and never written again but
 * for the audit trail, and PGlite runs one statement at a time on the event
 * loop's thread, where a query costs far more than the work it does. So once
 * the records are loaded, they are read back from it once (the JSON text of
 * each, and the search keys) and lookups and searches are answered from that
 * copy. PGlite stays the store of record: loads, the audit trail, readiness
 * and anything the copy does not answer exactly as SQL would go to it.
 *
 * Every answer equals the SQL store's: the same stored text, the same
 * matches (the key range of `searchJson` in record-store.ts), the same order
 * (by id) and the same truncation.
 */
import { UNSTORABLE_TEXT } from '../data/storable.ts';
import { isIsoDate } from '../records/dates.ts';
import type { SearchKey } from '../records/search-keys.ts';
import { type JsonSearchResult, type RecordReader, type RecordStore, parsedReads, tableNames } from './record-store.ts';

interface Keyed {
  readonly forenames: string;
  readonly id: bigint;
}

interface TypeSnapshot {
  /** JSON text by id, the id as PostgreSQL writes it. */
  readonly records: Map<string, string>;
  /** Search keys by date and surname. */
  readonly keys: Map<string, Keyed[]>;
}

const PAGE = 5000;
const keyOf = (date: string, surname: string) => `${date}\u0000${surname}`;
// A whole number that PostgreSQL reads as a bigint and writes back the same once leading zeros go.
const PLAIN_ID = /^[0-9]{1,18}$/;

/** Reads every record of a type, and its search keys, into memory, a page of records at a time. */
async function snapshotType(store: RecordStore, type: string): Promise<TypeSnapshot> {
  const t = tableNames(type);
  const records = new Map<string, string>();
  const keys = new Map<string, Keyed[]>();
  for (let after: string | null = null; ; ) {
    const rows: { id: string; data: string }[] = await store.driver.query(
      `SELECT id::text AS id, data::text AS data FROM ${t.records} WHERE ($1::bigint IS NULL OR id > $1::bigint) ORDER BY id LIMIT $2`,
      [after, PAGE],
    );
    if (!rows.length) break;
    for (const row of rows) records.set(row.id, row.data);
    const last: string = rows[rows.length - 1].id;
    const keyRows = await store.driver.query<{ date: string; surname: string; forenames: string; id: string }>(
      `SELECT date::text AS date, surname, forenames, id::text AS id FROM ${t.keys} WHERE ($1::bigint IS NULL OR id > $1::bigint) AND id <= $2::bigint`,
      [after, last],
    );
    for (const row of keyRows) {
      const key = keyOf(row.date, row.surname);
      const keyed = { forenames: row.forenames, id: BigInt(row.id) };
      const list = keys.get(key);
      if (list) list.push(keyed);
      else keys.set(key, [keyed]);
    }
    after = last;
  }
  return { records, keys };
}

/**
 * A store answering lookups and searches from a copy of `store`'s records, taken now. Only for a
 * database nothing else writes records to: its upsert refuses, since the copy would go stale.
 */
export async function snapshotStore(store: RecordStore, types: readonly string[]): Promise<RecordStore> {
  const snapshots = new Map<string, TypeSnapshot>();
  for (const type of types) snapshots.set(type, await snapshotType(store, type));

  const reader: RecordReader = {
    async lookupJson(type, id) {
      const snapshot = snapshots.get(type);
      // Anything but a plain id (or an unknown type) gets SQL's own answer, or error.
      if (!snapshot || !PLAIN_ID.test(id)) return store.lookupJson(type, id);
      return snapshot.records.get(id.replace(/^0+(?=\d)/, ''));
    },

    async searchJson(type, key: SearchKey, limit): Promise<JsonSearchResult> {
      const snapshot = snapshots.get(type);
      // As for lookups: what SQL would refuse, or read otherwise than JavaScript, goes to SQL.
      if (!snapshot || !isIsoDate(key.date) || UNSTORABLE_TEXT.test(key.surname + key.forenames) || !(Number.isSafeInteger(limit) && limit >= 0)) {
        return store.searchJson(type, key, limit);
      }
      // The SQL range [q, q || '!'): q itself, or q followed by a character below '!' and more.
      const q = key.forenames;
      const ids = new Set<bigint>();
      for (const keyed of snapshot.keys.get(keyOf(key.date, key.surname)) ?? []) {
        const f = keyed.forenames;
        if (f.startsWith(q) && (f.length === q.length || f.charCodeAt(q.length) < 0x21)) ids.add(keyed.id);
      }
      const found = [...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      return {
        records: found.slice(0, limit).map((id) => snapshot.records.get(id.toString()) as string),
        truncated: found.length > limit,
      };
    },
  };

  return {
    ...store,
    ...reader,
    ...parsedReads(reader),
    async upsert() {
      throw new Error('this store answers from a copy of its records taken at start, so it refuses to change them');
    },
  };
}
