/**
 * CORS: off by default (no page of another origin may call the API, and OPTIONS is a 405 like any
 * other method); with CORS_ORIGINS, the listed origins' preflights are answered and their answers
 * readable, and no other origin gets a CORS header.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildApp } from '../../src/app.ts';
import { ConfigError } from '../../src/errors.ts';
import { CALLER, filledStore, suiteContext, testConfig } from '../helper.ts';

const context = suiteContext();
const store = filledStore(context, 'memory');
const LOOKUP = '/v1/registration/birth/123456789';
const preflight = (origin: string) => ({
  method: 'OPTIONS' as const,
  url: LOOKUP,
  headers: {
    origin,
    'access-control-request-method': 'GET',
    'access-control-request-headers': 'x-auth-username,x-auth-aud',
  },
});

describe('CORS off (the default)', () => {
  test('a preflight is 405 and an answer carries no CORS header', async (t) => {
    const app = await buildApp(testConfig(), { backend: await store, descriptions: (await store).descriptions });
    t.after(() => app.close());
    const refused = await app.inject(preflight('https://a.example'));
    assert.equal(refused.statusCode, 405);
    assert.equal(refused.headers['access-control-allow-origin'], undefined);
    const answered = await app.inject({ url: LOOKUP, headers: { ...CALLER, origin: 'https://a.example' } });
    assert.equal(answered.statusCode, 200);
    assert.equal(answered.headers['access-control-allow-origin'], undefined);
  });
});

describe('CORS_ORIGINS', () => {
  test(
    "the listed origins' preflights are answered and their answers readable; other origins get no CORS " + 'header',
    async (t) => {
      const app = await buildApp(testConfig({ CORS_ORIGINS: 'https://a.example,http://localhost:3000' }), {
        backend: await store,
        descriptions: (await store).descriptions,
      });
      t.after(() => app.close());
      for (const origin of ['https://a.example', 'http://localhost:3000']) {
        const allowed = await app.inject(preflight(origin));
        assert.equal(allowed.statusCode, 204, origin);
        assert.equal(allowed.headers['access-control-allow-origin'], origin);
        assert.equal(allowed.headers['access-control-allow-methods'], 'GET, HEAD');
        assert.match(String(allowed.headers['access-control-allow-headers']), /X-Auth-Username/);
        const answered = await app.inject({ url: LOOKUP, headers: { ...CALLER, origin } });
        assert.equal(answered.statusCode, 200);
        assert.equal(answered.headers['access-control-allow-origin'], origin);
        assert.match(String(answered.headers['access-control-expose-headers']), /x-results-truncated/);
      }
      const other = await app.inject(preflight('https://evil.example'));
      assert.equal(other.headers['access-control-allow-origin'], undefined);
      const otherAnswer = await app.inject({ url: LOOKUP, headers: { ...CALLER, origin: 'https://evil.example' } });
      assert.equal(otherAnswer.headers['access-control-allow-origin'], undefined);
      // Other methods stay 405.
      assert.equal(
        (await app.inject({ method: 'DELETE', url: LOOKUP, headers: { origin: 'https://a.example' } })).statusCode,
        405,
      );
    },
  );

  test('a wildcard or a URL with a path is refused at start', () => {
    for (const value of ['*', 'https://a.example/app', 'a.example', 'https://a.example,']) {
      assert.throws(() => testConfig({ CORS_ORIGINS: value }), ConfigError, value);
    }
  });
});
