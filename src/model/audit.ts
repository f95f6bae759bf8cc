/** The audit trail as its writers and readers share it. */

/**
 * What an access did: read one record, searched, verified, asked for close matches, read the change
 * feed, read the audit trail itself, or was issued a digital certificate of one record.
 */
export const AUDIT_OPERATIONS = [
  'lookup',
  'search',
  'verify',
  'suggest',
  'events',
  'audit-read',
  'credential',
] as const;
export type AuditOperation = (typeof AUDIT_OPERATIONS)[number];

/** How a reading of the trail itself is recorded, by the audit routes and the audit commands alike. */
export const AUDIT_READ = { dataset: 'audit', operation: 'audit-read' } as const satisfies {
  dataset: string;
  operation: AuditOperation;
};

/** One registration an access disclosed or decided on. */
export interface RecordRef {
  readonly type: string;
  readonly id: number;
}

export interface AuditEntry {
  readonly username: string;
  readonly client: string;
  readonly groups: readonly string[];
  readonly dataset: string;
  /** A verification's `results` is 1 when it answered verified, 0 when not. */
  readonly operation: AuditOperation;
  readonly path: string;
  readonly query: string;
  readonly results: number;
  readonly requestId: string;
  /** The registrations this access disclosed or decided on, where it named any. */
  readonly records?: readonly RecordRef[];
  /** A change-feed answer's event ids (feed positions), in the order sent. */
  readonly events?: readonly string[];
  /**
   * The record fields (dot paths) a change-feed answer included, where its subscription names any, or a
   * credential disclosed.
   */
  readonly fields?: readonly string[];
}

/** An entry as stored: with its time (ISO 8601, milliseconds, UTC) and hash. */
export interface ChainedEntry extends AuditEntry {
  readonly at: string;
  readonly hash: string;
}

export interface AuditTrail {
  /** Resolves once the entry is written where the trail keeps it; rejects if it could not be. */
  record(entry: AuditEntry): Promise<void>;
  /**
   * Says that an access which will record an entry has begun; the function returned says that it
   * has recorded it, or ended without (called more than once, it counts once). A trail that commits
   * entries in groups may hold a group back briefly while accesses begun have yet to join it.
   */
  expect?(): () => void;
  /** Waits for queued entries to be written. */
  flush(): Promise<void>;
}

export interface ActivityFilter {
  /** First and last day counted (UTC), both inclusive: YYYY-MM-DD. */
  readonly from: string;
  readonly to: string;
  readonly user?: string;
  readonly group?: string;
  readonly operation?: string;
  readonly dataset?: string;
}

/** `{ username: { 'YYYY-MM-DD': count } }`. */
export type ActivityReport = Record<string, Record<string, number>>;

/** The entries of one user, for the report's drill-down from a user's day to its accesses. */
export interface EntriesFilter {
  /** First and last day listed (UTC), both inclusive: YYYY-MM-DD. */
  readonly from: string;
  readonly to: string;
  /** The whole username, compared exactly: a drill-down from one row must not list another user's accesses. */
  readonly user: string;
  readonly operation?: string;
  readonly dataset?: string;
  /** At most this many, newest first: ENTRIES_LIMIT when not given, never more than MAX_ENTRIES_LIMIT. */
  readonly limit?: number;
}

export const ENTRIES_LIMIT = 100;
export const MAX_ENTRIES_LIMIT = 1000;

/** An entry as the audit role reads it: the hash is the chain's business (`lev-api audit verify`), not a reader's. */
export type ListedEntry = Omit<ChainedEntry, 'hash'>;

export interface EntriesPage {
  /** Newest first; entries of the same instant (one batch) last written first. */
  readonly entries: ListedEntry[];
  /** More entries matched than `limit`. */
  readonly truncated: boolean;
}

/** The accesses that disclosed or decided on one registration: who saw it. */
export interface RecordAccessFilter {
  readonly type: string;
  readonly id: number;
  /** First and last day listed (UTC), both inclusive: YYYY-MM-DD. */
  readonly from: string;
  readonly to: string;
  /** At most this many, newest first: ENTRIES_LIMIT when not given, never more than MAX_ENTRIES_LIMIT. */
  readonly limit?: number;
}

/** Where one writer's chain had got to. */
export interface WriterHead {
  readonly writer: string;
  readonly seq: number;
  readonly hash: string;
}

/** What a checkpoint states: the trail's size and every writer's head at `at`, after the checkpoint before it. */
export interface CheckpointBody {
  readonly at: string;
  /** Entries in the trail: those of the chain before writers (the origin's) and every writer's. */
  readonly entries: number;
  /** The hash that ended the chain before writers, where every writer's chain starts from. */
  readonly origin: string;
  readonly heads: readonly WriterHead[];
  /** The hash of the checkpoint before this one; the genesis hash for the first. */
  readonly previous: string;
}

/** A checkpoint as kept and handed to witnesses: signed with Ed25519 over its hash. */
export interface Checkpoint extends CheckpointBody {
  readonly hash: string;
  /** The signing key's public half: SPKI DER, base64. */
  readonly publicKey: string;
  /** Ed25519 over the hash's text, base64. */
  readonly signature: string;
}

/**
 * The report the audit role reads: accesses per user per day, one user's accesses, who saw a record, and the
 * checkpoints.
 */
export interface AuditReport {
  userActivity(filter: ActivityFilter): Promise<ActivityReport>;
  entries(filter: EntriesFilter): Promise<EntriesPage>;
  recordAccesses(filter: RecordAccessFilter): Promise<EntriesPage>;
  /** The latest checkpoints, newest first, at most `limit`. */
  checkpoints(limit: number): Promise<Checkpoint[]>;
}
