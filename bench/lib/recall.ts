/**
 * What the close-match evaluations share: a party's details as a query gives them, and the ids
 * that count as the registration sought (bench/suggest-eval.ts, bench/scale.ts).
 */
import { type Party, readPath } from '../../src/records/define.ts';

/** The ids of the registration's chain: a re-registration records the same event. */
export function sameEvent(record: unknown): Set<number> {
  const ids = new Set<number>([readPath(record, 'id') as number]);
  for (const link of ['previousRegistration', 'nextRegistration']) {
    let linked = readPath(record, link);
    while (linked && typeof linked === 'object') {
      ids.add(readPath(linked, 'id') as number);
      linked = readPath(linked, link);
    }
  }
  return ids;
}

/** One party's surname, forenames and dates in a record; undefined when a name or every date is absent. */
export function partyDetails(
  record: unknown,
  party: Party,
): { surname: string; forenames: string; dates: string[] } | undefined {
  const surname = readPath(record, party.surname);
  const forenames = readPath(record, party.forenames);
  const dates = party.dates.map((path) => readPath(record, path)).filter((d): d is string => typeof d === 'string');
  if (typeof surname !== 'string' || typeof forenames !== 'string' || !dates.length) return undefined;
  return { surname, forenames, dates };
}
