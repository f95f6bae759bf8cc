/**
 * Version 10: close-match keys as numbers (src/match/keys.ts): each key a bigint (a hash of its
 * kind and sound codes, and its date part) rather than its text, and no index on the record id: a
 * changed record's old keys are worked out again from its old search keys and deleted by the
 * primary key (src/store/postgres-write.ts). The tables are made again, empty, and the backfill of
 * migration 8 (suggestion_key_backfill) set to run again from the start: `lev-api migrate` fills in
 * every record's keys after applying this, a batch of records at a time, resuming if interrupted.
 */
export const numericSuggestionKeys = `
DROP TABLE birth_suggestion_key;
CREATE TABLE birth_suggestion_key (
  key bigint NOT NULL,
  id bigint NOT NULL,
  PRIMARY KEY (key, id)
);

DROP TABLE death_suggestion_key;
CREATE TABLE death_suggestion_key (
  key bigint NOT NULL,
  id bigint NOT NULL,
  PRIMARY KEY (key, id)
);

DROP TABLE marriage_suggestion_key;
CREATE TABLE marriage_suggestion_key (
  key bigint NOT NULL,
  id bigint NOT NULL,
  PRIMARY KEY (key, id)
);

DROP TABLE partnership_suggestion_key;
CREATE TABLE partnership_suggestion_key (
  key bigint NOT NULL,
  id bigint NOT NULL,
  PRIMARY KEY (key, id)
);

UPDATE suggestion_key_backfill SET after_id = -1, done = false;
`;
