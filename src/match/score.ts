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

/**
 * The query against one of a record's keys, or undefined when it cannot score `above` or more (it
 * scores less with every detail still to compare taken as exact). The date is compared first and
 * the forenames last: a candidate whose surname and date are too far already is not compared
 * further, and scores the same otherwise.
 */
function scoreKeyAbove(query: MatchQuery, stored: SearchKey, above: number): Scored | undefined {
  const date = compareDate(query.date, stored.date);
  const dateScore = WEIGHTS.date * KIND_SCORES[date];
  if (swapped(query, stored)) {
    const score = rounded((WEIGHTS.surname + WEIGHTS.forenames) * KIND_SCORES.swapped + dateScore);
    return score < above ? undefined : { score, matched: { surname: 'swapped', forenames: 'swapped', date } };
  }
  if (rounded(WEIGHTS.surname + WEIGHTS.forenames + dateScore) < above) return undefined;
  const surname = compareSurname(query.surname, stored.surname);
  const surnameScore = WEIGHTS.surname * surname.score;
  if (rounded(surnameScore + WEIGHTS.forenames + dateScore) < above) return undefined;
  const forenames = compareForenames(query.forenames, stored.forenames);
  const score = rounded(surnameScore + WEIGHTS.forenames * forenames.score + dateScore);
  return score < above ? undefined : { score, matched: { surname: surname.kind, forenames: forenames.kind, date } };
}

/** The query against one of a record's keys. */
export const scoreKey = (query: MatchQuery, stored: SearchKey): Scored => scoreKeyAbove(query, stored, 0) as Scored;

/** Whether one key comes before another: by date, then surname, then forenames. */
const before = (a: SearchKey, b: SearchKey) =>
  a.date !== b.date ? a.date < b.date : a.surname !== b.surname ? a.surname < b.surname : a.forenames < b.forenames;

/**
 * The query against a record: its best key, on a tie the one first by date, then surname, then
 * forenames (so that the order a store gives the keys in changes nothing). Undefined for a record
 * with no keys, or, given a floor, for one whose best key scores under it (its keys are then
 * compared only as far as it takes to know).
 */
export function scoreRecord(query: MatchQuery, keys: readonly SearchKey[], floor = 0): Scored | undefined {
  let best: Scored | undefined;
  let bestKey: SearchKey | undefined;
  for (const key of keys) {
    // Once one key is scored, a later one matters only if it scores as much or more: nothing less is worked out.
    const scored = scoreKeyAbove(query, key, best ? best.score : floor);
    if (scored && (!best || scored.score > best.score || (scored.score === best.score && before(key, bestKey as SearchKey)))) {
      best = scored;
      bestKey = key;
    }
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
