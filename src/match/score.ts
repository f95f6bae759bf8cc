/**
 * A candidate's probability of being the registration sought (Fellegi-Sunter): each detail compared
 * at its levels (names.ts, dates.ts), each level adding its weight of evidence, log2(m/u) bits
 * (vocabulary.ts), an exact name's `u` its own share of the register (term frequency); the sum
 * added to the prior (one registration of the register's `records` is the one sought) and turned
 * into a probability. Over each way the record can be found (each party, each of its dates), the
 * best kept. The same query and record always give the same score.
 */
import type { RegisterCounts, SearchKey } from '../types/records.ts';

export type { RegisterCounts };
import { compareDate } from './dates.ts';
import { compareForenames, compareSurname } from './names.ts';
import { type Detail, type MatchKind, LEVELS, levelWeight } from './vocabulary.ts';

/** What each detail of the query matched. */
export interface Matched {
  readonly surname: MatchKind;
  readonly forenames: MatchKind;
  readonly date: MatchKind;
}

/** The bits of evidence each detail added (negative: against), two decimal places. */
export type Weights = Readonly<Record<Detail, number>>;

export interface Scored {
  /** The probability that the record is the registration sought, 0 to 1, three decimal places. */
  readonly score: number;
  readonly matched: Matched;
  readonly weights: Weights;
  /** The weights' sum, unrounded: what candidates are ordered by. */
  readonly evidence: number;
}

/** A query as the match compares it: names normalised (normaliseName), the date YYYY-MM-DD. */
export type MatchQuery = SearchKey;

/** For a register nothing is known of: a name's `u` is then its level's default. */
export const NO_COUNTS: RegisterCounts = { records: 1, surname: 0, forename: 0 };

const rounded = (value: number, places: number) => Math.round(value * 10 ** places) / 10 ** places;

const firstWord = (name: string) => {
  const space = name.indexOf(' ');
  return space < 0 ? name : name.slice(0, space);
};

/** Forenames given as the surname and the surname as the forenames (the first forename, if several). */
function swapped(query: MatchQuery, stored: SearchKey): boolean {
  if (!stored.forenames) return false;
  return query.surname === firstWord(stored.forenames) && (query.forenames === stored.surname || firstWord(query.forenames) === stored.surname);
}

/** The prior odds, in bits, that a registration is the one sought: one in the register's records. */
const priorBits = (records: number) => -Math.log2(Math.max(1, records - 1));

/** A sum of weights as a probability, given the register's size. */
export const probabilityOf = (evidence: number, records: number): number => 1 / (1 + 2 ** -(evidence + priorBits(records)));

/** An exact name's `u`: its share of the register (at least one registration's), or the default when not counted. */
const shareOf = (count: number, records: number) => (count > 0 && records > 1 ? Math.max(count, 1) / records : undefined);

const BEST_FORENAMES = Math.max(...LEVELS.forenames.map((level) => Math.log2(level.m / level.u)));

/**
 * The query against one of a record's keys, or undefined when its evidence cannot reach `above`
 * (the forenames, compared last, taken at their best).
 */
function scoreKeyAbove(query: MatchQuery, stored: SearchKey, counts: RegisterCounts, above: number): Scored | undefined {
  const date = compareDate(query.date, stored.date);
  const dateWeight = levelWeight('date', date);
  let surname: MatchKind;
  let forenames: MatchKind;
  let surnameWeight: number;
  let forenamesWeight: number;
  if (swapped(query, stored)) {
    [surname, forenames] = ['swapped', 'swapped'];
    [surnameWeight, forenamesWeight] = [levelWeight('surname', 'swapped'), levelWeight('forenames', 'swapped')];
  } else {
    surname = compareSurname(query.surname, stored.surname).kind;
    surnameWeight = levelWeight('surname', surname, shareOf(counts.surname, counts.records));
    const exactForenames = shareOf(counts.forename, counts.records);
    if (dateWeight + surnameWeight + Math.max(BEST_FORENAMES, exactForenames ? levelWeight('forenames', 'exact', exactForenames) : 0) < above) return undefined;
    forenames = compareForenames(query.forenames, stored.forenames).kind;
    forenamesWeight = levelWeight('forenames', forenames, exactForenames);
  }
  const evidence = surnameWeight + forenamesWeight + dateWeight;
  if (evidence < above) return undefined;
  return {
    score: rounded(probabilityOf(evidence, counts.records), 3),
    matched: { surname, forenames, date },
    weights: { surname: rounded(surnameWeight, 2), forenames: rounded(forenamesWeight, 2), date: rounded(dateWeight, 2) },
    evidence,
  };
}

/** The query against one of a record's keys. */
export const scoreKey = (query: MatchQuery, stored: SearchKey, counts: RegisterCounts = NO_COUNTS): Scored =>
  scoreKeyAbove(query, stored, counts, -Infinity) as Scored;

/** Whether one key comes before another: by date, then surname, then forenames. */
const before = (a: SearchKey, b: SearchKey) =>
  a.date !== b.date ? a.date < b.date : a.surname !== b.surname ? a.surname < b.surname : a.forenames < b.forenames;

/** The evidence a probability needs, given the register's size: the floor in bits. */
export const evidenceFor = (probability: number, records: number): number =>
  probability <= 0 ? -Infinity : probability >= 1 ? Infinity : Math.log2(probability / (1 - probability)) - priorBits(records);

/**
 * The query against a record: its best key, on a tie the one first by date, then surname, then
 * forenames (so that the order a store gives the keys in changes nothing). Undefined for a record
 * with no keys, or, given a floor (a probability), for one whose best key is under it (its keys are
 * then compared only as far as it takes to know).
 */
export function scoreRecord(query: MatchQuery, keys: readonly SearchKey[], floor = 0, counts: RegisterCounts = NO_COUNTS): Scored | undefined {
  let best: Scored | undefined;
  let bestKey: SearchKey | undefined;
  // A probability rounds to the floor from half a thousandth under it.
  const least = evidenceFor(floor - 0.0005, counts.records);
  for (const key of keys) {
    // Once one key is scored, a later one matters only if it has as much evidence or more.
    const scored = scoreKeyAbove(query, key, counts, best ? best.evidence : least);
    if (scored && (!best || scored.evidence > best.evidence || (scored.evidence === best.evidence && before(key, bestKey as SearchKey)))) {
      best = scored;
      bestKey = key;
    }
  }
  return best && best.score >= floor ? best : undefined;
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
