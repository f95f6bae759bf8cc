/**
 * AUTH_MODE=proxy: the identity headers count only on connections from
 * TRUSTED_PROXIES. Linux routes all of 127.0.0.0/8 to loopback, so requests
 * made from 127.0.0.2 come from another address than those from 127.0.0.1.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import { before, describe, test } from 'node:test';
import { isTrusted, trustedList } from '../../src/auth/proxy.ts';
import { type TestStore, countingReads } from '../helper.ts';
import { type RunningApp, filledStore, startApp, suiteContext, testConfig } from '../helper.ts';

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: any;
}

/** GET from a given local address (the peer address the app sees). */
function getFrom(localAddress: string, url: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { localAddress, headers, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString();
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {
          body = text;
        }
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body });
      });
    });
    request.on('error', reject);
    request.end();
  });
}

const BIRTH = '/v1/registration/birth/123456789';
const PROXIED = {
  'x-auth-username': 'jo.bloggs',
  'x-auth-aud': 'lev-api,my-service',
  'x-auth-roles': 'birth',
  'x-auth-groups': '/team',
};

const context = suiteContext();
let store: TestStore;
let reads: () => number;
before(async () => {
  const real = await filledStore(context, 'memory');
  ({ store, reads } = countingReads(real));
});

describe('TRUSTED_PROXIES=127.0.0.1', () => {
  let app: RunningApp;
  before(async () => {
    app = await startApp(context, store, testConfig({ AUTH_MODE: 'proxy', TRUSTED_PROXIES: '127.0.0.1' }));
  });

  test('the identity headers from the trusted proxy are believed: 200', async () => {
    const response = await getFrom('127.0.0.1', app.url + BIRTH, PROXIED);
    assert.equal(response.status, 200);
    assert.equal(response.body.id, 123456789);
  });

  test('the same headers from an untrusted address are 401, and nothing is read', async () => {
    const before = reads();
    for (const headers of [PROXIED, { ...PROXIED, 'x-forwarded-for': '127.0.0.1', forwarded: 'for=127.0.0.1' }]) {
      const response = await getFrom('127.0.0.2', app.url + BIRTH, headers);
      assert.equal(response.status, 401);
      assert.deepEqual(response.body, {
        code: 'Unauthorized',
        message: 'Call the service through its authenticating proxy',
      });
      assert.equal(response.headers['www-authenticate'], 'Bearer realm="lev-api"');
    }
    assert.equal(
      (
        await getFrom(
          '127.0.0.2',
          `${app.url}/v1/registration/birth?surname=Ashworth&forenames=Eleanor&dateOfBirth=2008-08-08`,
          PROXIED,
        )
      ).status,
      401,
    );
    assert.equal(reads(), before);
    assert.equal((await getFrom('127.0.0.2', `${app.url}/healthz`)).status, 200, 'routes without a dataset are open');
  });

  test('from the proxy: no headers is 401; no dataset role is 403, before anything is read', async () => {
    const missing = await getFrom('127.0.0.1', app.url + BIRTH, { 'x-auth-username': 'jo' });
    assert.equal(missing.status, 401);
    assert.equal(missing.body.code, 'Unauthorized');
    const before = reads();
    const forbidden = await getFrom('127.0.0.1', `${app.url}/v1/registration/death/123456789`, PROXIED);
    assert.equal(forbidden.status, 403);
    assert.deepEqual(forbidden.body, { code: 'Forbidden', message: "The death records need the 'death' role" });
    assert.equal(reads(), before);
  });

  test('full-details and audit work as in mock mode', async () => {
    const full = await getFrom('127.0.0.1', app.url + BIRTH, { ...PROXIED, 'x-auth-roles': 'birth,full-details' });
    assert.notEqual(full.body.registrar.signature, null);
    const report = await getFrom('127.0.0.1', `${app.url}/api/v0/audit/user-activity?user=jo.bloggs`, {
      ...PROXIED,
      'x-auth-roles': 'audit',
    });
    assert.equal(report.status, 200);
    assert.deepEqual(Object.keys(report.body), ['jo.bloggs']);
  });
});

test('TRUSTED_PROXIES with a CIDR range: 127.0.0.2 is in 127.0.0.0/30, 127.0.0.5 is not', async (t) => {
  const app = await startApp(t, store, testConfig({ AUTH_MODE: 'proxy', TRUSTED_PROXIES: '10.1.2.3, 127.0.0.0/30' }));
  assert.equal((await getFrom('127.0.0.2', app.url + BIRTH, PROXIED)).status, 200);
  assert.equal((await getFrom('127.0.0.5', app.url + BIRTH, PROXIED)).status, 401);
});

test('mock mode is unchanged: headers from anywhere, datasets open without roles', async (t) => {
  const app = await startApp(t, store, testConfig());
  const headers = { 'x-auth-username': 'jo', 'x-auth-aud': 'svc' };
  assert.equal((await getFrom('127.0.0.2', app.url + BIRTH, headers)).status, 200);
  const missing = await getFrom('127.0.0.2', app.url + BIRTH);
  assert.equal(missing.status, 401);
  assert.deepEqual(missing.body, {
    code: 'Unauthorized',
    message: 'Caller identity is missing: a username and a client are required',
  });
});

test('trusted addresses: IPv4, IPv6, ranges, and IPv4 seen through an IPv6 socket', () => {
  const list = trustedList(['127.0.0.1', '10.0.0.0/8', 'fd00::/8', '::1']);
  const cases: Array<[string | undefined, boolean]> = [
    ['127.0.0.1', true],
    ['::ffff:127.0.0.1', true],
    ['127.0.0.2', false],
    ['10.200.0.1', true],
    ['::ffff:10.200.0.1', true],
    ['11.0.0.1', false],
    ['::1', true],
    ['fd12:3456::1', true],
    ['fe80::1', false],
    [undefined, false],
    ['', false],
    ['not-an-address', false],
  ];
  for (const [address, trusted] of cases) assert.equal(isTrusted(list, address), trusted, String(address));
});
