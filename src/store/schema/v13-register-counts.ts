/**
 * Version 13: what close matches weigh their evidence with, and find their candidates by.
 *
 * The register's counts (src/match/score.ts): for each record type, how many registrations it
 * holds (part `*`), and how many have each surname (`s`) and each first forename (`f`), so that an
 * exact name counts for as much as it is rare. Counted here from the records already stored, and
 * from then on by each load in its own transaction (src/store/postgres-write.ts).
 *
 * The close-match keys of the blocking passes (src/match/keys.ts: the date alone; surname and
 * forename together, any date; forename with the year and month; surname with the year), in place
 * of migration 10's. The key tables keep their shape; their rows are emptied and the backfill of
 * migration 8 (suggestion_key_backfill) set to run again from the start: `lev-api migrate` fills in
 * every record's new keys after applying this, a batch of records at a time, resuming if
 * interrupted.
 */
export const name = 'close matches: register counts and blocking-pass keys';

export const registerCountsAndPassKeys = `
CREATE TABLE birth_name_count (
  part "char" NOT NULL,
  name text COLLATE "C" NOT NULL,
  count bigint NOT NULL,
  PRIMARY KEY (part, name)
);
INSERT INTO birth_name_count (part, name, count)
SELECT 's', surname, count(DISTINCT id) FROM birth_search_key GROUP BY surname
UNION ALL
SELECT 'f', split_part(forenames, ' ', 1), count(DISTINCT id) FROM birth_search_key WHERE forenames <> '' GROUP BY split_part(forenames, ' ', 1)
UNION ALL
SELECT '*', '', count(*) FROM birth_registration;

CREATE TABLE death_name_count (
  part "char" NOT NULL,
  name text COLLATE "C" NOT NULL,
  count bigint NOT NULL,
  PRIMARY KEY (part, name)
);
INSERT INTO death_name_count (part, name, count)
SELECT 's', surname, count(DISTINCT id) FROM death_search_key GROUP BY surname
UNION ALL
SELECT 'f', split_part(forenames, ' ', 1), count(DISTINCT id) FROM death_search_key WHERE forenames <> '' GROUP BY split_part(forenames, ' ', 1)
UNION ALL
SELECT '*', '', count(*) FROM death_registration;

CREATE TABLE marriage_name_count (
  part "char" NOT NULL,
  name text COLLATE "C" NOT NULL,
  count bigint NOT NULL,
  PRIMARY KEY (part, name)
);
INSERT INTO marriage_name_count (part, name, count)
SELECT 's', surname, count(DISTINCT id) FROM marriage_search_key GROUP BY surname
UNION ALL
SELECT 'f', split_part(forenames, ' ', 1), count(DISTINCT id) FROM marriage_search_key WHERE forenames <> '' GROUP BY split_part(forenames, ' ', 1)
UNION ALL
SELECT '*', '', count(*) FROM marriage_registration;

CREATE TABLE partnership_name_count (
  part "char" NOT NULL,
  name text COLLATE "C" NOT NULL,
  count bigint NOT NULL,
  PRIMARY KEY (part, name)
);
INSERT INTO partnership_name_count (part, name, count)
SELECT 's', surname, count(DISTINCT id) FROM partnership_search_key GROUP BY surname
UNION ALL
SELECT 'f', split_part(forenames, ' ', 1), count(DISTINCT id) FROM partnership_search_key WHERE forenames <> '' GROUP BY split_part(forenames, ' ', 1)
UNION ALL
SELECT '*', '', count(*) FROM partnership_registration;

TRUNCATE birth_suggestion_key, death_suggestion_key, marriage_suggestion_key, partnership_suggestion_key;
UPDATE suggestion_key_backfill SET after_id = -1, done = false;
`;
