/**
 * Close matches as the pages show them: each candidate with its names and date, and a sentence a
 * caseworker reads for each detail, with how much it counts ("Forenames: Kathryn sounds like
 * Catherine: some evidence for"). Which party and
 * which date of the record the sentence names is the one whose comparison (src/match, the rules the
 * API scored by, scoreKey) gives the kinds the API reported.
 */
import type { RecordDescription } from '../records/define.ts';
import { readPath } from '../records/define.ts';
import { normaliseName } from '../records/normalise.ts';
import { partySearchKeys } from '../records/search-keys.ts';
import { capitalised } from '../records/wording.ts';
import { scoreKey } from '../match/score.ts';
import type { MatchKind } from '../match/vocabulary.ts';
import { longDate } from './dates.ts';

interface CandidateView {
  readonly id: number;
  readonly blocked: boolean;
  /** Names of each party, then the date, as the results table shows them. */
  readonly cells: readonly string[];
  /** The probability that it is the registration sought, out of 100. */
  readonly percent: number;
  readonly explanations: readonly string[];
}

interface Candidate {
  readonly score: number;
  readonly matched: Readonly<Record<string, string>>;
  /** The evidence each detail added, in bits (docs/search.md); absent from an answer without it. */
  readonly weights?: Readonly<Record<string, number>>;
  readonly record: unknown;
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** One detail in plain words: what was given, how it stands to what is registered. */
export function explain(label: string, kind: MatchKind, given: string, registered: string, otherLabel: string): string {
  switch (kind) {
    case 'exact':
      return `${label}: ${given} is as registered`;
    case 'normalised':
      return `${label}: ${given} is registered as ${registered}, with different capitals, accents or punctuation`;
    case 'word-prefix':
      return `${label}: ${given} is how ${registered} begins`;
    case 'nickname':
      return `${label}: ${given} is another form of ${registered}`;
    case 'sound-alike':
      return `${label}: ${given} sounds like ${registered}`;
    case 'spelling':
      return `${label}: ${given} is a different spelling of ${registered}`;
    case 'part-of-name':
      return `${label}: ${given} is part of ${registered}, or ${registered} part of ${given}`;
    case 'swapped':
      return `${label}: ${given} is registered as the ${otherLabel.toLowerCase()}`;
    case 'day-month-swapped':
      return `${label}: ${given} has the day and month the other way round from ${registered}`;
    case 'near-date':
      return `${label}: ${given} is close to ${registered}`;
    case 'two-edits':
      return `${label}: ${given} is spelt two letters differently from ${registered}`;
    case 'similar':
      return `${label}: ${given} is spelt much like ${registered}`;
    case 'loosely-similar':
      return `${label}: ${given} is spelt a little like ${registered}`;
    case 'year-digit':
      return `${label}: ${given} has the day and month of ${registered}, with a digit of the year different`;
    case 'two-digits':
      return `${label}: ${given} differs from ${registered} in two digits`;
    case 'within-month':
      return `${label}: ${given} is within a month of ${registered}`;
    case 'missing':
      return `${label}: none is registered`;
    case 'different':
      return `${label}: ${given} does not match ${registered || 'what is registered'}`;
  }
}

/** How much a detail's weight (bits of evidence, log2 m/u) says, in plain words. */
export function evidence(weight: number): string {
  if (weight >= 10) return 'very strong evidence for';
  if (weight >= 5) return 'strong evidence for';
  if (weight >= 1) return 'some evidence for';
  if (weight > -1) return 'hardly evidence either way';
  if (weight > -5) return 'weak evidence against';
  return 'strong evidence against';
}

/** The candidates of an answer, ready for the page; `given` is the query as sent (the API's parameter names). */
export function candidateViews(
  description: RecordDescription,
  given: Readonly<Record<string, string>>,
  candidates: readonly Candidate[],
): CandidateView[] {
  const { parties, dateParam } = description.search;
  return candidates.map(({ score, matched, weights, record }) => {
    const id = readPath(record, 'id') as number;
    const blocked = readPath(record, description.blockedFlag) !== false;
    const cells = [
      ...parties.map((party) =>
        [text(readPath(record, party.forenames)), text(readPath(record, party.surname))].filter(Boolean).join(' '),
      ),
      longDate(text(readPath(record, description.verification.date.path))),
    ];
    const percent = Math.round(score * 100);
    if (blocked)
      return {
        id,
        blocked,
        cells,
        percent,
        explanations: ['This registration is blocked: only its system number can be shown'],
      };
    const surnameKind = matched.surname as MatchKind;
    const forenamesKind = matched.forenames as MatchKind;
    const dateKind = matched[dateParam] as MatchKind;
    // The party and the date the API matched: the first key of the record that the API's own rule
    // (scoreKey) finds at the kinds it reported, an exact name standing for one written otherwise.
    const query = {
      surname: normaliseName(given.surname),
      forenames: normaliseName(given.forenames),
      date: given[dateParam],
    };
    const same = (kind: MatchKind, reported: MatchKind) =>
      kind === reported || (kind === 'exact' && reported === 'normalised');
    const found = parties
      .flatMap((party) => partySearchKeys(party, record).map((key) => ({ party, key })))
      .find(({ key }) => {
        const kinds = scoreKey(query, key).matched;
        return same(kinds.surname, surnameKind) && same(kinds.forenames, forenamesKind) && kinds.date === dateKind;
      });
    const party = found?.party ?? parties[0];
    const registeredSurname = text(readPath(record, party.surname));
    // Compared word by word: the registered forenames' leading words, as many as were given.
    const wordByWord = forenamesKind === 'nickname' || forenamesKind === 'sound-alike' || forenamesKind === 'spelling';
    const givenWords = given.forenames.trim().split(/\s+/).length;
    const allForenames = text(readPath(record, party.forenames));
    const registeredForenames = wordByWord ? allForenames.split(/\s+/).slice(0, givenWords).join(' ') : allForenames;
    const date = found?.key.date ?? text(readPath(record, party.dates[0]));
    const dateLabel = description.search.dateDescription.replace(/,? ?YYYY-MM-DD\.?$/, '').replace(/^The /, '');
    return {
      id,
      blocked,
      cells,
      percent,
      explanations: [
        [explain('Surname', surnameKind, given.surname, registeredSurname, 'Forenames'), weights?.surname],
        [explain('Forenames', forenamesKind, given.forenames, registeredForenames, 'Surname'), weights?.forenames],
        [
          explain(capitalised(dateLabel), dateKind, longDate(given[dateParam]), longDate(date), ''),
          weights?.[dateParam],
        ],
      ].map(([sentence, weight]) =>
        typeof weight === 'number' ? `${sentence as string}: ${evidence(weight)}` : (sentence as string),
      ),
    };
  });
}
