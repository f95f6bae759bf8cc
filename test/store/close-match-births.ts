/**
 * Births and queries for the close-match tests of the stores: a birth record as stored, and a query as the
 * match compares it.
 */
import { normaliseName } from '../../src/records/normalise.ts';
import type { SearchKey, StoredRecord } from '../../src/model/records.ts';
import { recordTypes } from '../helper.ts';

const birthType = recordTypes().find((type) => type.description.name === 'birth')!;

export function birth(id: number, forenames: string, surname: string, dateOfBirth: string): StoredRecord {
  const result = birthType.toStored({ id, child: { forenames, surname, dateOfBirth }, status: { blocked: false } });
  if ('reason' in result) throw new Error(result.reason);
  return result;
}

/** Names normalised, the date YYYY-MM-DD. */
export const query = (surname: string, forenames: string, date: string): SearchKey => ({
  surname: normaliseName(surname),
  forenames: normaliseName(forenames),
  date,
});

/** A few births that close matches find through each kind of error. */
export const BIRTHS = [
  birth(2001, 'William Henry', 'Smith', '2010-03-04'),
  birth(2002, 'Margaret', 'Thompson', '1990-11-20'),
  birth(2003, 'Catherine', 'Fairfax-Lowe', '2001-06-30'),
  birth(2004, 'George', 'Marsden', '2010-03-14'),
  birth(2005, 'Walter', 'Priddy', '2010-03-14'),
  birth(2006, 'Harry', 'Marsden', '2010-03-14'),
];
