/**
 * The fixed vocabulary of close matching: the kinds of match a suggestion names for each detail
 * given, in the order their rules are tried, and what each is worth.
 * docs/search.md explains each with an example from the mock.
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
  'missing',
  'different',
] as const;
export type MatchKind = (typeof MATCH_KINDS)[number];

/** Each kind's place in MATCH_KINDS: the earlier kind is named when two score the same. */
export const KIND_ORDER = Object.fromEntries(MATCH_KINDS.map((kind, i) => [kind, i])) as Record<MatchKind, number>;

/**
 * What a detail matching in each way is worth, from 1 (the same) to 0 (nothing alike). A spelling
 * two edits away is worth a tenth less than one edit away.
 */
export const KIND_SCORES: Readonly<Record<MatchKind, number>> = {
  exact: 1,
  normalised: 1,
  'word-prefix': 0.95,
  swapped: 0.9,
  nickname: 0.9,
  'sound-alike': 0.85,
  'day-month-swapped': 0.85,
  spelling: 0.8,
  'part-of-name': 0.75,
  'near-date': 0.75,
  missing: 0.5,
  different: 0,
};

export const kindScore = (kind: MatchKind, edits = 0): number => (kind === 'spelling' && edits > 1 ? KIND_SCORES.spelling - 0.1 : KIND_SCORES[kind]);

/** How much each detail counts towards a candidate's score: they add up to 1. */
export const WEIGHTS = { surname: 0.4, forenames: 0.3, date: 0.3 } as const;
