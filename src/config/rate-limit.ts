/**
 * The per-client token bucket (http/token-buckets.ts).
 */
import { Type } from '@sinclair/typebox';
import type { EnvValues } from './read-env.ts';
import type { Settled } from './shape.ts';
import { RedisConfig, type Sessions, redisOf } from './sessions.ts';

export const RateLimit = {
  RATE_LIMIT_PER_MINUTE: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 1_000_000,
      description: 'Requests a minute each client may make on average (token bucket refill); unset, no limit',
    }),
  ),
  RATE_LIMIT_BURST: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 1_000_000,
      description: 'Requests a client may make at once (the bucket size); RATE_LIMIT_PER_MINUTE when unset',
    }),
  ),
};

export const RateLimitConfig = Type.Object({
  /** Tokens added to a client's bucket each minute. */
  perMinute: Type.Number(),
  /** The bucket's size: the most requests a client can make at once. */
  burst: Type.Number(),
  /** Buckets kept in Redis, shared by every process; in the process when absent. */
  redis: Type.Optional(RedisConfig),
});
export type RateLimitConfig = Settled<typeof RateLimitConfig>;

type RateLimitValues = EnvValues<typeof RateLimit & typeof Sessions> & { AUTH_MODE?: string; DATABASE_URL?: string };

/** The bucket, undefined without RATE_LIMIT_PER_MINUTE (no limit); a setting that would then go unused is a problem. */
export function rateLimitConfig(
  value: RateLimitValues,
  given: (key: string) => boolean,
  problems: string[],
): RateLimitConfig | undefined {
  const perMinute = value.RATE_LIMIT_PER_MINUTE;
  if (!perMinute) {
    // The pages (served in mock mode) keep their sessions in Redis too; otherwise REDIS_URL would go unused.
    const servesPages = (value.AUTH_MODE ?? (value.DATABASE_URL ? undefined : 'mock')) === 'mock';
    const stray = ['RATE_LIMIT_BURST', ...(servesPages ? [] : ['REDIS_URL'])].filter(given);
    if (stray.length)
      problems.push(
        `${stray.join(', ')} ${stray.length > 1 ? 'are' : 'is'} set without RATE_LIMIT_PER_MINUTE: there ` +
          'is no rate limit to apply',
      );
    return undefined;
  }
  return {
    perMinute,
    burst: value.RATE_LIMIT_BURST ?? perMinute,
    redis: redisOf(value),
  };
}
