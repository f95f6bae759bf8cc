/**
 * The change feed and its push delivery: how long events are kept, the mock's invented
 * registrations, and where and how webhooks are delivered.
 */
import { Type } from '@sinclair/typebox';
import { networkList, normalisedWebhookUrl, webhookUrlProblem } from '../webhook-addresses.ts';
import { caFileText } from './pem.ts';
import type { EnvValues } from './read-env.ts';
import type { Settled } from './shape.ts';

export const Events = {
  EVENTS_RETENTION_DAYS: Type.Integer({
    minimum: 1,
    maximum: 3650,
    default: 35,
    description:
      'Days the change feed keeps its events (GET /v1/events); a reader further behind is told to start ' +
      'again from a date (410 CursorExpired)',
  }),
  MOCK_EVENT_INTERVAL_S: Type.Integer({
    minimum: 0,
    maximum: 86_400,
    default: 30,
    description:
      'Embedded store with the built-in records: seconds between the invented registrations added to the ' +
      'mock (each a birth.registered, death.registered... event); 0 adds none',
  }),
  FEED_MAX_WAITING_PER_CLIENT: Type.Integer({
    minimum: 1,
    maximum: 10_000,
    default: 4,
    description:
      "Reads of the change feed held open with 'wait' that one client may have at once; one more is " +
      'answered 429 with Retry-After',
  }),
  FEED_WAITING_SHARE: Type.Integer({
    minimum: 1,
    maximum: 90,
    default: 50,
    description:
      "Percent of MAX_CONNECTIONS that reads of the change feed held open with 'wait' may take, all " +
      'clients together; one more is answered 503 with Retry-After, so ordinary requests always keep places',
  }),
  EVENTS_DELIVERY: Type.Optional(
    Type.Union([Type.Literal('on'), Type.Literal('off')], {
      description:
        "'on' runs webhook delivery workers in the serving process (as 'lev-api deliver' does on its own); " +
        'default on for the embedded store (the mock), off with DATABASE_URL',
    }),
  ),
  WEBHOOK_TIMEOUT_S: Type.Integer({
    minimum: 1,
    maximum: 120,
    default: 15,
    description: 'Seconds a webhook receiver has to answer 2xx before the attempt counts as failed and is retried',
  }),
  WEBHOOK_RETRY_HOURS: Type.Integer({
    minimum: 1,
    maximum: 720,
    default: 72,
    description:
      'Hours a webhook event is retried (exponential backoff with jitter) before it goes to the ' +
      "subscription's dead letters",
  }),
  WEBHOOK_LEASE_S: Type.Integer({
    minimum: 5,
    maximum: 3600,
    default: 30,
    description:
      "Seconds a delivery worker holds a subscription's lease: another worker takes a dead worker's " +
      'subscriptions over within this',
  }),
  WEBHOOK_TURN_S: Type.Integer({
    minimum: 1,
    maximum: 300,
    default: 5,
    description:
      "Seconds a delivery worker's slot sends one subscription's events (at most 100 of them) before it " +
      'takes the subscription waiting longest; a subscription whose turn lasted this long counts as slow',
  }),
  WEBHOOK_SLOW_SHARE: Type.Integer({
    minimum: 1,
    maximum: 100,
    default: 50,
    description:
      "Percent of a delivery worker's slots that slow subscriptions (whose last turn lasted " +
      'WEBHOOK_TURN_S) may hold together; at least one slot, and never every slot, so the others are ' +
      'always served',
  }),
  WEBHOOK_ALLOW_HTTP: Type.Union([Type.Literal('no'), Type.Literal('loopback')], {
    default: 'no',
    description:
      "'loopback' allows plain http webhook URLs to a loopback address written in the URL (tests, a local " +
      'receiver); otherwise https only',
  }),
  WEBHOOK_ALLOWED_NETWORKS: Type.Optional(
    Type.String({
      pattern: '^[0-9a-fA-F:.]+/[0-9]{1,3}(,[0-9a-fA-F:.]+/[0-9]{1,3})*$',
      description:
        'Comma list of networks (CIDR) webhooks may be delivered to although private, loopback or ' +
        'link-local, e.g. 10.20.0.0/16',
    }),
  ),
  WEBHOOK_CA_FILE: Type.Optional(
    Type.String({
      minLength: 1,
      description: "PEM file of CA certificates a webhook receiver's certificate may chain to, besides the public ones",
    }),
  ),
  MOCK_WEBHOOKS: Type.Optional(
    Type.String({
      pattern: '^\\S+$',
      description:
        'Embedded store: comma list of URLs subscribed to every event as webhooks at start (each secret ' +
        'printed once); implies EVENTS_DELIVERY=on',
    }),
  ),
};

export const WebhooksConfig = Type.Object({
  /** Run delivery workers in the serving process. */
  delivery: Type.Boolean(),
  timeoutMs: Type.Number(),
  retryMs: Type.Number(),
  leaseMs: Type.Number(),
  /** How long a slot sends one subscription's events before others' turn. */
  turnMs: Type.Number(),
  /** The share (0 to 1) of a worker's slots slow subscriptions may hold together. */
  slowShare: Type.Number(),
  allowHttpLoopback: Type.Boolean(),
  allowedNetworks: Type.Array(Type.String()),
  /** Extra CAs (PEM text). */
  ca: Type.Optional(Type.String()),
  /** The mock's URLs subscribed to everything at start. */
  mockUrls: Type.Array(Type.String()),
});
export type WebhooksConfig = Settled<typeof WebhooksConfig>;

export const EventsConfig = Type.Object({
  /** Days events are kept and served. */
  retentionDays: Type.Number(),
  /**
   * Reads held open with `wait`: at most `perClient` for one client, and `share` (0 to 1) of MAX_CONNECTIONS
   * in all.
   */
  waiting: Type.Object({ perClient: Type.Number(), share: Type.Number() }),
  webhooks: WebhooksConfig,
  /** Seconds between the mock's invented registrations; 0 for none. */
  mockIntervalS: Type.Number(),
});
export type EventsConfig = Settled<typeof EventsConfig>;

type EventsValues = EnvValues<typeof Events> & { DATABASE_URL?: string };

function webhooksConfig(value: EventsValues, problems: string[]): WebhooksConfig {
  const allowedNetworks = value.WEBHOOK_ALLOWED_NETWORKS?.split(',') ?? [];
  try {
    networkList(allowedNetworks);
  } catch (error) {
    problems.push(`WEBHOOK_ALLOWED_NETWORKS: ${(error as Error).message}`);
  }
  const ca = value.WEBHOOK_CA_FILE ? caFileText('WEBHOOK_CA_FILE', value.WEBHOOK_CA_FILE, problems) : undefined;
  const mockUrls =
    value.MOCK_WEBHOOKS?.split(',')
      .map((url) => url.trim())
      .filter(Boolean) ?? [];
  if (mockUrls.length && value.DATABASE_URL)
    problems.push(
      "MOCK_WEBHOOKS is for the embedded store (the mock); with DATABASE_URL use 'lev-api subscriptions add --webhook'",
    );
  for (const url of mockUrls) {
    const problem = webhookUrlProblem(url, value.WEBHOOK_ALLOW_HTTP === 'loopback');
    if (problem) problems.push(`MOCK_WEBHOOKS: ${url}: ${problem}`);
  }
  if (value.WEBHOOK_RETRY_HOURS >= value.EVENTS_RETENTION_DAYS * 24) {
    problems.push(
      `WEBHOOK_RETRY_HOURS=${value.WEBHOOK_RETRY_HOURS} is not shorter than ` +
        `EVENTS_RETENTION_DAYS=${value.EVENTS_RETENTION_DAYS}: an event could leave the feed while it is ` +
        'still being retried',
    );
  }
  if (value.WEBHOOK_TIMEOUT_S >= value.WEBHOOK_LEASE_S) {
    problems.push(
      `WEBHOOK_TIMEOUT_S=${value.WEBHOOK_TIMEOUT_S} is not shorter than ` +
        `WEBHOOK_LEASE_S=${value.WEBHOOK_LEASE_S}: a lease could run out while its worker still waits for an ` +
        'answer, and another worker send the same event at once',
    );
  }
  if (mockUrls.length && value.EVENTS_DELIVERY === 'off')
    problems.push('MOCK_WEBHOOKS is set with EVENTS_DELIVERY=off: nothing would deliver to them');
  return {
    delivery: value.EVENTS_DELIVERY ? value.EVENTS_DELIVERY === 'on' : !value.DATABASE_URL,
    timeoutMs: value.WEBHOOK_TIMEOUT_S * 1000,
    retryMs: value.WEBHOOK_RETRY_HOURS * 3_600_000,
    leaseMs: value.WEBHOOK_LEASE_S * 1000,
    turnMs: value.WEBHOOK_TURN_S * 1000,
    slowShare: value.WEBHOOK_SLOW_SHARE / 100,
    allowHttpLoopback: value.WEBHOOK_ALLOW_HTTP === 'loopback',
    allowedNetworks,
    ...(ca ? { ca } : {}),
    // As a subscription's webhook is stored: the parser's form (a refused one stops the start anyway).
    mockUrls: mockUrls.map((url) => (URL.canParse(url) ? normalisedWebhookUrl(url) : url)),
  };
}

/** The feed's and its delivery's settings, checked together. */
export const eventsOf = (value: EventsValues, problems: string[]): EventsConfig => ({
  retentionDays: value.EVENTS_RETENTION_DAYS,
  waiting: { perClient: value.FEED_MAX_WAITING_PER_CLIENT, share: value.FEED_WAITING_SHARE / 100 },
  mockIntervalS: value.MOCK_EVENT_INTERVAL_S,
  webhooks: webhooksConfig(value, problems),
});
