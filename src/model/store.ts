/**
 * What the rest of the service asks of a store, split by use: HTTP reads
 * records, loads write them, and every access is written to the audit trail
 * and read back by the audit report. Each backend (src/backend/) gives all four.
 */
import type { AuditReport, AuditTrail } from './audit.ts';
import type { CredentialStatuses } from './credentials.ts';
import type { WalletStore } from './wallet.ts';
import type { EventFeed, Subscriptions } from './events.ts';
import type { WebhookStore } from './webhooks.ts';
import type {
  RecordToWrite,
  RegisterCounts,
  SearchKey,
  SuggestionCandidates,
  VerifiedValues,
  WriteCounts,
} from './records.ts';

export interface SearchResult<R> {
  readonly records: R[];
  /** The ids of `records`, in the same order: what the audit trail names as disclosed. */
  readonly ids: readonly number[];
  /** More records matched than were returned. */
  readonly truncated: boolean;
}

/** Verification's candidates, and what pads them out (`RecordReader.verificationCandidates`). */
export interface VerificationCandidates extends SearchResult<VerifiedValues> {
  /**
   * Other registrations of the type, read and prepared as the candidates are, so that candidates
   * and padding together number `padTo` (or all the type holds, when fewer): given when `padTo`
   * was. Compared and ignored, they make finding none take the work of finding some.
   */
  readonly padding?: readonly VerifiedValues[];
}

/** What a read must see. */
export interface ReadOptions {
  /**
   * The change feed's position (an event's id) the answer must be at least as new as: a replica
   * that has not replayed it does not answer.
   */
  readonly atLeast?: number;
}

type ReplicaCondition = 'up' | 'lagging' | 'down';

export interface ReplicaState {
  /** `1`, `2`...: its place in DATABASE_READ_URLS (never the URL, which may hold a password). */
  readonly name: string;
  /** Up (in rotation), lagging (answering, but further behind than allowed) or down (not answering). */
  readonly condition: ReplicaCondition;
  /** How far behind the primary it may be, at most, in ms; undefined while it does not answer. */
  readonly lagMs: number | undefined;
}

/** Reads asked of the primary after, or instead of, a replica, by why. */
export interface FallbackCounts {
  /** A replica found nothing (a 404, no records): the primary may hold what the replica has not replayed yet. */
  empty: number;
  /** A replica failed the read. */
  failed: number;
  /** No replica was fit to answer (all behind, down, or older than the position asked for). */
  unfit: number;
}

/** Where a store's reads go: its replicas' states, and the reads that fell back on the primary. */
export interface ReadPaths {
  readonly replicas: readonly ReplicaState[];
  readonly fallbacks: Readonly<FallbackCounts>;
  /** Close-match indexes held in the service (SUGGESTION_INDEX=service): built, and the feed position applied. */
  readonly suggestionIndex?: { readonly built: boolean; readonly position: number };
}

/**
 * The reads. The `Json` forms give each record as the JSON text the store holds, unparsed: the
 * same text for the same stored record, which is what rendered answers are cached on.
 */
/** One blocking pass of close-match candidates: its keys, and the most records it may bring. */
export interface KeyPass {
  readonly keys: readonly (number | string)[];
  readonly limit: number;
}

export interface RecordReader {
  lookupJson(type: string, id: string, options?: ReadOptions): Promise<string | undefined>;
  /**
   * Records with a key of `key.date` and `key.surname` whose forenames start with the whole words of
   * `key.forenames` (`anne` finds `anne marie`, not `annette`), each once, by id, at most `limit`.
   */
  searchJson(type: string, key: SearchKey, limit: number, options?: ReadOptions): Promise<SearchResult<string>>;
  /**
   * What verification compares of the records `searchJson` would find: the values at the type's
   * verified paths, not the record, so that a verification reads and parses no more than it needs.
   * With `padTo`, as many other registrations as it takes to make `padTo` in all, read the same way,
   * in one statement with the search: the store does the same work whether it found none or some.
   */
  verificationCandidates(
    type: string,
    key: SearchKey,
    limit: number,
    padTo?: number,
    options?: ReadOptions,
  ): Promise<VerificationCandidates>;
  /**
   * Close-match candidates: the union of the passes' records (match/keys.ts), each pass the records
   * sharing the most of its `keys` (numbers, or their decimal text as PostgreSQL gives a bigint),
   * then by id, at most its `limit`; by id, with their search keys to be scored by
   * (match/candidates.ts). `truncated` when more records than its limit shared a key of some pass.
   */
  suggestionCandidates(type: string, passes: readonly KeyPass[]): Promise<SuggestionCandidates>;
  /**
   * How many registrations of the type the store holds, and how many have this normalised surname
   * and this first forename (one word): what close matches weigh an exact name by.
   */
  registerCounts(type: string, surname: string, forename: string): Promise<RegisterCounts>;
  /** The JSON text of each of these records, in the order asked; undefined for an id no record has. */
  lookupManyJson(type: string, ids: readonly number[]): Promise<(string | undefined)[]>;
  lookup(type: string, id: string): Promise<unknown | undefined>;
  search(type: string, key: SearchKey, limit: number): Promise<SearchResult<unknown>>;
  /** Throws unless the store can answer for every described record type. */
  ready(): Promise<void>;
  /** A server's read replicas, where it has any. */
  readPaths?(): ReadPaths;
}

export interface RecordWriter {
  /**
   * Writes every batch of records of `type` in one transaction: all of them, or (when a batch
   * cannot be written, or the batches' source throws) none. Records are written by id: a record
   * whose data or keys are as stored is left unchanged. Ids are distinct across the batches.
   * In the same transaction, one change-feed event for each record inserted or updated (none for
   * one left unchanged), numbered in commit order.
   */
  write(type: string, batches: AsyncIterable<readonly RecordToWrite[]>, options?: WriteOptions): Promise<WriteCounts>;
  /**
   * Where a load keeps the ids it has given so far, when not in this process: a store that holds
   * them outside it (PostgreSQL, in a table of a connection of their own) keeps a load of any size
   * in bounded memory. Without it the loader keeps them in a map.
   */
  loadIds?(): Promise<LoadIds>;
}

/** The ids one load has given (a record accepted under each), with where each was given. */
export interface LoadIds {
  /**
   * Adds distinct `ids` given at `positions` (a number each, as the loader counts them); returns the
   * ids among them given before, each with the position where it was first given. Those are not added.
   */
  add(ids: readonly number[], positions: readonly number[]): Promise<Map<number, number>>;
  /** Forgets them all and lets go of what held them. */
  close(): Promise<void>;
}

interface WriteOptions {
  /** The W3C traceparent of the traced load, kept with its events so that their delivery continues its trace. */
  readonly traceParent?: string;
}

export interface Backend {
  /** `memory` for the embedded store, `postgres` for a server. */
  readonly kind: 'memory' | 'postgres';
  readonly records: RecordReader;
  readonly writer: RecordWriter;
  readonly audit: AuditTrail;
  readonly report: AuditReport;
  /** The change feed the writer's events are read from. */
  readonly events: EventFeed;
  readonly subscriptions: Subscriptions;
  /** Push delivery of the feed to webhook subscriptions. */
  readonly webhooks: WebhookStore;
  /** The status list entries of the digital certificates issued. */
  readonly credentials: CredentialStatuses;
  /** The wallet pick-up's offers, nonces and notifications (OpenID4VCI). */
  readonly wallet: WalletStore;
  /** What the operator should be told as the service starts over it (logged at warn), in words and bounded details. */
  warnings(): readonly { readonly details: Record<string, unknown>; readonly message: string }[];
  close(): Promise<void>;
}
