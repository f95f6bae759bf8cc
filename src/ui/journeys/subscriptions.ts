/**
 * The subscriptions page, for the audit role: each subscription to the change feed with its
 * endpoint, state, lag, failures and dead letters, as GET /api/v0/subscriptions gives them.
 */
import type { FastifyInstance } from 'fastify';
import type { Pages } from '../pages.ts';
import { subscriptionViews } from '../subscriptions.ts';

export function subscriptionsPage(app: FastifyInstance, { signedIn, page, context, refused }: Pages) {
  app.get('/ui/subscriptions', async (request, reply) => {
    const signed = await signedIn(request, reply);
    if (!signed) return reply;
    try {
      const subscriptions = await signed.lev.subscriptions();
      return page(
        reply,
        'subscriptions.njk',
        context(signed.session, 'Subscriptions', { subscriptions: subscriptionViews(subscriptions) }),
      );
    } catch (error) {
      return refused(reply, signed.session, error);
    }
  });
}
