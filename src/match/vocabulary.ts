/**
 * The fixed vocabulary of close matching and the evidence each word carries: for each detail (the
 * surname, the forenames, the date), its comparison levels in the order their rules are tried, each
 * named by a word of the vocabulary and carrying Fellegi-Sunter probabilities:
 * - `m`: how often the detail compares at that level when the record is the registration sought
 *   (an error made on the form, or none);
 * - `u`: how often it does between two different registrations (chance).
 * The level adds log2(m / u) bits of evidence for the match (a negative weight is evidence
 * against). An exact name's `u` is the name's own share of the register (term frequency: Smith
 * says less than Ollerenshaw), counted by the store as records are written; the others are
 * defaults, measured against the register's own pairs by `npm run bench:suggest`.
 * docs/search.md explains each word with an example from the mock, and lists the weights.
 */
export const MATCH_KINDS = [
  'exact',
  'normalised',
  'word-prefix',
  'swapped',
  'nickname',
  'sound-alike',
  'day-month-swapped',
  'spelling',
  'part-of-name',
  'near-date',
  'two-edits',
  'similar',
  'year-digit',
  'two-digits',
  'loosely-similar',
  'within-month',
  'missing',
  'different',
] as const;
export type MatchKind = (typeof MATCH_KINDS)[number];

/** A comparison level: the word it is named by, and its m and u probabilities. */
interface Level {
  readonly kind: MatchKind;
  readonly m: number;
  readonly u: number;
}

export type Detail = 'surname' | 'forenames' | 'date';

/**
 * Each detail's levels, the strongest first: a name of several words matches only as well as its
 * weakest word, the latest level of its words'. `swapped` (the surname given as the forenames and
 * the first forename as the surname) is one piece of evidence for both names: its weight is the
 * surname's, and the forenames' is 0.
 */
export const LEVELS: Readonly<Record<Detail, readonly Level[]>> = {
  surname: [
    { kind: 'exact', m: 0.815, u: 0.002 },
    { kind: 'swapped', m: 0.01, u: 0.000_01 },
    { kind: 'sound-alike', m: 0.03, u: 0.002 },
    { kind: 'spelling', m: 0.03, u: 0.000_5 },
    { kind: 'part-of-name', m: 0.005, u: 0.000_2 },
    { kind: 'two-edits', m: 0.01, u: 0.001 },
    { kind: 'similar', m: 0.008, u: 0.004 },
    { kind: 'loosely-similar', m: 0.012, u: 0.05 },
    { kind: 'different', m: 0.08, u: 0.94 },
  ],
  forenames: [
    { kind: 'exact', m: 0.77, u: 0.01 },
    { kind: 'swapped', m: 1, u: 1 },
    { kind: 'word-prefix', m: 0.05, u: 0.004 },
    { kind: 'nickname', m: 0.02, u: 0.002 },
    { kind: 'sound-alike', m: 0.02, u: 0.004 },
    { kind: 'spelling', m: 0.025, u: 0.002 },
    { kind: 'part-of-name', m: 0.01, u: 0.001 },
    { kind: 'two-edits', m: 0.008, u: 0.002 },
    { kind: 'similar', m: 0.006, u: 0.006 },
    { kind: 'loosely-similar', m: 0.01, u: 0.05 },
    { kind: 'missing', m: 0.01, u: 0.01 },
    { kind: 'different', m: 0.08, u: 0.91 },
  ],
  date: [
    { kind: 'exact', m: 0.82, u: 0.000_03 },
    { kind: 'day-month-swapped', m: 0.03, u: 0.000_01 },
    { kind: 'near-date', m: 0.05, u: 0.000_5 },
    { kind: 'year-digit', m: 0.03, u: 0.000_2 },
    { kind: 'two-digits', m: 0.02, u: 0.003 },
    { kind: 'within-month', m: 0.01, u: 0.001 },
    { kind: 'different', m: 0.04, u: 0.995 },
  ],
};

const byKind = (levels: readonly Level[]) =>
  Object.fromEntries(levels.map((level, i) => [level.kind, { ...level, rank: i }]));
const LEVEL_OF = {
  surname: byKind(LEVELS.surname),
  forenames: byKind(LEVELS.forenames),
  date: byKind(LEVELS.date),
} as Record<Detail, Record<string, Level & { rank: number }>>;

/** A level's place among its detail's, 0 the strongest: a name matches as well as its weakest word. */
export const levelRank = (detail: Detail, kind: MatchKind): number => LEVEL_OF[detail][kind]?.rank ?? Infinity;

/** A level of a detail, or undefined for a word the detail never takes. */
export const levelOf = (detail: Detail, kind: MatchKind): Level | undefined => LEVEL_OF[detail][kind];

/** `normalised` is `exact` as the comparison makes it: the route tells them apart by the names as written. */
const asCompared = (kind: MatchKind): MatchKind => (kind === 'normalised' ? 'exact' : kind);

/**
 * The bits of evidence (log2 m/u) a detail's level adds; `exactU` in place of the level's `u` for
 * exact agreement, the name's own share of the register (term frequency).
 */
export function levelWeight(detail: Detail, kind: MatchKind, exactU?: number): number {
  const level = LEVEL_OF[detail][asCompared(kind)];
  if (!level) throw new Error(`${detail} has no level ${kind}`);
  const u = level.kind === 'exact' && exactU !== undefined ? exactU : level.u;
  return Math.log2(level.m / u);
}
