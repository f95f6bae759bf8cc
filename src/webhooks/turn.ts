/**
 * One turn of one subscription under its lease: the dead letters queued again, then its events
 * from the feed, one at a time in feed order (the next once the one before got its 2xx), until the
 * page is sent, an attempt fails, or the turn's time is up. Before each event the turn makes sure
 * the subscription may still be sent to, by an answer of the store at most ACTIVE_EVERY_MS old
 * (active.ts), so a pause, a disable or a removal takes effect within that bound.
 */
import type { EventFeed, FeedEvent } from '../model/events.ts';
import type { Lease, WebhookEndpoint, WebhookStore } from '../model/webhooks.ts';
import { type EventFieldRenderer, receivableTypes } from '../render/event-fields.ts';
import { type ActiveCheck, activeCheck } from './active.ts';
import { type Attempter, attempt, decide, isTaken } from './attempt.ts';
import type { DeliveryMetrics } from './metrics.ts';
import { positionRecorder } from './positions.ts';
import type { DeliveryLog } from './worker.ts';

export interface TurnContext extends Attempter {
  readonly store: WebhookStore;
  readonly feed: EventFeed;
  readonly renderer: EventFieldRenderer;
  readonly metrics?: DeliveryMetrics;
  readonly log: DeliveryLog;
  readonly leaseMs: number;
  readonly retryMs: number;
  readonly backoff: (failures: number) => number;
  /** Events sent in one turn at most. */
  readonly batch: number;
  /** A turn sends no further event once it has lasted this long (WEBHOOK_TURN_S). */
  readonly turnMs: number;
  /** 2xx'd events of the subscription whose entries may be uncommitted while the next is sent. */
  readonly unkeptLimit: number;
  readonly pollMs: number;
  readonly stopping: AbortSignal;
}

/** How a turn ended: `slow` when it used its whole time (its receiver holds a slot long). */
interface TurnEnd {
  readonly slow: boolean;
}

/**
 * The types a subscription is pushed and each event's fields: with roles recorded, only types of
 * datasets they read, and its fields rendered for them as a lookup would; without, every type it
 * names, thin.
 */
const typesOf = (endpoint: WebhookEndpoint) =>
  endpoint.roles ? receivableTypes(endpoint.events, endpoint.roles) : endpoint.events;

function fieldsFor({ renderer, feed }: TurnContext, endpoint: WebhookEndpoint, events: readonly FeedEvent[]) {
  return endpoint.roles
    ? renderer.render(events, endpoint.fields, endpoint.roles, (type, ids) => feed.recordsJson(type, ids))
    : Promise.resolve(new Map<FeedEvent, Record<string, unknown>>());
}

async function eventAt(feed: EventFeed, position: number, types: readonly string[]) {
  const page = await feed.read(position - 1, types, 1);
  return page.events[0]?.position === position ? page.events[0] : undefined;
}

/** The turn's clock: it runs out once `turnMs` has passed and at least one event was attempted. */
function turnClock(claimedAt: number, turnMs: number) {
  let attempted = 0;
  return {
    attempted: () => void attempted++,
    out: () => attempted > 0 && performance.now() - claimedAt >= turnMs,
    slow: () => performance.now() - claimedAt >= turnMs,
  };
}

/** Dead letters queued again (`redeliver`), each once; its outcome recorded only once its entry is kept. */
async function redeliverQueued(
  context: TurnContext,
  lease: Lease,
  types: readonly string[],
  clock: ReturnType<typeof turnClock>,
  active: ActiveCheck,
) {
  const { store, feed } = context;
  const { endpoint } = lease;
  for (const letter of await store.queued(endpoint.client, context.batch)) {
    if (clock.out() || context.stopping.aborted || !(await active.may())) return false;
    const event = await eventAt(feed, letter.position, types);
    if (!event) {
      await store.redelivered(
        lease,
        letter.position,
        false,
        undefined,
        'the event is no longer kept in the feed, or no longer of a type the subscription receives',
      );
      continue;
    }
    clock.attempted();
    const { result, kept } = await attempt(
      context,
      endpoint,
      event,
      letter.attempts + 1,
      'redelivery',
      (await fieldsFor(context, endpoint, [event])).get(event),
    );
    await kept;
    await store.redelivered(lease, letter.position, isTaken(result), result.status, result.error);
  }
  return true;
}

export async function deliverTurn(context: TurnContext, lease: Lease, claimedAt: number): Promise<TurnEnd> {
  const { store, feed, log, metrics, leaseMs, stopping } = context;
  const { endpoint } = lease;
  const types = typesOf(endpoint);
  const clock = turnClock(claimedAt, context.turnMs);
  const ended = () => ({ slow: clock.slow() });
  const active = activeCheck(store, lease, { claimedAt });
  if (!(await redeliverQueued(context, lease, types, clock, active))) return ended();
  if (endpoint.nextAttemptAt && Date.parse(endpoint.nextAttemptAt) > Date.now()) return ended();

  const positions = positionRecorder(store, lease, { leaseMs, claimedAt, log, active });
  try {
    let state: { attempts: number; failingSince?: string } = endpoint;
    const page = await feed.read(endpoint.deliveredThrough, types, context.batch);
    // Rendered once a page, from the registrations as they are now (as a feed read renders them).
    const fields = await fieldsFor(context, endpoint, page.events);
    for (const event of page.events) {
      await positions.room(context.unkeptLimit);
      if (stopping.aborted || positions.lost) return ended();
      if (positions.trouble !== undefined) throw positions.trouble;
      // A lease not extended for a while (a slow receiver, a slow database) is given back rather than risked.
      if (positions.leaseAge() > leaseMs / 2) {
        await positions.settle();
        if (positions.leaseAge() > leaseMs / 2) return ended();
      }
      // The turn's time is up: the others' turn; what was taken is recorded in `finish`.
      if (clock.out()) return ended();
      // Paused, disabled or removed: nothing more is sent.
      if (!(await active.may())) return ended();
      clock.attempted();
      const { result, kept: entry } = await attempt(
        context,
        endpoint,
        event,
        state.attempts + 1,
        'feed',
        fields.get(event),
      );
      const outcome = decide(result, state, event.position, context);
      metrics?.outcome(endpoint.client, outcome.kind);
      if (outcome.kind === 'delivered') {
        positions.keep(event.position, entry);
        state = { attempts: 0 };
        continue;
      }
      // Anything else is recorded at once, once its entry is kept, after the positions taken before it.
      await entry.catch(positions.unkept);
      await positions.settle();
      if (positions.trouble !== undefined) throw positions.trouble;
      if (positions.lost || !(await positions.record(outcome))) return ended();
      if (outcome.kind === 'retry') {
        log.info(
          {
            subscription: endpoint.client,
            event: event.position,
            status: outcome.status,
            error: outcome.error,
            retryInMs: outcome.delayMs,
          },
          'webhook delivery failed; will retry',
        );
        return ended();
      }
      if (outcome.kind === 'gone') {
        log.warn(
          { subscription: endpoint.client, status: outcome.status },
          'webhook receiver answered 410 Gone: subscription delivery disabled',
        );
        return ended();
      }
      log.warn(
        { subscription: endpoint.client, event: event.position, status: outcome.status, error: outcome.error },
        'webhook event dead-lettered after its last attempt',
      );
      state = { attempts: 0 };
    }
    await positions.settle();
    if (positions.trouble !== undefined) throw positions.trouble;
    if (positions.lost || stopping.aborted) return ended();
    // Past the other types' events too, so the next look starts where there is something to send.
    if (page.events.length < context.batch && page.next > endpoint.deliveredThrough)
      await store.skipTo(lease, page.next);
    return ended();
  } finally {
    // However the turn ended (the database gone, an audit entry not kept, stopping), what was taken
    // is recorded if it can be while the lease lasts: only what was not taken is sent again.
    await positions.finish(stopping, context.pollMs);
  }
}
