/**
 * Version 6: the change feed. `feed_event` is the outbox the ingest pipeline writes in the same
 * transaction as the records; `feed_head` is the one row holding the last position given, which a
 * load updates just before it commits, so its row lock numbers the loads' events in commit order
 * (docs/events.md). The time index is BRIN: times grow with positions, and a load adds its events
 * in one go. `feed_subscription` is what the operator agreed each client receives.
 */
export const changeFeed = `
CREATE TABLE feed_head (
  single boolean PRIMARY KEY DEFAULT true CHECK (single),
  position bigint NOT NULL
);
INSERT INTO feed_head (single, position) VALUES (true, 0);
CREATE TABLE feed_event (
  position bigint PRIMARY KEY,
  type text NOT NULL,
  record_type text NOT NULL,
  record_id bigint NOT NULL,
  reason text CHECK (reason IN ('cancelled', 'replaced', 'blocked', 'unblocked', 'corrected', 'marginal-note', 'other')),
  committed_at timestamptz NOT NULL
);
CREATE INDEX feed_event_committed_at ON feed_event USING brin (committed_at);
CREATE TABLE feed_subscription (
  client text PRIMARY KEY,
  events text[] NOT NULL,
  fields text[] NOT NULL DEFAULT '{}',
  paused boolean NOT NULL DEFAULT false,
  acknowledged bigint,
  acknowledged_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
`;
