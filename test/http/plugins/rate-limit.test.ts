/**
 * The per-client rate limit (RATE_LIMIT_PER_MINUTE, RATE_LIMIT_BURST): a
 * token bucket per client, in the process, or in Redis (REDIS_URL) where two
 * app instances draw on the same bucket. The Redis tests run where a server
 * answers (CI has one at 127.0.0.1:6379; TEST_REDIS_URL for another), each
 * with a key prefix of its own, deleted afterwards.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { Writable } from 'node:stream';
import { before, describe, test } from 'node:test';
import { Redis } from 'ioredis';
import pino from 'pino';
import { ConfigError } from '../../../src/errors.ts';
import { loadConfig } from '../../../src/config/index.ts';
import { MemoryBuckets } from '../../../src/http/token-buckets.ts';
import {
  TEST_REDIS_URL,
  type TestStore,
  filledStore,
  redisAvailable,
  redisPrefix,
  startApp,
  suiteContext,
  testConfig,
} from '../../helper.ts';

const context = suiteContext();
let store: TestStore;
let redis = false;
before(async () => {
  store = await filledStore(context, 'memory');
  redis = await redisAvailable();
});

const BIRTH = '/v1/registration/birth/123456789';
const as = (client: string) => ({ 'x-auth-username': 'jo', 'x-auth-aud': client });
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the token bucket (a clock of its own)', () => {
  test('a full bucket allows a burst, then one request per 60,000 / RATE_LIMIT_PER_MINUTE ms', () => {
    let now = 0;
    const buckets = new MemoryBuckets(60, 3, () => now); // a token a second, three at most
    for (const remaining of [2, 1, 0])
      assert.deepEqual(buckets.take('a'), { allowed: true, remaining, retryAfterMs: 0 });
    assert.deepEqual(buckets.take('a'), { allowed: false, remaining: 0, retryAfterMs: 1000 });
    now = 400;
    assert.deepEqual(
      buckets.take('a'),
      { allowed: false, remaining: 0, retryAfterMs: 600 },
      'a refused request takes nothing',
    );
    now = 1000;
    assert.equal(buckets.take('a').allowed, true);
    assert.equal(buckets.take('a').allowed, false);
    assert.equal(buckets.take('b').allowed, true, 'each client has its own bucket');
  });

  test('an idle bucket fills up to the burst, no further', () => {
    let now = 0;
    const buckets = new MemoryBuckets(600, 5, () => now);
    for (let i = 0; i < 5; i++) buckets.take('a');
    now = 3_600_000;
    const allowed = Array.from({ length: 8 }, () => buckets.take('a').allowed);
    assert.deepEqual(allowed, [true, true, true, true, true, false, false, false]);
  });
});

describe('in the process', () => {
  test('RATE_LIMIT_BURST requests at once, then 429 with Retry-After, per client', async (t) => {
    // Six a minute: no token comes back while the test runs.
    const app = await startApp(t, store, testConfig({ RATE_LIMIT_PER_MINUTE: '6', RATE_LIMIT_BURST: '3' }));
    for (let i = 0; i < 3; i++) assert.equal((await app.get(BIRTH, as('svc-a'))).status, 200, `request ${i + 1}`);
    const refused = await app.get(BIRTH, as('svc-a'));
    assert.equal(refused.status, 429);
    const wait = Number(refused.headers.get('retry-after'));
    assert.ok(wait >= 9 && wait <= 10, `Retry-After ${wait}: a token every 10 s`);
    assert.deepEqual(refused.body, {
      code: 'TooManyRequests',
      message: `Too many requests from this client: 6 a minute are allowed, at most 3 at once; retry in ${wait} s`,
    });
    assert.equal(refused.headers.get('cache-control'), 'no-store', 'the usual headers');
    assert.equal(
      (await app.get(`/v1/registration/birth?surname=Ashworth&forenames=Eleanor&dateOfBirth=2008-08-08`, as('svc-a')))
        .status,
      429,
      'searches too',
    );
    assert.equal((await app.get(BIRTH, as('svc-b'))).status, 200, 'another client has its own bucket');
    assert.equal(
      (await app.get(BIRTH, { 'x-auth-username': 'someone-else', 'x-auth-aud': 'svc-a' })).status,
      429,
      'per client, not per user',
    );
    for (let i = 0; i < 5; i++)
      assert.equal((await app.get('/healthz', {})).status, 200, 'routes without an identity are not limited');
    assert.equal((await app.get(BIRTH, {})).status, 401, 'no identity: 401, not 429');
  });

  test('a token returns after 60 / RATE_LIMIT_PER_MINUTE seconds', async (t) => {
    const app = await startApp(t, store, testConfig({ RATE_LIMIT_PER_MINUTE: '120', RATE_LIMIT_BURST: '1' }));
    assert.equal((await app.get(BIRTH, as('svc-a'))).status, 200);
    const refused = await app.get(BIRTH, as('svc-a'));
    assert.equal(refused.status, 429);
    assert.equal(refused.headers.get('retry-after'), '1', 'half a second, rounded up');
    await pause(600);
    assert.equal((await app.get(BIRTH, as('svc-a'))).status, 200);
  });

  test('without RATE_LIMIT_PER_MINUTE there is no limit', async (t) => {
    const app = await startApp(t, store);
    const statuses = await Promise.all(
      Array.from({ length: 30 }, () => app.get(BIRTH, as('svc-a')).then((response) => response.status)),
    );
    assert.deepEqual(new Set(statuses), new Set([200]));
  });

  test(
    'with REDIS_URL but no Redis answering: the service ' + 'starts, each process counts alone, and the log says so',
    async (t) => {
      const closed = createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const port = (closed.address() as { port: number }).port;
      await new Promise((resolve) => closed.close(resolve));
      const lines: string[] = [];
      const logger = pino(
        { level: 'info' },
        new Writable({ write: (chunk: Buffer, _encoding, done) => (lines.push(chunk.toString()), done()) }),
      );
      const app = await startApp(
        t,
        store,
        testConfig({ RATE_LIMIT_PER_MINUTE: '60', RATE_LIMIT_BURST: '2', REDIS_URL: `redis://127.0.0.1:${port}` }),
        logger,
      );
      assert.ok(lines.some((line) => line.includes('Redis does not answer; each process counts alone')));
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await app.get(BIRTH, as('svc-a'))).status);
      assert.deepEqual(statuses, [200, 200, 429]);
    },
  );
});

describe('shared through Redis', () => {
  test('two app instances (two processes) draw on one bucket per client', async (t) => {
    if (!redis) return t.skip(`no Redis answers at ${TEST_REDIS_URL}`);
    const prefix = redisPrefix(t);
    // Six a minute: no token comes back while the test runs.
    const env = {
      RATE_LIMIT_PER_MINUTE: '6',
      RATE_LIMIT_BURST: '4',
      REDIS_URL: TEST_REDIS_URL,
      REDIS_KEY_PREFIX: prefix,
    };
    const [one, two] = await Promise.all([startApp(t, store, testConfig(env)), startApp(t, store, testConfig(env))]);
    const statuses = [];
    for (const app of [one, two, one, two, one, two]) statuses.push((await app.get(BIRTH, as('svc-shared'))).status);
    assert.deepEqual(statuses, [200, 200, 200, 200, 429, 429]);
    const refused = await two.get(BIRTH, as('svc-shared'));
    assert.equal(refused.body.code, 'TooManyRequests');
    const wait = Number(refused.headers.get('retry-after'));
    assert.ok(wait >= 1 && wait <= 10, `Retry-After ${wait}: a token every 10 s`);
    assert.equal((await one.get(BIRTH, as('svc-other'))).status, 200, 'another client has its own bucket');

    const client = new Redis(TEST_REDIS_URL);
    t.after(() => client.disconnect());
    const keys = (await client.keys(`${prefix}*`)).sort();
    assert.deepEqual(keys, [`${prefix}rate:svc-other`, `${prefix}rate:svc-shared`], 'the keys, under the prefix');
    const ttl = await client.pttl(`${prefix}rate:svc-shared`);
    assert.ok(ttl > 0 && ttl <= 41_000, `the bucket expires once it would be full again (${ttl} ms)`);
  });

  test('the buckets refill on Redis time; another prefix is another set of buckets', async (t) => {
    if (!redis) return t.skip(`no Redis answers at ${TEST_REDIS_URL}`);
    const env = { RATE_LIMIT_PER_MINUTE: '120', RATE_LIMIT_BURST: '1', REDIS_URL: TEST_REDIS_URL };
    const app = await startApp(t, store, testConfig({ ...env, REDIS_KEY_PREFIX: redisPrefix(t) }));
    const other = await startApp(t, store, testConfig({ ...env, REDIS_KEY_PREFIX: redisPrefix(t) }));
    assert.equal((await app.get(BIRTH, as('svc-a'))).status, 200);
    assert.equal((await app.get(BIRTH, as('svc-a'))).status, 429);
    assert.equal((await other.get(BIRTH, as('svc-a'))).status, 200, 'another prefix');
    await pause(600);
    assert.equal((await app.get(BIRTH, as('svc-a'))).status, 200, 'a token every 500 ms');
  });
});

test('the rate-limit settings', () => {
  const refused = (env: Record<string, string>, message: RegExp) =>
    assert.throws(
      () => loadConfig(env),
      (error: Error) => error instanceof ConfigError && message.test(error.message),
    );
  assert.equal(loadConfig({}).rateLimit, undefined, 'off by default');
  assert.deepEqual(
    loadConfig({ RATE_LIMIT_PER_MINUTE: '120' }).rateLimit,
    { perMinute: 120, burst: 120, redis: undefined },
    'the burst is a minute',
  );
  assert.deepEqual(
    loadConfig({ RATE_LIMIT_PER_MINUTE: '120', RATE_LIMIT_BURST: '10', REDIS_URL: 'redis://cache.internal:6379/2' })
      .rateLimit,
    {
      perMinute: 120,
      burst: 10,
      redis: { url: 'redis://cache.internal:6379/2', keyPrefix: 'lev-api:' },
    },
  );
  refused({ RATE_LIMIT_BURST: '10' }, /RATE_LIMIT_BURST is set without RATE_LIMIT_PER_MINUTE/);
  // Where the pages are not served (they keep their sessions in Redis in mock mode), REDIS_URL alone would go unused.
  refused(
    { AUTH_MODE: 'proxy', TRUSTED_PROXIES: '10.0.0.1', REDIS_URL: 'redis://127.0.0.1:6379' },
    /REDIS_URL is set without RATE_LIMIT_PER_MINUTE/,
  );
  assert.deepEqual(loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379' }).ui.redis, {
    url: 'redis://127.0.0.1:6379',
    keyPrefix: 'lev-api:',
  });
  refused({ RATE_LIMIT_PER_MINUTE: '60', REDIS_KEY_PREFIX: 'x:' }, /REDIS_KEY_PREFIX is set without REDIS_URL/);
  refused({ RATE_LIMIT_PER_MINUTE: '0' }, /RATE_LIMIT_PER_MINUTE="0"/);
  refused({ RATE_LIMIT_PER_MINUTE: '60', REDIS_URL: 'http://127.0.0.1:6379' }, /REDIS_URL=/);
  assert.equal(
    loadConfig({ DATABASE_URL: 'postgres://x/y' }, { serving: false }).rateLimit,
    undefined,
    'commands that serve nothing ignore it',
  );
});
