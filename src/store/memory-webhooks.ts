/**
 * Push delivery state in the process's memory, for the mock: the same behaviour as
 * postgres-webhooks.ts behind the same interface (one process, so a lease only keeps two of its
 * own workers apart).
 */
import type { FeedEvent, Subscription } from '../model/events.ts';
import type { DeadLetter, Lease, ListedEndpoint, WebhookEndpoint, WebhookStore } from '../model/webhooks.ts';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
type State = Mutable<Omit<WebhookEndpoint, 'paused' | 'events' | 'fields' | 'roles'>> & {
  leaseOwner?: string;
  leaseUntil?: number;
};

interface MemoryWebhookSources {
  head(): Promise<number>;
  subscription(client: string): Promise<Subscription | undefined>;
  /** The first event after a position of these types (for the oldest undelivered's age). */
  firstAfter(position: number, types: readonly string[]): Promise<FeedEvent | undefined>;
}

export function createMemoryWebhooks(sources: MemoryWebhookSources): WebhookStore {
  const endpoints = new Map<string, State>();
  const dead = new Map<string, Map<number, Mutable<DeadLetter>>>();
  const now = () => Date.now();

  const view = async (state: State): Promise<WebhookEndpoint | undefined> => {
    const subscription = await sources.subscription(state.client);
    if (!subscription) {
      endpoints.delete(state.client);
      dead.delete(state.client);
      return undefined;
    }
    const { leaseOwner: _owner, leaseUntil: _until, ...endpoint } = state;
    const previous =
      state.previousUntil && Date.parse(state.previousUntil) > now()
        ? {}
        : { previousSecret: undefined, previousUntil: undefined };
    return JSON.parse(
      JSON.stringify({
        ...endpoint,
        ...previous,
        paused: subscription.paused,
        events: subscription.events,
        fields: subscription.fields,
        ...(subscription.roles ? { roles: subscription.roles } : {}),
      }),
    );
  };
  const holds = (lease: Lease) => {
    const state = endpoints.get(lease.endpoint.client);
    return state && state.leaseOwner === lease.owner ? state : undefined;
  };
  /** Not disabled, and its subscription neither paused nor removed. */
  const mayBeSent = async (state: State) => {
    if (state.disabledAt) return false;
    const subscription = await sources.subscription(state.client);
    return subscription !== undefined && !subscription.paused;
  };
  const extend = (state: State, leaseMs: number) => void (state.leaseUntil = now() + leaseMs);
  const deadOf = (client: string) => {
    let letters = dead.get(client);
    if (!letters) dead.set(client, (letters = new Map()));
    return letters;
  };
  const sorted = (client: string) => [...(dead.get(client)?.values() ?? [])].sort((a, b) => a.position - b.position);

  return {
    async setEndpoint(client, spec, keys) {
      if (endpoints.has(client) || !(await sources.subscription(client))) return false;
      endpoints.set(client, { client, ...spec, ...keys, deliveredThrough: await sources.head(), attempts: 0 });
      return true;
    },
    async updateEndpoint(client, spec) {
      const state = endpoints.get(client);
      if (!state) return false;
      Object.assign(state, {
        url: spec.url,
        tlsCert: spec.tlsCert,
        tlsKey: spec.tlsKey,
        disabledAt: undefined,
        disabledReason: undefined,
        attempts: 0,
        failingSince: undefined,
        nextAttemptAt: undefined,
      });
      return true;
    },
    async rotate(client, secret, graceMs) {
      const state = endpoints.get(client);
      if (!state) return false;
      Object.assign(state, {
        previousSecret: state.secret,
        previousUntil: new Date(now() + graceMs).toISOString(),
        secret,
      });
      return true;
    },
    async get(client) {
      const state = endpoints.get(client);
      return state && view(state);
    },
    async list() {
      const listed: ListedEndpoint[] = [];
      for (const state of [...endpoints.values()].sort((a, b) => (a.client < b.client ? -1 : 1))) {
        const endpoint = await view(state);
        if (!endpoint) continue;
        const oldest = await sources.firstAfter(endpoint.deliveredThrough, endpoint.events);
        listed.push({
          ...endpoint,
          lag: (await sources.head()) - endpoint.deliveredThrough,
          deadLetters: dead.get(state.client)?.size ?? 0,
          ...(oldest ? { oldestUndeliveredAt: oldest.time } : {}),
        });
      }
      return listed;
    },
    async claim(owner, leaseMs, limit, exclude = []) {
      const leases: Lease[] = [];
      const head = await sources.head();
      // The longest waiting first: never leased, then by when the last turn ended (postgres-webhooks.ts's order).
      const order = [...endpoints.values()].sort(
        (a, b) => (a.leaseUntil ?? -Infinity) - (b.leaseUntil ?? -Infinity) || (a.client < b.client ? -1 : 1),
      );
      for (const state of order) {
        if (leases.length >= limit) break;
        if (exclude.includes(state.client)) continue;
        if (state.disabledAt || (state.leaseUntil !== undefined && state.leaseUntil >= now())) continue;
        const due = state.deliveredThrough < head && (!state.nextAttemptAt || Date.parse(state.nextAttemptAt) <= now());
        const queued = sorted(state.client).some((letter) => letter.redeliver);
        if (!due && !queued) continue;
        // Taken before the next await, so no other worker of the process takes it meanwhile.
        state.leaseOwner = owner;
        extend(state, leaseMs);
        const endpoint = await view(state);
        if (endpoint && !endpoint.paused) leases.push({ endpoint, owner });
        else Object.assign(state, { leaseOwner: undefined, leaseUntil: undefined });
      }
      return leases;
    },
    async record(lease, outcome, leaseMs) {
      const state = holds(lease);
      if (!state || state.deliveredThrough >= outcome.position) return false;
      const at = new Date().toISOString();
      switch (outcome.kind) {
        case 'delivered':
          Object.assign(state, {
            deliveredThrough: outcome.position,
            attempts: 0,
            failingSince: undefined,
            nextAttemptAt: undefined,
            lastStatus: undefined,
            lastError: undefined,
          });
          break;
        case 'retry':
          Object.assign(state, {
            attempts: state.attempts + 1,
            failingSince: state.failingSince ?? at,
            nextAttemptAt: new Date(now() + outcome.delayMs).toISOString(),
            lastStatus: outcome.status,
            lastError: outcome.error,
          });
          break;
        case 'dead':
          Object.assign(state, {
            deliveredThrough: outcome.position,
            attempts: 0,
            failingSince: undefined,
            nextAttemptAt: undefined,
            lastStatus: outcome.status,
            lastError: outcome.error,
          });
          deadOf(state.client).set(outcome.position, {
            client: state.client,
            position: outcome.position,
            failedAt: at,
            attempts: outcome.attempts,
            lastStatus: outcome.status,
            lastError: outcome.error,
            redeliver: false,
          });
          break;
        case 'gone':
          Object.assign(state, {
            disabledAt: at,
            disabledReason: `the receiver answered ${outcome.status} Gone`,
            lastStatus: outcome.status,
            leaseOwner: undefined,
            leaseUntil: undefined,
          });
          return { active: false };
      }
      extend(state, leaseMs);
      return { active: await mayBeSent(state) };
    },
    async skipTo(lease, position) {
      const state = holds(lease);
      if (!state || state.deliveredThrough >= position || state.attempts > 0) return false;
      state.deliveredThrough = position;
      return true;
    },
    async active(lease) {
      const state = holds(lease);
      return state !== undefined && (await mayBeSent(state));
    },
    async release(lease) {
      const state = holds(lease);
      // Ended just before now, so it may be claimed at once; when orders the next claims.
      if (state) Object.assign(state, { leaseOwner: undefined, leaseUntil: now() - 1 });
    },
    async deadLetters(client, limit = 1000) {
      return sorted(client)
        .slice(0, limit)
        .map((letter) => ({ ...letter }));
    },
    async queued(client, limit) {
      return sorted(client)
        .filter((letter) => letter.redeliver)
        .slice(0, limit)
        .map((letter) => ({ ...letter }));
    },
    async redelivered(lease, position, ok, status, error) {
      if (!holds(lease)) return;
      const letters = deadOf(lease.endpoint.client);
      const letter = letters.get(position);
      if (!letter) return;
      if (ok) letters.delete(position);
      else
        Object.assign(letter, {
          redeliver: false,
          failedAt: new Date().toISOString(),
          attempts: letter.attempts + 1,
          lastStatus: status,
          lastError: error,
        });
    },
    async redeliver(client, range) {
      let count = 0;
      for (const letter of dead.get(client)?.values() ?? []) {
        if (letter.redeliver) continue;
        if (range.position !== undefined && letter.position !== range.position) continue;
        if (range.from && letter.failedAt < range.from.toISOString()) continue;
        if (range.to && letter.failedAt >= range.to.toISOString()) continue;
        letter.redeliver = true;
        count++;
      }
      return count;
    },
  };
}
