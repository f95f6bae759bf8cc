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
import { type UpsertCounts, upsertRecords } from './upsert.ts';

export { tableNames, type UpsertCounts };

export interface StoredRecord {
  readonly id: number;
  readonly data: unknown;
  readonly keys: readonly SearchKey[];
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
 * The reads, giving each record as the JSON text the database holds, unparsed:
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
      tables(type);
      // Distinct ids, as one upsert needs: a later record replaces an earlier one with its id.
      const distinct = new Map(records.map((r) => [r.id, { id: r.id, json: JSON.stringify(r.data), keys: r.keys }]));
      const run = (db: SqlExecutor) => upsertRecords(db, type, [...distinct.values()]);
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
