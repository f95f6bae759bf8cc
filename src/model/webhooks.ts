/**
 * Push delivery of the change feed, as stores keep it: each webhook subscription's endpoint and
 * signing keys, how far delivery has got, the lease a worker holds while it delivers, and the
 * dead letters. PostgreSQL shares this between workers on several machines; the memory store
 * keeps the same in its process for the mock.
 */

/** How a subscription's events are pushed: set with `lev-api subscriptions add|update --webhook`. */
interface WebhookSpec {
  readonly url: string;
  /** PEM files of the client certificate (and its key) presented to the receiver, where it asks for mTLS. */
  readonly tlsCert?: string;
  readonly tlsKey?: string;
}

export interface WebhookKeys {
  /** `whsec_` + base64 of the HMAC key: signs `v1,`. */
  readonly secret: string;
  /** The secret before the last rotation, signing too until `previousUntil`. */
  readonly previousSecret?: string;
  readonly previousUntil?: string;
  /** Ed25519 private key (PKCS#8 DER, base64) that signs `v1a,`, where the subscription chose one. */
  readonly signingKey?: string;
}

export interface WebhookEndpoint extends WebhookSpec, WebhookKeys {
  readonly client: string;
  /** Every position up to this one was delivered or dead-lettered. */
  readonly deliveredThrough: number;
  /** Attempts at the event after `deliveredThrough` so far. */
  readonly attempts: number;
  /** When the first failed attempt at that event was. */
  readonly failingSince?: string;
  readonly nextAttemptAt?: string;
  readonly lastStatus?: number;
  readonly lastError?: string;
  /** When the receiver answered 410 Gone (nothing is sent until `update --webhook` or `resume`). */
  readonly disabledAt?: string;
  readonly disabledReason?: string;
  readonly paused: boolean;
  /** The subscription's event types. */
  readonly events: readonly string[];
  /** The subscription's fields, included only where its roles are recorded. */
  readonly fields: readonly string[];
  /** The roles the client holds, as the operator recorded them (events.ts, SubscriptionSpec). */
  readonly roles?: readonly string[];
}

export interface ListedEndpoint extends WebhookEndpoint {
  /** Positions of the feed after `deliveredThrough` (of any type). */
  readonly lag: number;
  readonly deadLetters: number;
  /** When the oldest event not yet delivered was committed. */
  readonly oldestUndeliveredAt?: string;
}

export interface DeadLetter {
  readonly client: string;
  readonly position: number;
  readonly failedAt: string;
  readonly attempts: number;
  readonly lastStatus?: number;
  readonly lastError?: string;
  /** Queued for another attempt (`redeliver`). */
  readonly redeliver: boolean;
}

/** What a worker was given: a subscription to deliver, held until `leaseUntil`. */
export interface Lease {
  readonly endpoint: WebhookEndpoint;
  readonly owner: string;
}

/** The outcome of an attempt at the event after `deliveredThrough`, as the worker decided it. */
export type AttemptOutcome =
  | { readonly kind: 'delivered'; readonly position: number }
  | {
      readonly kind: 'retry';
      readonly position: number;
      readonly delayMs: number;
      readonly status?: number;
      readonly error: string;
    }
  | {
      readonly kind: 'dead';
      readonly position: number;
      readonly attempts: number;
      readonly status?: number;
      readonly error: string;
    }
  | { readonly kind: 'gone'; readonly position: number; readonly status: number };

/**
 * An outcome recorded under a lease still held: whether the subscription was, then, not paused, disabled or
 * removed.
 */
export type Recorded = false | { readonly active: boolean };

export interface DeadLetterRange {
  readonly position?: number;
  readonly from?: Date;
  readonly to?: Date;
}

export interface WebhookStore {
  /** Gives the subscription a webhook, delivering from the feed's end; throws unless the subscription exists. */
  setEndpoint(client: string, spec: WebhookSpec, keys: WebhookKeys): Promise<boolean>;
  /** Changes the URL or certificate, and enables a disabled endpoint. */
  updateEndpoint(client: string, spec: WebhookSpec): Promise<boolean>;
  /** A new secret; the current one keeps signing until `graceMs` from now. */
  rotate(client: string, secret: string, graceMs: number): Promise<boolean>;
  get(client: string): Promise<WebhookEndpoint | undefined>;
  list(): Promise<ListedEndpoint[]>;
  /**
   * Leases of up to `limit` subscriptions with work due (events after their position, or dead
   * letters queued again), not paused, disabled or leased by another, for `leaseMs`; those whose
   * last turn ended longest ago first (never delivered, first of all), and none of `exclude`.
   */
  claim(owner: string, leaseMs: number, limit: number, exclude?: readonly string[]): Promise<Lease[]>;
  /**
   * Whether the lease is still held and its subscription may still be sent to: not paused,
   * disabled or removed since it was claimed. Asked while a turn sends, at most ACTIVE_EVERY_MS
   * apart (webhooks/active.ts), so a pause takes effect within that bound.
   */
  active(lease: Lease): Promise<boolean>;
  /**
   * Records an attempt's outcome and extends the lease; false when the lease was lost (another
   * worker has the subscription now: stop), else whether the subscription may still be sent to,
   * as `active` would answer in the same statement (so a turn that records its position need not
   * ask `active` as well).
   */
  record(lease: Lease, outcome: AttemptOutcome, leaseMs: number): Promise<Recorded>;
  /** Moves the position past events of types the subscription does not receive. */
  skipTo(lease: Lease, position: number): Promise<boolean>;
  /** Gives the lease back; the time it ended orders the next claims (the longest waiting first). */
  release(lease: Lease): Promise<void>;
  deadLetters(client: string, limit?: number): Promise<DeadLetter[]>;
  /** Dead letters queued for another attempt. */
  queued(client: string, limit: number): Promise<DeadLetter[]>;
  /** A queued dead letter's outcome: delivered (removed) or failed again (kept, no longer queued). */
  redelivered(lease: Lease, position: number, ok: boolean, status?: number, error?: string): Promise<void>;
  /** Queues dead letters for another attempt: one, those in a time range, or all; how many. */
  redeliver(client: string, range: DeadLetterRange): Promise<number>;
}
