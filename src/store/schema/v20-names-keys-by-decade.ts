/**
 * Version 20: the close-match `names` pass keyed by the decade as well (src/match/keys.ts), where it
 * had no date part. A query asks its names in every decade, its own and those its year a digit out
 * falls in first, then outward; so where a common name's records outrun the pass's cap (a register
 * of millions), the records kept are those of the decades nearest the date asked rather than those
 * of the lowest ids (docs/search.md).
 *
 * A `names` key was its hash alone, below 2^31, and no key of another pass is (their date parts are
 * all above 0): those rows are deleted from every key table of the schema (the built-in types' and
 * any a later description added), and the backfill of migration 8 (suggestion_key_backfill) set to
 * run again from the start. `lev-api migrate` then works every record's keys out again, a batch of
 * records at a time, resuming if interrupted, and inserts those missing (the names keys with their
 * decade); the keys of the other passes are there already, so close matches keep their candidates
 * from them meanwhile, and `/readiness` answers 503 until it is done.
 */
export const name = 'close matches: the names pass keyed by decade';

export const namesKeysByDecade = `
DO $$
DECLARE
  keys text;
BEGIN
  FOR keys IN
    SELECT c.relname FROM pg_class c
     WHERE c.relkind = 'r' AND c.relnamespace = current_schema()::regnamespace AND c.relname LIKE '%\\_suggestion\\_key'
     ORDER BY c.relname
  LOOP
    EXECUTE format('DELETE FROM %I WHERE key < 2147483648', keys);
  END LOOP;
END
$$;
UPDATE suggestion_key_backfill SET after_id = -1, done = false;
`;
