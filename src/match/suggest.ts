/**
 * Close matches for a query, as the route answers them and the evaluation (bench/suggest-eval.ts)
 * measures them: the store's candidates (those sharing the most close-match keys), each scored by
 * its best key, those under the floor dropped, best first (by score, then by id), at most `limit`.
 */
import type { SearchKey } from '../types/records.ts';
import type { RecordReader } from '../types/store.ts';
import { queryKeyValues } from './keys.ts';
import { type Scored, scoreRecord } from './score.ts';

/**
 * Candidates scored for one query: those sharing the most close-match keys with it. The true record
 * shares several (a key for each name alike and for the date); a cap keeps each answer's work bounded.
 */
export const CANDIDATES_SCORED = 200;

export interface CloseMatch extends Scored {
  readonly id: number;
}

export interface CloseMatches {
  readonly matches: CloseMatch[];
  /** More matches reached the floor than `limit`, or more records shared keys than were scored. */
  readonly truncated: boolean;
}

export async function closeMatches(
  store: Pick<RecordReader, 'suggestionCandidates'>,
  type: string,
  query: SearchKey,
  { limit, minScore }: { readonly limit: number; readonly minScore: number },
): Promise<CloseMatches> {
  const found = await store.suggestionCandidates(type, queryKeyValues(query), CANDIDATES_SCORED);
  const scored: CloseMatch[] = [];
  for (const candidate of found.records) {
    const best = scoreRecord(query, candidate.keys, minScore);
    if (best && best.score >= minScore) scored.push({ id: candidate.id, ...best });
  }
  scored.sort((a, b) => b.score - a.score || a.id - b.id);
  return { matches: scored.slice(0, limit), truncated: scored.length > limit || found.truncated };
}
