/**
 * Version 12: close-match keys of the blocking passes (src/match/keys.ts: the date alone; surname
 * and forename together, any date; forename with the year and month; surname with the year), in
 * place of migration 10's. The key tables keep their shape; their rows are emptied and the backfill
 * of migration 8 (suggestion_key_backfill) set to run again from the start: `lev-api migrate` fills
 * in every record's new keys after applying this, a batch of records at a time, resuming if
 * interrupted.
 */
export const name = 'close-match keys of the blocking passes';

export const blockingPassKeys = `
TRUNCATE birth_suggestion_key, death_suggestion_key, marriage_suggestion_key, partnership_suggestion_key;
UPDATE suggestion_key_backfill SET after_id = -1, done = false;
`;
