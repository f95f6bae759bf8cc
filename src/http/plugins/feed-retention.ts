/**
 * The change feed's retention (EVENTS_RETENTION_DAYS): events older than the cutoff are deleted at
 * start and hourly after. Until then they are not served either: the events route reads the feed's
 * bounds at the same cutoff.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { EventFeed } from '../../model/events.ts';

const PRUNE_EVERY_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** The oldest instant an event is kept from, now. */
export const retentionCutoff = (retentionDays: number) => new Date(Date.now() - retentionDays * DAY_MS);

interface FeedRetentionOptions {
  readonly feed: Pick<EventFeed, 'prune'>;
  readonly retentionDays: number;
}

export const feedRetentionPlugin = fp(
  async function feedRetention(app: FastifyInstance, { feed, retentionDays }: FeedRetentionOptions) {
    const prune = () =>
      feed
        .prune(retentionCutoff(retentionDays))
        .catch((error: Error) =>
          app.log.warn({ err: { type: error.name, message: error.message } }, 'the change feed could not be pruned'),
        );
    let pruning: NodeJS.Timeout | undefined;
    app.addHook('onReady', async () => {
      void prune();
      pruning = setInterval(prune, PRUNE_EVERY_MS).unref();
    });
    app.addHook('preClose', async () => clearInterval(pruning));
  },
  { name: 'lev-feed-retention' },
);
