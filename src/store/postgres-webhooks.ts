/**
 * Push delivery state in PostgreSQL (schema/v9-webhook-delivery.ts), shared by every delivery
 * worker: a worker takes a subscription's lease with `FOR UPDATE SKIP LOCKED` (so two workers
 * never take the same one, and neither waits for the other), and every change it records is
 * conditional on still holding it, so a worker whose lease ran out (killed, or cut off from the
 * database) cannot move a position another worker now owns.
 */
import type { SqlDriver } from './driver.ts';
import type {
  AttemptOutcome,
  DeadLetter,
  ListedEndpoint,
  Recorded,
  WebhookEndpoint,
  WebhookStore,
} from '../model/webhooks.ts';

interface EndpointRow {
  client: string;
  url: string;
  secret: string;
  previous_secret: string | null;
  previous_until: Date | null;
  signing_key: string | null;
  tls_cert: string | null;
  tls_key: string | null;
  delivered_through: string;
  attempts: number;
  failing_since: Date | null;
  next_attempt_at: Date | null;
  last_status: number | null;
  last_error: string | null;
  disabled_at: Date | null;
  disabled_reason: string | null;
  paused: boolean;
  events: string[];
  fields: string[];
  roles: string[] | null;
}

const COLUMNS = `w.client, w.url, w.secret, w.previous_secret, w.previous_until, w.signing_key, w.tls_cert, w.tls_key,
  w.delivered_through::text, w.attempts, w.failing_since, w.next_attempt_at, w.last_status, w.last_error,
  w.disabled_at, w.disabled_reason, s.paused, s.events, s.fields, s.roles`;

/** Whether a subscription may be sent to (`active`), of `w` (webhook_endpoint) joined to `s` (feed_subscription). */
const ACTIVE = 'NOT s.paused AND w.disabled_at IS NULL';

const iso = (time: Date | null) => (time ? { value: time.toISOString() } : undefined);

export function endpointOf(row: EndpointRow): WebhookEndpoint {
  return {
    client: row.client,
    url: row.url,
    secret: row.secret,
    ...(row.previous_secret && row.previous_until
      ? { previousSecret: row.previous_secret, previousUntil: row.previous_until.toISOString() }
      : {}),
    ...(row.signing_key ? { signingKey: row.signing_key } : {}),
    ...(row.tls_cert ? { tlsCert: row.tls_cert } : {}),
    ...(row.tls_key ? { tlsKey: row.tls_key } : {}),
    deliveredThrough: Number(row.delivered_through),
    attempts: row.attempts,
    ...(iso(row.failing_since) ? { failingSince: iso(row.failing_since)!.value } : {}),
    ...(iso(row.next_attempt_at) ? { nextAttemptAt: iso(row.next_attempt_at)!.value } : {}),
    ...(row.last_status !== null ? { lastStatus: row.last_status } : {}),
    ...(row.last_error !== null ? { lastError: row.last_error } : {}),
    ...(iso(row.disabled_at) ? { disabledAt: iso(row.disabled_at)!.value } : {}),
    ...(row.disabled_reason !== null ? { disabledReason: row.disabled_reason } : {}),
    paused: row.paused,
    events: row.events,
    fields: row.fields,
    ...(row.roles ? { roles: row.roles } : {}),
  };
}

interface DeadRow {
  client: string;
  position: string;
  failed_at: Date;
  attempts: number;
  last_status: number | null;
  last_error: string | null;
  redeliver: boolean;
}
const deadOf = (row: DeadRow): DeadLetter => ({
  client: row.client,
  position: Number(row.position),
  failedAt: row.failed_at.toISOString(),
  attempts: row.attempts,
  ...(row.last_status !== null ? { lastStatus: row.last_status } : {}),
  ...(row.last_error !== null ? { lastError: row.last_error } : {}),
  redeliver: row.redeliver,
});
// `position::text` keeps the column's name: ORDER BY an unqualified `position` would sort that text (10 before 9),
// so the statements below name the table's column.
const DEAD_COLUMNS = 'client, position::text, failed_at, attempts, last_status, last_error, redeliver';

export function createPostgresWebhooks(driver: SqlDriver): WebhookStore {
  /** Runs `sql` (whose last parameter is the lease owner) only while the lease is held. */
  const held = async (sql: string, params: unknown[]) => (await driver.query(sql, params)).length > 0;
  /**
   * An UPDATE of the endpoint (`w`) joined to its subscription (`s`), RETURNING ${ACTIVE}: false when the
   * lease was not held.
   */
  const recorded = (rows: { active: boolean }[]): Recorded => rows.length > 0 && { active: rows[0].active };

  return {
    async setEndpoint(client, spec, keys) {
      const rows = await driver.query(
        `INSERT INTO webhook_endpoint (client, url, tls_cert, tls_key, secret, signing_key, delivered_through)
         SELECT client, $2, $3, $4, $5, $6, (SELECT position FROM feed_head) FROM feed_subscription WHERE client = $1
         ON CONFLICT (client) DO NOTHING RETURNING 1`,
        [client, spec.url, spec.tlsCert ?? null, spec.tlsKey ?? null, keys.secret, keys.signingKey ?? null],
      );
      return rows.length > 0;
    },
    async updateEndpoint(client, spec) {
      const rows = await driver.query(
        `UPDATE webhook_endpoint SET url = $2, tls_cert = $3, tls_key = $4, disabled_at = NULL, disabled_reason = NULL,
                attempts = 0, failing_since = NULL, next_attempt_at = NULL, updated_at = now()
          WHERE client = $1 RETURNING 1`,
        [client, spec.url, spec.tlsCert ?? null, spec.tlsKey ?? null],
      );
      return rows.length > 0;
    },
    async rotate(client, secret, graceMs) {
      const rows = await driver.query(
        `UPDATE webhook_endpoint SET previous_secret = secret, previous_until = now() + $3 * interval '1 ` +
          `millisecond', secret = $2, updated_at = now()
          WHERE client = $1 RETURNING 1`,
        [client, secret, graceMs],
      );
      return rows.length > 0;
    },
    async get(client) {
      const rows = await driver.query<EndpointRow>(
        `SELECT ${COLUMNS} FROM webhook_endpoint w JOIN feed_subscription s USING (client) WHERE w.client = $1`,
        [client],
      );
      return rows[0] && endpointOf(rows[0]);
    },
    async list() {
      const rows = await driver.query<EndpointRow & { head: string; dead: number; oldest: Date | null }>(
        `SELECT ${COLUMNS}, h.position::text AS head,
                (SELECT count(*)::int FROM webhook_dead_letter d WHERE d.client = w.client) AS dead,
                (SELECT e.committed_at FROM feed_event e WHERE e.position > w.delivered_through AND e.type = ` +
          `ANY(s.events) ORDER BY e.position LIMIT 1) AS oldest
           FROM webhook_endpoint w JOIN feed_subscription s USING (client) CROSS JOIN feed_head h ORDER BY w.client`,
      );
      return rows.map(
        (row): ListedEndpoint => ({
          ...endpointOf(row),
          lag: Number(row.head) - Number(row.delivered_through),
          deadLetters: row.dead,
          ...(row.oldest ? { oldestUndeliveredAt: row.oldest.toISOString() } : {}),
        }),
      );
    },
    async claim(owner, leaseMs, limit, exclude = []) {
      const rows = await driver.query<EndpointRow>(
        `WITH due AS (
           SELECT w.client FROM webhook_endpoint w JOIN feed_subscription s USING (client)
            WHERE NOT s.paused AND w.disabled_at IS NULL
              AND (w.lease_until IS NULL OR w.lease_until < now())
              AND w.client <> ALL($4::text[])
              AND ((w.delivered_through < (SELECT position FROM feed_head) AND (w.next_attempt_at IS NULL OR ` +
          `w.next_attempt_at <= now()))
                   OR EXISTS (SELECT 1 FROM webhook_dead_letter d WHERE d.client = w.client AND d.redeliver))
            -- A lease given back keeps the time it ended: the subscription waiting longest goes first.
            ORDER BY w.lease_until NULLS FIRST, w.client
            LIMIT $3
            FOR UPDATE OF w SKIP LOCKED
         )
         UPDATE webhook_endpoint w SET lease_owner = $1, lease_until = now() + $2 * interval '1 millisecond'
           FROM due, feed_subscription s
          WHERE w.client = due.client AND s.client = w.client
          RETURNING ${COLUMNS}`,
        [owner, leaseMs, limit, exclude],
      );
      return rows.map((row) => ({ endpoint: endpointOf(row), owner }));
    },
    async active(lease) {
      const rows = await driver.query(
        `SELECT 1 FROM webhook_endpoint w JOIN feed_subscription s USING (client)
          WHERE w.client = $1 AND w.lease_owner = $2 AND ${ACTIVE}`,
        [lease.endpoint.client, lease.owner],
      );
      return rows.length > 0;
    },
    async record(lease, outcome: AttemptOutcome, leaseMs): Promise<Recorded> {
      const { client } = lease.endpoint;
      const extend = `lease_until = now() + ${Math.round(leaseMs)} * interval '1 millisecond', updated_at = now()`;
      // Each statement reads the subscription as it updates the endpoint: whether it is still active, for no
      // extra round trip.
      const held =
        `FROM feed_subscription s WHERE w.client = $1 AND s.client = w.client AND w.lease_owner = $2 ` +
        `AND w.delivered_through < $3 RETURNING ${ACTIVE} AS active`;
      switch (outcome.kind) {
        case 'delivered':
          return recorded(
            await driver.query(
              `UPDATE webhook_endpoint w SET delivered_through = $3, attempts = 0, failing_since = NULL, ` +
                `next_attempt_at = NULL, last_status = NULL, last_error = NULL, ${extend} ${held}`,
              [client, lease.owner, outcome.position],
            ),
          );
        case 'retry':
          return recorded(
            await driver.query(
              `UPDATE webhook_endpoint w SET attempts = w.attempts + 1, failing_since = ` +
                `coalesce(w.failing_since, now()),
                      next_attempt_at = now() + $4 * interval '1 millisecond', last_status = $5, last_error = ` +
                `$6, ${extend} ${held}`,
              [client, lease.owner, outcome.position, outcome.delayMs, outcome.status ?? null, outcome.error],
            ),
          );
        case 'dead':
          // The dead letter and the position past it together: neither without the other.
          return driver.transaction(async (tx) => {
            const moved = recorded(
              await tx.query(
                `UPDATE webhook_endpoint w SET delivered_through = $3, attempts = 0, failing_since = NULL, ` +
                  `next_attempt_at = NULL, last_status = $4, last_error = $5, ${extend} ${held}`,
                [client, lease.owner, outcome.position, outcome.status ?? null, outcome.error],
              ),
            );
            if (!moved) return false;
            await tx.query(
              `INSERT INTO webhook_dead_letter (client, position, attempts, last_status, last_error) VALUES ($1, ` +
                `$2, $3, $4, $5)
               ON CONFLICT (client, position) DO UPDATE SET failed_at = now(), attempts = EXCLUDED.attempts, ` +
                `last_status = EXCLUDED.last_status, last_error = EXCLUDED.last_error, redeliver = false`,
              [client, outcome.position, outcome.attempts, outcome.status ?? null, outcome.error],
            );
            return moved;
          });
        case 'gone':
          return recorded(
            await driver.query(
              `UPDATE webhook_endpoint w SET disabled_at = now(), disabled_reason = $4, last_status = $5, ` +
                `lease_owner = NULL, lease_until = NULL, updated_at = now() ${held}`,
              [client, lease.owner, outcome.position, `the receiver answered ${outcome.status} Gone`, outcome.status],
            ),
          );
      }
    },
    async skipTo(lease, position) {
      return held(
        `UPDATE webhook_endpoint SET delivered_through = $3, updated_at = now() WHERE client = $1 AND ` +
          `lease_owner = $2 AND delivered_through < $3 AND attempts = 0 RETURNING 1`,
        [lease.endpoint.client, lease.owner, position],
      );
    },
    async release(lease) {
      // lease_until keeps when the turn ended (in the past, so the subscription may be claimed at once), for
      // the claims' order.
      await driver.query(
        'UPDATE webhook_endpoint SET lease_owner = NULL, lease_until = clock_timestamp() WHERE client = $1 AND ' +
          'lease_owner = $2',
        [lease.endpoint.client, lease.owner],
      );
    },
    async deadLetters(client, limit = 1000) {
      const rows = await driver.query<DeadRow>(
        `SELECT ${DEAD_COLUMNS} FROM webhook_dead_letter WHERE client = $1 ` +
          'ORDER BY webhook_dead_letter.position LIMIT $2',
        [client, limit],
      );
      return rows.map(deadOf);
    },
    async queued(client, limit) {
      const rows = await driver.query<DeadRow>(
        `SELECT ${DEAD_COLUMNS} FROM webhook_dead_letter WHERE client = $1 AND redeliver ` +
          'ORDER BY webhook_dead_letter.position LIMIT $2',
        [client, limit],
      );
      return rows.map(deadOf);
    },
    async redelivered(lease, position, ok, status, error) {
      if (ok) {
        await driver.query(
          `DELETE FROM webhook_dead_letter d USING webhook_endpoint w WHERE d.client = $1 AND d.position = $3 ` +
            `AND w.client = d.client AND w.lease_owner = $2`,
          [lease.endpoint.client, lease.owner, position],
        );
      } else {
        await driver.query(
          `UPDATE webhook_dead_letter SET redeliver = false, failed_at = now(), attempts = attempts + 1, ` +
            `last_status = $3, last_error = $4 WHERE client = $1 AND position = $2`,
          [lease.endpoint.client, position, status ?? null, error ?? null],
        );
      }
    },
    async redeliver(client, range) {
      const rows = await driver.query(
        `UPDATE webhook_dead_letter d SET redeliver = true
           FROM webhook_endpoint w
          WHERE d.client = $1 AND w.client = d.client AND NOT d.redeliver
            AND ($2::bigint IS NULL OR d.position = $2)
            AND ($3::timestamptz IS NULL OR d.failed_at >= $3) AND ($4::timestamptz IS NULL OR d.failed_at < $4)
          RETURNING 1`,
        [client, range.position ?? null, range.from ?? null, range.to ?? null],
      );
      return rows.length;
    },
  };
}
