/**
 * The change feed and its subscriptions in PostgreSQL (schema/v6-change-feed.ts). Events are
 * written by the loads (postgres-write.ts); here they are read, from the primary: a replica's
 * feed lags behind the NOTIFY that wakes a waiting reader.
 */
import type { UpdateReason } from '../records/changes.ts';
import type { EventFeed, FeedEvent, ListedSubscription, Subscription, Subscriptions } from '../model/events.ts';
import { READ_WINDOW, SubscriptionExists } from '../model/events.ts';
import type { SqlDriver } from './driver.ts';
import { feedWaiters } from './feed-waiters.ts';
import { tableNames } from './record-tables.ts';
import { FEED_CHANNEL } from './postgres-write.ts';

interface EventRow {
  position: string | null;
  type: string;
  record_type: string;
  record_id: string;
  reason: UpdateReason | null;
  committed_at: Date;
  trace_parent: string | null;
  head: string;
}

const eventOf = (row: EventRow): FeedEvent => ({
  position: Number(row.position),
  type: row.type,
  recordType: row.record_type,
  recordId: Number(row.record_id),
  ...(row.reason ? { reason: row.reason } : {}),
  time: row.committed_at.toISOString(),
  ...(row.trace_parent ? { traceParent: row.trace_parent } : {}),
});

const PREPARE = { prepare: true } as const;

interface PostgresEvents {
  readonly feed: EventFeed;
  readonly subscriptions: Subscriptions;
}

export function createPostgresEvents(driver: SqlDriver, recordTypes: readonly string[]): PostgresEvents {
  const known = new Set(recordTypes);
  // Readers waiting for a commit; the listening connection opens with the first of them.
  const waiters = feedWaiters();
  let listening = false;

  /**
   * The feed's last position, and the last one before the first event committed at or after `time` (the head
   * when there is none).
   */
  const headAndBefore = async (time: Date) => {
    const [row] = await driver.query<{ head: string; first: string | null }>(
      `SELECT (SELECT position::text FROM feed_head) AS head,
              (SELECT min(position)::text FROM feed_event WHERE committed_at >= $1) AS first`,
      [time],
      PREPARE,
    );
    const head = Number(row.head);
    return { head, before: row.first === null ? head : Number(row.first) - 1 };
  };

  const feed: EventFeed = {
    async read(after, types, limit, window = READ_WINDOW) {
      // The head is read in the same snapshot as the events: every position up to it is visible.
      const rows = await driver.query<EventRow>(
        `SELECT e.position::text, e.type, e.record_type, e.record_id::text, e.reason, e.committed_at, ` +
          `e.trace_parent, h.position::text AS head
           FROM feed_head h
           LEFT JOIN LATERAL (
             SELECT * FROM feed_event
              WHERE position > $1 AND position <= $1 + $4 AND type = ANY($2::text[])
              ORDER BY position LIMIT $3
           ) e ON true`,
        [after, types, limit, window],
        PREPARE,
      );
      const events = rows.filter((row) => row.position !== null).map(eventOf);
      const head = Number(rows[0].head);
      return {
        events,
        next:
          events.length === limit
            ? events[events.length - 1].position
            : Math.max(Math.min(head, after + window), after),
      };
    },
    async bounds(cutoff) {
      const { head, before } = await headAndBefore(cutoff);
      return { head, expiredThrough: before };
    },
    async positionBefore(time) {
      return (await headAndBefore(time)).before;
    },
    changed(ms, signal) {
      if (!listening && driver.listen) {
        listening = true;
        driver.listen(FEED_CHANNEL, waiters.wakeAll);
      }
      return waiters.wait(ms, signal);
    },
    async prune(cutoff) {
      const rows = await driver.query<{ count: number }>(
        'WITH gone AS (DELETE FROM feed_event WHERE committed_at < $1 RETURNING 1) SELECT count(*)::int AS count ' +
          'FROM gone',
        [cutoff],
      );
      return rows[0].count;
    },
    async recordsJson(type, ids) {
      if (!known.has(type)) throw new Error(`unknown record type ${type}`);
      const rows = await driver.query<{ id: string; data: string }>(
        `SELECT id::text, data::text AS data FROM ${tableNames(type).records} WHERE id = ANY($1::bigint[])`,
        [ids],
      );
      return new Map(rows.map((row) => [Number(row.id), row.data]));
    },
  };

  interface SubscriptionRow {
    client: string;
    events: string[];
    fields: string[];
    roles: string[] | null;
    paused: boolean;
    acknowledged: string | null;
    acknowledged_at: Date | null;
    created_at: Date;
    head?: string;
  }
  const subscriptionOf = (row: SubscriptionRow): Subscription => ({
    client: row.client,
    events: row.events,
    fields: row.fields,
    ...(row.roles ? { roles: row.roles } : {}),
    paused: row.paused,
    ...(row.acknowledged !== null ? { acknowledged: Number(row.acknowledged) } : {}),
    ...(row.acknowledged_at ? { acknowledgedAt: row.acknowledged_at.toISOString() } : {}),
    createdAt: row.created_at.toISOString(),
  });
  const COLUMNS = 'client, events, fields, roles, paused, acknowledged::text, acknowledged_at, created_at';

  const subscriptions: Subscriptions = {
    async add({ client, events, fields, roles }) {
      const rows = await driver.query(
        'INSERT INTO feed_subscription (client, events, fields, roles) VALUES ($1, $2, $3, $4) ON CONFLICT ' +
          '(client) DO NOTHING RETURNING 1',
        [client, events, fields, roles ?? null],
      );
      if (rows.length === 0) throw new SubscriptionExists(client);
    },
    async get(client) {
      const rows = await driver.query<SubscriptionRow>(
        `SELECT ${COLUMNS} FROM feed_subscription WHERE client = $1`,
        [client],
        PREPARE,
      );
      return rows[0] && subscriptionOf(rows[0]);
    },
    async list() {
      const rows = await driver.query<SubscriptionRow>(
        `SELECT ${COLUMNS}, (SELECT position::text FROM feed_head) AS head FROM feed_subscription ORDER BY client`,
      );
      return rows.map(
        (row): ListedSubscription => ({
          ...subscriptionOf(row),
          lag: Number(row.head) - Number(row.acknowledged ?? 0),
        }),
      );
    },
    async setRoles(client, roles) {
      return (
        (
          await driver.query('UPDATE feed_subscription SET roles = $2 WHERE client = $1 RETURNING 1', [
            client,
            roles ?? null,
          ])
        ).length > 0
      );
    },
    async setPaused(client, paused) {
      return (
        (await driver.query('UPDATE feed_subscription SET paused = $2 WHERE client = $1 RETURNING 1', [client, paused]))
          .length > 0
      );
    },
    async remove(client) {
      return (await driver.query('DELETE FROM feed_subscription WHERE client = $1 RETURNING 1', [client])).length > 0;
    },
    async acknowledge(client, position) {
      await driver.query(
        'UPDATE feed_subscription SET acknowledged = $2, acknowledged_at = now() WHERE client = $1',
        [client, position],
        PREPARE,
      );
    },
  };

  return { feed, subscriptions };
}
