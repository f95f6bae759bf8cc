/**
 * Close matches for a query, as the route answers them and the evaluation (bench/suggest-eval.ts)
 * measures them: the store's candidates (the union of the blocking passes of keys.ts), each scored by
 * its best key, those under the floor dropped, best first (by score, then by id), at most `limit`.
 */
import type { SearchKey } from '../types/records.ts';
import type { RecordReader } from '../types/store.ts';
import { candidatePasses } from './keys.ts';
import { type Scored, scoreRecord } from './score.ts';


export interface CloseMatch extends Scored {
  readonly id: number;
}

export interface CloseMatches {
  readonly matches: CloseMatch[];
  /** More matches reached the floor than `limit`, or a blocking pass found more records than its cap. */
  readonly truncated: boolean;
}

export async function closeMatches(
  store: Pick<RecordReader, 'suggestionCandidates'>,
  type: string,
  query: SearchKey,
  { limit, minScore }: { readonly limit: number; readonly minScore: number },
): Promise<CloseMatches> {
  const found = await store.suggestionCandidates(type, candidatePasses(query));
  const scored: CloseMatch[] = [];
  for (const candidate of found.records) {
    const best = scoreRecord(query, candidate.keys, minScore);
    if (best && best.score >= minScore) scored.push({ id: candidate.id, ...best });
  }
  scored.sort((a, b) => b.score - a.score || a.id - b.id);
  return { matches: scored.slice(0, limit), truncated: scored.length > limit || found.truncated };
}
