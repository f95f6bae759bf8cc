/**
 * The requests each scenario sends: one list per connection (each its own
 * order), deterministic for a seed. Lists are bounded; a connection that gets
 * to the end of its list starts it again.
 */
import type { Request } from 'autocannon';
import { recordAt, searchSample } from '../../src/generate/records.ts';
import { readPath } from '../../src/records/define.ts';
import { loadRecordTypes } from '../../src/records/index.ts';
import { Random } from '../../src/generate/random.ts';
import { PAIRS, SINGLE } from './corrupt.ts';

/** The record types, read once: the benchmark's scripts are entry points (src/ modules are passed theirs). */
const records = await loadRecordTypes();

/** The types the benchmarks generate, load and query: every described one (src/records/types/), in its order. */
export const GENERATED_TYPES: readonly string[] = records.map((d) => d.name);
/** The name of a described type. */
export type GeneratedType = string;

/** Each type's count: `births` births, `others` records of every other type. */
export const countsOf = (births: number, others: number): Record<GeneratedType, number> =>
  Object.fromEntries(GENERATED_TYPES.map((type) => [type, type === 'birth' ? births : others]));

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
  return r.chance(MISSING_SHARE)
    ? dataset.firstId + count + r.int(0, Math.max(0, count - 1))
    : dataset.firstId + r.int(0, count - 1);
}

/** Birth lookups (v1), random existing and missing ids. */
export function lookupLists(dataset: Dataset, connections: number): Request[][] {
  return Array.from({ length: connections }, (_, c) => {
    const r = Random.fromString(`bench-lookup\u0000${dataset.seed}\u0000${c}`);
    return Array.from({ length: LIST_LENGTH }, () => request(lookupPath('birth', lookupId(r, dataset, 'birth'))));
  });
}

/** Birth credentials issued (the same ids as the lookups, so the two compare): issuance's cost beside a lookup's. */
export function credentialLists(dataset: Dataset, connections: number): Request[][] {
  return lookupLists(dataset, connections).map((list) =>
    list.map((entry) => ({ ...entry, path: String(entry.path).replace('/v1/registration/', '/v1/credentials/') })),
  );
}

/** The wallet formats a department may offer (OpenID4VCI's identifiers). */
export const WALLET_FORMATS = ['dc+sd-jwt', 'mso_mdoc', 'jwt_vc_json'] as const;
export type WalletFormat = (typeof WALLET_FORMATS)[number];

/** A department's request for a wallet offer of a birth, as the offer phase and the pick-up phase's offers ask it. */
export const offerRequest = (id: number, format: WalletFormat) =>
  ({
    method: 'POST' as const,
    path: `/v1/credentials/birth/${id}/offer`,
    headers: { ...IDENTITY, 'content-type': 'application/json' },
    body: JSON.stringify({ format }),
  }) satisfies Request;

/**
 * Offers of births that exist (a blocked, cancelled or replaced one is answered 409): a department asks for
 * held registrations.
 */
export function offerLists(dataset: Dataset, format: WalletFormat, connections: number): Request[][] {
  return Array.from({ length: connections }, (_, c) => {
    const r = Random.fromString(`bench-offer\u0000${dataset.seed}\u0000${c}`);
    return Array.from({ length: LIST_LENGTH }, () =>
      offerRequest(dataset.firstId + r.int(0, dataset.counts.birth - 1), format),
    );
  });
}

/** The first status list, fetched again and again, as relying parties do: a cached body. */
export function statusListLists(connections: number): Request[][] {
  return Array.from({ length: connections }, () =>
    Array.from({ length: LIST_LENGTH }, () => request('/v1/credentials/status/1')),
  );
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
    sample = searchSample(
      type,
      { count: dataset.counts[type], seed: dataset.seed, firstId: dataset.firstId },
      SEARCH_SAMPLES,
    );
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

export const verificationPath = (type: GeneratedType, query: Readonly<Record<string, string>>) =>
  `/v1/verification/${type}?${Object.entries(query)
    .map(([key, value]) => `${key}=${encodeURIComponent(value)}`)
    .join('&')}`;

export interface VerificationSample {
  readonly query: Readonly<Record<string, string>>;
  /**
   * True when made from a record's own details (it verifies unless the record is blocked or replaced),
   * false when it must not verify.
   */
  readonly fromRecord: boolean;
}

const verificationSamples = new Map<string, VerificationSample[]>();
/**
 * Verification queries made from searchSample's: a hit's record gives every party's names (as the
 * type declares them), the date and, one time in two, the system number; a miss keeps the hit's
 * shape with a surname the generator never uses. The same positions, so the same records, as the searches.
 */
export function verificationQueries(dataset: Dataset, type: GeneratedType): VerificationSample[] {
  const key = `${type}\u0000${dataset.seed}\u0000${dataset.counts[type]}\u0000${dataset.firstId}`;
  const cached = verificationSamples.get(key);
  if (cached) return cached;
  const description = records.find((record) => record.name === type)!;
  const { verification, search } = description;
  const options = { count: dataset.counts[type], seed: dataset.seed, firstId: dataset.firstId };
  const hits = searchQueries(dataset, type).filter((sample) => sample.expectId !== null);
  const misses = searchQueries(dataset, type).filter((sample) => sample.expectId === null);
  const samples = hits.flatMap((sample, i) => {
    const record = recordAt(type, options, (sample.expectId as number) - dataset.firstId);
    const query: Record<string, string> = {
      [verification.date.param]: String(readPath(record, verification.date.path)),
    };
    verification.names.forEach((names, n) => {
      query[names.surname] = String(readPath(record, search.parties[n].surname));
      query[names.forenames] = String(readPath(record, search.parties[n].forenames));
    });
    if (i % 2) query.systemNumber = String(record.id);
    const miss = misses[i % Math.max(1, misses.length)];
    const missed = { ...query, [verification.names[0].surname]: miss?.query.surname ?? 'Zzyzx' };
    return [
      { query, fromRecord: true },
      { query: missed, fromRecord: false },
    ];
  });
  verificationSamples.set(key, samples);
  return samples;
}

/**
 * Verifications of one record type: verificationQueries, alternately true (mostly) and false, shuffled per
 * connection.
 */
export function verificationLists(dataset: Dataset, type: GeneratedType, connections: number): Request[][] {
  const paths = verificationQueries(dataset, type).map((s) => verificationPath(type, s.query));
  return Array.from({ length: connections }, (_, c) => {
    const r = Random.fromString(`bench-verify\u0000${type}\u0000${dataset.seed}\u0000${c}`);
    return shuffled(paths, r).slice(0, LIST_LENGTH).map(request);
  });
}

/** A bit of everything, to warm a server up before it is measured. */
export function warmupLists(dataset: Dataset, connections: number): Request[][] {
  const lookups = lookupLists(dataset, connections);
  const searches = GENERATED_TYPES.flatMap((type) => [
    searchLists(dataset, type, connections),
    verificationLists(dataset, type, connections),
  ]);
  return lookups.map((list, c) => {
    const r = Random.fromString(`bench-warmup\u0000${c}`);
    return shuffled([...list.slice(0, 200), ...searches.flatMap((lists) => lists[c].slice(0, 200))], r);
  });
}

export const suggestionPath = (type: GeneratedType, query: Readonly<Record<string, string>>) =>
  `/v1/suggestions/${type}?${Object.entries(query)
    .map(([key, value]) => `${key}=${encodeURIComponent(value)}`)
    .join('&')}`;

/**
 * Close-match queries made from searchSample's hits, each corrupted by one of the evaluation's
 * corruptions (bench/lib/corrupt.ts) in turn, single and paired, a few left as they are; the
 * same records as the searches.
 */
export function suggestionQueries(dataset: Dataset, type: GeneratedType): Record<string, string>[] {
  const dateParam = records.find((record) => record.name === type)!.search.dateParam;
  const corruptions = [...Object.values(SINGLE), ...Object.values(PAIRS)];
  const r = Random.fromString(`bench-suggest\u0000${type}\u0000${dataset.seed}`);
  return searchQueries(dataset, type)
    .filter((sample) => sample.expectId !== null)
    .flatMap((sample, i) => {
      const details = {
        surname: sample.query.surname,
        forenames: sample.query.forenames,
        date: sample.query[dateParam],
      };
      const corrupted = corruptions[i % corruptions.length](details, r) ?? details;
      return [{ surname: corrupted.surname, forenames: corrupted.forenames, [dateParam]: corrupted.date }];
    });
}

/** Close matches of one record type: suggestionQueries, shuffled per connection. */
export function suggestionLists(dataset: Dataset, type: GeneratedType, connections: number): Request[][] {
  const paths = suggestionQueries(dataset, type).map((query) => suggestionPath(type, query));
  return Array.from({ length: connections }, (_, c) => {
    const r = Random.fromString(`bench-suggest-list\u0000${type}\u0000${dataset.seed}\u0000${c}`);
    return shuffled(paths, r).slice(0, LIST_LENGTH).map(request);
  });
}
