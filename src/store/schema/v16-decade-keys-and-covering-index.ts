/**
 * Version 16: close matches' decade passes, and their candidates' keys read from an index alone.
 *
 * The blocking passes gain `surname-decade` and `forename-decade` (src/match/keys.ts: one name's
 * sound code with the other's first letter and the decade). The key tables keep their shape; their
 * rows are emptied and the backfill of migration 8 (suggestion_key_backfill) set to run again from
 * the start: `lev-api migrate` fills in every record's keys after applying this, a batch of records
 * at a time, resuming if interrupted.
 *
 * A query's candidates (a few hundred records at 1,000,000 births) are then read by id from the
 * search keys: the index on id now carries the keys' columns, so that each is read from the index
 * without a visit to the table's pages (half the pages a query touched).
 */
export const name = 'close matches: decade passes, candidates read from the index';

export const decadeKeysAndCoveringIndex = `
TRUNCATE birth_suggestion_key, death_suggestion_key, marriage_suggestion_key, partnership_suggestion_key;
UPDATE suggestion_key_backfill SET after_id = -1, done = false;
CREATE INDEX birth_search_key_id_keys ON birth_search_key (id) INCLUDE (date, surname, forenames);
DROP INDEX birth_search_key_id;
CREATE INDEX death_search_key_id_keys ON death_search_key (id) INCLUDE (date, surname, forenames);
DROP INDEX death_search_key_id;
CREATE INDEX marriage_search_key_id_keys ON marriage_search_key (id) INCLUDE (date, surname, forenames);
DROP INDEX marriage_search_key_id;
CREATE INDEX partnership_search_key_id_keys ON partnership_search_key (id) INCLUDE (date, surname, forenames);
DROP INDEX partnership_search_key_id;
`;
