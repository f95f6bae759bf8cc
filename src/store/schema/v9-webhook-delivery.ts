/**
 * Version 9: push delivery of the change feed (docs/events.md, "Push delivery"). A subscription
 * with a webhook has one `webhook_endpoint` row: where to send, how to sign, how far delivery has
 * got (`delivered_through`, a feed position: everything up to it was taken or dead-lettered), the
 * state of the event at its head (attempts, when failing began, when to try again), whether the
 * endpoint disabled itself (410), and the lease a worker holds while it delivers, taken with
 * `FOR UPDATE SKIP LOCKED` so workers on several machines share subscriptions and a worker that
 * dies leaves its lease to run out. `webhook_dead_letter` holds what was never taken.
 */
export const webhookDelivery = `
CREATE TABLE webhook_endpoint (
  client text PRIMARY KEY REFERENCES feed_subscription (client) ON DELETE CASCADE,
  url text NOT NULL,
  secret text NOT NULL,
  previous_secret text,
  previous_until timestamptz,
  signing_key text,
  tls_cert text,
  tls_key text,
  delivered_through bigint NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  failing_since timestamptz,
  next_attempt_at timestamptz,
  last_status integer,
  last_error text,
  disabled_at timestamptz,
  disabled_reason text,
  lease_owner text,
  lease_until timestamptz,
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE webhook_dead_letter (
  client text NOT NULL REFERENCES webhook_endpoint (client) ON DELETE CASCADE,
  position bigint NOT NULL,
  failed_at timestamptz NOT NULL DEFAULT now(),
  attempts integer NOT NULL,
  last_status integer,
  last_error text,
  redeliver boolean NOT NULL DEFAULT false,
  PRIMARY KEY (client, position)
);
CREATE INDEX webhook_dead_letter_redeliver ON webhook_dead_letter (client, position) WHERE redeliver;
`;
