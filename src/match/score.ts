/**
 * A candidate's score against a query: each detail compared by its rule (names.ts, dates.ts),
 * weighted (WEIGHTS) and added, over each way the record can be found (each party, each of its
 * dates), the best kept. The same query and record always give the same score, and candidates are
 * ordered by score, then by system number.
 */
import type { SearchKey } from '../types/records.ts';
import { compareDate } from './dates.ts';
import { compareForenames, compareSurname } from './names.ts';
import { type MatchKind, KIND_SCORES, WEIGHTS } from './vocabulary.ts';

/** What each detail of the query matched. */
export interface Matched {
  readonly surname: MatchKind;
  readonly forenames: MatchKind;
  readonly date: MatchKind;
}

export interface Scored {
  /** 0 to 1, three decimal places. */
  readonly score: number;
  readonly matched: Matched;
}

/** A query as the match compares it: names normalised (normaliseName), the date YYYY-MM-DD. */
export type MatchQuery = SearchKey;

const rounded = (score: number) => Math.round(score * 1000) / 1000;

const firstWord = (name: string) => {
  const space = name.indexOf(' ');
  return space < 0 ? name : name.slice(0, space);
};

/** Forenames given as the surname and the surname as the forenames (the first forename, if several). */
function swapped(query: MatchQuery, stored: SearchKey): boolean {
  if (!stored.forenames) return false;
  return query.surname === firstWord(stored.forenames) && (query.forenames === stored.surname || firstWord(query.forenames) === stored.surname);
}

/** The query against one of a record's keys. */
export function scoreKey(query: MatchQuery, stored: SearchKey): Scored {
  const date = compareDate(query.date, stored.date);
  const dateScore = KIND_SCORES[date];
  if (swapped(query, stored)) {
    const score = (WEIGHTS.surname + WEIGHTS.forenames) * KIND_SCORES.swapped + WEIGHTS.date * dateScore;
    return { score: rounded(score), matched: { surname: 'swapped', forenames: 'swapped', date } };
  }
  const surname = compareSurname(query.surname, stored.surname);
  const forenames = compareForenames(query.forenames, stored.forenames);
  const score = WEIGHTS.surname * surname.score + WEIGHTS.forenames * forenames.score + WEIGHTS.date * dateScore;
  return { score: rounded(score), matched: { surname: surname.kind, forenames: forenames.kind, date } };
}

/** The query against a record: its best key, the first of them on a tie. Undefined for a record with no keys. */
export function scoreRecord(query: MatchQuery, keys: readonly SearchKey[]): Scored | undefined {
  let best: Scored | undefined;
  for (const key of keys) {
    const scored = scoreKey(query, key);
    if (!best || scored.score > best.score) best = scored;
  }
  return best;
}

/**
 * `exact` when the name given is written as one of the registered names is, `normalised` when it is
 * equal to one only after normalisation (case, accents, punctuation); any other kind as it is.
 * Without the registered names (a blocked record's may be absent), `exact` stands.
 */
export function namedExactly(kind: MatchKind, given: string | undefined, registered: readonly unknown[]): MatchKind {
  if (kind !== 'exact' || given === undefined) return kind;
  const names = registered.filter((name): name is string => typeof name === 'string');
  if (!names.length) return kind;
  const written = given.trim();
  return names.some((name) => name.trim() === written) ? 'exact' : 'normalised';
}
