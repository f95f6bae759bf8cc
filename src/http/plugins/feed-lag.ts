/**
 * Each subscribed client's lag in /metrics (lev_feed_lag_positions), read from the subscriptions
 * when scraped: one series a subscription the operator made.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Gauge } from 'prom-client';
import type { Subscriptions } from '../../model/events.ts';
import type { WebhookStore } from '../../model/webhooks.ts';
import type {} from './metrics.ts';

interface FeedLagOptions {
  readonly subscriptions: Pick<Subscriptions, 'list'>;
  /** Where subscriptions have webhooks: a client that only has events pushed lags from its delivery position. */
  readonly webhooks?: Pick<WebhookStore, 'list'>;
}

export const feedLagPlugin = fp(
  async function feedLag(app: FastifyInstance, { subscriptions, webhooks }: FeedLagOptions) {
    new Gauge({
      name: 'lev_feed_lag_positions',
      help:
        "Positions between the change feed's end and the furthest each subscribed client has got: the " +
        "position it acknowledged reading, or its webhook's delivery position (all of them before either)",
      labelNames: ['client'] as const,
      registers: [app.metricsRegistry],
      async collect() {
        this.reset();
        try {
          // A client has what was read or pushed to it, whichever reached further: one that never
          // read the feed (its webhook takes everything) lags by its webhook, not from the feed's start.
          const pushed = new Map((await (webhooks?.list() ?? [])).map((endpoint) => [endpoint.client, endpoint.lag]));
          for (const subscription of await subscriptions.list()) {
            const read = subscription.acknowledged === undefined ? undefined : subscription.lag;
            const lags = [read, pushed.get(subscription.client)].filter((lag): lag is number => lag !== undefined);
            this.set({ client: subscription.client }, lags.length ? Math.min(...lags) : subscription.lag);
          }
        } catch (error) {
          app.log.warn(
            { err: { type: (error as Error).name } },
            'the subscriptions could not be read for the lag metric',
          );
        }
      },
    });
  },
  { name: 'lev-feed-lag', dependencies: ['lev-metrics'] },
);
