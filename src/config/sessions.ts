/**
 * The caseworkers' sessions, wherever the pages are served, and the Redis that every process
 * shares them (and the rate limit's buckets) through.
 */
import { Type } from '@sinclair/typebox';
import type { EnvValues } from './read-env.ts';
import type { Settled } from './shape.ts';

export const Sessions = {
  UI_IDLE_TIMEOUT_MIN: Type.Integer({
    minimum: 1,
    maximum: 480,
    default: 30,
    description:
      "Minutes without a request after which a caseworker's session of the pages at /ui ends (they are warned before)",
  }),
  REDIS_URL: Type.Optional(
    Type.String({
      pattern: '^rediss?://\\S+$',
      description:
        "Redis that every process shares the rate-limit buckets and the caseworkers' sessions through; " +
        'without it, each process keeps its own',
    }),
  ),
  REDIS_KEY_PREFIX: Type.String({
    pattern: '^[\\x21-\\x7e]{1,64}$',
    default: 'lev-api:',
    description: 'Prefix of the keys the service keeps in Redis',
  }),
};

export const RedisConfig = Type.Object({
  url: Type.String(),
  keyPrefix: Type.String(),
});
export type RedisConfig = Settled<typeof RedisConfig>;

export const UiSessionConfig = Type.Object({
  idleMs: Type.Number(),
  /** Sessions kept in Redis, shared by every process serving the pages; in the process when absent. */
  redis: Type.Optional(RedisConfig),
});
export type UiSessionConfig = Settled<typeof UiSessionConfig>;

export const redisOf = (value: { REDIS_URL?: string; REDIS_KEY_PREFIX: string }): RedisConfig | undefined =>
  value.REDIS_URL ? { url: value.REDIS_URL, keyPrefix: value.REDIS_KEY_PREFIX } : undefined;

/** The sessions' settings, checked; REDIS_KEY_PREFIX alone is a problem. */
export function sessionsOf(
  value: EnvValues<typeof Sessions>,
  given: (key: string) => boolean,
  problems: string[],
): UiSessionConfig {
  if (given('REDIS_KEY_PREFIX') && !value.REDIS_URL) problems.push('REDIS_KEY_PREFIX is set without REDIS_URL');
  return { idleMs: value.UI_IDLE_TIMEOUT_MIN * 60_000, redis: redisOf(value) };
}
