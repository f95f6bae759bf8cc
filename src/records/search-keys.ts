import { type Party, type RecordDescription, readPath } from './define.ts';
import type { SearchKey } from '../types/records.ts';
import { normaliseName } from './normalise.ts';

type Source = (party: Party) => { surname: unknown; forenames: unknown; dates: unknown[] };

function keysFrom(description: RecordDescription, source: Source): SearchKey[] {
  const keys = new Map<string, SearchKey>();
  for (const party of description.search.parties) {
    const { surname, forenames, dates } = source(party);
    if (typeof surname !== 'string') continue;
    const key = { surname: normaliseName(surname), forenames: typeof forenames === 'string' ? normaliseName(forenames) : '' };
    if (!key.surname) continue;
    for (const date of dates) {
      if (typeof date !== 'string') continue;
      const full = { date, ...key };
      keys.set(`${full.date}|${full.surname}|${full.forenames}`, full);
    }
  }
  return [...keys.values()];
}

/** The keys of a v1 record, read from its own fields. */
export const searchKeys = (description: RecordDescription, record: unknown): SearchKey[] =>
  keysFrom(description, (party) => ({
    surname: readPath(record, party.surname),
    forenames: readPath(record, party.forenames),
    dates: party.dates.map((path) => readPath(record, path)),
  }));

/** The keys of a row in the existing service's mock shape, read from its search columns. */
export const rowSearchKeys = (description: RecordDescription, row: Record<string, unknown>): SearchKey[] =>
  keysFrom(description, (party) => ({
    surname: row[party.rowColumns.surname],
    forenames: row[party.rowColumns.forenames],
    dates: party.rowColumns.dates.map((column) => row[column]),
  }));

/**
 * The search's forenames rule on two normalised names, for comparing a record already found (a
 * verification's other party): equal, or the stored name's leading whole words equal to the query
 * (`anne` matches `anne marie`, not `annette`). The store writes the same rule as the key range
 * [query, query || '!'), normalised names holding no character below '!' but the space.
 */
export const forenamesMatch = (stored: string, query: string): boolean =>
  stored === query || (stored.startsWith(query) && stored.charCodeAt(query.length) === 0x20);
