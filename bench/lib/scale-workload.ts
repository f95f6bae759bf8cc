/**
 * The scale bench's requests, drawn across the whole register rather than from a hot set: births
 * sampled from the database itself (TABLESAMPLE BERNOULLI, so each stored record is as likely as
 * any other), then made into lookups, searches, verifications and the error model's close-match
 * queries (bench/lib/errors.ts, as bench/suggest-eval.ts makes them), with the ids that count as
 * the registration sought.
 */
import type { Request } from 'autocannon';
import pg from 'pg';
import { Random } from '../../src/generate/random.ts';
import { type RecordDescription, readPath } from '../../src/records/define.ts';
import { normaliseName } from '../../src/records/normalise.ts';
import { type RealValues, askable, withErrors } from './errors.ts';
import { partyDetails, sameEvent } from './recall.ts';
import { IDENTITY, LIST_LENGTH, lookupPath, searchPath, suggestionPath, verificationPath } from './workload.ts';

/**
 * Up to `wanted` stored records of `table`, each record of the table as likely to be drawn, the same for
 * the same seed.
 */
export async function sampleRegister(
  url: string,
  table: string,
  count: number,
  wanted: number,
  seed: number,
): Promise<Record<string, unknown>[]> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000, statement_timeout: 600_000 });
  await client.connect();
  try {
    // Twice the share wanted, so that the sample is rarely short; the LIMIT keeps it to `wanted`.
    const share = Math.min(100, (200 * wanted) / Math.max(1, count));
    const { rows } = await client.query<{ data: string }>(
      `SELECT data::text AS data FROM ${table} TABLESAMPLE BERNOULLI ($1) REPEATABLE ($2) ORDER BY random() LIMIT $3`,
      [share, seed, wanted],
    );
    return rows.map((row) => JSON.parse(row.data) as Record<string, unknown>);
  } finally {
    await client.end();
  }
}

const request = (path: string): Request => ({ method: 'GET', path, headers: { ...IDENTITY } });

function shuffled<T>(items: readonly T[], r: Random): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = r.int(0, i);
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy;
}

/** One list a connection, each its own order of `paths`. */
const listsOf = (paths: readonly string[], connections: number, name: string, seed: string): Request[][] =>
  Array.from({ length: connections }, (_, c) =>
    shuffled(paths, Random.fromString(`scale-${name}\u0000${seed}\u0000${c}`))
      .slice(0, LIST_LENGTH)
      .map(request),
  );

/** A close-match query the error model made from a record, and the ids that are the registration sought. */
export interface RecallQuery {
  readonly path: string;
  readonly truth: ReadonlySet<number>;
}

export interface ScaleWorkload {
  readonly lookup: Request[][];
  readonly search: Request[][];
  readonly verify: Request[][];
  readonly suggest: Request[][];
  /** The error model's queries with limit=10, for recall. */
  readonly recall: readonly RecallQuery[];
  /** Error-model queries the route would refuse (a detail missing, a date no longer a date). */
  readonly notAsked: number;
}

/** The requests of every operation, made from `records` (sampled from the register) of type `description`. */
export function scaleWorkload(
  description: RecordDescription,
  records: readonly Record<string, unknown>[],
  connections: number,
  seed: string,
): ScaleWorkload {
  const { search, verification } = description;
  const type = description.name;
  const r = Random.fromString(`scale-workload\u0000${seed}`);
  const lookups = records.map((record) => lookupPath(type, record.id as number));
  const searches: string[] = [];
  const verifications: string[] = [];
  records.forEach((record, i) => {
    const found = partyDetails(record, r.pick(search.parties));
    if (!found) return;
    // Forenames in full or the first only, as callers ask.
    const forenames = r.chance(0.5) ? found.forenames.split(' ')[0] : found.forenames;
    searches.push(searchPath(type, { surname: found.surname, forenames, [search.dateParam]: r.pick(found.dates) }));
    const date = readPath(record, verification.date.path);
    if (typeof date !== 'string') return;
    const query: Record<string, string> = { [verification.date.param]: date };
    verification.names.forEach((names, n) => {
      query[names.surname] = String(readPath(record, search.parties[n].surname));
      query[names.forenames] = String(readPath(record, search.parties[n].forenames));
    });
    if (i % 2) query.systemNumber = String(record.id);
    verifications.push(verificationPath(type, query));
  });
  // Values of the same details of other records, for the errors that put a real value in the wrong place.
  const surnames: string[] = [];
  const givenNames: string[] = [];
  for (const record of records.slice(0, 2000)) {
    const found = partyDetails(record, r.pick(search.parties));
    if (found) {
      surnames.push(found.surname);
      givenNames.push(found.forenames);
    }
  }
  const values: RealValues = { surnames, forenames: givenNames };
  const recall: RecallQuery[] = [];
  // The same queries at the route's default limit, for the close matches' rate and latency.
  const suggestions: string[] = [];
  let notAsked = 0;
  for (const record of records) {
    const found = partyDetails(record, r.pick(search.parties));
    if (!found) continue;
    const { details } = withErrors(
      { surname: found.surname, forenames: found.forenames, date: r.pick(found.dates) },
      values,
      r,
    );
    if (!askable(details) || !normaliseName(details.surname) || !normaliseName(details.forenames)) {
      notAsked++;
      continue;
    }
    const query = { surname: details.surname, forenames: details.forenames, [search.dateParam]: details.date };
    recall.push({ path: suggestionPath(type, { ...query, limit: '10' }), truth: sameEvent(record) });
    suggestions.push(suggestionPath(type, query));
  }
  return {
    lookup: listsOf(lookups, connections, 'lookup', seed),
    search: listsOf(searches, connections, 'search', seed),
    verify: listsOf(verifications, connections, 'verify', seed),
    suggest: listsOf(suggestions, connections, 'suggest', seed),
    recall,
    notAsked,
  };
}

/**
 * Asks each recall query (at most `seconds` in all, `concurrency` at a time) and counts those whose
 * registration is among the candidates answered.
 */
export async function measureRecall(
  url: string,
  queries: readonly RecallQuery[],
  seconds: number,
  concurrency = 4,
): Promise<{ asked: number; found: number }> {
  const deadline = performance.now() + seconds * 1000;
  let next = 0;
  let asked = 0;
  let found = 0;
  const worker = async () => {
    while (next < queries.length && performance.now() < deadline) {
      const query = queries[next++];
      const response = await fetch(`${url}${query.path}`, { headers: IDENTITY, signal: AbortSignal.timeout(30_000) });
      if (response.status !== 200)
        throw new Error(`GET ${query.path.split('?')[0]} answered ${response.status}: ${await response.text()}`);
      const answer = (await response.json()) as { candidates: { record: { id: number } }[] };
      asked++;
      if (answer.candidates.some((candidate) => query.truth.has(candidate.record.id))) found++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { asked, found };
}
