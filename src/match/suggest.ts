/**
 * Close matches for a query, as the route answers them and the evaluation (bench/suggest-eval.ts)
 * measures them: the store's candidates (the union of the blocking passes of keys.ts), each scored
 * by its best key with the register's counts (score.ts), those under the floor (a probability)
 * dropped, best first (by probability, then by id), at most `limit`.
 */
import type { SearchKey, SuggestionCandidates } from '../model/records.ts';
import type { RecordReader } from '../model/store.ts';
import { candidatePasses } from './keys.ts';
import { firstWord } from './names.ts';
import { type Best, type Scored, type Scorer, createScorer, floorEvidence } from './score.ts';

export interface CloseMatch extends Scored {
  readonly id: number;
}

export interface CloseMatches {
  readonly matches: CloseMatch[];
  /** More matches reached the floor than `limit`, or a blocking pass found more records than its cap. */
  readonly truncated: boolean;
}

export interface CloseMatchOptions {
  /** The most matches answered. */
  readonly limit: number;
  /** The floor (SUGGEST_MIN_PROBABILITY). */
  readonly minProbability: number;
}

/** What the route asks for a type's close matches: `closeMatches` over its store, or a thread holding the index. */
export type CloseMatcher = (type: string, query: SearchKey, options: CloseMatchOptions) => Promise<CloseMatches>;

/**
 * Scores the candidates against the query and keeps the best `limit`. Every candidate reaching the
 * floor counts towards `truncated`; once more than `limit` have reached it, a candidate matters only
 * if it can reach the `limit`-th best so far (as much evidence or more, for a tie is ordered by id),
 * and is compared only as far as it takes to know. Only the kept are described.
 */
function best(scorer: Scorer, candidates: SuggestionCandidates, limit: number, floor: number, least: number) {
  // The best so far, at most `limit`, in answer order (evidence down, then id up).
  const kept: (Best & { readonly id: number })[] = [];
  let reached = 0;
  for (let i = 0; i < candidates.ids.length; i++) {
    const above = reached > limit && limit > 0 ? kept[limit - 1].evidence : least;
    const found = scorer.best(candidates, i, above);
    if (!found || scorer.score(found.evidence) < floor) continue;
    reached++;
    const entry = { id: candidates.ids[i], key: found.key, evidence: found.evidence };
    let at = kept.length;
    while (
      at > 0 &&
      (kept[at - 1].evidence < entry.evidence ||
        (kept[at - 1].evidence === entry.evidence && kept[at - 1].id > entry.id))
    )
      at--;
    if (at < limit) {
      kept.splice(at, 0, entry);
      if (kept.length > limit) kept.pop();
    }
  }
  return { kept, reached };
}

export async function closeMatches(
  store: Pick<RecordReader, 'suggestionCandidates' | 'registerCounts'>,
  type: string,
  query: SearchKey,
  { limit, minProbability }: CloseMatchOptions,
): Promise<CloseMatches> {
  const [found, counts] = await Promise.all([
    store.suggestionCandidates(type, candidatePasses(query)),
    store.registerCounts(type, query.surname, firstWord(query.forenames)),
  ]);
  const scorer = createScorer(query, counts);
  const { kept, reached } = best(scorer, found, limit, minProbability, floorEvidence(minProbability, counts.records));
  const matches = kept.map(({ id, key }): CloseMatch => ({ id, ...scorer.describe(found, key) }));
  return { matches, truncated: reached > limit || found.truncated };
}
