/**
 * The change feed in the process's memory, for the embedded store: events in an array in
 * position order, appended by the memory writer in the same synchronous step as the records they
 * are about (so a write is all or nothing, events included), and a signal waiting readers hear.
 */
import { registeredType, updatedType } from '../records/changes.ts';
import type {
  EventFeed,
  FeedEvent,
  ListedSubscription,
  RecordChange,
  Subscription,
  Subscriptions,
} from '../model/events.ts';
import { READ_WINDOW, SubscriptionExists } from '../model/events.ts';
import { feedWaiters } from './feed-waiters.ts';

export interface MemoryEvents {
  readonly feed: EventFeed;
  readonly subscriptions: Subscriptions;
  /** Appends one event per change of records of `type`, at the next positions. */
  append(type: string, changes: readonly RecordChange[]): void;
  /**
   * Calls `heard` with every append's changes, in the same synchronous step (what follows from an event
   * happens with it).
   */
  onAppend(heard: (type: string, changes: readonly RecordChange[]) => void): void;
}

export function createMemoryEvents(lookupJson: (type: string, id: number) => string | undefined): MemoryEvents {
  const events: FeedEvent[] = [];
  let head = 0;
  const waiters = feedWaiters();
  const subscriptions = new Map<string, Subscription>();
  const listeners: ((type: string, changes: readonly RecordChange[]) => void)[] = [];

  // Events are in position order with no gap, so a position's index is its offset from the first kept.
  const indexAfter = (position: number) => {
    let low = 0;
    let high = events.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (events[middle].position <= position) low = middle + 1;
      else high = middle;
    }
    return low;
  };
  const firstAtOrAfter = (time: string) => {
    let low = 0;
    let high = events.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (events[middle].time < time) low = middle + 1;
      else high = middle;
    }
    return low;
  };

  const feed: EventFeed = {
    async read(after, types, limit, window = READ_WINDOW) {
      const wanted = new Set(types);
      const page: FeedEvent[] = [];
      const last = after + window;
      for (let i = indexAfter(after); i < events.length && events[i].position <= last && page.length < limit; i++) {
        if (wanted.has(events[i].type)) page.push(events[i]);
      }
      return {
        events: page,
        next: page.length === limit ? page[page.length - 1].position : Math.max(Math.min(head, last), after),
      };
    },
    async bounds(cutoff) {
      const first = firstAtOrAfter(cutoff.toISOString());
      return { head, expiredThrough: first < events.length ? events[first].position - 1 : head };
    },
    async positionBefore(time) {
      const first = firstAtOrAfter(time.toISOString());
      return first < events.length ? events[first].position - 1 : head;
    },
    changed(ms, signal) {
      return waiters.wait(ms, signal);
    },
    async prune(cutoff) {
      const first = firstAtOrAfter(cutoff.toISOString());
      events.splice(0, first);
      return first;
    },
    async recordsJson(type, ids) {
      const found = new Map<number, string>();
      for (const id of ids) {
        const json = lookupJson(type, id);
        if (json !== undefined) found.set(id, json);
      }
      return found;
    },
  };

  const subscriptionStore: Subscriptions = {
    async add(spec) {
      if (subscriptions.has(spec.client)) throw new SubscriptionExists(spec.client);
      subscriptions.set(spec.client, {
        ...spec,
        events: [...spec.events],
        fields: [...spec.fields],
        ...(spec.roles ? { roles: [...spec.roles] } : {}),
        paused: false,
        createdAt: new Date().toISOString(),
      });
    },
    async get(client) {
      return subscriptions.get(client);
    },
    async list() {
      return [...subscriptions.values()]
        .sort((a, b) => (a.client < b.client ? -1 : 1))
        .map((s): ListedSubscription => ({ ...s, lag: head - (s.acknowledged ?? 0) }));
    },
    async setRoles(client, roles) {
      const found = subscriptions.get(client);
      if (!found) return false;
      const { roles: _before, ...rest } = found;
      subscriptions.set(client, { ...rest, ...(roles ? { roles: [...roles] } : {}) });
      return true;
    },
    async setPaused(client, paused) {
      const found = subscriptions.get(client);
      if (found) subscriptions.set(client, { ...found, paused });
      return Boolean(found);
    },
    async remove(client) {
      return subscriptions.delete(client);
    },
    async acknowledge(client, position) {
      const found = subscriptions.get(client);
      if (found)
        subscriptions.set(client, { ...found, acknowledged: position, acknowledgedAt: new Date().toISOString() });
    },
  };

  return {
    feed,
    subscriptions: subscriptionStore,
    append(type, changes) {
      if (changes.length === 0) return;
      const time = new Date().toISOString();
      for (const change of changes) {
        head++;
        events.push({
          position: head,
          type: change.reason ? updatedType(type) : registeredType(type),
          recordType: type,
          recordId: change.id,
          ...(change.reason ? { reason: change.reason } : {}),
          time,
        });
      }
      for (const heard of listeners) heard(type, changes);
      waiters.wakeAll();
    },
    onAppend(heard) {
      listeners.push(heard);
    },
  };
}
