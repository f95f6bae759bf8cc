/**
 * A record type's tables: its records and its search keys (schema/v1-registration-tables.ts), and its
 * close-match keys (schema/v8-suggestion-keys.ts), and its counts of names (schema/v13-register-counts.ts).
 */
export const tableNames = (type: string) => ({
  records: `${type}_registration`,
  keys: `${type}_search_key`,
  suggestionKeys: `${type}_suggestion_key`,
  nameCounts: `${type}_name_count`,
});
