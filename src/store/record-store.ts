/**
 * The one store of registrations, over either driver. Each record type has a
 * table of records (the v1 JSON, stored once) and a table of search keys (one
 * row per way of finding a record: date + normalised surname + forenames),
 * whose primary key is the index every search uses.
 */
import type { RecordDescription } from '../records/define.ts';
import type { SearchKey } from '../records/search-keys.ts';
import type { SqlDriver, SqlExecutor } from './driver.ts';
import { assertSchemaCurrent } from './migrations.ts';
import { tableNames } from './record-tables.ts';

export { tableNames };

export interface StoredRecord {
  readonly id: number;
  readonly data: unknown;
  readonly keys: readonly SearchKey[];
}

export interface UpsertCounts {
  inserted: number;
  updated: number;
  unchanged: number;
}

export interface SearchResult {
  readonly records: unknown[];
  /** More records matched than were returned. */
  readonly truncated: boolean;
}

/** A search's records as their stored JSON text. */
export interface JsonSearchResult {
  readonly records: string[];
  /** More records matched than were returned. */
  readonly truncated: boolean;
}

/**
 * The reads, giving each record as the JSON text the database holds (jsonb's text form), unparsed:
 * the same text for the same stored record, which is what rendered answers are cached on.
 */
export interface RecordReader {
  lookupJson(type: string, id: string): Promise<string | undefined>;
  /** `key.forenames` is a word prefix: `anne` finds `anne marie`, not `annette`. */
  searchJson(type: string, key: SearchKey, limit: number): Promise<JsonSearchResult>;
}

export interface RecordStore extends RecordReader {
  /** The primary: audit entries and loads are written here. */
  readonly driver: SqlDriver;
  lookup(type: string, id: string): Promise<unknown | undefined>;
  /** `key.forenames` is a word prefix: `anne` finds `anne marie`, not `annette`. */
  search(type: string, key: SearchKey, limit: number): Promise<SearchResult>;
  upsert(type: string, records: readonly StoredRecord[], tx?: SqlExecutor): Promise<UpsertCounts>;
  /** Throws unless every database answers and its schema is current. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** `lookup` and `search` from a store's JSON reads. */
export const parsedReads = (reader: RecordReader): Pick<RecordStore, 'lookup' | 'search'> => ({
  async lookup(type, id) {
    const json = await reader.lookupJson(type, id);
    return json === undefined ? undefined : JSON.parse(json);
  },
  async search(type, key, limit) {
    const { records, truncated } = await reader.searchJson(type, key, limit);
    return { records: records.map((json) => JSON.parse(json)), truncated };
  },
});

/**
 * @param readers replicas for lookups and searches, taken in turn; the primary reads when there are none.
 */
export function createRecordStore(
  driver: SqlDriver,
  descriptions: readonly RecordDescription[],
  readers: readonly SqlDriver[] = [],
): RecordStore {
  let turn = 0;
  const read = () => (readers.length ? readers[turn++ % readers.length] : driver);
  const known = new Set(descriptions.map((d) => d.name));
  const tables = (type: string) => {
    if (!known.has(type)) throw new Error(`unknown record type ${type}`);
    return tableNames(type);
  };

  // Run on every request with fixed text: prepared once per connection.
  const PREPARE = { prepare: true } as const;
  const reader: RecordReader = {
    async lookupJson(type, id) {
      const rows = await read().query<{ data: string }>(`SELECT data::text AS data FROM ${tables(type).records} WHERE id = $1`, [id], PREPARE);
      return rows[0]?.data;
    },

    async searchJson(type, key, limit) {
      const t = tables(type);
      // Normalised keys hold no character below '!' but the space, so [q, q || '!')
      // is exactly "q, or q followed by a space and more words": one index range.
      const rows = await read().query<{ data: string }>(
        `SELECT r.data::text AS data FROM ${t.records} r
          WHERE r.id IN (SELECT k.id FROM ${t.keys} k
                          WHERE k.date = $1 AND k.surname = $2 AND k.forenames >= $3 AND k.forenames < $4)
          ORDER BY r.id
          LIMIT $5`,
        [key.date, key.surname, key.forenames, `${key.forenames}!`, limit + 1],
        PREPARE,
      );
      return { records: rows.slice(0, limit).map((row) => row.data), truncated: rows.length > limit };
    },
  };

  return {
    driver,
    ...reader,
    ...parsedReads(reader),

    async upsert(type, records, tx) {
      const t = tables(type);
      const run = async (db: SqlExecutor): Promise<UpsertCounts> => {
        if (records.length === 0) return { inserted: 0, updated: 0, unchanged: 0 };
        const changed = await db.query<{ id: string; inserted: boolean }>(
          `INSERT INTO ${t.records} AS r (id, data, search_keys)
             SELECT * FROM unnest($1::bigint[], $2::jsonb[], $3::text[])
           ON CONFLICT (id) DO UPDATE SET data = EXCLUDED.data, search_keys = EXCLUDED.search_keys
             WHERE r.data IS DISTINCT FROM EXCLUDED.data OR r.search_keys IS DISTINCT FROM EXCLUDED.search_keys
           RETURNING id::text, (xmax = 0) AS inserted`,
          [records.map((r) => r.id), records.map((r) => JSON.stringify(r.data)), records.map((r) => JSON.stringify(r.keys))],
        );
        const changedIds = new Set(changed.map((row) => String(row.id)));
        const keyed = records.filter((r) => changedIds.has(String(r.id)));
        if (keyed.length) {
          await db.query(`DELETE FROM ${t.keys} WHERE id = ANY($1::bigint[])`, [keyed.map((r) => r.id)]);
          const keys = keyed.flatMap((r) => r.keys.map((k) => ({ id: r.id, ...k })));
          await db.query(
            `INSERT INTO ${t.keys} (id, date, surname, forenames)
               SELECT * FROM unnest($1::bigint[], $2::date[], $3::text[], $4::text[])
             ON CONFLICT DO NOTHING`,
            [keys.map((k) => k.id), keys.map((k) => k.date), keys.map((k) => k.surname), keys.map((k) => k.forenames)],
          );
        }
        const inserted = changed.filter((row) => row.inserted).length;
        return { inserted, updated: changed.length - inserted, unchanged: records.length - changed.length };
      };
      return tx ? run(tx) : driver.transaction(run);
    },

    async ping() {
      await Promise.all([driver, ...readers].map((db) => assertSchemaCurrent(db)));
    },

    async close() {
      await Promise.all([driver, ...readers].map((db) => db.close()));
    },
  };
}
