/**
 * Delivery workers as the configuration asks for them, over a backend: `lev-api deliver` runs
 * them on their own, `serve` beside the API with EVENTS_DELIVERY=on (the mock's default).
 */
import type { Registry } from 'prom-client';
import type { WebhooksConfig } from '../config/events.ts';
import { eventTypes } from '../records/changes.ts';
import type { RecordDescription } from '../records/define.ts';
import { viewsOf } from '../records/views.ts';
import { eventFieldRenderer } from '../render/event-fields.ts';
import { compileView } from '../render/view.ts';
import type { Backend } from '../model/store.ts';
import { destinationPolicy } from './destination.ts';
import { deliveryMetrics } from './metrics.ts';
import { createSender } from './send.ts';
import { type DeliveryLog, type DeliveryOptions, startDelivery } from './worker.ts';
import { newSecret } from './signing.ts';

export function startConfiguredDelivery(
  settings: WebhooksConfig,
  backend: Pick<Backend, 'events' | 'audit' | 'webhooks'>,
  /** The record types the feed carries: the ones the backend was opened with. */
  descriptions: readonly RecordDescription[],
  log: DeliveryLog,
  registry?: Registry,
  overrides: Partial<DeliveryOptions> = {},
) {
  const checker = destinationPolicy({
    allowHttpLoopback: settings.allowHttpLoopback,
    allowedNetworks: settings.allowedNetworks,
  });
  return startDelivery({
    store: backend.webhooks,
    feed: backend.events,
    audit: backend.audit,
    sender: createSender({ checker, timeoutMs: settings.timeoutMs, ...(settings.ca ? { ca: settings.ca } : {}) }),
    renderer: eventFieldRenderer(descriptions, viewsOf(descriptions).map(compileView)),
    leaseMs: settings.leaseMs,
    turnMs: settings.turnMs,
    slowShare: settings.slowShare,
    retryMs: settings.retryMs,
    log,
    ...(registry ? { metrics: deliveryMetrics(registry, backend.webhooks) } : {}),
    ...overrides,
  });
}

/** MOCK_WEBHOOKS: each URL subscribed to every event type (as `mock-webhook-N`); their secrets, to print once. */
export async function subscribeMockWebhooks(
  backend: Pick<Backend, 'subscriptions' | 'webhooks'>,
  descriptions: readonly RecordDescription[],
  urls: readonly string[],
) {
  const events = eventTypes(descriptions);
  const secrets: { client: string; url: string; secret: string }[] = [];
  for (const [index, url] of urls.entries()) {
    const client = `mock-webhook-${index + 1}`;
    const secret = newSecret();
    await backend.subscriptions.add({ client, events, fields: [] });
    await backend.webhooks.setEndpoint(client, { url }, { secret });
    secrets.push({ client, url, secret });
  }
  return secrets;
}
