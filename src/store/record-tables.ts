/**
 * A record type's tables, named and made in one place: its records and its search keys, its
 * close-match keys and its counts of names. The built-in types' were written by hand, over
 * migrations 1, 3, 8, 10, 13 and 16 (frozen: test/store/record-tables.test.ts checks that each type
 * has birth's columns, indexes and constraints); a type added since gets them from
 * `recordTablesSql`, which `npm run regenerate` writes into a migration of its own
 * (generated-migrations.ts), frozen from then on like any other.
 */
export const tableNames = (type: string) => ({
  records: `${type}_registration`,
  keys: `${type}_search_key`,
  suggestionKeys: `${type}_suggestion_key`,
  nameCounts: `${type}_name_count`,
});

/** The SQL that creates a record type's tables and indexes, as the built-in types' are after migration 16. */
export function recordTablesSql(type: string): string {
  if (!/^[a-z][a-z0-9_]*$/.test(type))
    throw new Error(`a record type's tables are named after it: '${type}' is not a lower-case SQL name`);
  const t = tableNames(type);
  return `
CREATE TABLE ${t.records} (
  id bigint PRIMARY KEY,
  -- The record's text as loaded: nothing queries inside it, and every read wants the text.
  data json NOT NULL,
  -- The search keys as loaded, so a load that changes only them (not data) is seen as a change.
  search_keys text NOT NULL
);
CREATE TABLE ${t.keys} (
  date date NOT NULL,
  surname text COLLATE "C" NOT NULL,
  forenames text COLLATE "C" NOT NULL,
  id bigint NOT NULL REFERENCES ${t.records} (id) ON DELETE CASCADE,
  PRIMARY KEY (date, surname, forenames, id)
);
-- A close match's candidates' keys read by id from the index alone.
CREATE INDEX ${t.keys}_id_keys ON ${t.keys} (id) INCLUDE (date, surname, forenames);
CREATE TABLE ${t.suggestionKeys} (
  key bigint NOT NULL,
  id bigint NOT NULL,
  PRIMARY KEY (key, id)
);
CREATE TABLE ${t.nameCounts} (
  part "char" NOT NULL,
  name text COLLATE "C" NOT NULL,
  count bigint NOT NULL,
  PRIMARY KEY (part, name)
);
`;
}
