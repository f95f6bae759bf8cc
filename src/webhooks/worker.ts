/**
 * Delivery workers: each of `slots` loops taking the lease of one subscription with work due,
 * POSTing its events one at a time in feed order (the next once the one before got its 2xx),
 * auditing every attempt, and recording under the lease how far it got, only through events whose
 * entries are committed (so a worker killed mid-delivery loses nothing: the lease runs out, another
 * worker takes the subscription and sends again, with the same webhook-id, what was not recorded).
 * A failure is recorded at once and schedules the next attempt, giving the lease back and holding
 * back only that subscription. The database unreachable pauses the loop; it resumes when it answers.
 */
import { setMaxListeners } from 'node:events';
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { AuditTrail } from '../types/audit.ts';
import type { EventFeed, FeedEvent } from '../types/events.ts';
import type { AttemptOutcome, Lease, WebhookEndpoint, WebhookStore } from '../types/webhooks.ts';
import { cloudEventOf } from '../records/cloud-event.ts';
import { type EventFieldRenderer, receivableTypes } from '../render/event-fields.ts';
import { signedHeaders, webhookId } from './signing.ts';
import type { SendResult, Sender } from './send.ts';
import type { DeliveryMetrics } from './metrics.ts';
import { receiverAddress } from './state.ts';

export interface DeliveryLog {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}

export interface DeliveryOptions {
  readonly store: WebhookStore;
  readonly feed: EventFeed;
  readonly audit: AuditTrail;
  readonly sender: Sender;
  /** An event's `source`, and a subscription's fields rendered for the roles recorded on it, as the feed renders them. */
  readonly renderer: EventFieldRenderer;
  readonly leaseMs: number;
  /** How long an event is retried before it is dead-lettered. */
  readonly retryMs: number;
  readonly log: DeliveryLog;
  readonly metrics?: DeliveryMetrics;
  /** Subscriptions delivered at once. */
  readonly slots?: number;
  /** Events sent under one lease before it is given back for others' turn. */
  readonly batch?: number;
  /**
   * While a subscription's next event is sent, how many of its events before it, at most, may have
   * got their 2xx with their audit entries not yet committed (their positions are recorded only
   * once they are).
   */
  readonly unkeptLimit?: number;
  /** Wait between looks for work when there is none (a commit wakes the workers sooner). */
  readonly pollMs?: number;
  /** The delay before attempt `n + 1` after `n` failures. */
  readonly backoff?: (failures: number) => number;
  readonly owner?: string;
}

/** `unkeptLimit` by default: the sending may run two events ahead of their entries' commits. */
export const UNKEPT_LIMIT = 2;
/**
 * The least time between two recordings of a sending subscription's position: one commit for every
 * event taken in that time rather than one an event, at the cost of sending that time's events again
 * after a crash. The end of a turn records at once.
 */
export const POSITION_EVERY_MS = 25;

const BACKOFF_BASE_MS = 5000;
const BACKOFF_CAP_MS = 3_600_000;
const RETRY_AFTER_CAP_MS = 86_400_000;

/** Exponential from 5 s, at most an hour, with jitter (a half to the whole of it) so receivers coming back are not hit all at once. */
export const exponentialBackoff = (failures: number) => {
  const full = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** Math.min(failures - 1, 20));
  return Math.round(full / 2 + (Math.random() * full) / 2);
};

/** The path a delivery is audited under: the receiver's origin and path, never its query. */
const auditPath = receiverAddress;

export function startDelivery(options: DeliveryOptions) {
  const { store, feed, audit, sender, renderer, leaseMs, retryMs, log, metrics } = options;
  const slots = options.slots ?? 8;
  const batch = options.batch ?? 100;
  const unkeptLimit = options.unkeptLimit ?? UNKEPT_LIMIT;
  const pollMs = options.pollMs ?? 1000;
  const backoff = options.backoff ?? exponentialBackoff;
  const owner = options.owner ?? `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  const stopping = new AbortController();
  // Every slot waits on it.
  setMaxListeners(0, stopping.signal);
  let databaseDown = false;

  /**
   * One attempt: the POST, then its audit entry handed to the audit writer (whose group commit
   * joins every slot's). `kept` settles when the entry is committed, or rejects if it could not
   * be; it is never left unhandled.
   */
  async function attempt(endpoint: WebhookEndpoint, event: FeedEvent, attemptNumber: number, kind: string, fields?: Record<string, unknown>) {
    const body = JSON.stringify(cloudEventOf(event, renderer.sourceOf(event.recordType), fields));
    const included = fields ? renderer.fieldsOf(event.recordType, endpoint.fields) : [];
    const id = webhookId(event.position);
    const started = performance.now();
    const result: SendResult = await sender.send(endpoint, { ...signedHeaders(endpoint, id, new Date(), body) }, body);
    const ok = result.status !== undefined && result.status >= 200 && result.status < 300;
    metrics?.attempted(endpoint.client, ok, (performance.now() - started) / 1000, event.time);
    // Every attempt is audited: a record id reached the receiver (or may have).
    const kept = audit.record({
      username: 'lev-api-deliver',
      client: endpoint.client,
      groups: [],
      dataset: event.recordType,
      operation: 'events',
      path: auditPath(endpoint.url),
      query: `delivery=${kind} outcome=${ok ? 'delivered' : 'failed'} status=${result.status ?? 'none'} attempt=${attemptNumber}`,
      results: ok ? 1 : 0,
      requestId: id,
      records: [{ type: event.recordType, id: event.recordId }],
      events: [String(event.position)],
      ...(included.length ? { fields: included } : {}),
    });
    kept.catch(() => {});
    return { result, kept };
  }

  function decide(result: SendResult, endpoint: { attempts: number; failingSince?: string }, position: number): AttemptOutcome {
    const { status } = result;
    if (status !== undefined && status >= 200 && status < 300) return { kind: 'delivered', position };
    if (status === 410) return { kind: 'gone', position, status };
    const failures = endpoint.attempts + 1;
    const since = endpoint.failingSince ? Date.parse(endpoint.failingSince) : Date.now();
    const error = result.error ?? `the receiver answered ${status}`;
    const delayMs = result.retryAfterMs !== undefined ? Math.min(Math.max(result.retryAfterMs, 1000), RETRY_AFTER_CAP_MS) : backoff(failures);
    if (Date.now() + delayMs - since > retryMs) return { kind: 'dead', position, attempts: failures, status, error };
    return { kind: 'retry', position, delayMs, status, error };
  }

  async function eventAt(position: number, types: readonly string[]) {
    const page = await feed.read(position - 1, types, 1);
    return page.events[0]?.position === position ? page.events[0] : undefined;
  }

  /**
   * The types a subscription is pushed and each event's fields: with roles recorded, only types of
   * datasets they read, and its fields rendered for them as a lookup would; without, every type it
   * names, thin.
   */
  const typesOf = (endpoint: WebhookEndpoint) => (endpoint.roles ? receivableTypes(endpoint.events, endpoint.roles) : endpoint.events);
  const fieldsFor = (endpoint: WebhookEndpoint, events: readonly FeedEvent[]) =>
    endpoint.roles ? renderer.render(events, endpoint.fields, endpoint.roles, (type, ids) => feed.recordsJson(type, ids)) : Promise.resolve(new Map<FeedEvent, Record<string, unknown>>());

  async function deliver(lease: Lease, claimedAt: number) {
    const { endpoint } = lease;
    const types = typesOf(endpoint);
    for (const letter of await store.queued(endpoint.client, batch)) {
      const event = await eventAt(letter.position, types);
      if (!event) {
        await store.redelivered(lease, letter.position, false, undefined, 'the event is no longer kept in the feed, or no longer of a type the subscription receives');
        continue;
      }
      const { result, kept } = await attempt(endpoint, event, letter.attempts + 1, 'redelivery', (await fieldsFor(endpoint, [event])).get(event));
      // A redelivery's outcome is recorded only once its entry is kept.
      await kept;
      const ok = result.status !== undefined && result.status >= 200 && result.status < 300;
      await store.redelivered(lease, letter.position, ok, result.status, result.error);
    }
    if (endpoint.nextAttemptAt && Date.parse(endpoint.nextAttemptAt) > Date.now()) return;

    // An event is taken when it got its 2xx and its attempt's audit entry is committed; only then
    // may its position be recorded, so a position never stands for a delivery the trail lacks. The
    // next event is sent as soon as one gets its 2xx, while its entry commits in the background:
    // while an event is in flight, at most `unkeptLimit` before it have entries not yet committed.
    // The position of the events taken is recorded behind the sending: one UPDATE at a time, for
    // every event taken since the last, at most one every POSITION_EVERY_MS, while the next events
    // go out. It also extends the lease.
    // A worker that dies before it lands leaves those events to be sent again, with the same
    // webhook-id, and audited again.
    let taken = endpoint.deliveredThrough;
    let recorded = endpoint.deliveredThrough;
    // When the lease was last extended, by this process's clock, taken before the statement was sent.
    let leaseFrom = claimedAt;
    let lost = false;
    // The database failing (a position not recorded) or an audit entry not kept: the turn stops.
    let trouble: unknown;
    // An entry not kept: nothing after it counts as taken in this turn.
    let unkept = false;
    let recording: Promise<void> | undefined;
    // When the position was last recorded; a turn ending (`hurry`) records without waiting.
    let recordedAt = -Infinity;
    let hurry = false;
    /** The 2xx'd events whose entries are not yet committed, oldest first; each `settled` never rejects. */
    const unkeptYet: { position: number; settled: Promise<void> }[] = [];
    const record = async (outcome: AttemptOutcome) => {
      const sent = performance.now();
      if (!(await store.record(lease, outcome, leaseMs))) {
        if (!lost) log.warn({ subscription: endpoint.client }, 'webhook lease lost: another worker has the subscription');
        lost = true;
        return false;
      }
      leaseFrom = sent;
      return true;
    };
    const recordTaken = async () => {
      while (recorded < taken && !lost) {
        const wait = recordedAt + POSITION_EVERY_MS - performance.now();
        if (wait > 0 && !hurry) await sleep(wait);
        const through = taken;
        recordedAt = performance.now();
        if (await record({ kind: 'delivered', position: through })) recorded = through;
      }
    };
    const kick = () => {
      recording ??= recordTaken()
        .catch((error: unknown) => void (trouble = error))
        .finally(() => void (recording = undefined));
    };
    /**
     * A 2xx'd event whose entry is committing. The audit writer commits a subscription's entries in
     * the order given (one group at a time), so they settle in feed order; a position is taken only
     * if every entry before it in this turn was kept.
     */
    const keep = (position: number, kept: Promise<void>) => {
      const settled = kept.then(
        () => {
          if (unkept) return;
          taken = position;
          kick();
        },
        (error: unknown) => {
          unkept = true;
          trouble ??= error;
        },
      );
      unkeptYet.push({ position, settled });
      void settled.finally(() => unkeptYet.splice(unkeptYet.findIndex((e) => e.settled === settled), 1));
    };
    /** Every entry handed to the writer committed or failed. */
    const kept = async () => {
      while (unkeptYet.length) await unkeptYet[0].settled;
    };
    /** Every event taken recorded (or the lease lost, or the database failing: `trouble`). */
    const settle = async () => {
      hurry = true;
      await kept();
      while (recording) await recording;
      if (trouble === undefined && recorded < taken && !lost) {
        kick();
        await recording;
      }
      hurry = false;
    };

    try {
      let state: { attempts: number; failingSince?: string } = endpoint;
      const page = await feed.read(endpoint.deliveredThrough, types, batch);
      // Rendered once a page, from the registrations as they are now (as a feed read renders them).
      const fields = await fieldsFor(endpoint, page.events);
      for (const event of page.events) {
        while (unkeptYet.length > unkeptLimit) await unkeptYet[0].settled;
        if (stopping.signal.aborted || lost) return;
        if (trouble !== undefined) throw trouble;
        // A lease not extended for a while (a slow receiver, a slow database) is given back rather than risked.
        if (performance.now() - leaseFrom > leaseMs / 2) {
          await settle();
          if (performance.now() - leaseFrom > leaseMs / 2) return;
        }
        const { result, kept: entry } = await attempt(endpoint, event, state.attempts + 1, 'feed', fields.get(event));
        const outcome = decide(result, state, event.position);
        metrics?.outcome(endpoint.client, outcome.kind);
        if (outcome.kind === 'delivered') {
          keep(event.position, entry);
          state = { attempts: 0 };
          continue;
        }
        // Anything else is recorded at once, once its entry is kept, after the positions taken before it.
        await entry.catch((error: unknown) => {
          unkept = true;
          trouble ??= error;
        });
        await settle();
        if (trouble !== undefined) throw trouble;
        if (lost || !(await record(outcome))) return;
        if (outcome.kind === 'retry') {
          log.info({ subscription: endpoint.client, event: event.position, status: outcome.status, error: outcome.error, retryInMs: outcome.delayMs }, 'webhook delivery failed; will retry');
          return;
        }
        if (outcome.kind === 'gone') {
          log.warn({ subscription: endpoint.client, status: outcome.status }, 'webhook receiver answered 410 Gone: subscription delivery disabled');
          return;
        }
        log.warn({ subscription: endpoint.client, event: event.position, status: outcome.status, error: outcome.error }, 'webhook event dead-lettered after its last attempt');
        state = { attempts: 0 };
      }
      await settle();
      if (trouble !== undefined) throw trouble;
      if (lost || stopping.signal.aborted) return;
      // Past the other types' events too, so the next look starts where there is something to send.
      if (page.events.length < batch && page.next > endpoint.deliveredThrough) await store.skipTo(lease, page.next);
    } finally {
      hurry = true;
      // However the turn ended (the database gone, an audit entry not kept, stopping), what was taken
      // is recorded if it can be while the lease lasts: only what was not taken is sent again.
      await kept();
      while (recording) await recording;
      while (recorded < taken && !lost && performance.now() - leaseFrom < leaseMs - pollMs) {
        try {
          await recordTaken();
        } catch {
          if (stopping.signal.aborted) break;
          await sleep(pollMs);
        }
      }
    }
  }

  // Each slot holds leases under a name of its own: a slot whose lease ran out can never record under another slot's.
  async function slot(index: number) {
    while (!stopping.signal.aborted) {
      let leases: Lease[];
      const claimedAt = performance.now();
      try {
        leases = await store.claim(`${owner}/${index}`, leaseMs, 1);
        if (databaseDown) log.info({}, 'webhook delivery resumed: the database answers again');
        databaseDown = false;
      } catch (error) {
        if (!databaseDown) log.warn({ err: { message: (error as Error).message } }, 'webhook delivery paused: the database does not answer');
        databaseDown = true;
        await sleep(pollMs, undefined, { signal: stopping.signal }).catch(() => {});
        continue;
      }
      if (leases.length === 0) {
        await feed.changed(pollMs, stopping.signal).catch(() => sleep(pollMs, undefined, { signal: stopping.signal }).catch(() => {}));
        continue;
      }
      try {
        await deliver(leases[0], claimedAt);
      } catch (error) {
        log.warn({ subscription: leases[0].endpoint.client, err: { message: (error as Error).message } }, 'webhook delivery interrupted; the subscription is tried again');
        await sleep(pollMs, undefined, { signal: stopping.signal }).catch(() => {});
      } finally {
        await store.release(leases[0]).catch(() => {});
      }
    }
  }

  const running = Promise.all(Array.from({ length: slots }, (_, index) => slot(index)));
  return {
    owner,
    async stop() {
      stopping.abort();
      await running;
      await sender.close();
    },
  };
}
