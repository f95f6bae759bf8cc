/** A record type's two tables (see schema/v1-registration-tables.ts): its records and its search keys. */
export const tableNames = (type: string) => ({ records: `${type}_registration`, keys: `${type}_search_key` });
