/**
 * Search keys as PostgreSQL's `<type>_search_key` tables give them, a row a key, turned into each
 * record's keys: read by a close match's candidates and by the service's close-match index alike.
 */
import { packCandidates } from '../match/candidates.ts';
import type { SearchKey, SuggestionCandidates } from '../model/records.ts';

/** A search key's row: the columns `searchKeyColumns` selects. */
export interface SearchKeyRow {
  id: string;
  date: string;
  surname: string;
  forenames: string;
}

/** The columns of a SearchKeyRow, of the search-key table named `table` in the statement. */
export const searchKeyColumns = (table: string) =>
  `${table}.id::text AS id, to_char(${table}.date, 'YYYY-MM-DD') AS date, ${table}.surname, ${table}.forenames`;

/** Each record's keys, from rows ordered by id (a record's rows together). */
export function recordsOfRows(rows: readonly SearchKeyRow[]): { id: number; keys: SearchKey[] }[] {
  const records: { id: number; keys: SearchKey[] }[] = [];
  let last: { id: number; keys: SearchKey[] } | undefined;
  for (const row of rows) {
    const id = Number(row.id);
    if (last?.id !== id) records.push((last = { id, keys: [] }));
    last.keys.push({ date: row.date, surname: row.surname, forenames: row.forenames });
  }
  return records;
}

/** A close match's candidates, from rows ordered by id. */
export const candidatesOfRows = (rows: readonly SearchKeyRow[], truncated: boolean): SuggestionCandidates =>
  packCandidates(recordsOfRows(rows), truncated);
