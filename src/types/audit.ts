/** The audit trail as its writers and readers share it. */

export interface AuditEntry {
  readonly username: string;
  readonly client: string;
  readonly groups: readonly string[];
  readonly dataset: string;
  /** A verification's `results` is 1 when it answered verified, 0 when not. */
  readonly operation: 'lookup' | 'search' | 'verify';
  readonly path: string;
  readonly query: string;
  readonly results: number;
  readonly requestId: string;
}

/** An entry as stored: with its time (ISO 8601, milliseconds, UTC) and hash. */
export interface ChainedEntry extends AuditEntry {
  readonly at: string;
  readonly hash: string;
}

export interface AuditTrail {
  /** Resolves once the entry is written where the trail keeps it; rejects if it could not be. */
  record(entry: AuditEntry): Promise<void>;
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

/** The report the audit role reads: accesses per user per day. */
export interface AuditReport {
  userActivity(filter: ActivityFilter): Promise<ActivityReport>;
}
