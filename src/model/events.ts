/**
 * The change feed as stores keep it: an outbox of events the ingest pipeline writes in the same
 * transaction as the records they are about, read in one order by every reader, and the
 * subscriptions that say which client receives what.
 */

/** Why a registration was updated, as the change feed names it (records/changes.ts derives it). */
export const UPDATE_REASONS = [
  'cancelled',
  'replaced',
  'blocked',
  'unblocked',
  'corrected',
  'marginal-note',
  'other',
] as const;
export type UpdateReason = (typeof UPDATE_REASONS)[number];

/** What a write of records made happen to one registration: new, or changed and why. */
export interface RecordChange {
  readonly id: number;
  /** Absent for a new registration. */
  readonly reason?: UpdateReason;
}

/** One event as stored. */
export interface FeedEvent {
  /**
   * Its place in the feed: positions are given in commit order, one after another with no gap,
   * so the events a reader can see are always every event up to some position.
   */
  readonly position: number;
  /** `<record type>.registered` or `<record type>.updated`. */
  readonly type: string;
  readonly recordType: string;
  readonly recordId: number;
  readonly reason?: UpdateReason;
  /** When it was committed: ISO 8601, UTC. */
  readonly time: string;
  /** The W3C traceparent of the traced load that made it, which its delivery continues; never sent to readers. */
  readonly traceParent?: string;
}

interface FeedPage {
  /** Oldest first. */
  readonly events: FeedEvent[];
  /** The position to read after next: the last event's when the page is full, else the feed's end as read. */
  readonly next: number;
}

interface FeedBounds {
  /** The last position given (0 before any event). */
  readonly head: number;
  /**
   * Events up to this position are older than the retention cutoff asked about (or deleted): a reader after
   * an earlier position has missed some.
   */
  readonly expiredThrough: number;
}

/**
 * Positions one read looks through at most: a client subscribed to a rare type does not make each
 * read scan the whole feed; its `next` moves on by this much instead.
 */
export const READ_WINDOW = 100_000;

export interface EventFeed {
  /**
   * Events after `after` of the given types, oldest first, at most `limit`, among the `window` positions
   * after `after`.
   */
  read(after: number, types: readonly string[], limit: number, window?: number): Promise<FeedPage>;
  bounds(cutoff: Date): Promise<FeedBounds>;
  /** The position of the last event committed before `time` (0 when none). */
  positionBefore(time: Date): Promise<number>;
  /**
   * Resolves when events may have been committed since it was called (a signal, not a promise of
   * one), after `ms` at the latest, or when `signal` aborts.
   */
  changed(ms: number, signal?: AbortSignal): Promise<void>;
  /** Deletes events committed before `cutoff`; how many. */
  prune(cutoff: Date): Promise<number>;
  /** The stored text of records of a type by id (for the fields a subscription includes). */
  recordsJson(type: string, ids: readonly number[]): Promise<Map<number, string>>;
}

export interface SubscriptionSpec {
  readonly client: string;
  /** Event types, e.g. `death.registered`. */
  readonly events: readonly string[];
  /** Dot paths of the record description included in each event's data (restricted by the client's roles). */
  readonly fields: readonly string[];
  /**
   * The roles the client holds, as the operator recorded them, for its pushed events (a webhook
   * has no caller's token to read them from): its types narrowed and its fields rendered for
   * these, as for a caller holding them. Absent: not recorded, and pushed events stay thin.
   */
  readonly roles?: readonly string[];
}

export interface Subscription extends SubscriptionSpec {
  readonly paused: boolean;
  /** The last position the client read after (`after=`), when it has. */
  readonly acknowledged?: number;
  readonly acknowledgedAt?: string;
  readonly createdAt: string;
}

export interface ListedSubscription extends Subscription {
  /** Positions between the feed's end and the acknowledged one (all of them when none is). */
  readonly lag: number;
}

export class SubscriptionExists extends Error {
  override name = 'SubscriptionExists';
  constructor(readonly client: string) {
    super(`client ${client} has a subscription already: remove it first to change it`);
  }
}

export interface Subscriptions {
  /** Throws SubscriptionExists when the client has one. */
  add(spec: SubscriptionSpec): Promise<void>;
  get(client: string): Promise<Subscription | undefined>;
  list(): Promise<ListedSubscription[]>;
  /** Whether the client had a subscription to pause or resume. */
  setPaused(client: string, paused: boolean): Promise<boolean>;
  remove(client: string): Promise<boolean>;
  /** Records (or, with undefined, forgets) the roles the client holds; whether it has a subscription. */
  setRoles(client: string, roles: readonly string[] | undefined): Promise<boolean>;
  /** Records `position` as the client's acknowledged one (nothing when it has no subscription). */
  acknowledge(client: string, position: number): Promise<void>;
}
