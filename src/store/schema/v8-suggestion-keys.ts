/**
 * Version 8: each record type's close-match keys (src/match/keys.ts), one row per key of a record,
 * whose primary key finds a query's candidates; and the progress of filling them in for the
 * records stored before this version, which `lev-api migrate` does after applying it, a batch of
 * records at a time, from where it stopped if it was interrupted (src/store/suggestion-backfill.ts).
 * No foreign key to the records: records are never deleted, a load replaces a changed record's keys
 * itself, and checking one for every key row would slow a load's COPY several times over.
 */
export const suggestionKeys = `
CREATE TABLE birth_suggestion_key (
  key text COLLATE "C" NOT NULL,
  id bigint NOT NULL,
  PRIMARY KEY (key, id)
);
CREATE INDEX birth_suggestion_key_id ON birth_suggestion_key (id);

CREATE TABLE death_suggestion_key (
  key text COLLATE "C" NOT NULL,
  id bigint NOT NULL,
  PRIMARY KEY (key, id)
);
CREATE INDEX death_suggestion_key_id ON death_suggestion_key (id);

CREATE TABLE marriage_suggestion_key (
  key text COLLATE "C" NOT NULL,
  id bigint NOT NULL,
  PRIMARY KEY (key, id)
);
CREATE INDEX marriage_suggestion_key_id ON marriage_suggestion_key (id);

CREATE TABLE partnership_suggestion_key (
  key text COLLATE "C" NOT NULL,
  id bigint NOT NULL,
  PRIMARY KEY (key, id)
);
CREATE INDEX partnership_suggestion_key_id ON partnership_suggestion_key (id);

CREATE TABLE suggestion_key_backfill (
  type text PRIMARY KEY,
  -- Records up to this id have their keys (-1 before the first batch).
  after_id bigint NOT NULL DEFAULT -1,
  done boolean NOT NULL DEFAULT false
);
INSERT INTO suggestion_key_backfill (type) VALUES ('birth'), ('death'), ('marriage'), ('partnership');
`;
