/**
 * Version 19: close-match keys led by their date part (src/match/keys.ts), where they were led by
 * their hash. A file of the latest registrations loaded into a full register then writes its keys
 * into the last pages of each date part of the key index, rather than each key into a page of its
 * own anywhere in it (docs/performance.md, "How the cost grows").
 *
 * A key was its hash times 2^22 plus its date part; it is now its date part times 2^31 plus its
 * hash. That is arithmetic on the key alone, so every key table of the schema (the built-in types'
 * and any a later description added) is rewritten here in key order and its primary key built once.
 * Emptying the tables for the backfill to work every record's keys out again, as migrations 15 and
 * 16 did, would insert them in record order, each landing anywhere in the index, as a file of births
 * of all years does (docs/performance.md), and leave close matches without candidates meanwhile.
 */
export const name = 'close matches: keys led by their date part';

export const dateLedSuggestionKeys = `
DO $$
DECLARE
  keys text;
BEGIN
  FOR keys IN
    SELECT c.relname FROM pg_class c
     WHERE c.relkind = 'r' AND c.relnamespace = current_schema()::regnamespace AND c.relname LIKE '%\\_suggestion\\_key'
     ORDER BY c.relname
  LOOP
    EXECUTE format(
      'CREATE TABLE %I AS SELECT (key %% 4194304) * 2147483648 + key / 4194304 AS key, id FROM %I ORDER BY 1, 2',
      keys || '_led', keys);
    EXECUTE format('DROP TABLE %I', keys);
    EXECUTE format('ALTER TABLE %I RENAME TO %I', keys || '_led', keys);
    EXECUTE format('ALTER TABLE %I ADD PRIMARY KEY (key, id)', keys);
  END LOOP;
END
$$;
`;
