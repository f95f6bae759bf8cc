/**
 * Whether a turn's subscription may still be sent to (not paused, disabled or removed, its lease
 * still held), known from an answer of the store at most ACTIVE_EVERY_MS old rather than asked
 * before every event, which would put a round trip in front of each. The bound: an event goes only
 * once an answer that found the subscription active was asked (its statement sent, so its snapshot
 * taken after) at most ACTIVE_EVERY_MS before the event was due; so none is sent later than
 * ACTIVE_EVERY_MS, plus the database's answer time where the event had to wait for one, after a
 * pause, a disable or a removal is committed. The answers come from the position's recordings
 * (WebhookStore.record answers as `active` does) and, where those lag, from `active` asked ahead of
 * need (once ASK_AHEAD of the bound has passed), so it usually arrives while an event is in flight
 * and the sending does not wait for it; an event due after a longer gap (a slow receiver) waits
 * for a fresh answer.
 */
import type { Lease, WebhookStore } from '../model/webhooks.ts';
import { POSITION_EVERY_MS } from './positions.ts';

/**
 * The most time between a pause being committed and the last event sent after it: twice
 * POSITION_EVERY_MS, so while a subscription sends, its position's recordings (at most that far
 * apart, each answering as `active` would) keep the answer fresh, and the store is asked on its
 * own only when they lag.
 */
export const ACTIVE_EVERY_MS = 2 * POSITION_EVERY_MS;
/** The share of ACTIVE_EVERY_MS after which the store is asked ahead of need, off the sending's path. */
export const ASK_AHEAD = 0.75;

export interface ActiveCheck {
  /**
   * Whether the next event may be sent; waits for the store only when the last answer is too old. Throws what
   * the store threw.
   */
  may(): Promise<boolean>;
  /** An answer got otherwise (a position recorded: WebhookStore.record), asked at `askedAt`. */
  seen(askedAt: number, active: boolean): void;
}

interface ActiveCheckOptions {
  /** When the claim that gave the lease was sent: it too found the subscription active. */
  readonly claimedAt?: number;
  readonly everyMs?: number;
  /** The clock `claimedAt` is read by. */
  readonly now?: () => number;
}

export function activeCheck(
  store: Pick<WebhookStore, 'active'>,
  lease: Lease,
  { claimedAt = -Infinity, everyMs = ACTIVE_EVERY_MS, now = () => performance.now() }: ActiveCheckOptions = {},
): ActiveCheck {
  // When the last question that found the subscription active was sent.
  let activeAt = claimedAt;
  let inactive = false;
  let failure: { error: unknown } | undefined;
  let asking: Promise<void> | undefined;

  const ask = () =>
    (asking ??= (async () => {
      const sent = now();
      try {
        if (await store.active(lease)) activeAt = Math.max(activeAt, sent);
        else inactive = true;
      } catch (error) {
        failure ??= { error };
      } finally {
        asking = undefined;
      }
    })());

  return {
    async may() {
      // The answer asked ahead, if it was asked less than `everyMs` before; else one asked from now, whatever
      // its round trip.
      const due = now();
      while (!inactive && !failure && activeAt <= due - everyMs && activeAt < due) await ask();
      if (failure) throw failure.error;
      if (inactive) return false;
      if (now() - activeAt >= everyMs * ASK_AHEAD) void ask();
      return true;
    },
    seen(askedAt, active) {
      if (active) activeAt = Math.max(activeAt, askedAt);
      else inactive = true;
    },
  };
}
