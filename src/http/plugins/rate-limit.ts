/**
 * The rate limit, per identified client (`../token-buckets.ts` holds the buckets): counted before
 * authorisation, so a caller refused a dataset's role still spends its tokens. Without
 * RATE_LIMIT_PER_MINUTE it adds nothing to a request.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { RateLimitConfig } from '../../config/rate-limit.ts';
import { createRateLimiter } from '../token-buckets.ts';
import type {} from './identity.ts';

interface RateLimitOptions {
  readonly limit: RateLimitConfig | undefined;
}

export const rateLimitPlugin = fp(
  async function rateLimit(app: FastifyInstance, { limit }: RateLimitOptions) {
    if (!limit) return;
    const limiter = await createRateLimiter(limit, app.log);
    app.addHook('onClose', () => limiter.close());
    app.addHook('onRequest', async (request) => {
      if (request.identity) await limiter.take(request.identity.client);
    });
  },
  { name: 'lev-rate-limit', dependencies: ['lev-identity'] },
);
