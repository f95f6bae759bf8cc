/**
 * Version 3: records kept as `json` (their text as loaded) rather than `jsonb`: nothing queries
 * inside them (searches use the key tables), and every read wants the text, which `json` holds as
 * is while `jsonb` has to rebuild it; a load pays a third of jsonb's conversion.
 */
export const recordsAsJson = `
ALTER TABLE birth_registration ALTER COLUMN data TYPE json USING data::json;
ALTER TABLE death_registration ALTER COLUMN data TYPE json USING data::json;
ALTER TABLE marriage_registration ALTER COLUMN data TYPE json USING data::json;
ALTER TABLE partnership_registration ALTER COLUMN data TYPE json USING data::json;
`;
