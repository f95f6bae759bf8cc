/**
 * GET /v1/events: the change feed a client reads, as CloudEvents 1.0 objects. Which events a
 * client receives is its subscription (in the mock, every type with no fields) narrowed by its
 * roles: no event of a type without the dataset's role, and a subscription's fields rendered as a
 * lookup renders them, so they are never more than the client could read. `wait` holds the
 * request until an event is committed; every answer with events is audited before it is sent.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { UPDATE_REASONS, eventTypes } from '../records/changes.ts';
import type { RecordDescription } from '../records/define.ts';
import { eventFieldRenderer, receivableTypes } from '../render/event-fields.ts';
import type { CompiledView } from '../render/view.ts';
import type { EventFeed, Subscription, Subscriptions } from '../model/events.ts';
import type { Identity } from '../model/identity.ts';
import { type WaitingLimits, waitingSeats } from './waiting-readers.ts';
import { ApiError, badRequest, forbidden, unavailableUnless } from '../errors.ts';
import { EXPECTED } from './parameters.ts';
import { QUERY_RULES, type QueryRule } from './query-rules.ts';
import { refsOf } from './plugins/audit.ts';
import { retentionCutoff } from './plugins/feed-retention.ts';
import { cloudEventOf } from '../records/cloud-event.ts';
import { INSTANT_RANGE, isoInstant } from '../records/dates.ts';
import { RECORD_ERRORS, answer, errorResponse } from './documentation.ts';

const EVENTS_PATH = '/v1/events';
const DEFAULT_EVENTS_LIMIT = 100;
const MAX_EVENTS_LIMIT = 1000;
const MAX_WAIT_S = 30;
/** A waiting reader reads the feed again at least this often, should a notification be lost. */
const RECHECK_MS = 1000;

// As isoInstant reads it: the year 0000, which RFC 3339's `format: date` allows, is not a day of isIsoDate's.
const ISO_TIME =
  '^(?!0000)[0-9]{4}-[0-9]{2}-[0-9]{2}(T[0-9]{2}:[0-9]{2}(:[0-9]{2}(\\.[0-9]{1,9})?)?(Z|[+-][0-9]{2}:[0-9]{2}))?$';

const eventsQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    after: {
      type: 'string',
      pattern: '^[0-9]{1,15}$',
      description:
        "The 'next' of the previous answer (or an event's id): events after it are returned. Absent, the " +
        'feed starts at the oldest event kept',
      [EXPECTED]: "an event id or the 'next' of an answer: digits",
    },
    since: {
      type: 'string',
      pattern: ISO_TIME,
      // The pattern gives the shape; the formats that it is a real day, and a real time of it.
      anyOf: [{ format: 'date' }, { format: 'date-time' }],
      description:
        "Instead of 'after': start at the first event committed at or after this date or time (ISO 8601, " +
        'e.g. 2026-11-01 or 2026-11-01T09:00:00Z), or at the oldest kept',
      [EXPECTED]: 'an ISO 8601 date or time, e.g. 2026-11-01 or 2026-11-01T09:00:00Z',
    },
    limit: {
      type: 'integer',
      minimum: 1,
      maximum: MAX_EVENTS_LIMIT,
      default: DEFAULT_EVENTS_LIMIT,
      description: `At most this many events; default ${DEFAULT_EVENTS_LIMIT}`,
      [EXPECTED]: `a whole number from 1 to ${MAX_EVENTS_LIMIT}`,
    },
    wait: {
      type: 'integer',
      minimum: 0,
      maximum: MAX_WAIT_S,
      default: 0,
      description:
        `Seconds to hold the request open until there is at least one event (0 to ${MAX_WAIT_S}); default 0, ` +
        'answer at once',
      [EXPECTED]: `a whole number of seconds from 0 to ${MAX_WAIT_S}`,
    },
  },
  [QUERY_RULES]: [
    {
      schema: { type: 'object', not: { type: 'object', required: ['after', 'since'] } },
      message: "Give either 'after' or 'since', not both",
      example: { after: '1', since: '2026-11-01' },
    },
  ] satisfies readonly QueryRule[],
} as const;

const cloudEventSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['specversion', 'id', 'type', 'source', 'subject', 'time', 'datacontenttype', 'data'],
  properties: {
    specversion: { type: 'string', enum: ['1.0'], description: 'CloudEvents version' },
    id: {
      type: 'string',
      description: "The event's position in the feed: opaque, give it (or an answer's 'next') as 'after'",
    },
    type: { type: 'string', description: '<record type>.registered or <record type>.updated, e.g. death.registered' },
    source: {
      type: 'string',
      description: "The record type's v1 path, e.g. /v1/registration/death: the record is at source/subject",
    },
    subject: { type: 'string', description: 'The system number of the registration' },
    time: { type: 'string', format: 'date-time', description: 'When the change was committed (UTC)' },
    datacontenttype: { type: 'string', enum: ['application/json'] },
    data: {
      type: 'object',
      additionalProperties: false,
      required: ['recordType', 'recordId'],
      properties: {
        recordType: { type: 'string', description: 'birth, death, marriage or partnership' },
        recordId: { type: 'integer', description: 'The system number of the registration' },
        reason: {
          type: 'string',
          enum: UPDATE_REASONS,
          description: 'For an update, what changed: replaced means a re-registration now links to it',
        },
        fields: {
          type: 'object',
          additionalProperties: true,
          description:
            "Only when the client's subscription names fields: each field's dot path and its value in the " +
            "registration as it is now, rendered as a lookup renders it for the client's roles (null where " +
            'it may not see it)',
        },
      },
    },
  },
} as const;

const eventsResponse = {
  type: 'object',
  additionalProperties: false,
  required: ['events', 'next'],
  properties: {
    // The event has an `$id`: the document names it (components CloudEvent).
    events: {
      type: 'array',
      items: { $id: 'CloudEvent', title: 'Change-feed event (CloudEvents 1.0)', ...cloudEventSchema },
      description: 'Oldest first',
    },
    next: { type: 'string', description: "Give it as 'after' to read on" },
  },
} as const;

interface EventsQuery {
  after?: string;
  since?: string;
  limit: number;
  wait: number;
}

interface EventRoutesOptions {
  readonly feed: EventFeed;
  readonly subscriptions: Subscriptions;
  readonly descriptions: readonly RecordDescription[];
  /** The v1 view of each record type, to render a subscription's fields as a lookup would. */
  readonly views: readonly CompiledView[];
  /** Every identified caller without a subscription reads every event type, with no fields (the mock). */
  readonly subscribeEveryone: boolean;
  readonly retentionDays: number;
  /** How many requests may wait for events at once, by client and in all. */
  readonly waiting?: WaitingLimits;
}

/** Node 20 has no Map.groupBy. */
function groupBy<T, K>(items: readonly T[], key: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const group = groups.get(key(item));
    if (group) group.push(item);
    else groups.set(key(item), [item]);
  }
  return groups;
}

const feedUnavailable = unavailableUnless('The change feed is unavailable; try again shortly');

const cursorExpired = (after: number, retentionDays: number) =>
  new ApiError(
    410,
    'CursorExpired',
    `Events after ${after} are no longer kept (the feed keeps ${retentionDays} days): start again with ` +
      `'since', a date within the last ${retentionDays} days, and fetch the records you may have missed`,
  );

const feedRestarted = (after: number, head: number) =>
  new ApiError(
    410,
    'CursorExpired',
    `Event ${after} is not in this feed, which ends at ${head}: it was started again (a restarted mock, a ` +
      "restored database). Start again with 'since', and fetch the records you may have missed",
  );

/**
 * `limit` and `wait` as the numbers their schemas declare (queries are not coerced); anything but digits is
 * left for the schema to refuse.
 */
async function numericParameters(request: FastifyRequest) {
  const query = request.query as Record<string, unknown>;
  for (const name of ['limit', 'wait']) {
    if (typeof query[name] === 'string' && /^[0-9]{1,9}$/.test(query[name] as string))
      query[name] = Number(query[name]);
  }
}

export async function eventRoutes(app: FastifyInstance, options: EventRoutesOptions) {
  const { feed, subscriptions, descriptions, views, subscribeEveryone, retentionDays } = options;
  const seats = waitingSeats(options.waiting ?? { perClient: Infinity, total: Infinity });
  const known = new Set(eventTypes(descriptions));
  const everything: Subscription = {
    client: '',
    events: [...known],
    fields: [],
    paused: false,
    createdAt: new Date(0).toISOString(),
  };
  const fieldRenderer = eventFieldRenderer(descriptions, views);
  // Expired events are not served, whether or not they are deleted yet (feed-retention.ts).
  const cutoff = () => retentionCutoff(retentionDays);

  // Waiting readers are answered at once when the server stops, rather than holding it up.
  const waiting = new Set<AbortController>();
  app.addHook('preClose', async () => {
    for (const controller of waiting) controller.abort();
  });

  app.get<{ Querystring: EventsQuery }>(
    EVENTS_PATH,
    {
      schema: {
        tags: ['events'],
        operationId: 'events',
        summary: "The change feed: the calling client's events, oldest first",
        description:
          'Registrations new (<type>.registered) and changed (<type>.updated, with a reason) as ' +
          'CloudEvents 1.0 objects, thin by default: no name, date or other personal data. ' +
          'Which events a client receives is its subscription (made by an operator; in the mock every ' +
          'identified caller receives every type), never a type whose dataset role it lacks; a ' +
          "subscription's fields are rendered as a lookup renders them for the caller. " +
          "Read on with the answer's 'next' as 'after'; 'wait' holds the request until an event is " +
          "committed. Reading with 'after' records it as the client's acknowledged position. " +
          'Events are kept EVENTS_RETENTION_DAYS days: an older position is 410 CursorExpired, and since= ' +
          'starts again from a date. Every answer with events is audited (operation events) before it is ' +
          'sent. A parameter not listed is refused (400).',
        querystring: eventsQuery,
        response: {
          200: answer('The events (an empty array when there are none yet) and where to read on from', eventsResponse),
          400: RECORD_ERRORS[400],
          401: RECORD_ERRORS[401],
          403: errorResponse(
            'The client has no subscription to the change feed, or its client certificate breaks the on-boarding rules',
          ),
          410: errorResponse(
            "CursorExpired: 'after' is older than the events kept, or not of this feed (started again " +
              "since); start again with 'since'",
          ),
          429: RECORD_ERRORS[429],
          503: errorResponse('The change feed or the audit trail is unavailable; retry later'),
        },
      },
      config: { requiresIdentity: true },
      preValidation: numericParameters,
    },
    async (request, reply) => {
      const identity = request.identity as Identity;
      const { after: afterText, since, limit, wait } = request.query;
      const startTime = since === undefined ? undefined : isoInstant(since);
      if (since !== undefined && !startTime) {
        throw badRequest(
          `The 'since' parameter must be an ISO 8601 date or time ${INSTANT_RANGE}, e.g. 2026-11-01 or ` +
            '2026-11-01T09:00:00Z',
        );
      }

      const subscription =
        (await feedUnavailable(() => subscriptions.get(identity.client))) ??
        (subscribeEveryone ? everything : undefined);
      if (!subscription)
        throw forbidden(
          `The client ${identity.client} has no subscription to the change feed: an operator adds one ` +
            "('lev-api subscriptions add')",
        );
      // A type of a dataset the client may not read is never delivered, whatever the subscription says.
      const subscribed = subscription.events.filter((type) => known.has(type));
      const types = app.rolesEnforced ? receivableTypes(subscribed, identity.roles) : subscribed;

      const bounds = await feedUnavailable(() => feed.bounds(cutoff()));
      let after: number;
      if (afterText !== undefined) {
        after = Number(afterText);
        // A position this feed never gave: it was started again (a mock restarted, a database restored). The
        // client starts again too.
        if (after > bounds.head) throw feedRestarted(after, bounds.head);
        if (after < bounds.expiredThrough) throw cursorExpired(after, retentionDays);
        await feedUnavailable(() => subscriptions.acknowledge(identity.client, after));
      } else if (startTime)
        after = Math.max(bounds.expiredThrough, await feedUnavailable(() => feed.positionBefore(startTime)));
      else after = bounds.expiredThrough;

      if (subscription.paused) return { events: [], next: String(after) };

      let page = await feedUnavailable(() => feed.read(after, types, limit));
      if (page.events.length === 0 && wait > 0) {
        const deadline = Date.now() + wait * 1000;
        // A seat first: beyond its client's (429) or everyone's (503) it is refused at once.
        const release = seats.take(identity.client, deadline);
        const controller = new AbortController();
        waiting.add(controller);
        const gone = () => controller.abort();
        reply.raw.once('close', gone);
        try {
          let position = after;
          while (page.events.length === 0 && Date.now() < deadline && !controller.signal.aborted) {
            // Waits only at the feed's end: a read that moved on through other clients' events reads on at once.
            if (page.next === position)
              await feed.changed(Math.min(RECHECK_MS, deadline - Date.now()), controller.signal);
            position = page.next;
            page = await feedUnavailable(() => feed.read(position, types, limit));
          }
        } finally {
          release();
          waiting.delete(controller);
          reply.raw.off('close', gone);
        }
      }

      const { events } = page;
      const fields = await fieldRenderer.render(events, subscription.fields, identity.roles, (type, ids) =>
        feedUnavailable(() => feed.recordsJson(type, ids)),
      );
      if (events.length > 0) {
        // One entry a dataset, each naming its records and events, all kept before anything is sent.
        const byType = groupBy(events, (event) => event.recordType);
        await Promise.all(
          [...byType].map(([type, ofType]) => {
            const included = fieldRenderer.fieldsOf(type, subscription.fields);
            return request.audited(
              ofType.length,
              refsOf(
                type,
                ofType.map((event) => event.recordId),
              ),
              { dataset: type, operation: 'events' },
              {
                events: ofType.map((event) => String(event.position)),
                ...(included.length ? { fields: included } : {}),
              },
            );
          }),
        );
      }
      return {
        events: events.map((event) => cloudEventOf(event, fieldRenderer.sourceOf(event.recordType), fields.get(event))),
        next: String(page.next),
      };
    },
  );
}
