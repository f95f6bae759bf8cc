/**
 * Turns one entry of a data file into a record ready to store. An entry is
 * either a v1 record, or a row of the existing service's mock files,
 * `{id, data, ...search columns}`, whose columns hold the search names even
 * where a blocked record's data is all null.
 */
import { checkDescription } from '../records/check.ts';
import { isIsoDate } from '../records/dates.ts';
import type { RecordDescription } from '../records/define.ts';
import { rowSearchKeys, searchKeys } from '../records/search-keys.ts';
import { compileStoredValidator } from '../render/compile.ts';
import type { StoredRecord } from '../model/records.ts';

export interface RecordType {
  readonly description: RecordDescription;
  /** The stored record, or the reason the entry cannot be stored. */
  toStored(entry: unknown): StoredRecord | { reason: string };
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Why a row's search columns cannot make search keys: names must be text, dates real days; either may be null. */
function badSearchColumn(description: RecordDescription, row: Record<string, unknown>): string | undefined {
  for (const { rowColumns } of description.search.parties) {
    for (const column of [rowColumns.surname, rowColumns.forenames]) {
      const value = row[column];
      if (value != null && typeof value !== 'string')
        return `/${column}: expected a name or null, got ${JSON.stringify(value)}`;
    }
    for (const column of rowColumns.dates) {
      const value = row[column];
      if (value != null && (typeof value !== 'string' || !isIsoDate(value))) {
        return `/${column}: expected a date (YYYY-MM-DD) or null, got ${JSON.stringify(value)}`;
      }
    }
  }
  return undefined;
}

export function recordType(description: RecordDescription): RecordType {
  checkDescription(description);
  const validate = compileStoredValidator(description.fields, description.name);
  return {
    description,
    toStored(entry) {
      if (!isObject(entry)) return { reason: 'not a JSON object' };
      const row = isObject(entry.data) ? entry : undefined;
      const data = row ? row.data : entry;
      const reason = validate(data);
      if (reason) return { reason };
      const id = (data as { id: number }).id;
      if (row && row.id !== undefined && row.id !== id)
        return { reason: `/id: the row id ${String(row.id)} differs from the record id ${id}` };
      const columnReason = row && badSearchColumn(description, row);
      if (columnReason) return { reason: columnReason };
      return { id, data, keys: row ? rowSearchKeys(description, row) : searchKeys(description, data) };
    },
  };
}
