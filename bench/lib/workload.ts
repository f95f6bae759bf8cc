/**
 * The requests each scenario sends: one list per connection (each its own
 * order), deterministic for a seed. Lists are bounded; a connection that gets
 * to the end of its list starts it again.
 */
import type { Request } from 'autocannon';
import { GENERATED_TYPES, type GeneratedType, searchSample } from '../../src/generate/records.ts';
import { Random } from '../../src/generate/random.ts';

/** The mock identity every request carries (see "Calling it" in the README). */
export const IDENTITY = { 'x-auth-username': 'bench-user', 'x-auth-aud': 'bench-client' } as const;

/** Requests per connection list. */
export const LIST_LENGTH = 2000;
/** Search queries drawn from searchSample per record type (half hits, half misses). */
export const SEARCH_SAMPLES = 2000;
/** Share of lookups that ask for an id no record has. */
export const MISSING_SHARE = 0.1;

/** The records a store holds: `counts[type]` records of each type, ids from `firstId`, made with `seed`. */
export interface Dataset {
  readonly seed: string;
  readonly firstId: number;
  readonly counts: Readonly<Record<GeneratedType, number>>;
}

export const lookupPath = (type: GeneratedType, id: number) => `/v1/registration/${type}/${id}`;

export const searchPath = (type: GeneratedType, query: Readonly<Record<string, string>>) =>
  `/v1/registration/${type}?${Object.entries(query)
    .map(([key, value]) => `${key}=${encodeURIComponent(value)}`)
    .join('&')}`;

const request = (path: string): Request => ({ method: 'GET', path, headers: { ...IDENTITY } });

/** An id that exists (9 in 10) or does not (1 in 10): missing ids follow the last record. */
export function lookupId(r: Random, dataset: Dataset, type: GeneratedType): number {
  const count = dataset.counts[type];
  return r.chance(MISSING_SHARE) ? dataset.firstId + count + r.int(0, Math.max(0, count - 1)) : dataset.firstId + r.int(0, count - 1);
}

/** Birth lookups (v1), random existing and missing ids. */
export function lookupLists(dataset: Dataset, connections: number): Request[][] {
  return Array.from({ length: connections }, (_, c) => {
    const r = Random.fromString(`bench-lookup\u0000${dataset.seed}\u0000${c}`);
    return Array.from({ length: LIST_LENGTH }, () => request(lookupPath('birth', lookupId(r, dataset, 'birth'))));
  });
}

function shuffled<T>(items: readonly T[], r: Random): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = r.int(0, i);
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy;
}

const samples = new Map<string, ReturnType<typeof searchSample>>();
/** searchSample for the dataset, computed once. */
export function searchQueries(dataset: Dataset, type: GeneratedType) {
  const key = `${type}\u0000${dataset.seed}\u0000${dataset.counts[type]}\u0000${dataset.firstId}`;
  let sample = samples.get(key);
  if (!sample) {
    sample = searchSample(type, { count: dataset.counts[type], seed: dataset.seed, firstId: dataset.firstId }, SEARCH_SAMPLES);
    samples.set(key, sample);
  }
  return sample;
}

/** v1 searches of one record type: searchSample's queries, alternately hits and misses, shuffled per connection. */
export function searchLists(dataset: Dataset, type: GeneratedType, connections: number): Request[][] {
  const paths = searchQueries(dataset, type).map((s) => searchPath(type, s.query));
  return Array.from({ length: connections }, (_, c) => {
    const r = Random.fromString(`bench-search\u0000${type}\u0000${dataset.seed}\u0000${c}`);
    return shuffled(paths, r).slice(0, LIST_LENGTH).map(request);
  });
}

/** A bit of everything, to warm a server up before it is measured. */
export function warmupLists(dataset: Dataset, connections: number): Request[][] {
  const lookups = lookupLists(dataset, connections);
  const searches = GENERATED_TYPES.map((type) => searchLists(dataset, type, connections));
  return lookups.map((list, c) => {
    const r = Random.fromString(`bench-warmup\u0000${c}`);
    return shuffled([...list.slice(0, 200), ...searches.flatMap((lists) => lists[c].slice(0, 200))], r);
  });
}
