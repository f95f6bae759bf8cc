/**
 * Close matches for a query, as the route answers them and the evaluation (bench/suggest-eval.ts)
 * measures them: the store's candidates (the union of the blocking passes of keys.ts), each scored
 * by its best key with the register's counts (score.ts), those under the floor (a probability)
 * dropped, best first (by probability, then by id), at most `limit`.
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

const firstWord = (name: string) => name.split(' ')[0];

export async function closeMatches(
  store: Pick<RecordReader, 'suggestionCandidates' | 'registerCounts'>,
  type: string,
  query: SearchKey,
  { limit, minProbability }: { readonly limit: number; readonly minProbability: number },
): Promise<CloseMatches> {
  const [found, counts] = await Promise.all([
    store.suggestionCandidates(type, candidatePasses(query)),
    store.registerCounts(type, query.surname, firstWord(query.forenames)),
  ]);
  const scored: CloseMatch[] = [];
  for (const candidate of found.records) {
    const best = scoreRecord(query, candidate.keys, minProbability, counts);
    if (best) scored.push({ id: candidate.id, ...best });
  }
  scored.sort((a, b) => b.evidence - a.evidence || a.id - b.id);
  return { matches: scored.slice(0, limit), truncated: scored.length > limit || found.truncated };
}
