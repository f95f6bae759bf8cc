/**
 * A webhook as it is told to those who may not see its secrets: where its delivery stands, in one
 * word (the rule `subscriptions list`, the client's own GET /v1/events/webhook and the audit role's
 * GET /api/v0/subscriptions all tell it by), and its receiver's address without the query.
 */
import type { WebhookEndpoint } from '../model/webhooks.ts';

export const DELIVERY_STATES = ['delivering', 'retrying', 'paused', 'disabled'] as const;
type DeliveryState = (typeof DELIVERY_STATES)[number];

/** Disabled (the receiver answered 410 Gone) before paused, paused before retrying. */
export const deliveryStateOf = (
  endpoint: Pick<WebhookEndpoint, 'disabledAt' | 'paused' | 'attempts'>,
): DeliveryState =>
  endpoint.disabledAt ? 'disabled' : endpoint.paused ? 'paused' : endpoint.attempts > 0 ? 'retrying' : 'delivering';

/**
 * The receiver's origin and path, never its query, which may carry the receiver's own token. (Credentials and
 * fragments are refused when a webhook is set.)
 */
export const receiverAddress = (url: string) => {
  const parsed = new URL(url);
  return `${parsed.origin}${parsed.pathname}`;
};
