/**
 * Delivery workers: each of `slots` loops taking the lease of one subscription with work due and
 * delivering a turn of it (turn.ts): its events one at a time in feed order, every attempt audited,
 * how far it got recorded under the lease only through events whose entries are committed
 * (positions.ts), so a worker killed mid-delivery loses nothing: the lease runs out, another worker
 * takes the subscription and sends again, with the same webhook-id, what was not recorded. A turn
 * ends after a batch or a time budget, and slow subscriptions hold at most a share of the slots
 * (fairness.ts). Idle slots wait in line, woken one at a time (a commit wakes one; each that finds
 * work wakes the next). The database unreachable pauses the loop; it resumes when it answers.
 */
import { setMaxListeners } from 'node:events';
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { AuditTrail } from '../model/audit.ts';
import type { EventFeed } from '../model/events.ts';
import type { Lease, WebhookStore } from '../model/webhooks.ts';
import type { EventFieldRenderer } from '../render/event-fields.ts';
import type { Sender } from './send.ts';
import type { DeliveryMetrics } from './metrics.ts';
import { exponentialBackoff } from './attempt.ts';
import { slotShares } from './fairness.ts';
import { type TurnContext, deliverTurn } from './turn.ts';

export { exponentialBackoff } from './attempt.ts';
export { POSITION_EVERY_MS } from './positions.ts';

export interface DeliveryLog {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}

export interface DeliveryOptions {
  readonly store: WebhookStore;
  readonly feed: EventFeed;
  readonly audit: AuditTrail;
  readonly sender: Sender;
  /**
   * An event's `source`, and a subscription's fields rendered for the roles recorded on it, as the feed
   * renders them.
   */
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
  /** How long a turn may send before it is given back for others' turn (WEBHOOK_TURN_S). */
  readonly turnMs?: number;
  /** The share of the slots (0 to 1) slow subscriptions may hold together (WEBHOOK_SLOW_SHARE). */
  readonly slowShare?: number;
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
const DEFAULT_TURN_MS = 5000;
const DEFAULT_SLOW_SHARE = 0.5;

export function startDelivery(options: DeliveryOptions) {
  const { store, feed, log } = options;
  const slots = options.slots ?? 8;
  const pollMs = options.pollMs ?? 1000;
  const owner = options.owner ?? `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  const stopping = new AbortController();
  // Every slot waits on it.
  setMaxListeners(0, stopping.signal);
  const context: TurnContext = {
    ...options,
    backoff: options.backoff ?? exponentialBackoff,
    batch: options.batch ?? 100,
    turnMs: options.turnMs ?? DEFAULT_TURN_MS,
    unkeptLimit: options.unkeptLimit ?? UNKEPT_LIMIT,
    pollMs,
    stopping: stopping.signal,
  };
  const shares = slotShares(slots, options.slowShare ?? DEFAULT_SLOW_SHARE);
  let databaseDown = false;
  const pause = () => sleep(pollMs, undefined, { signal: stopping.signal }).catch(() => {});

  /** A lease for the slot, or none when nothing is due (or the database does not answer). */
  async function claim(index: number): Promise<Lease | undefined> {
    try {
      const leases = await shares.claim(index, (exclude) =>
        store.claim(`${owner}/${index}`, options.leaseMs, 1, exclude),
      );
      if (databaseDown) log.info({}, 'webhook delivery resumed: the database answers again');
      databaseDown = false;
      return leases[0];
    } catch (error) {
      if (!databaseDown)
        log.warn(
          { err: { message: (error as Error).message } },
          'webhook delivery paused: the database does not answer',
        );
      databaseDown = true;
      await pause();
      return undefined;
    }
  }

  /** One turn of the lease's subscription, then the lease given back whatever happened. */
  async function turn(index: number, lease: Lease, claimedAt: number) {
    let slow = false;
    try {
      ({ slow } = await deliverTurn(context, lease, claimedAt));
    } catch (error) {
      slow = performance.now() - claimedAt >= context.turnMs;
      log.warn(
        { subscription: lease.endpoint.client, err: { message: (error as Error).message } },
        'webhook delivery interrupted; the subscription is tried again',
      );
      await pause();
    } finally {
      shares.ended(index, lease.endpoint.client, slow);
      await store.release(lease).catch(() => {});
    }
  }

  /**
   * Slots with nothing to do wait in line: a commit to the feed (or `pollMs` without one, for
   * retries come due) wakes the first, and a slot that claims a lease wakes the next, so a commit
   * costs the claims there is work for and one more, not a claim from every idle slot.
   */
  const idle: (() => void)[] = [];
  let watching = false;
  const wakeNext = () => idle.shift()?.();
  async function watch() {
    watching = true;
    while (idle.length > 0 && !stopping.signal.aborted) {
      await feed.changed(pollMs, stopping.signal).catch(pause);
      wakeNext();
    }
    watching = false;
  }
  const waitInLine = () =>
    new Promise<void>((resolve) => {
      // A claim out when stop() was asked comes back after the line was emptied: nothing would wake it.
      if (stopping.signal.aborted) return resolve();
      idle.push(resolve);
      if (!watching) void watch();
    });
  stopping.signal.addEventListener('abort', () => idle.splice(0).forEach((wake) => wake()));

  // Each slot holds leases under a name of its own: a slot whose lease ran out can never record under another slot's.
  async function slot(index: number) {
    while (!stopping.signal.aborted) {
      const claimedAt = performance.now();
      const lease = await claim(index);
      if (lease) {
        // There may be more work: the next idle slot looks for it while this one delivers.
        wakeNext();
        await turn(index, lease, claimedAt);
      } else if (!databaseDown) await waitInLine();
    }
  }

  const running = Promise.all(Array.from({ length: slots }, (_, index) => slot(index)));
  return {
    owner,
    async stop() {
      stopping.abort();
      await running;
      await options.sender.close();
    },
  };
}
