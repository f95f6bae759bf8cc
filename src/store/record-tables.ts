/**
 * Each record type has a table of records (the v1 JSON, stored once) and a
 * table of search keys (one row per way of finding a record: date +
 * normalised surname + forenames), whose primary key serves every search.
 */
import type { RecordDescription } from '../records/define.ts';

export const tableNames = (type: string) => ({ records: `${type}_registration`, keys: `${type}_search_key` });

export function recordTablesSql(descriptions: readonly RecordDescription[]): string {
  return descriptions
    .map(({ name }) => {
      const t = tableNames(name);
      return `
CREATE TABLE IF NOT EXISTS ${t.records} (
  id bigint PRIMARY KEY,
  data jsonb NOT NULL,
  -- The search keys as loaded, so a load that changes only them (not data) is seen as a change.
  search_keys text NOT NULL
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

/**
 * Records are kept as `json` (their text as loaded) rather than `jsonb`: nothing queries inside
 * them (searches use the key table), and every read wants the text, which `json` holds as is
 * while `jsonb` has to rebuild it; a load pays a third of jsonb's conversion.
 */
export function recordsAsJsonSql(descriptions: readonly RecordDescription[]): string {
  return descriptions
    .map(({ name }) => `ALTER TABLE ${tableNames(name).records} ALTER COLUMN data TYPE json USING data::json;`)
    .join('\n');
}
