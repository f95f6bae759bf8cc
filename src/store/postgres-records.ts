/**
 * Records in PostgreSQL. Each record type has a table of records (the v1
 * JSON, stored once) and a table of search keys (one row per way of finding
 * a record: date + normalised surname + forenames), whose primary key is the
 * index every search uses.
 */
import type { RecordDescription } from '../records/define.ts';
import { verifiedPaths } from '../records/verification.ts';
import type { SearchKey, VerifiedValues } from '../types/records.ts';
import type { RecordReader, RecordWriter, SearchResult } from '../types/store.ts';
import type { SqlDriver } from './driver.ts';
import { assertSchemaCurrent } from './migrations.ts';
import { parsedReads } from './parsed-reads.ts';
import { tableNames } from './record-tables.ts';
import { writeRecords } from './postgres-write.ts';

const FIELD_NAME = /^[A-Za-z][A-Za-z0-9_]*$/;

/** A dot path as a text[] literal for `#>`; the paths come from record descriptions, checked here all the same. */
function pathLiteral(path: string): string {
  const segments = path.split('.');
  const bad = segments.find((segment) => !FIELD_NAME.test(segment));
  if (bad !== undefined) throw new Error(`field path '${path}' has a segment that is not a plain field name: '${bad}'`);
  return `'{${segments.join(',')}}'`;
}

export interface PostgresRecords {
  readonly reader: RecordReader;
  readonly writer: RecordWriter;
}

/**
 * @param readers replicas for lookups and searches, taken in turn; the primary reads when there are none.
 */
export function createPostgresRecords(
  driver: SqlDriver,
  descriptions: readonly RecordDescription[],
  readers: readonly SqlDriver[] = [],
): PostgresRecords {
  let turn = 0;
  const read = () => (readers.length ? readers[turn++ % readers.length] : driver);
  const known = new Set(descriptions.map((d) => d.name));
  const tables = (type: string) => {
    if (!known.has(type)) throw new Error(`unknown record type ${type}`);
    return tableNames(type);
  };

  // Run on every request with fixed text: prepared once per connection.
  const PREPARE = { prepare: true } as const;

  /** The `selection` (one text column) of at most limit + 1 records with the key, by id: one index range. */
  const candidates = async (type: string, selection: string, key: SearchKey, limit: number): Promise<string[]> => {
    const t = tables(type);
    // Normalised keys hold no character below '!' but the space, so [q, q || '!')
    // is exactly "q, or q followed by a space and more words" (forenamesMatch): one index range.
    const rows = await read().query<{ data: string }>(
      `SELECT ${selection} AS data FROM ${t.records} r
        WHERE r.id IN (SELECT k.id FROM ${t.keys} k
                        WHERE k.date = $1 AND k.surname = $2 AND k.forenames >= $3 AND k.forenames < $4)
        ORDER BY r.id
        LIMIT $5`,
      [key.date, key.surname, key.forenames, `${key.forenames}!`, limit + 1],
      PREPARE,
    );
    return rows.map((row) => row.data);
  };

  // The verified fields of each type as one small JSON array, so the record itself never leaves the database.
  const verifiedSelections = new Map(
    descriptions.map((d) => [d.name, `jsonb_build_array(${verifiedPaths(d).map((path) => `r.data #> ${pathLiteral(path)}`).join(', ')})::text`]),
  );
  const verifiedSelection = (type: string) => {
    tables(type);
    return verifiedSelections.get(type) as string;
  };
  const json = {
    async lookupJson(type: string, id: string) {
      const rows = await read().query<{ data: string }>(`SELECT data::text AS data FROM ${tables(type).records} WHERE id = $1`, [id], PREPARE);
      return rows[0]?.data;
    },

    async searchJson(type: string, key: SearchKey, limit: number): Promise<SearchResult<string>> {
      const rows = await candidates(type, 'r.data::text', key, limit);
      return { records: rows.slice(0, limit), truncated: rows.length > limit };
    },

    async verificationCandidates(type: string, key: SearchKey, limit: number): Promise<SearchResult<VerifiedValues>> {
      const rows = await candidates(type, verifiedSelection(type), key, limit);
      return { records: rows.slice(0, limit).map((row) => JSON.parse(row) as VerifiedValues), truncated: rows.length > limit };
    },

    async ready() {
      await Promise.all([driver, ...readers].map((db) => assertSchemaCurrent(db, descriptions)));
    },
  };

  const writer: RecordWriter = {
    async write(type, batches) {
      tables(type);
      return writeRecords(driver, type, batches);
    },
  };

  return { reader: { ...json, ...parsedReads(json) }, writer };
}
