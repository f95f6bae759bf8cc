import { type Party, type RecordDescription, readPath } from './define.ts';
import type { SearchKey } from '../model/records.ts';
import { normaliseName } from './normalise.ts';

type Source = (party: Party) => { surname: unknown; forenames: unknown; dates: unknown[] };

/** A party's keys: one a date, its names normalised; none without a surname. */
function partyKeys({ surname, forenames, dates }: ReturnType<Source>): SearchKey[] {
  if (typeof surname !== 'string') return [];
  const names = {
    surname: normaliseName(surname),
    forenames: typeof forenames === 'string' ? normaliseName(forenames) : '',
  };
  if (!names.surname) return [];
  return dates.filter((date): date is string => typeof date === 'string').map((date) => ({ date, ...names }));
}

function keysFrom(description: RecordDescription, source: Source): SearchKey[] {
  const keys = new Map<string, SearchKey>();
  for (const party of description.search.parties)
    for (const key of partyKeys(source(party))) keys.set(`${key.date}|${key.surname}|${key.forenames}`, key);
  return [...keys.values()];
}

const fromRecord =
  (record: unknown): Source =>
  (party) => ({
    surname: readPath(record, party.surname),
    forenames: readPath(record, party.forenames),
    dates: party.dates.map((path) => readPath(record, path)),
  });

/** The keys of one party of a v1 record (a close match names the party it was found through). */
export const partySearchKeys = (party: Party, record: unknown): SearchKey[] => partyKeys(fromRecord(record)(party));

/** The keys of a v1 record, read from its own fields. */
export const searchKeys = (description: RecordDescription, record: unknown): SearchKey[] =>
  keysFrom(description, fromRecord(record));

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
