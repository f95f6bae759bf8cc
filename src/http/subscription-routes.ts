/**
 * The subscriptions as the audit role sees them: GET /api/v0/subscriptions, each client's
 * subscription with where its events go (a webhook, or the client reads the feed), its state, how
 * far behind it is, the failures of the event being delivered now and its dead letters. Ids, times
 * and states only: never a secret, and a webhook's URL without its query. Each reading is audited
 * (`audit-read`), as the audit trail's readings are.
 */
import type { FastifyInstance } from 'fastify';
import { unavailableUnless } from '../errors.ts';
import type { ListedSubscription, Subscriptions } from '../model/events.ts';
import type { ListedEndpoint, WebhookStore } from '../model/webhooks.ts';
import { deliveryStateOf, receiverAddress } from '../webhooks/state.ts';
import { AUDIT_ROLE } from '../model/identity.ts';
import { RECORD_ERRORS, UNREADABLE, answer, errorResponse } from './documentation.ts';

const SUBSCRIPTIONS_PATH = '/api/v0/subscriptions';

const SUBSCRIPTION_STATES = ['active', 'paused', 'disabled'] as const;

const time = (description: string) => ({ type: 'string', format: 'date-time', description }) as const;

const subscriptionStateSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['client', 'events', 'state', 'lag', 'failures', 'deadLetters'],
  properties: {
    client: { type: 'string', description: 'The client (department service) subscribed' },
    events: {
      type: 'array',
      items: { type: 'string' },
      description: 'The event types it receives, e.g. death.registered',
    },
    webhook: {
      type: 'string',
      description:
        "Where its events are POSTed: the URL without its query (shown as '?…' when it has one, which may " +
        "hold a receiver's token). Absent: the client reads the feed (GET /v1/events)",
    },
    state: {
      type: 'string',
      enum: SUBSCRIPTION_STATES,
      description:
        "active; paused by an operator ('lev-api subscriptions pause'); disabled: its receiver answered " +
        '410 Gone, and nothing is sent until an operator enables it again',
    },
    disabledAt: time('When its receiver answered 410 Gone'),
    lag: {
      type: 'integer',
      minimum: 0,
      description:
        'Events of the feed (of any type) after the last one delivered to the webhook, or after the ' +
        "client's last read of the feed (all of them when it has not read)",
    },
    oldestUndeliveredAt: time('Webhooks: when the oldest event of its types not yet delivered was committed'),
    lastReadAt: time("Feed readers: when the client last read on from a position (the feed's 'after')"),
    failures: {
      type: 'integer',
      minimum: 0,
      description: 'Failed attempts at the event being delivered now; 0 while delivery succeeds, and for a feed reader',
    },
    failingSince: time('When the first of those attempts failed'),
    nextAttemptAt: time('When that event is tried again'),
    lastStatus: { type: 'integer', description: "The receiver's last HTTP status, where it answered" },
    lastError: { type: 'string', description: 'Why the last attempt failed (never the body of the answer)' },
    deadLetters: {
      type: 'integer',
      minimum: 0,
      description:
        'Events delivery gave up on, kept to be sent again (GET /v1/events/dead-letters for the client); 0 ' +
        'for a feed reader',
    },
  },
} as const;

/** A client's subscription and, where it has one, its webhook, as the audit role reads them. */
export interface SubscriptionState {
  readonly client: string;
  readonly events: readonly string[];
  readonly webhook?: string;
  readonly state: (typeof SUBSCRIPTION_STATES)[number];
  readonly disabledAt?: string;
  readonly lag: number;
  readonly oldestUndeliveredAt?: string;
  readonly lastReadAt?: string;
  readonly failures: number;
  readonly failingSince?: string;
  readonly nextAttemptAt?: string;
  readonly lastStatus?: number;
  readonly lastError?: string;
  readonly deadLetters: number;
}

/** A webhook URL as it is shown: the receiver's address, and '?…' where a query (perhaps its token) is left out. */
const shownUrl = (url: string) => `${receiverAddress(url)}${new URL(url).search ? '?…' : ''}`;

const defined = <T extends object>(value: T): T =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;

function subscriptionState(subscription: ListedSubscription, endpoint: ListedEndpoint | undefined): SubscriptionState {
  if (!endpoint) {
    return defined({
      client: subscription.client,
      events: subscription.events,
      state: subscription.paused ? 'paused' : 'active',
      lag: subscription.lag,
      lastReadAt: subscription.acknowledgedAt,
      failures: 0,
      deadLetters: 0,
    });
  }
  const delivery = deliveryStateOf(endpoint);
  const retrying = delivery === 'retrying';
  return defined({
    client: subscription.client,
    events: subscription.events,
    webhook: shownUrl(endpoint.url),
    state: delivery === 'disabled' ? 'disabled' : delivery === 'paused' ? 'paused' : 'active',
    disabledAt: endpoint.disabledAt,
    lag: endpoint.lag,
    oldestUndeliveredAt: endpoint.oldestUndeliveredAt,
    failures: endpoint.attempts,
    failingSince: endpoint.failingSince,
    nextAttemptAt: retrying ? endpoint.nextAttemptAt : undefined,
    lastStatus: endpoint.lastStatus,
    lastError: endpoint.lastError,
    deadLetters: endpoint.deadLetters,
  });
}

interface SubscriptionRoutesOptions {
  readonly subscriptions: Subscriptions;
  /** Absent where the backend delivers no webhooks: every subscription then reads the feed. */
  readonly webhooks?: WebhookStore;
}

const subscriptionsUnavailable = unavailableUnless('The subscriptions are unavailable; try again shortly');

export async function subscriptionRoutes(app: FastifyInstance, { subscriptions, webhooks }: SubscriptionRoutesOptions) {
  app.get(
    SUBSCRIPTIONS_PATH,
    {
      schema: {
        tags: ['audit'],
        operationId: 'subscriptions',
        summary:
          'Every subscription to the change feed: where its events go, its state, lag, failures and dead letters',
        description:
          "Each client's subscription, by client: its webhook (the URL without its query), or none when " +
          "the client reads the feed; active, paused, or disabled by its receiver's 410 Gone; " +
          'how many events it is behind; the failed attempts at the event being delivered now, and its ' +
          'dead letters. Never a secret. ' +
          `Needs the '${AUDIT_ROLE}' role. Reading it is itself audited (operation audit-read).`,
        response: {
          200: answer('The subscriptions (an empty array when there are none)', {
            type: 'array',
            items: { $id: 'SubscriptionState', title: "A subscription's state", ...subscriptionStateSchema },
          }),
          400: UNREADABLE,
          401: RECORD_ERRORS[401],
          403: errorResponse(`The caller lacks the '${AUDIT_ROLE}' role`),
          503: errorResponse('The subscriptions are unavailable; retry later'),
        },
      },
      config: { requiresIdentity: true },
    },
    (request) =>
      request.readByAuditor(
        "The subscriptions' state needs",
        () =>
          subscriptionsUnavailable(async () => {
            const [all, endpoints] = await Promise.all([subscriptions.list(), webhooks?.list() ?? []]);
            const endpointOf = new Map(endpoints.map((endpoint) => [endpoint.client, endpoint]));
            return all
              .map((subscription) => subscriptionState(subscription, endpointOf.get(subscription.client)))
              .sort((a, b) => (a.client < b.client ? -1 : a.client > b.client ? 1 : 0));
          }),
        (listed) => listed.length,
      ),
  );
}
