/**
 * The rate limit (RATE_LIMIT_PER_MINUTE, RATE_LIMIT_BURST): a token bucket
 * per client, the identity's client. A bucket holds at most `burst` tokens
 * and gains `perMinute` a minute, continuously; each request takes one. With
 * none left the answer is 429 TooManyRequests, with Retry-After giving the
 * seconds until a token is back. A refused request takes nothing.
 *
 * With REDIS_URL the buckets are kept in Redis, so every process draws on the
 * same one: a Lua script refills and takes in one step, atomically, on
 * Redis's clock (TIME), so the processes' clocks do not matter. ioredis runs
 * it by EVALSHA (EVAL the first time, or after Redis lost its script cache).
 * While Redis does not answer (each command waits 500 ms at most), each
 * process counts in its own buckets and the log says so: a limit per process
 * rather than no limit, or no service.
 *
 * (@fastify/rate-limit counts requests in fixed windows, without a burst
 * size separate from the rate, and keys requests before the identity is
 * known; hence this small module.)
 */
import type { FastifyBaseLogger } from 'fastify';
import { whenNeeded } from '../when-needed.ts';

const ioredis = whenNeeded<typeof import('ioredis')>('ioredis');
import type { RateLimitConfig } from '../config/rate-limit.ts';
import { ApiError } from '../errors.ts';

interface Verdict {
  readonly allowed: boolean;
  /** Whole tokens left after this request. */
  readonly remaining: number;
  /** When refused: milliseconds until a token is back. */
  readonly retryAfterMs: number;
}

/** Buckets kept in one process; the least recently used are dropped beyond MAX_BUCKETS (they restart full). */
const MAX_BUCKETS = 100_000;

export class MemoryBuckets {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private readonly perMs: number;

  constructor(
    perMinute: number,
    private readonly burst: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.perMs = perMinute / 60_000;
  }

  take(key: string): Verdict {
    const now = this.now();
    let bucket = this.buckets.get(key);
    if (bucket) {
      this.buckets.delete(key); // set again below, so the map stays in order of last use
    } else {
      if (this.buckets.size >= MAX_BUCKETS) this.dropOldest(Math.ceil(MAX_BUCKETS / 10));
      bucket = { tokens: this.burst, at: now };
    }
    bucket.tokens = Math.min(this.burst, bucket.tokens + Math.max(0, now - bucket.at) * this.perMs);
    bucket.at = now;
    this.buckets.set(key, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return { allowed: true, remaining: Math.floor(bucket.tokens), retryAfterMs: 0 };
    }
    return { allowed: false, remaining: 0, retryAfterMs: Math.ceil((1 - bucket.tokens) / this.perMs) };
  }

  private dropOldest(count: number) {
    for (const key of this.buckets.keys()) {
      if (count-- <= 0) break;
      this.buckets.delete(key);
    }
  }
}

/**
 * KEYS[1]: the bucket; ARGV: burst, tokens per millisecond. Returns {allowed (1 or 0), whole tokens left, ms
 * to wait}.
 */
const TOKEN_BUCKET_LUA = `
local burst = tonumber(ARGV[1])
local per_ms = tonumber(ARGV[2])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + tonumber(time[2]) / 1000
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(state[1]) or burst
local at = tonumber(state[2]) or now
if now > at then
  tokens = math.min(burst, tokens + (now - at) * per_ms)
  at = now
end
local wait = 0
if tokens >= 1 then
  tokens = tokens - 1
else
  wait = math.ceil((1 - tokens) / per_ms)
end
redis.call('HSET', KEYS[1], 'tokens', string.format('%.6f', tokens), 'at', string.format('%.3f', at))
redis.call('PEXPIRE', KEYS[1], math.ceil(burst / per_ms) + 1000)
if wait == 0 then
  return {1, math.floor(tokens), 0}
end
return {0, 0, wait}
`;

interface BucketCommands {
  levTakeToken(key: string, burst: number, perMs: number): Promise<[number, number, number]>;
}

interface RateLimiter {
  /** Takes a token from the client's bucket; throws the 429 when there is none. */
  take(client: string): Promise<Verdict>;
  close(): Promise<void>;
}

const tooManyRequests = (config: RateLimitConfig, retryAfterMs: number) => {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return new ApiError(
    429,
    'TooManyRequests',
    `Too many requests from this client: ${config.perMinute} a minute are allowed, at most ${config.burst} ` +
      `at once; retry in ${seconds} s`,
    { 'retry-after': String(seconds) },
  );
};

export async function createRateLimiter(config: RateLimitConfig, log: FastifyBaseLogger): Promise<RateLimiter> {
  const local = new MemoryBuckets(config.perMinute, config.burst);
  const perMs = config.perMinute / 60_000;
  const check = (verdict: Verdict) => {
    if (!verdict.allowed) throw tooManyRequests(config, verdict.retryAfterMs);
    return verdict;
  };
  if (!config.redis) {
    return { take: async (client) => check(local.take(client)), close: async () => {} };
  }

  const redis = new (ioredis().Redis)(config.redis.url, {
    keyPrefix: `${config.redis.keyPrefix}rate:`,
    lazyConnect: true,
    // Fail at once while disconnected, and never wait long: the local buckets stand in.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: 500,
    connectTimeout: 2_000,
  });
  redis.defineCommand('levTakeToken', { numberOfKeys: 1, lua: TOKEN_BUCKET_LUA });
  const commands = redis as unknown as BucketCommands;
  let shared = false;
  // Each reconnection attempt emits an error; the transitions below say what matters.
  redis.on('error', () => {});
  redis.on('ready', () => {
    shared = true;
    log.info('rate limit: buckets shared through Redis');
  });
  redis.on('close', () => {
    if (shared) log.warn('rate limit: the Redis connection is lost; each process counts alone until it is back');
    shared = false;
  });
  try {
    await redis.connect();
  } catch (error) {
    log.warn(
      { err: { code: (error as { code?: string }).code } },
      'rate limit: Redis does not answer; each process counts alone until it does',
    );
  }

  return {
    async take(client) {
      if (redis.status !== 'ready') return check(local.take(client));
      let reply: [number, number, number];
      try {
        reply = await commands.levTakeToken(client, config.burst, perMs);
      } catch (error) {
        log.debug(
          { err: { code: (error as { code?: string }).code, type: (error as Error).name } },
          'rate limit: Redis failed; counted in this process',
        );
        return check(local.take(client));
      }
      const [allowed, remaining, wait] = reply;
      return check({ allowed: allowed === 1, remaining, retryAfterMs: wait });
    },
    async close() {
      shared = false;
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
