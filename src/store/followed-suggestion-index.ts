/**
 * Close-match indexes held in the service over a PostgreSQL store (SUGGESTION_INDEX=service): one
 * memory index a record type (suggestion-index.ts, the embedded store's too), built from
 * the search keys at start and kept current from the change feed.
 *
 * Why: the database's index finds a close match's candidates at a cost of its own that no query
 * shape removes (docs/performance.md: the key probes and the ranking of some 800 postings alone take
 * ten times a search's whole statement at a million births), and the service then parses the few
 * hundred rows. Here the candidates cost what they cost the embedded store, the register's name
 * counts are the index's own (kept as the embedded store keeps them), and the database reads only
 * the records answered. The price is memory in every process (about 170 MB a million births)
 * and a start that reads every search key: for registers that fit, not the national one.
 *
 * Every write to the records writes a feed event in its transaction (postgres-write.ts), one for
 * each record it changed, and the feed's positions have no gap: so the records of the events after
 * the position an index was built at are all that can differ from it. Each such record's search
 * keys are read again, and it is indexed anew (or removed when it has none). The index is built
 * after reading the feed's head, so an event both seen by the build and read again is applied
 * twice, which changes nothing. A gap (events pruned before they were read) rebuilds it.
 *
 * Until an index is built, and after an error until it is built again, the type's close matches are
 * found and weighed by the database (`candidates` and `counts` answer undefined): slower, never
 * different.
 */
import { registeredType, updatedType } from '../records/changes.ts';
import type { RegisterCounts, SuggestionCandidates } from '../model/records.ts';
import type { EventFeed } from '../model/events.ts';
import type { KeyPass, RecordReader } from '../model/store.ts';
import type { SqlDriver } from './driver.ts';
import { type SuggestionIndex, createSuggestionIndex } from './suggestion-index.ts';
import { tableNames } from './record-tables.ts';
import { type SearchKeyRow, recordsOfRows, searchKeyColumns } from './search-key-rows.ts';

/** Records a build reads in one statement, and events a step of following reads. */
const BUILD_BATCH = 20_000;
const EVENTS_BATCH = 1_000;
/** How long a caught-up follower waits for a NOTIFY before reading the feed anyway. */
const IDLE_MS = 5_000;
/** How long after an error before building again. */
const RETRY_MS = 1_000;

export interface FollowedSuggestionIndexes {
  /** The type's candidates from its index, or undefined while the index is being built. */
  candidates(type: string, passes: readonly KeyPass[]): SuggestionCandidates | undefined;
  /**
   * The type's register counts (RecordReader.registerCounts) as the index stands, or undefined while it is
   * being built.
   */
  counts(type: string, surname: string, forename: string): RegisterCounts | undefined;
  /** Resolves once every type's index is built and has applied the feed's events up to `position`. */
  reached(position: number): Promise<void>;
  /** Where the indexes stand, for metrics and tests: built, and the feed position applied. */
  readonly state: { readonly built: boolean; readonly position: number };
  stop(): Promise<void>;
}

/**
 * A type's index, and how many records the type has. That number is the database's (the register
 * counts' own row, kept by each load's transaction, postgres-write.ts), read again with each page of
 * events followed: the index holds only records with search keys.
 */
interface Held {
  readonly index: SuggestionIndex;
  records: number;
}

/** Indexes each record of rows ordered by id; the ids read. */
function addRows(index: SuggestionIndex, rows: readonly SearchKeyRow[]): Set<number> {
  const ids = new Set<number>();
  for (const { id, keys } of recordsOfRows(rows)) {
    index.add(id, keys);
    ids.add(id);
  }
  return ids;
}

export function followSuggestionIndexes(
  driver: SqlDriver,
  feed: EventFeed,
  types: readonly string[],
  onError: (error: Error) => void,
  /** Told each time `state` changes: built or not, and the position applied. */
  onState?: (state: FollowedSuggestionIndexes['state']) => void,
): FollowedSuggestionIndexes {
  let indexes: Map<string, Held> | undefined;
  let position = 0;
  let stopped = false;
  const abort = new AbortController();
  const waiting: { position: number; resolve: () => void }[] = [];
  const changed = () => onState?.({ built: indexes !== undefined, position });
  const settle = () => {
    for (let i = waiting.length - 1; i >= 0; i--) {
      if (indexes && waiting[i].position <= position) waiting.splice(i, 1)[0].resolve();
    }
  };

  const recordsOf = async (type: string) => {
    const rows = await driver.query<{ count: string }>(
      `SELECT count::text AS count FROM ${tableNames(type).nameCounts} WHERE part = '*' AND name = ''`,
    );
    return Number(rows[0]?.count ?? 0);
  };

  /** Every type's index from its search keys, read by id a batch at a time (the index on id carries them). */
  const build = async () => {
    const built = new Map<string, Held>();
    for (const type of types) {
      const index = createSuggestionIndex();
      for (let after = '-1'; !stopped; ) {
        const rows = await driver.query<SearchKeyRow>(
          `SELECT ${searchKeyColumns('k')} FROM ${tableNames(type).keys} k
            WHERE k.id IN (SELECT DISTINCT id FROM ${tableNames(type).keys} WHERE id > $1 ORDER BY id ` +
            `LIMIT ${BUILD_BATCH})
            ORDER BY k.id`,
          [after],
        );
        if (!rows.length) break;
        addRows(index, rows);
        after = rows[rows.length - 1].id;
      }
      index.settle();
      built.set(type, { index, records: await recordsOf(type) });
    }
    return built;
  };

  /** Applies the events after `position`; whether there were any. */
  const follow = async (): Promise<boolean> => {
    const page = await feed.read(
      position,
      types.flatMap((type) => [registeredType(type), updatedType(type)]),
      EVENTS_BATCH,
    );
    if (!page.events.length) {
      if (page.next !== position) {
        position = page.next;
        changed();
      }
      return false;
    }
    if (page.events[0].position !== position + 1)
      throw new Error(
        `the change feed holds no events from ${position + 1} to ${page.events[0].position - 1} (pruned): ` +
          `building the close-match index again`,
      );
    const byType = new Map<string, number[]>();
    for (const event of page.events) {
      const ids = byType.get(event.recordType);
      if (ids) ids.push(event.recordId);
      else byType.set(event.recordType, [event.recordId]);
    }
    for (const [type, ids] of byType) {
      const held = indexes?.get(type);
      if (!held) continue;
      const { index } = held;
      const rows = await driver.query<SearchKeyRow>(
        `SELECT ${searchKeyColumns('k')} FROM ${tableNames(type).keys} k WHERE k.id = ANY($1::bigint[]) ORDER BY k.id`,
        [`{${ids.join(',')}}`],
      );
      const found = addRows(index, rows);
      for (const id of ids) if (!found.has(id)) index.remove(id);
      held.records = await recordsOf(type);
    }
    position = page.next;
    changed();
    return true;
  };

  const run = async () => {
    while (!stopped) {
      try {
        indexes = undefined;
        const { head } = await feed.bounds(new Date(0));
        const built = await build();
        if (stopped) return;
        [indexes, position] = [built, head];
        changed();
        while (!stopped) {
          if (!(await follow())) {
            // Caught up: what was followed (a load, most often) has ended, as a build has.
            for (const held of indexes.values()) held.index.settle();
            settle();
            await feed.changed(IDLE_MS, abort.signal);
          }
        }
      } catch (error) {
        if (stopped) return;
        indexes = undefined;
        changed();
        onError(error as Error);
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS).unref());
      }
    }
  };
  const running = run();

  return {
    candidates: (type, passes) => indexes?.get(type)?.index.candidates(passes),
    counts(type, surname, forename) {
      const held = indexes?.get(type);
      return held && { records: held.records, ...held.index.nameCounts(surname, forename) };
    },
    reached: (at) =>
      new Promise<void>((resolve) => {
        waiting.push({ position: at, resolve });
        settle();
      }),
    get state() {
      return { built: indexes !== undefined, position };
    },
    async stop() {
      stopped = true;
      abort.abort();
      await running;
      for (const { resolve } of waiting.splice(0)) resolve();
    },
  };
}

/** Thrown by `heldReader` while the indexes are being built: the close match is then the database's to find. */
export class NotHeld extends Error {
  constructor(type: string) {
    super(`the close-match index of ${type} is being built`);
  }
}

/** What close matches read (match/suggest.ts), from the indexes alone: NotHeld while they are being built. */
export function heldReader(
  held: Pick<FollowedSuggestionIndexes, 'candidates' | 'counts'>,
): Pick<RecordReader, 'suggestionCandidates' | 'registerCounts'> {
  return {
    async suggestionCandidates(type, passes) {
      const found = held.candidates(type, passes);
      if (!found) throw new NotHeld(type);
      return found;
    },
    async registerCounts(type, surname, forename) {
      const counted = held.counts(type, surname, forename);
      if (!counted) throw new NotHeld(type);
      return counted;
    },
  };
}
