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
type MatchQuery = SearchKey;

/** For a register nothing is known of: a name's `u` is then its level's default. */
const NO_COUNTS: RegisterCounts = { records: 1, surname: 0, forename: 0 };

const rounded = (value: number, places: number) => Math.round(value * 10 ** places) / 10 ** places;

const firstWord = (name: string) => {
  const space = name.indexOf(' ');
  return space < 0 ? name : name.slice(0, space);
};

/** The first word of the query's names, worked out once a query. */
interface FirstWords {
  readonly surname: string;
  readonly forenames: string;
}

/** Name levels close enough for one of two exchanged names: the name itself, or a slip of it. */
const SWAPPED_ALIKE = new Set<MatchKind>(['exact', 'sound-alike', 'spelling']);

/**
 * Forenames given as the surname and the surname as the forenames: the whole forenames or the first
 * of them in the surname's place, and the surname, alone or first, in the forenames'; or so with
 * one of the two misspelt (alike in sound, or an edit out) and the other exact, as a form that
 * exchanged the fields and was typed with a slip gives them. Each side starts with the other's
 * letter first, so that most records are told apart without a comparison.
 */
function swapped(query: MatchQuery, queryFirst: FirstWords, stored: SearchKey): boolean {
  // Every way below needs the query's surname to start as the registered forenames do, and its
  // forenames as the registered surname: told from the first letters, most keys cost no more.
  if (!stored.forenames || query.surname[0] !== stored.forenames[0] || query.forenames[0] !== stored.surname[0]) return false;
  const first = firstWord(stored.forenames);
  const asSurname = query.surname === stored.forenames || query.surname === first;
  const asForenames = query.forenames === stored.surname || queryFirst.forenames === stored.surname;
  if (asSurname && asForenames) return true;
  if (asSurname === asForenames) return false;
  return asSurname
    ? SWAPPED_ALIKE.has(compareSurname(queryFirst.forenames, stored.surname).kind)
    : SWAPPED_ALIKE.has(compareSurname(queryFirst.surname, first).kind);
}

/** The prior odds, in bits, that a registration is the one sought: one in the register's records. */
const priorBits = (records: number) => -Math.log2(Math.max(1, records - 1));

/** A sum of weights as a probability, given the register's size. */
export const probabilityOf = (evidence: number, records: number): number => 1 / (1 + 2 ** -(evidence + priorBits(records)));

/** An exact name's `u`: its share of the register (at least one registration's), or the default when not counted. */
const shareOf = (count: number, records: number) => (count > 0 && records > 1 ? Math.max(count, 1) / records : undefined);

/** The evidence a probability needs, given the register's size: the floor in bits. */
const evidenceFor = (probability: number, records: number): number =>
  probability <= 0 ? -Infinity : probability >= 1 ? Infinity : Math.log2(probability / (1 - probability)) - priorBits(records);

/** Whether one key comes before another: by date, then surname, then forenames. */
const before = (a: SearchKey, b: SearchKey) =>
  a.date !== b.date ? a.date < b.date : a.surname !== b.surname ? a.surname < b.surname : a.forenames < b.forenames;

/** A record's best key and its evidence, before it is described (Scorer.describe). */
export interface Best {
  readonly key: SearchKey;
  readonly evidence: number;
}

/**
 * One query's scoring, for every candidate of its close matches. A query's candidates share their
 * names (a pass brings the registrations of one name's sound, with any date), so each registered
 * surname and forenames is compared with the query's once, and kept; a date, cheaper to compare
 * than to keep, is compared each time. A candidate then costs a date's comparison, two lookups and
 * a sum. The weights of the query's levels are worked out once (an exact name's with the name's
 * own share of the register).
 */
export interface Scorer {
  /** The score a sum of weights gives: its probability (the register's size the prior), three places. */
  readonly score: (evidence: number) => number;
  /** The evidence a key has, or undefined when it cannot reach `above` (the forenames, compared last, taken at their best). */
  keyEvidence(stored: SearchKey, above: number): number | undefined;
  /**
   * A record's best key reaching `above`: on a tie the one first by date, then surname, then
   * forenames (so that the order a store gives the keys in changes nothing).
   */
  best(keys: readonly SearchKey[], above: number): Best | undefined;
  /** A key's score, what each detail matched and the weight each added. */
  describe(stored: SearchKey): Scored;
}

const DETAILS = ['surname', 'forenames', 'date'] as const;
/** Each level's weight with its default `u`, worked out once: a query changes only an exact name's. */
const DEFAULT_WEIGHTS = Object.fromEntries(
  DETAILS.map((detail) => [detail, Object.fromEntries(LEVELS[detail].map((level) => [level.kind, levelWeight(detail, level.kind)]))]),
) as Record<Detail, Partial<Record<MatchKind, number>>>;

export function createScorer(query: MatchQuery, counts: RegisterCounts = NO_COUNTS): Scorer {
  const exactU = { surname: shareOf(counts.surname, counts.records), forenames: shareOf(counts.forename, counts.records), date: undefined };
  const weights = {} as Record<Detail, Partial<Record<MatchKind, number>>>;
  for (const detail of DETAILS) weights[detail] = exactU[detail] === undefined ? DEFAULT_WEIGHTS[detail] : { ...DEFAULT_WEIGHTS[detail], exact: levelWeight(detail, 'exact', exactU[detail]) };
  const queryFirst: FirstWords = { surname: firstWord(query.surname), forenames: firstWord(query.forenames) };
  const bestForenames = Math.max(...Object.values(weights.forenames) as number[]);
  const surnames = new Map<string, MatchKind>();
  const forenames = new Map<string, MatchKind>();
  // Dates are compared afresh: most of a query's candidates have a date of their own, and a map
  // kept them at several times the cost of comparing them (about 0.1 µs).
  const dateOf = (date: string) => compareDate(query.date, date);
  const surnameOf = (surname: string) => {
    let kind = surnames.get(surname);
    if (kind === undefined) surnames.set(surname, (kind = compareSurname(query.surname, surname).kind));
    return kind;
  };
  const forenamesOf = (given: string) => {
    let kind = forenames.get(given);
    if (kind === undefined) forenames.set(given, (kind = compareForenames(query.forenames, given).kind));
    return kind;
  };
  const score = (evidence: number) => rounded(probabilityOf(evidence, counts.records), 3);

  const keyEvidence = (stored: SearchKey, above: number): number | undefined => {
    const date = weights.date[dateOf(stored.date)] as number;
    let evidence: number;
    if (swapped(query, queryFirst, stored)) evidence = date + (weights.surname.swapped as number) + (weights.forenames.swapped as number);
    else {
      const surname = date + (weights.surname[surnameOf(stored.surname)] as number);
      if (surname + bestForenames < above) return undefined;
      evidence = surname + (weights.forenames[forenamesOf(stored.forenames)] as number);
    }
    return evidence < above ? undefined : evidence;
  };

  return {
    score,
    keyEvidence,
    best(keys, above) {
      let best: Best | undefined;
      for (const key of keys) {
        // Once one key is scored, a later one matters only if it has as much evidence or more.
        const evidence = keyEvidence(key, best ? best.evidence : above);
        if (evidence !== undefined && (!best || evidence > best.evidence || (evidence === best.evidence && before(key, best.key)))) best = { key, evidence };
      }
      return best;
    },
    describe(stored) {
      const date = dateOf(stored.date);
      const [surname, forenames] = swapped(query, queryFirst, stored) ? (['swapped', 'swapped'] as const) : [surnameOf(stored.surname), forenamesOf(stored.forenames)];
      const surnameWeight = weights.surname[surname] as number;
      const forenamesWeight = weights.forenames[forenames] as number;
      const dateWeight = weights.date[date] as number;
      const evidence = surnameWeight + forenamesWeight + dateWeight;
      return {
        score: score(evidence),
        matched: { surname, forenames, date },
        weights: { surname: rounded(surnameWeight, 2), forenames: rounded(forenamesWeight, 2), date: rounded(dateWeight, 2) },
        evidence,
      };
    },
  };
}

/** The query against one of a record's keys. */
export const scoreKey = (query: MatchQuery, stored: SearchKey, counts: RegisterCounts = NO_COUNTS): Scored => createScorer(query, counts).describe(stored);

/** The evidence the floor (a probability) needs: a probability rounds to the floor from half a thousandth under it. */
export const floorEvidence = (floor: number, records: number): number => evidenceFor(floor - 0.0005, records);

/**
 * The query against a record: its best key (Scorer.best). Undefined for a record with no keys, or,
 * given a floor (a probability), for one whose best key is under it (its keys are then compared
 * only as far as it takes to know).
 */
export function scoreRecord(query: MatchQuery, keys: readonly SearchKey[], floor = 0, counts: RegisterCounts = NO_COUNTS): Scored | undefined {
  const scorer = createScorer(query, counts);
  const best = scorer.best(keys, floorEvidence(floor, counts.records));
  const scored = best && scorer.describe(best.key);
  return scored && scored.score >= floor ? scored : undefined;
}

/**
 * `exact` when the name given is written as one of the registered names is, `normalised` when it is
 * equal to one only after normalisation (case, accents, punctuation); any other kind as it is.
 * Without the registered names (a blocked record's may be absent), `exact` stands.
 */
export function namedExactly(kind: MatchKind, given: string | undefined, registered: () => readonly unknown[]): MatchKind {
  if (kind !== 'exact' || given === undefined) return kind;
  const names = registered().filter((name): name is string => typeof name === 'string');
  if (!names.length) return kind;
  const written = given.trim();
  return names.some((name) => name.trim() === written) ? 'exact' : 'normalised';
}
