/**
 * Records in PostgreSQL. Each record type has a table of records (the v1
 * JSON, stored once) and a table of search keys (one row per way of finding
 * a record: date + normalised surname + forenames), whose primary key is the
 * index every search uses.
 */
import { asPromise } from '../errors.ts';
import { reasonSql } from '../records/changes.ts';
import type { RecordDescription } from '../records/define.ts';
import { verifiedPaths, verifiedValues } from '../records/verification.ts';
import type { RegisterCounts, SearchKey, SuggestionCandidates, VerifiedValues } from '../model/records.ts';
import type {
  KeyPass,
  ReadOptions,
  RecordReader,
  RecordWriter,
  SearchResult,
  VerificationCandidates,
} from '../model/store.ts';
import type { FollowedSuggestionIndexes } from './followed-suggestion-index.ts';
import type { SqlDriver, SqlExecutor } from './driver.ts';
import { assertSchemaCurrent } from './migrations.ts';
import { type SearchKeyRow, candidatesOfRows, searchKeyColumns } from './search-key-rows.ts';
import { turnBatches } from './turn-batches.ts';
import { parsedReads } from './parsed-reads.ts';
import { openLoadIds } from './postgres-load-ids.ts';
import type { ReplicaSet } from './replica-set.ts';
import { tableNames } from './record-tables.ts';
import { writeRecords } from './postgres-write.ts';
import { isCanonicalSystemNumber } from '../records/system-number.ts';

interface PostgresRecords {
  readonly reader: RecordReader;
  readonly writer: RecordWriter;
}

/**
 * @param replicas the read replicas lookups and searches are taken in turn to, while fit (replica-set.ts);
 * the primary reads when there are none or none is fit.
 */
export function createPostgresRecords(
  driver: SqlDriver,
  descriptions: readonly RecordDescription[],
  replicas?: ReplicaSet,
  /** Close-match indexes held in the service (SUGGESTION_INDEX=service), for where they stand (`readPaths`). */
  held?: Pick<FollowedSuggestionIndexes, 'state'>,
): PostgresRecords {
  /**
   * Runs `work` on a fit replica, or on the primary. A replica that fails is taken out of rotation
   * and the primary asked instead; so is an answer `empty` says may only be the replica's lag (a
   * record not replayed yet), so that what the feed announced is always found.
   */
  const read = <T>(
    atLeast: number | undefined,
    work: (db: SqlExecutor) => Promise<T>,
    empty?: (answer: T) => boolean,
  ): Promise<T> => {
    const replica = replicas?.next(atLeast);
    // Without a replica, the statement's own promise: no async function to wrap it on every request's path.
    return replica ? fromReplica(replica, work, empty) : work(driver);
  };
  const fromReplica = async <T>(
    replica: SqlDriver,
    work: (db: SqlExecutor) => Promise<T>,
    empty?: (answer: T) => boolean,
  ): Promise<T> => {
    let answer: T;
    try {
      answer = await work(replica);
    } catch {
      (replicas as ReplicaSet).failed(replica);
      return work(driver);
    }
    if (!empty?.(answer)) return answer;
    (replicas as ReplicaSet).fallbacks.empty++;
    return work(driver);
  };
  const known = new Set(descriptions.map((d) => d.name));
  const tables = (type: string) => {
    if (!known.has(type)) throw new Error(`unknown record type ${type}`);
    return tableNames(type);
  };

  // Run on every request with fixed text: prepared once per connection.
  const PREPARE = { prepare: true } as const;
  const verifiedPathsOf = new Map(descriptions.map((d) => [d.name, verifiedPaths(d)]));
  /** By type, the ids of the registrations the latest verifications found, newest first: their padding. */
  const recentlyFound = new Map<string, readonly string[]>();

  // The lookups of one turn, of one type, in one statement (turn-batches.ts). A replica missing
  // any of them (perhaps its lag) has the primary asked for the batch.
  const lookups = turnBatches({
    groupKey: ({ type, atLeast }: { type: string; atLeast: number | undefined }) => `${type}\u0000${atLeast ?? ''}`,
    itemKey: (id: string) => id,
    async read({ type, atLeast }, ids) {
      const sql = `SELECT id::text AS id, data::text AS data FROM ${tables(type).records} WHERE id = ANY($1::bigint[])`;
      const rows = await read(
        atLeast,
        (db) => db.query<{ id: string; data: string }>(sql, [ids], PREPARE),
        (found) => found.length < ids.length,
      );
      const byId = new Map(rows.map((row) => [row.id, row.data]));
      return ids.map((id) => byId.get(id));
    },
  });

  // The searches of one turn, of one type and limit, in one statement: each search's records as its
  // own statement would find them (laterally, its own LIMIT). Normalised keys hold no character below
  // '!' but the space, so [q, q || '!') is exactly "q, or q followed by a space and more words"
  // (forenamesMatch): one index range. A replica finding none for any of them (perhaps its lag) has
  // the primary asked for the batch.
  const searches = turnBatches({
    groupKey: ({ type, limit, atLeast }: { type: string; limit: number; atLeast: number | undefined }) =>
      `${type}\u0000${limit}\u0000${atLeast ?? ''}`,
    itemKey: (key: SearchKey) => `${key.date}\u0000${key.surname}\u0000${key.forenames}`,
    async read({ type, limit, atLeast }, keys) {
      const t = tables(type);
      const rows = await read(
        atLeast,
        (db) =>
          db.query<{ n: string; id: string; data: string }>(
            `SELECT q.n::text AS n, r.id::text AS id, r.data::text AS data
           FROM unnest($1::date[], $2::text[], $3::text[], $4::text[]) WITH ORDINALITY AS q(date, surname, low, high, n)
          CROSS JOIN LATERAL (
            SELECT r.id, r.data FROM ${t.records} r
             WHERE r.id IN (SELECT k.id FROM ${t.keys} k
                             WHERE k.date = q.date AND k.surname = q.surname COLLATE "C"
                               AND k.forenames >= q.low COLLATE "C" AND k.forenames < q.high COLLATE "C")
             ORDER BY r.id
             LIMIT $5) r
          ORDER BY q.n, r.id`,
            [
              keys.map((k) => k.date),
              keys.map((k) => k.surname),
              keys.map((k) => k.forenames),
              keys.map((k) => `${k.forenames}!`),
              limit + 1,
            ],
            PREPARE,
          ),
        (found) => new Set(found.map((row) => row.n)).size < keys.length,
      );
      const found: { id: string; data: string }[][] = keys.map(() => []);
      for (const row of rows) found[Number(row.n) - 1].push(row);
      return found.map((hits): SearchResult<string> => {
        const kept = hits.slice(0, limit);
        return {
          records: kept.map((row) => row.data),
          ids: kept.map((row) => Number(row.id)),
          truncated: hits.length > limit,
        };
      });
    },
  });

  const lookupAlone = async (type: string, id: string, options?: ReadOptions) => {
    const sql = `SELECT data::text AS data FROM ${tables(type).records} WHERE id = $1`;
    const rows = await read(
      options?.atLeast,
      (db) => db.query<{ data: string }>(sql, [id], PREPARE),
      (found) => !found.length,
    );
    return rows[0]?.data;
  };

  // The two reads on every request's path return their batch's promise as it is, not wrapped in an
  // async function's (docs/performance.md#tracing).
  const json = {
    lookupJson(type: string, id: string, options?: ReadOptions): Promise<string | undefined> {
      // Batched only when the id is a system number as the table keys it (digits, no leading zero):
      // anything else is read alone, so that its failure is its own.
      return isCanonicalSystemNumber(id)
        ? lookups({ type, atLeast: options?.atLeast }, id)
        : lookupAlone(type, id, options);
    },

    searchJson(type: string, key: SearchKey, limit: number, options?: ReadOptions): Promise<SearchResult<string>> {
      return asPromise(() => {
        tables(type);
        return searches({ type, limit, atLeast: options?.atLeast }, key);
      });
    },

    // Not asked again of the primary when none is found: finding none must cost what finding some
    // does. A replica answers only within the bound on its lag, or from the position asked for.
    async verificationCandidates(
      type: string,
      key: SearchKey,
      limit: number,
      padTo?: number,
      options?: ReadOptions,
    ): Promise<VerificationCandidates> {
      // The records' text, parsed here: V8 parses one in a third of the time PostgreSQL takes to
      // pick the fields out of json (which it parses again for each field), on the same cores.
      const paths = verifiedPathsOf.get(type) as readonly string[];
      if (padTo === undefined) {
        const { records, ids, truncated } = await json.searchJson(type, key, limit, options);
        return { records: records.map((text) => verifiedValues(JSON.parse(text), paths)), ids, truncated };
      }
      // One statement: the candidates, then padding up to padTo rows in all, each fetched, turned to
      // text, sent and parsed alike, so none found costs what some found do. The padding is what
      // earlier verifications of the type found (the type's first records until there is enough),
      // so that it is the size of what is found, not of one record every answer of none reads.
      const t = tables(type);
      const recent = recentlyFound.get(type) ?? [];
      const rows = await read(options?.atLeast, (db) =>
        db.query<{ found: boolean; id: string; data: string }>(
          `WITH found AS MATERIALIZED (
           SELECT DISTINCT k.id FROM ${t.keys} k
            WHERE k.date = $1 AND k.surname = $2 AND k.forenames >= $3 AND k.forenames < $4
            ORDER BY k.id
            LIMIT $5),
         padding AS (
           SELECT recent.id, recent.n FROM unnest($7::bigint[]) WITH ORDINALITY AS recent(id, n)
           UNION ALL
           SELECT first_rows.id, $6 + row_number() OVER (ORDER BY first_rows.id)
             FROM (SELECT f.id FROM ${t.records} f ORDER BY f.id LIMIT $6) AS first_rows),
         ids AS (
           SELECT id, true AS found FROM found
           UNION ALL
           (SELECT id, false FROM padding ORDER BY n LIMIT greatest(0, $6 - (SELECT count(*) FROM found))))
         SELECT ids.found, r.id::text AS id, r.data::text AS data FROM ids JOIN ${t.records} r ON r.id = ids.id`,
          [key.date, key.surname, key.forenames, `${key.forenames}!`, limit + 1, padTo, recent],
          PREPARE,
        ),
      );
      const records: VerifiedValues[] = [];
      const padding: VerifiedValues[] = [];
      const foundIds: string[] = [];
      for (const row of rows) {
        (row.found ? records : padding).push(verifiedValues(JSON.parse(row.data), paths));
        if (row.found) foundIds.push(row.id);
      }
      if (foundIds.length) recentlyFound.set(type, [...foundIds, ...recent].slice(0, padTo));
      const truncated = records.length > limit;
      if (truncated) records.length = limit;
      return { records, ids: foundIds.slice(0, limit).map(Number), truncated, padding };
    },

    async suggestionCandidates(type: string, passes: readonly KeyPass[]): Promise<SuggestionCandidates> {
      const t = tables(type);
      // Each pass's records sharing most of its keys, then those of its earliest keys (keys.ts),
      // counted from the key index alone, up to its cap; then only the chosen records' search keys,
      // from the index on id of the narrow table of search keys, which carries them (migration 16),
      // rather than the records' text. The keys go as array literals: the driver writes a
      // JavaScript array element by element.
      const keys = passes.flatMap((pass) => pass.keys);
      const of = passes.flatMap((pass, i) => pass.keys.map(() => i + 1));
      const rows = await read(undefined, (db) =>
        db.query<SearchKeyRow & { truncated: boolean }>(
          `WITH hits AS (
           SELECT q.pass, k.id, count(*) AS shared, min(q.at) AS first
             FROM unnest($1::bigint[], $2::int[]) WITH ORDINALITY AS q(key, pass, at) JOIN ${t.suggestionKeys} k ` +
            `ON k.key = q.key
            GROUP BY q.pass, k.id),
         ranked AS (
           SELECT id, row_number() OVER (PARTITION BY pass ORDER BY shared DESC, first, id) AS n, ` +
            `($3::int[])[pass] AS cap FROM hits),
         chosen AS (SELECT DISTINCT id FROM ranked WHERE n <= cap)
         SELECT ${searchKeyColumns('s')},
                EXISTS (SELECT FROM ranked WHERE n > cap) AS truncated
           FROM chosen c JOIN ${t.keys} s ON s.id = c.id
          ORDER BY c.id`,
          [`{${keys.join(',')}}`, `{${of.join(',')}}`, `{${passes.map((pass) => pass.limit).join(',')}}`],
          PREPARE,
        ),
      );
      return candidatesOfRows(rows, rows[0]?.truncated ?? false);
    },

    async registerCounts(type: string, surname: string, forename: string): Promise<RegisterCounts> {
      const rows = await read(undefined, (db) =>
        db.query<{ part: string; count: string }>(
          `SELECT part::text AS part, count::text AS count FROM ${tables(type).nameCounts}
          WHERE (part, name) IN (('*', ''), ('s', $1), ('f', $2))`,
          [surname, forename],
          PREPARE,
        ),
      );
      const of = (part: string) => Number(rows.find((row) => row.part === part)?.count ?? 0);
      return { records: of('*'), surname: of('s'), forename: of('f') };
    },

    async lookupManyJson(type: string, ids: readonly number[]): Promise<(string | undefined)[]> {
      if (!ids.length) return [];
      // The ids come from another read, perhaps of another replica: one missing is asked of the primary.
      const sql = `SELECT id::text AS id, data::text AS data FROM ${tables(type).records} WHERE id = ANY($1::bigint[])`;
      const rows = await read(
        undefined,
        (db) => db.query<{ id: string; data: string }>(sql, [ids.map(String)], PREPARE),
        (found) => found.length < new Set(ids).size,
      );
      const byId = new Map(rows.map((row) => [Number(row.id), row.data]));
      return ids.map((id) => byId.get(id));
    },

    // The primary: every read has it to fall back on, so replicas down do not make the service unready.
    async ready() {
      await assertSchemaCurrent(driver, descriptions);
    },

    readPaths: () => ({
      replicas: replicas?.states() ?? [],
      fallbacks: { ...(replicas?.fallbacks ?? { empty: 0, failed: 0, unfit: 0 }) },
      ...(held ? { suggestionIndex: held.state } : {}),
    }),
  };

  // Why a changed record changed, over the merge's stored (o) and staged (l) record: made once, at start.
  const reasons = new Map(descriptions.map((d) => [d.name, reasonSql(d, 'o.data::jsonb', 'l.data::jsonb')]));
  const writer: RecordWriter = {
    async write(type, batches, options) {
      tables(type);
      return writeRecords(driver, type, batches, reasons.get(type) as string, options?.traceParent);
    },
    loadIds: () => openLoadIds(driver),
  };

  return { reader: { ...json, ...parsedReads(json) }, writer };
}
