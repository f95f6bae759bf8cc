/**
 * The change feed's routes: its events, whose waiting readers may hold a share of the connections
 * (FEED_WAITING_SHARE of MAX_CONNECTIONS), and, where subscriptions have webhooks, their delivery
 * state.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { EventsConfig } from '../../config/events.ts';
import type { EventFeed, Subscriptions } from '../../model/events.ts';
import type { WebhookStore } from '../../model/webhooks.ts';
import type { RecordDescription } from '../../records/define.ts';
import type { CompiledView } from '../../render/view.ts';
import { eventRoutes } from '../event-routes.ts';
import { waitingTotal } from '../waiting-readers.ts';
import { webhookRoutes } from '../webhook-routes.ts';

interface ChangeFeedOptions {
  readonly feed: EventFeed;
  readonly subscriptions: Subscriptions;
  readonly webhooks?: WebhookStore;
  readonly descriptions: readonly RecordDescription[];
  readonly views: readonly CompiledView[];
  readonly settings: EventsConfig;
  readonly maxConnections: number;
  /** Every identified caller without a subscription reads every event type, with no fields (the mock). */
  readonly subscribeEveryone: boolean;
}

export const changeFeedPlugin = fp(
  async function changeFeed(app: FastifyInstance, { settings, webhooks, ...options }: ChangeFeedOptions) {
    await app.register(eventRoutes, {
      feed: options.feed,
      subscriptions: options.subscriptions,
      descriptions: options.descriptions,
      views: options.views,
      subscribeEveryone: options.subscribeEveryone,
      retentionDays: settings.retentionDays,
      waiting: {
        perClient: settings.waiting.perClient,
        total: waitingTotal(options.maxConnections, settings.waiting.share),
      },
    });
    if (webhooks) await app.register(webhookRoutes, { webhooks });
  },
  { name: 'lev-change-feed' },
);
