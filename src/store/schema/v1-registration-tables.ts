/**
 * Version 1: each record type's table of records (the v1 JSON, stored once) and table of search
 * keys (one row per way of finding a record: date + normalised surname + forenames), whose
 * primary key serves every search. Frozen, like every applied migration: a new record type gets
 * its tables from a migration of its own.
 */
export const registrationTables = `
CREATE TABLE IF NOT EXISTS birth_registration (
  id bigint PRIMARY KEY,
  data jsonb NOT NULL,
  -- The search keys as loaded, so a load that changes only them (not data) is seen as a change.
  search_keys text NOT NULL
);
CREATE TABLE IF NOT EXISTS birth_search_key (
  date date NOT NULL,
  surname text COLLATE "C" NOT NULL,
  forenames text COLLATE "C" NOT NULL,
  id bigint NOT NULL REFERENCES birth_registration (id) ON DELETE CASCADE,
  PRIMARY KEY (date, surname, forenames, id)
);
CREATE INDEX IF NOT EXISTS birth_search_key_id ON birth_search_key (id);

CREATE TABLE IF NOT EXISTS death_registration (
  id bigint PRIMARY KEY,
  data jsonb NOT NULL,
  -- The search keys as loaded, so a load that changes only them (not data) is seen as a change.
  search_keys text NOT NULL
);
CREATE TABLE IF NOT EXISTS death_search_key (
  date date NOT NULL,
  surname text COLLATE "C" NOT NULL,
  forenames text COLLATE "C" NOT NULL,
  id bigint NOT NULL REFERENCES death_registration (id) ON DELETE CASCADE,
  PRIMARY KEY (date, surname, forenames, id)
);
CREATE INDEX IF NOT EXISTS death_search_key_id ON death_search_key (id);

CREATE TABLE IF NOT EXISTS marriage_registration (
  id bigint PRIMARY KEY,
  data jsonb NOT NULL,
  -- The search keys as loaded, so a load that changes only them (not data) is seen as a change.
  search_keys text NOT NULL
);
CREATE TABLE IF NOT EXISTS marriage_search_key (
  date date NOT NULL,
  surname text COLLATE "C" NOT NULL,
  forenames text COLLATE "C" NOT NULL,
  id bigint NOT NULL REFERENCES marriage_registration (id) ON DELETE CASCADE,
  PRIMARY KEY (date, surname, forenames, id)
);
CREATE INDEX IF NOT EXISTS marriage_search_key_id ON marriage_search_key (id);

CREATE TABLE IF NOT EXISTS partnership_registration (
  id bigint PRIMARY KEY,
  data jsonb NOT NULL,
  -- The search keys as loaded, so a load that changes only them (not data) is seen as a change.
  search_keys text NOT NULL
);
CREATE TABLE IF NOT EXISTS partnership_search_key (
  date date NOT NULL,
  surname text COLLATE "C" NOT NULL,
  forenames text COLLATE "C" NOT NULL,
  id bigint NOT NULL REFERENCES partnership_registration (id) ON DELETE CASCADE,
  PRIMARY KEY (date, surname, forenames, id)
);
CREATE INDEX IF NOT EXISTS partnership_search_key_id ON partnership_search_key (id);
`;
