/**
 * A candidate's probability of being the registration sought (Fellegi-Sunter): each detail compared
 * at its levels (names.ts, dates.ts), each level adding its weight of evidence, log2(m/u) bits
 * (vocabulary.ts), an exact name's `u` its own share of the register (term frequency); the sum
 * added to the prior (one registration of the register's `records` is the one sought) and turned
 * into a probability. Over each way the record can be found (each party, each of its dates), the
 * best kept. The same query and record always give the same score.
 */
import type { RegisterCounts, SearchKey, SuggestionCandidates } from '../model/records.ts';

export type { RegisterCounts };
import { keyAt, packCandidates } from './candidates.ts';
import { compareDate } from './dates.ts';
import { compareForenames, compareSurname, firstWord, givenName } from './names.ts';
import { type Detail, MATCH_KINDS, type MatchKind, LEVELS, levelWeight } from './vocabulary.ts';

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
  if (!stored.forenames || query.surname[0] !== stored.forenames[0] || query.forenames[0] !== stored.surname[0])
    return false;
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
export const probabilityOf = (evidence: number, records: number): number =>
  1 / (1 + 2 ** -(evidence + priorBits(records)));

/** An exact name's `u`: its share of the register (at least one registration's), or the default when not counted. */
const shareOf = (count: number, records: number) =>
  count > 0 && records > 1 ? Math.max(count, 1) / records : undefined;

/** The evidence a probability needs, given the register's size: the floor in bits. */
const evidenceFor = (probability: number, records: number): number =>
  probability <= 0
    ? -Infinity
    : probability >= 1
      ? Infinity
      : Math.log2(probability / (1 - probability)) - priorBits(records);

/** Whether key `a` of the candidates comes before key `b`: by date, then surname, then forenames. */
function before({ keys, strings }: SuggestionCandidates, a: number, b: number): boolean {
  for (let part = 0; part < 3; part++) {
    const x = strings[keys[a * 3 + part]];
    const y = strings[keys[b * 3 + part]];
    if (x !== y) return x < y;
  }
  return false;
}

/**
 * A candidate's best key (a key of the candidates, by number) and its evidence, before it is described
 * (Scorer.describe).
 */
export interface Best {
  readonly key: number;
  readonly evidence: number;
}

/**
 * One query's scoring, for every candidate of its close matches. A query's candidates share their
 * names and many their dates (a pass brings the registrations of one name's sound, or of one day),
 * and each distinct string comes once in the candidates (candidates.ts): each is compared with the
 * query's once, its level kept by its number, so that a key costs a few array reads and a sum. The
 * weights of the query's levels are worked out once (an exact name's with the name's own share of
 * the register).
 */
export interface Scorer {
  /** The score a sum of weights gives: its probability (the register's size the prior), three places. */
  readonly score: (evidence: number) => number;
  /**
   * Candidate i's best key reaching `above`: on a tie the one first by date, then surname, then
   * forenames (so that the order a store gives the keys in changes nothing). Each key is compared
   * only as far as it takes to know it cannot reach `above` (the forenames, compared last, taken at
   * their best).
   */
  best(candidates: SuggestionCandidates, i: number, above: number): Best | undefined;
  /** Key k of the candidates: its score, what each detail matched and the weight each added. */
  describe(candidates: SuggestionCandidates, k: number): Scored;
}

/** A level's number: its place in MATCH_KINDS, plus one (0: not compared yet). */
const KIND_NUMBER = Object.fromEntries(MATCH_KINDS.map((kind, i) => [kind, i + 1])) as Record<MatchKind, number>;

/**
 * Each detail's weights by level number (NaN for a level the detail has not), with the default
 * `u`: worked out once, as a query changes only an exact name's.
 */
const DEFAULT_WEIGHTS = Object.fromEntries(
  (['surname', 'forenames', 'date'] as const).map((detail) => {
    const weights = new Float64Array(MATCH_KINDS.length + 1).fill(NaN);
    for (const level of LEVELS[detail]) weights[KIND_NUMBER[level.kind]] = levelWeight(detail, level.kind);
    return [detail, weights];
  }),
) as Record<Detail, Float64Array>;

/** A detail's weights for a query: the defaults, an exact name's from its own share of the register when counted. */
function weightsOf(detail: Detail, exactU: number | undefined): Float64Array {
  if (exactU === undefined) return DEFAULT_WEIGHTS[detail];
  const weights = Float64Array.from(DEFAULT_WEIGHTS[detail]);
  weights[KIND_NUMBER.exact] = levelWeight(detail, 'exact', exactU);
  return weights;
}

export function createScorer(query: MatchQuery, counts: RegisterCounts = NO_COUNTS): Scorer {
  const dateWeights = DEFAULT_WEIGHTS.date;
  const surnameWeights = weightsOf('surname', shareOf(counts.surname, counts.records));
  const forenamesWeights = weightsOf('forenames', shareOf(counts.forename, counts.records));
  const swappedWeight = surnameWeights[KIND_NUMBER.swapped] + forenamesWeights[KIND_NUMBER.swapped];
  const givenSurname = givenName(query.surname);
  const givenForenames = givenName(query.forenames);
  const queryFirst: FirstWords = { surname: givenSurname.words[0], forenames: givenForenames.words[0] };
  const bestForenames = forenamesWeights.reduce((most, weight) => Math.max(most, weight), -Infinity);
  const surnameInitial = query.surname.charCodeAt(0);
  const forenamesInitial = query.forenames.charCodeAt(0);
  const score = (evidence: number) => rounded(probabilityOf(evidence, counts.records), 3);

  // The level each string of the candidates compares at, as a date, a surname and forenames, by
  // the string's number (0: not yet compared); and its first letter's code plus one (-1 for none):
  // four numbers a string, side by side, in one array a query.
  let of: SuggestionCandidates | undefined;
  let levels = new Int32Array(0);
  const compared = (candidates: SuggestionCandidates) => {
    if (of === candidates) return;
    of = candidates;
    levels = new Int32Array(candidates.strings.length * 4);
  };
  const textOf = (n: number) => (of as SuggestionCandidates).strings[n];
  const dateAt = (n: number) => levels[n * 4] || (levels[n * 4] = KIND_NUMBER[compareDate(query.date, textOf(n))]);
  const surnameAt = (n: number) =>
    levels[n * 4 + 1] || (levels[n * 4 + 1] = KIND_NUMBER[compareSurname(givenSurname, textOf(n)).kind]);
  const forenamesAt = (n: number) =>
    levels[n * 4 + 2] || (levels[n * 4 + 2] = KIND_NUMBER[compareForenames(givenForenames, textOf(n)).kind]);
  const initialAt = (n: number) => levels[n * 4 + 3] || (levels[n * 4 + 3] = textOf(n).charCodeAt(0) + 1 || -1);
  /** Key k's names exchanged (swapped): told from the first letters first, as most keys are not. */
  const swappedAt = (candidates: SuggestionCandidates, k: number) =>
    initialAt(candidates.keys[k * 3 + 2]) === surnameInitial + 1 &&
    initialAt(candidates.keys[k * 3 + 1]) === forenamesInitial + 1 &&
    swapped(query, queryFirst, keyAt(candidates, k));

  const keyEvidence = (candidates: SuggestionCandidates, k: number, above: number): number | undefined => {
    const { keys } = candidates;
    const date = dateWeights[dateAt(keys[k * 3])];
    let evidence: number;
    if (swappedAt(candidates, k)) evidence = date + swappedWeight;
    else {
      const surname = date + surnameWeights[surnameAt(keys[k * 3 + 1])];
      if (surname + bestForenames < above) return undefined;
      evidence = surname + forenamesWeights[forenamesAt(keys[k * 3 + 2])];
    }
    return evidence < above ? undefined : evidence;
  };

  return {
    score,
    best(candidates, i, above) {
      compared(candidates);
      let best: number | undefined;
      let bestEvidence = -Infinity;
      for (let k = candidates.starts[i], end = candidates.starts[i + 1]; k < end; k++) {
        // Once one key is scored, a later one matters only if it has as much evidence or more.
        const evidence = keyEvidence(candidates, k, best === undefined ? above : bestEvidence);
        if (
          evidence !== undefined &&
          (best === undefined || evidence > bestEvidence || (evidence === bestEvidence && before(candidates, k, best)))
        ) {
          best = k;
          bestEvidence = evidence;
        }
      }
      return best === undefined ? undefined : { key: best, evidence: bestEvidence };
    },
    describe(candidates, k) {
      compared(candidates);
      const { keys } = candidates;
      const date = dateAt(keys[k * 3]);
      const [surname, forenames] = swappedAt(candidates, k)
        ? [KIND_NUMBER.swapped, KIND_NUMBER.swapped]
        : [surnameAt(keys[k * 3 + 1]), forenamesAt(keys[k * 3 + 2])];
      const surnameWeight = surnameWeights[surname];
      const forenamesWeight = forenamesWeights[forenames];
      const dateWeight = dateWeights[date];
      const evidence = surnameWeight + forenamesWeight + dateWeight;
      return {
        score: score(evidence),
        matched: {
          surname: MATCH_KINDS[surname - 1],
          forenames: MATCH_KINDS[forenames - 1],
          date: MATCH_KINDS[date - 1],
        },
        weights: {
          surname: rounded(surnameWeight, 2),
          forenames: rounded(forenamesWeight, 2),
          date: rounded(dateWeight, 2),
        },
        evidence,
      };
    },
  };
}

/** The query against one of a record's keys. */
export const scoreKey = (query: MatchQuery, stored: SearchKey, counts: RegisterCounts = NO_COUNTS): Scored =>
  createScorer(query, counts).describe(packCandidates([{ id: 0, keys: [stored] }]), 0);

/** The evidence the floor (a probability) needs: a probability rounds to the floor from half a thousandth under it. */
export const floorEvidence = (floor: number, records: number): number => evidenceFor(floor - 0.0005, records);

/**
 * The query against a record: its best key (Scorer.best). Undefined for a record with no keys, or,
 * given a floor (a probability), for one whose best key is under it (its keys are then compared
 * only as far as it takes to know).
 */
export function scoreRecord(
  query: MatchQuery,
  keys: readonly SearchKey[],
  floor = 0,
  counts: RegisterCounts = NO_COUNTS,
): Scored | undefined {
  const scorer = createScorer(query, counts);
  const candidates = packCandidates([{ id: 0, keys }]);
  const best = candidates.ids.length ? scorer.best(candidates, 0, floorEvidence(floor, counts.records)) : undefined;
  const scored = best && scorer.describe(candidates, best.key);
  return scored && scored.score >= floor ? scored : undefined;
}

/**
 * `exact` when the name given is written as one of the registered names is, `normalised` when it is
 * equal to one only after normalisation (case, accents, punctuation); any other kind as it is.
 * Without the registered names (a blocked record's may be absent), `exact` stands.
 */
export function namedExactly(
  kind: MatchKind,
  given: string | undefined,
  registered: () => readonly unknown[],
): MatchKind {
  if (kind !== 'exact' || given === undefined) return kind;
  const names = registered().filter((name): name is string => typeof name === 'string');
  if (!names.length) return kind;
  const written = given.trim();
  return names.some((name) => name.trim() === written) ? 'exact' : 'normalised';
}
