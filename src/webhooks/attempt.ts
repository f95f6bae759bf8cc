/**
 * One attempt at one event: the signed POST, its audit entry handed to the audit writer, and what
 * the worker makes of the answer (taken, retried after a backoff, dead-lettered, or gone).
 */
import type { AuditTrail } from '../model/audit.ts';
import type { FeedEvent } from '../model/events.ts';
import type { AttemptOutcome, WebhookEndpoint } from '../model/webhooks.ts';
import { cloudEventOf } from '../records/cloud-event.ts';
import type { EventFieldRenderer } from '../render/event-fields.ts';
import { signedHeaders, webhookId } from './signing.ts';
import type { SendResult, Sender } from './send.ts';
import type { DeliveryMetrics } from './metrics.ts';
import { receiverAddress } from './state.ts';
import { inTrace } from '../tracing/spans.ts';

const BACKOFF_BASE_MS = 5000;
const BACKOFF_CAP_MS = 3_600_000;
const RETRY_AFTER_CAP_MS = 86_400_000;

/**
 * Exponential from 5 s, at most an hour, with jitter (a half to the whole of it) so receivers coming back are
 * not hit all at once.
 */
export const exponentialBackoff = (failures: number) => {
  const full = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** Math.min(failures - 1, 20));
  return Math.round(full / 2 + (Math.random() * full) / 2);
};

export const isTaken = (result: SendResult) =>
  result.status !== undefined && result.status >= 200 && result.status < 300;

export interface Attempter {
  readonly audit: AuditTrail;
  readonly sender: Sender;
  readonly renderer: EventFieldRenderer;
  readonly metrics?: DeliveryMetrics;
}

/**
 * The POST, then its audit entry handed to the audit writer (whose group commit joins every
 * slot's). `kept` settles when the entry is committed, or rejects if it could not be; it is never
 * left unhandled.
 */
export async function attempt(
  { audit, sender, renderer, metrics }: Attempter,
  endpoint: WebhookEndpoint,
  event: FeedEvent,
  attemptNumber: number,
  kind: 'feed' | 'redelivery',
  fields?: Record<string, unknown>,
) {
  const body = JSON.stringify(cloudEventOf(event, renderer.sourceOf(event.recordType), fields));
  const included = fields ? renderer.fieldsOf(event.recordType, endpoint.fields) : [];
  const id = webhookId(event.position);
  const started = performance.now();
  // Traced, the POST continues the trace of the load that made the event (its traceparent goes to the receiver).
  const result = await inTrace(event.traceParent, 'webhook.deliver', { 'lev.record.type': event.recordType }, () =>
    sender.send(endpoint, { ...signedHeaders(endpoint, id, new Date(), body) }, body),
  );
  const ok = isTaken(result);
  metrics?.attempted(endpoint.client, ok, (performance.now() - started) / 1000, event.time);
  // Every attempt is audited: a record id reached the receiver (or may have).
  const kept = audit.record({
    username: 'lev-api-deliver',
    client: endpoint.client,
    groups: [],
    dataset: event.recordType,
    operation: 'events',
    // The receiver's origin and path, never its query.
    path: receiverAddress(endpoint.url),
    query:
      `delivery=${kind} outcome=${ok ? 'delivered' : 'failed'} status=${result.status ?? 'none'} ` +
      `attempt=${attemptNumber}`,
    results: ok ? 1 : 0,
    requestId: id,
    records: [{ type: event.recordType, id: event.recordId }],
    events: [String(event.position)],
    ...(included.length ? { fields: included } : {}),
  });
  kept.catch(() => {});
  return { result, kept };
}

/** What an answer means for the event at `position`, given the failures before it. */
export function decide(
  result: SendResult,
  endpoint: { attempts: number; failingSince?: string },
  position: number,
  { retryMs, backoff }: { retryMs: number; backoff: (failures: number) => number },
): AttemptOutcome {
  const { status } = result;
  if (isTaken(result)) return { kind: 'delivered', position };
  if (status === 410) return { kind: 'gone', position, status };
  const failures = endpoint.attempts + 1;
  const since = endpoint.failingSince ? Date.parse(endpoint.failingSince) : Date.now();
  const error = result.error ?? `status ${status}: the receiver answered ${status}`;
  const delayMs =
    result.retryAfterMs !== undefined
      ? Math.min(Math.max(result.retryAfterMs, 1000), RETRY_AFTER_CAP_MS)
      : backoff(failures);
  if (Date.now() + delayMs - since > retryMs) return { kind: 'dead', position, attempts: failures, status, error };
  return { kind: 'retry', position, delayMs, status, error };
}
