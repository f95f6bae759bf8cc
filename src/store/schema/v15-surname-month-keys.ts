/**
 * Version 15: the surname's close-match pass keyed by the year and month (src/match/keys.ts,
 * `surname-month`) in place of the year alone, which brought a query most of its candidates to no
 * purpose. The key tables keep their shape; their rows are emptied and the backfill of migration 8
 * (suggestion_key_backfill) set to run again from the start: `lev-api migrate` fills in every
 * record's keys after applying this, a batch of records at a time, resuming if interrupted.
 */
export const name = 'close matches: the surname pass keyed by month';

export const surnameMonthKeys = `
TRUNCATE birth_suggestion_key, death_suggestion_key, marriage_suggestion_key, partnership_suggestion_key;
UPDATE suggestion_key_backfill SET after_id = -1, done = false;
`;
