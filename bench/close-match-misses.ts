/**
 * What the close matches that miss lose to: the scale bench's recall queries (the error model of
 * bench/lib/errors.ts over births drawn across the register, bench/lib/scale-workload.ts) asked of
 * a close-match index of generated births held in this process, each query's candidates scored in
 * full. For every query whose registration is not among the first ten, why:
 *
 * - not a candidate: no blocking pass brought it (the passes' caps, or no key in common); each such
 *   miss is counted by the passes that share a key with it, and so would have brought it without
 *   their caps ("none": no key in common, beyond any cap);
 * - under the floor: among the first ten of every candidate, but scored below SUGGEST_MIN_PROBABILITY;
 * - outranked: ten or more candidates had more evidence, the floor aside;
 * - tied: fewer than ten had more, and those with as much came first by id.
 *
 * And the recall a tie ordered otherwise gives: by the nearer date, or by the names' Jaro-Winkler
 * similarity to those asked (finer than their levels) and then the nearer date.
 *
 * And the recall the same ranking gives with the floor asking for the evidence it asks for in a
 * register of 100,000 births (the floor is a probability, so a register ten times as large asks for
 * 3.3 bits more).
 *
 * And the bound that holds for any ranking of the details as the comparators give them (each
 * detail's level, names.ts and dates.ts): a miss with ten or more other candidates at least as good
 * in every detail (a weight as large or larger for the surname, the forenames and the date) cannot
 * be ranked into the ten by any score that rises with each detail's level, however weighted; one
 * with ten or more strictly better in one detail and no worse in any, not even by luck in a tie.
 * docs/performance.md (Recall and the passes' caps).
 *
 *   node --import tsx bench/close-match-misses.ts [--births 1000000] [--queries 4000] [--seed scale]
 */
import { parseArgs } from 'node:util';
import { configReference } from '../src/config/index.ts';
import { recordType } from '../src/load/conversion.ts';
import { generateRecords, recordAt } from '../src/generate/records.ts';
import { Random } from '../src/generate/random.ts';
import { keyAt } from '../src/match/candidates.ts';
import { dayNumber } from '../src/match/dates.ts';
import { candidatePasses } from '../src/match/keys.ts';
import { createScorer, floorEvidence } from '../src/match/score.ts';
import { loadRecordTypes } from '../src/records/index.ts';
import { normaliseName } from '../src/records/normalise.ts';
import { similarity } from '../src/match/names.ts';
import { createSuggestionIndex } from '../src/store/suggestion-index.ts';
import { scaleWorkload } from './lib/scale-workload.ts';

const { values: options } = parseArgs({
  options: {
    births: { type: 'string', default: '1000000' },
    queries: { type: 'string', default: '4000' },
    seed: { type: 'string', default: 'scale' },
  },
});
const births = Number(options.births);
const seed = options.seed as string;
const floor = Number(configReference().find((s) => s.name === 'SUGGEST_MIN_PROBABILITY')?.default);
const LIMIT = 10;

const description = (await loadRecordTypes()).find((d) => d.name === 'birth')!;
const checked = recordType(description);
const index = createSuggestionIndex();
const started = performance.now();
for (const entry of generateRecords('birth', { count: births, seed })) {
  const stored = checked.toStored(entry);
  if ('reason' in stored) throw new Error(stored.reason);
  index.add(stored.id, stored.keys);
}
index.settle();
console.log(`${births} births indexed in ${((performance.now() - started) / 1000).toFixed(0)} s`);

// The records the queries are made from, drawn across the register as the scale bench draws them.
const r = Random.fromString(`close-match-misses\u0000${seed}`);
const sample = Array.from({ length: Number(options.queries) }, () =>
  recordAt('birth', { count: births, seed }, r.int(0, births - 1)),
);
const { recall } = scaleWorkload(description, sample, 1, seed);

let candidateCount = 0;
/** The misses that were not candidates, by the passes that share a key with them. */
const cutBy = new Map<string, number>();
/** The tied misses, by the levels the registration's details matched at (surname/forenames/date). */
const tiedBy = new Map<string, number>();
const counts = {
  asked: 0,
  found: 0,
  notCandidate: 0,
  /** Among the first ten of every candidate, but under the floor. */
  underFloor: 0,
  outranked: 0,
  tied: 0,
  /** Among the first ten with the floor's evidence as it is in a register of 100,000 births. */
  foundAtFixedFloor: 0,
  /** Among the first ten with a tie ordered by the nearer date, then by id. */
  foundNearerFirst: 0,
  /** The same, a tie ordered by the names' similarity, then the nearer date, then id. */
  foundAlikeFirst: 0,
  /** Misses with ten or more others at least as good in every detail. */
  atLeastAsGood: 0,
  /** Misses with ten or more others better in one detail and no worse in any. */
  dominated: 0,
};
/** The evidence the floor asks for in a register of 100,000 births: what the recall target's baseline asked. */
const fixedFloor = floorEvidence(floor, 100_000);
const least = floorEvidence(floor, births);

interface Candidate {
  readonly id: number;
  /** Days from the date asked to its best key's. */
  readonly days: number;
  readonly evidence: number;
  /** Jaro-Winkler similarity of its best key's surname to the one asked, plus that of its forenames. */
  readonly alike: number;
  readonly weights: Readonly<Record<'surname' | 'forenames' | 'date', number>>;
  readonly matched: Readonly<Record<'surname' | 'forenames' | 'date', string>>;
}
/** Whether `a` comes before `b` in the answer: more evidence, then the lower id. */
const byId = (a: Candidate, b: Candidate) => a.evidence > b.evidence || (a.evidence === b.evidence && a.id < b.id);
/** The same, with a tie ordered by the nearer date first. */
const nearerFirst = (a: Candidate, b: Candidate) =>
  a.evidence > b.evidence || (a.evidence === b.evidence && (a.days < b.days || (a.days === b.days && a.id < b.id)));
/** The same, with a tie ordered by the names' similarity first, then the nearer date. */
const alikeFirst = (a: Candidate, b: Candidate) =>
  a.evidence > b.evidence ||
  (a.evidence === b.evidence && (a.alike > b.alike || (a.alike === b.alike && nearerFirst(a, b))));
const noWorse = (a: Candidate, b: Candidate) =>
  a.weights.surname >= b.weights.surname &&
  a.weights.forenames >= b.weights.forenames &&
  a.weights.date >= b.weights.date;

for (const { path, truth } of recall) {
  const params = new URLSearchParams(path.slice(path.indexOf('?') + 1));
  const query = {
    surname: normaliseName(params.get('surname')!),
    forenames: normaliseName(params.get('forenames')!),
    date: params.get(description.search.dateParam)!,
  };
  counts.asked++;
  const candidates = index.candidates(candidatePasses(query));
  candidateCount += candidates.ids.length;
  const scorer = createScorer(query, {
    records: births,
    ...index.nameCounts(query.surname, query.forenames.split(' ')[0]),
  });
  const asked = dayNumber(query.date);
  const scored: Candidate[] = candidates.ids.map((id, i) => {
    const { key } = scorer.best(candidates, i, -Infinity)!;
    const best = keyAt(candidates, key);
    return {
      id,
      days: Math.abs(dayNumber(best.date) - asked),
      alike: similarity(query.surname, best.surname) + similarity(query.forenames, best.forenames),
      ...scorer.describe(candidates, key),
    };
  });
  const sought = scored.filter((c) => truth.has(c.id)).sort((a, b) => (byId(a, b) ? -1 : 1))[0];
  if (!sought) {
    counts.notCandidate++;
    const sharing = candidatePasses(query)
      .filter((pass) => index.candidates([{ ...pass, limit: births }]).ids.some((id) => truth.has(id)))
      .map((pass) => pass.name);
    const passes = sharing.length ? sharing.join(' ') : 'none';
    cutBy.set(passes, (cutBy.get(passes) ?? 0) + 1);
    continue;
  }
  const others = scored.filter((c) => !truth.has(c.id));
  const reaching = (atLeast: number) => others.filter((c) => c.evidence >= atLeast);
  /** Whether it is among the first ten, ordered by `before`, of the candidates reaching `atLeast`. */
  const firstTen = (atLeast: number, before: typeof byId) =>
    sought.evidence >= atLeast && reaching(atLeast).filter((c) => before(c, sought)).length < LIMIT;
  if (firstTen(fixedFloor, byId)) counts.foundAtFixedFloor++;
  if (firstTen(least, nearerFirst)) counts.foundNearerFirst++;
  if (firstTen(least, alikeFirst)) counts.foundAlikeFirst++;
  if (firstTen(least, byId)) {
    counts.found++;
    continue;
  }
  // A miss: where it ranks among every candidate, those under the floor included.
  if (others.filter((c) => byId(c, sought)).length < LIMIT) counts.underFloor++;
  else if (others.filter((c) => c.evidence > sought.evidence).length >= LIMIT) counts.outranked++;
  else {
    counts.tied++;
    const levels = `${sought.matched.surname}/${sought.matched.forenames}/${sought.matched.date}`;
    tiedBy.set(levels, (tiedBy.get(levels) ?? 0) + 1);
  }
  const asGood = others.filter((c) => noWorse(c, sought));
  if (asGood.length >= LIMIT) counts.atLeastAsGood++;
  if (asGood.filter((c) => c.evidence > sought.evidence).length >= LIMIT) counts.dominated++;
}

const pct = (n: number) => `${((100 * n) / counts.asked).toFixed(1)}%`;
console.log(
  `births ${births}, queries asked ${counts.asked}, ${(candidateCount / counts.asked).toFixed(0)} candidates a query`,
);
console.log(`recall at ${LIMIT}: ${pct(counts.found)}`);
console.log(
  `missed: not a candidate ${pct(counts.notCandidate)}, under the floor ${pct(counts.underFloor)}, ` +
    `outranked ${pct(counts.outranked)}, tied ${pct(counts.tied)}`,
);
console.log(
  `recall at ${LIMIT} with the floor's evidence of a register of 100,000 (${fixedFloor.toFixed(1)} bits): ` +
    pct(counts.foundAtFixedFloor),
);
console.log(`recall at ${LIMIT} with a tie ordered by the nearer date, then by id: ${pct(counts.foundNearerFirst)}`);
console.log(
  `recall at ${LIMIT} with a tie ordered by the names' similarity, then the nearer date, then id: ` +
    pct(counts.foundAlikeFirst),
);
console.log(
  `misses with ${LIMIT} or more others at least as good in every detail: ${pct(counts.atLeastAsGood)}; ` +
    `better in one and no worse in any: ${pct(counts.dominated)}`,
);
console.log(`recall at ${LIMIT} no ranking of the levels can exceed: ${pct(counts.asked - counts.atLeastAsGood)}`);
console.log(
  'not a candidate, by the passes sharing a key with it: ' +
    [...cutBy]
      .sort((a, b) => b[1] - a[1])
      .map(([passes, n]) => `${passes} ${pct(n)}`)
      .join(', '),
);
console.log(
  'tied, by the levels of the surname/forenames/date: ' +
    [...tiedBy]
      .sort((a, b) => b[1] - a[1])
      .map(([levels, n]) => `${levels} ${n}`)
      .join(', '),
);
