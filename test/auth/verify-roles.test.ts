/**
 * The verify roles in every mode: `<type>-verify` allows verifying that type
 * and nothing else (its records stay 403, v1 and v0 alike); `<type>` allows
 * verifying too; without either, 403 before anything is read. In mock mode
 * any identified caller verifies. oidc uses tokens signed by a real issuer's
 * keys, proxy the identity headers from a trusted address.
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { buildApp } from '../../src/app.ts';
import type { Config } from '../../src/config/index.ts';
import { type TestStore, countingReads } from '../helper.ts';
import { filledStore, suiteContext, testConfig } from '../helper.ts';
import { AUDIENCE, type TestIssuer, startIssuer } from './issuer.ts';

const context = suiteContext();
let issuer: TestIssuer;
let store: TestStore;
let reads: () => number;
before(async () => {
  issuer = await startIssuer();
  context.after(() => issuer.close());
  const real = await filledStore(context, 'memory');
  ({ store, reads } = countingReads(real));
});

const VERIFY_BIRTH = '/v1/verification/birth?surname=Ashworth&forenames=Eleanor&dateOfBirth=2008-08-08';
const VERIFY_DEATH = '/v1/verification/death?surname=Thorne&forenames=Margery&dateOfDeath=2009-11-21';
const BIRTH_READS = [
  '/v1/registration/birth/123456789',
  '/v1/registration/birth?surname=Ashworth&forenames=Eleanor&dateOfBirth=2008-08-08',
  '/api/v0/events/birth/123456789',
  '/api/v0/events/birth?lastname=Ashworth&forenames=Eleanor&dateofbirth=2008-08-08',
];

type Headers = (roles: string[]) => Promise<Record<string, string>>;

function matrix(mode: string, config: () => Config, headersFor: Headers) {
  describe(`AUTH_MODE=${mode}`, () => {
    let app: Awaited<ReturnType<typeof buildApp>>;
    before(async () => {
      app = await buildApp(config(), { backend: store, descriptions: store.descriptions });
      context.after(() => app.close());
    });
    const get = async (url: string, roles: string[]) => {
      const response = await app.inject({ method: 'GET', url, headers: await headersFor(roles) });
      return { status: response.statusCode, body: response.body };
    };

    test('birth-verify: verifies births, 200; nothing else, 403', async () => {
      assert.deepEqual(await get(VERIFY_BIRTH, ['birth-verify']), { status: 200, body: '{"verified":true}' });
      assert.equal((await get(VERIFY_DEATH, ['birth-verify'])).status, 403);
      for (const url of BIRTH_READS) assert.equal((await get(url, ['birth-verify'])).status, 403, url);
    });

    test('birth: reads() births and verifies them', async () => {
      assert.deepEqual(await get(VERIFY_BIRTH, ['birth']), { status: 200, body: '{"verified":true}' });
      for (const url of BIRTH_READS) assert.equal((await get(url, ['birth'])).status, 200, url);
      assert.equal((await get(VERIFY_DEATH, ['birth'])).status, 403);
    });

    test('neither role: 403 before the query is read or the store searched', async () => {
      const before = reads();
      for (const roles of [[], ['death-verify'], ['full-details'], ['Birth-verify']]) {
        const answer = await get(VERIFY_BIRTH, roles);
        assert.equal(answer.status, 403, roles.join());
        assert.match(JSON.parse(answer.body).message, /'birth-verify'/);
        assert.equal((await get('/v1/verification/birth?surname=', roles)).status, 403, 'before validation');
      }
      assert.equal(reads(), before);
    });
  });
}

matrix(
  'oidc',
  () => testConfig({ AUTH_MODE: 'oidc', OIDC_ISSUER: issuer.url, OIDC_AUDIENCE: AUDIENCE }),
  async (roles) => ({ authorization: `Bearer ${await issuer.sign({ realm_access: { roles } })}` }),
);

// app.inject comes from 127.0.0.1, the trusted proxy.
matrix(
  'proxy',
  () => testConfig({ AUTH_MODE: 'proxy', TRUSTED_PROXIES: '127.0.0.1' }),
  async (roles) => ({
    'x-auth-username': 'jo.bloggs',
    'x-auth-aud': 'my-service',
    'x-auth-roles': roles.join(','),
  }),
);

// The mock with MOCK_ENFORCE_ROLES applies the same matrix to the headers' roles.
matrix(
  'mock with MOCK_ENFORCE_ROLES',
  () => testConfig({ MOCK_ENFORCE_ROLES: 'true' }),
  async (roles) => ({
    'x-auth-username': 'jo.bloggs',
    'x-auth-aud': 'my-service',
    'x-auth-roles': roles.join(','),
  }),
);

describe('AUTH_MODE=mock', () => {
  test('any identified caller verifies, whatever its roles; an unidentified one is 401', async (t) => {
    const app = await buildApp(testConfig(), { backend: store, descriptions: store.descriptions });
    t.after(() => app.close());
    const caller = { 'x-auth-username': 'someone', 'x-auth-aud': 'some-client' };
    for (const roles of ['', 'death-verify', 'nothing']) {
      const response = await app.inject({ url: VERIFY_BIRTH, headers: { ...caller, 'x-auth-roles': roles } });
      assert.equal(response.body, '{"verified":true}', roles);
    }
    assert.equal((await app.inject({ url: VERIFY_BIRTH })).statusCode, 401);
  });
});
