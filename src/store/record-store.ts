/**
 * The one store of registrations, over either driver. Each record type has a
 * table of records (the v1 JSON, stored once) and a table of search keys (one
 * row per way of finding a record: date + normalised surname + forenames),
 * whose primary key is the index every search uses.
 */
import type { RecordDescription } from '../records/define.ts';
import type { SearchKey } from '../records/search-keys.ts';
import type { SqlDriver, SqlExecutor } from './driver.ts';

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

export interface RecordStore {
  readonly driver: SqlDriver;
  lookup(type: string, id: string): Promise<unknown | undefined>;
  /** `key.forenames` is a word prefix: `anne` finds `anne marie`, not `annette`. */
  search(type: string, key: SearchKey, limit: number): Promise<SearchResult>;
  upsert(type: string, records: readonly StoredRecord[], tx?: SqlExecutor): Promise<UpsertCounts>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export const tableNames = (type: string) => ({ records: `${type}_registration`, keys: `${type}_search_key` });

export function recordTablesSql(descriptions: readonly RecordDescription[]): string {
  return descriptions
    .map(({ name }) => {
      const t = tableNames(name);
      return `
CREATE TABLE IF NOT EXISTS ${t.records} (
  id bigint PRIMARY KEY,
  data jsonb NOT NULL
);
CREATE TABLE IF NOT EXISTS ${t.keys} (
  date date NOT NULL,
  surname text COLLATE "C" NOT NULL,
  forenames text COLLATE "C" NOT NULL,
  id bigint NOT NULL REFERENCES ${t.records} (id) ON DELETE CASCADE,
  PRIMARY KEY (date, surname, forenames, id)
);
CREATE INDEX IF NOT EXISTS ${t.keys}_id ON ${t.keys} (id);`;
    })
    .join('\n');
}

export function createRecordStore(driver: SqlDriver, descriptions: readonly RecordDescription[]): RecordStore {
  const known = new Set(descriptions.map((d) => d.name));
  const tables = (type: string) => {
    if (!known.has(type)) throw new Error(`unknown record type ${type}`);
    return tableNames(type);
  };

  return {
    driver,
    async lookup(type, id) {
      const rows = await driver.query<{ data: unknown }>(`SELECT data FROM ${tables(type).records} WHERE id = $1`, [id]);
      return rows[0]?.data;
    },

    async search(type, key, limit) {
      const t = tables(type);
      // Normalised keys hold no character below '!' but the space, so [q, q || '!')
      // is exactly "q, or q followed by a space and more words": one index range.
      const rows = await driver.query<{ data: unknown }>(
        `SELECT r.data FROM ${t.records} r
          WHERE r.id IN (SELECT k.id FROM ${t.keys} k
                          WHERE k.date = $1 AND k.surname = $2 AND k.forenames >= $3 AND k.forenames < $4)
          ORDER BY r.id
          LIMIT $5`,
        [key.date, key.surname, key.forenames, `${key.forenames}!`, limit + 1],
      );
      return { records: rows.slice(0, limit).map((row) => row.data), truncated: rows.length > limit };
    },

    async upsert(type, records, tx) {
      const t = tables(type);
      const run = async (db: SqlExecutor): Promise<UpsertCounts> => {
        if (records.length === 0) return { inserted: 0, updated: 0, unchanged: 0 };
        const changed = await db.query<{ id: string; inserted: boolean }>(
          `INSERT INTO ${t.records} AS r (id, data)
             SELECT * FROM unnest($1::bigint[], $2::jsonb[])
           ON CONFLICT (id) DO UPDATE SET data = EXCLUDED.data WHERE r.data IS DISTINCT FROM EXCLUDED.data
           RETURNING id::text, (xmax = 0) AS inserted`,
          [records.map((r) => r.id), records.map((r) => JSON.stringify(r.data))],
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
      await driver.query('SELECT 1');
    },

    close: () => driver.close(),
  };
}
