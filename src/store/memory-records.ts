/**
 * Records kept in the process's memory: the embedded store's, for the mock,
 * for LEV_DATA and for tests. Each record is kept as the JSON text it was
 * written with, and found through a map from date and surname to the
 * forenames and ids of its search keys; the forenames are then matched by
 * `forenamesMatch`, the same rule the SQL store expresses as a key range. Close-match keys
 * (match/keys.ts) are worked out from the search keys when a record is written, by the code the SQL
 * store uses, and kept in an index of their own (suggestion-index.ts).
 */
import { isDeepStrictEqual } from 'node:util';
import { compileReason } from '../records/changes.ts';
import type { RecordDescription } from '../records/define.ts';
import { forenamesMatch } from '../records/search-keys.ts';
import { verifiedPaths, verifiedValues } from '../records/verification.ts';
import type {
  RecordToWrite,
  RegisterCounts,
  SearchKey,
  SuggestionCandidates,
  VerifiedValues,
  WriteCounts,
} from '../model/records.ts';
import type { RecordChange } from '../model/events.ts';
import type { KeyPass, RecordReader, RecordWriter, SearchResult, VerificationCandidates } from '../model/store.ts';
import { type MemoryEvents, createMemoryEvents } from './memory-events.ts';
import { parsedReads } from './parsed-reads.ts';
import { type SuggestionIndex, createSuggestionIndex } from './suggestion-index.ts';
import type { FedSource } from './suggestion-thread.ts';
import { isSystemNumber } from '../records/system-number.ts';

interface Kept {
  readonly json: string;
  readonly keys: readonly SearchKey[];
  /** What verification compares, taken out when written so that verifying parses nothing. */
  readonly verified: VerifiedValues;
}

interface Keyed {
  readonly forenames: string;
  readonly id: number;
}

interface TypeRecords {
  readonly paths: readonly string[];
  /** Why a stored record was changed into another, for its event. */
  readonly reason: ReturnType<typeof compileReason>;
  readonly byId: Map<number, Kept>;
  /** Search keys by date and surname. */
  readonly byKey: Map<string, Keyed[]>;
  /** The records by their close-match keys. */
  readonly suggestions: SuggestionIndex;
}

const keyOf = (date: string, surname: string) => `${date}\u0000${surname}`;

const sameKeys = (a: readonly SearchKey[], b: readonly SearchKey[]) =>
  a.length === b.length &&
  a.every((key, i) => key.date === b[i].date && key.surname === b[i].surname && key.forenames === b[i].forenames);

/**
 * The same record as stored when its text is the same, or its content is (as PostgreSQL compares
 * jsonb: key order and spacing aside), and its search keys are.
 */
const unchanged = (kept: Kept, record: RecordToWrite) =>
  sameKeys(kept.keys, record.keys) &&
  (kept.json === record.json || isDeepStrictEqual(JSON.parse(kept.json), JSON.parse(record.json)));

interface MemoryRecords {
  readonly reader: RecordReader;
  /** Writes records and their events together. */
  readonly writer: RecordWriter;
  readonly events: MemoryEvents;
  /** The records' search keys, as a close-match thread is fed them (suggestion-thread.ts). */
  readonly searchKeys: FedSource;
}

export function createMemoryRecords(descriptions: readonly RecordDescription[]): MemoryRecords {
  const types = new Map<string, TypeRecords>(
    descriptions.map((d) => [
      d.name,
      {
        paths: verifiedPaths(d),
        reason: compileReason(d),
        byId: new Map(),
        byKey: new Map(),
        suggestions: createSuggestionIndex(),
      },
    ]),
  );
  /** By type, what the latest verifications found, newest first: their padding. */
  const recentlyFound = new Map<string, readonly VerifiedValues[]>();
  const recordsOf = (type: string) => {
    const found = types.get(type);
    if (!found) throw new Error(`unknown record type ${type}`);
    return found;
  };

  const unindex = (records: TypeRecords, id: number, keys: readonly SearchKey[]) => {
    for (const key of keys) {
      const bucket = keyOf(key.date, key.surname);
      const rest = records.byKey.get(bucket)?.filter((keyed) => keyed.id !== id) ?? [];
      if (rest.length) records.byKey.set(bucket, rest);
      else records.byKey.delete(bucket);
    }
    records.suggestions.remove(id);
  };
  const index = (records: TypeRecords, id: number, keys: readonly SearchKey[]) => {
    for (const key of keys) {
      const bucket = keyOf(key.date, key.surname);
      const list = records.byKey.get(bucket);
      if (list) list.push({ forenames: key.forenames, id });
      else records.byKey.set(bucket, [{ forenames: key.forenames, id }]);
    }
    records.suggestions.add(id, keys);
  };

  const events = createMemoryEvents((type, id) => recordsOf(type).byId.get(id)?.json);

  const search = <R>(type: string, key: SearchKey, limit: number, give: (kept: Kept) => R): SearchResult<R> => {
    const records = recordsOf(type);
    const matched = new Set<number>();
    for (const keyed of records.byKey.get(keyOf(key.date, key.surname)) ?? []) {
      if (forenamesMatch(keyed.forenames, key.forenames)) matched.add(keyed.id);
    }
    const found = [...matched].sort((a, b) => a - b);
    const ids = found.slice(0, limit);
    return { records: ids.map((id) => give(records.byId.get(id)!)), ids, truncated: found.length > limit };
  };

  const json = {
    async lookupJson(type: string, id: string) {
      const records = recordsOf(type);
      // An id as a route passes it; anything else names no record.
      return isSystemNumber(id) ? records.byId.get(Number(id))?.json : undefined;
    },

    async searchJson(type: string, key: SearchKey, limit: number): Promise<SearchResult<string>> {
      return search(type, key, limit, (kept) => kept.json);
    },

    async verificationCandidates(
      type: string,
      key: SearchKey,
      limit: number,
      padTo?: number,
    ): Promise<VerificationCandidates> {
      const found = search(type, key, limit, (kept) => kept.verified);
      if (padTo === undefined) return found;
      // As the PostgreSQL store pads: what earlier verifications of the type found, then its first records.
      const recent = recentlyFound.get(type) ?? [];
      const padding: VerifiedValues[] = recent.slice(0, Math.max(0, padTo - found.records.length));
      for (const kept of recordsOf(type).byId.values()) {
        if (padding.length >= padTo - found.records.length) break;
        padding.push(kept.verified);
      }
      if (found.records.length) recentlyFound.set(type, [...found.records, ...recent].slice(0, padTo));
      return { ...found, padding };
    },

    async suggestionCandidates(type: string, passes: readonly KeyPass[]): Promise<SuggestionCandidates> {
      return recordsOf(type).suggestions.candidates(passes);
    },

    async registerCounts(type: string, surname: string, forename: string): Promise<RegisterCounts> {
      const records = recordsOf(type);
      return { records: records.byId.size, ...records.suggestions.nameCounts(surname, forename) };
    },

    async lookupManyJson(type: string, ids: readonly number[]): Promise<(string | undefined)[]> {
      const records = recordsOf(type);
      return ids.map((id) => records.byId.get(id)?.json);
    },

    async ready() {},
  };

  const writer: RecordWriter = {
    async write(type, batches) {
      const records = recordsOf(type);
      // Gathered first and applied only once every batch is read: all or nothing.
      const staged: (RecordToWrite & { readonly verified: VerifiedValues })[] = [];
      for await (const batch of batches) {
        for (const record of batch) {
          staged.push({ ...record, verified: verifiedValues(JSON.parse(record.json), records.paths) });
        }
      }
      const counts: WriteCounts = { inserted: 0, updated: 0, unchanged: 0 };
      // The records and their events are applied in one synchronous step: no reader sees one without the other.
      const changes: RecordChange[] = [];
      for (const record of staged) {
        const kept = records.byId.get(record.id);
        if (kept && unchanged(kept, record)) {
          counts.unchanged++;
          continue;
        }
        if (kept) {
          unindex(records, record.id, kept.keys);
          counts.updated++;
          changes.push({ id: record.id, reason: records.reason(JSON.parse(kept.json), JSON.parse(record.json)) });
        } else {
          counts.inserted++;
          changes.push({ id: record.id });
        }
        records.byId.set(record.id, { json: record.json, keys: record.keys, verified: record.verified });
        index(records, record.id, record.keys);
      }
      records.suggestions.settle();
      // In id order, as PostgreSQL numbers them.
      events.append(
        type,
        changes.sort((a, b) => a.id - b.id),
      );
      return counts;
    },
  };

  const searchKeys: FedSource = {
    records(type, ids) {
      const { byId } = recordsOf(type);
      const keyed = ids
        ? ids.map((id) => [id, byId.get(id)?.keys ?? []] as const)
        : [...byId].map(([id, kept]) => [id, kept.keys] as const);
      return { type, records: byId.size, keyed };
    },
    onWrite: (heard) =>
      events.onAppend((type, changes) =>
        heard(
          type,
          changes.map((change) => change.id),
        ),
      ),
  };

  return { reader: { ...json, ...parsedReads(json) }, writer, events, searchKeys };
}
