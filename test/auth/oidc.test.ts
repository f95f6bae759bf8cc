/**
 * AUTH_MODE=oidc against a real OpenID provider on loopback (oidc-provider):
 * tokens from its token endpoint are accepted, every kind of bad token is a
 * 401 that says only `invalid_token`, a missing dataset role is a 403 before
 * anything is read, keys are refetched on rotation but at most once per
 * cooldown, and an unreachable issuer is a 503.
 */
import assert from 'node:assert/strict';
import { createPublicKey } from 'node:crypto';
import { createServer } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { SignJWT, base64url } from 'jose';
import { type TestStore, countingReads } from '../helper.ts';
import { type RunningApp, filledStore, startApp, suiteContext, testConfig } from '../helper.ts';
import { AUDIENCE, type TestIssuer, newKey, startIssuer } from './issuer.ts';

const context = suiteContext();
let issuer: TestIssuer;
let store: TestStore;
/** Reads of the store (lookups and searches) since the start. */
let reads: () => number;

before(async () => {
  issuer = await startIssuer();
  context.after(() => issuer.close());
  const real = await filledStore(context, 'memory');
  ({ store, reads } = countingReads(real));
});

const oidcConfig = (env: Record<string, string> = {}) =>
  testConfig({ AUTH_MODE: 'oidc', OIDC_ISSUER: issuer.url, OIDC_AUDIENCE: AUDIENCE, ...env });

/** A fresh app (so a fresh key cache) in oidc mode. */
const oidcApp = (t: Parameters<typeof startApp>[0], env?: Record<string, string>) =>
  startApp(t, store, oidcConfig(env));

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const BIRTH = '/v1/registration/birth/123456789';
const BIRTH_SEARCH = '/v1/registration/birth?surname=Ashworth&forenames=Eleanor&dateOfBirth=2008-08-08';
const INVALID_TOKEN = 'Bearer realm="lev-api", error="invalid_token"';

/** The answer to a bad token: 401, invalid_token, and the same message whatever was wrong. */
async function assertInvalidToken(app: RunningApp, token: string, why: string) {
  const readsBefore = reads();
  const response = await app.get(BIRTH, bearer(token));
  assert.equal(response.status, 401, `${why}: status`);
  assert.equal(response.headers.get('www-authenticate'), INVALID_TOKEN, `${why}: challenge`);
  assert.deepEqual(response.body, { code: 'Unauthorized', message: 'The access token is invalid or has expired' }, why);
  assert.equal(reads(), readsBefore, `${why}: nothing read`);
}

describe('tokens from the issuer', () => {
  let app: RunningApp;
  before(async () => {
    app = await oidcApp(context);
  });

  test('a client_credentials token from the token endpoint reads() the datasets its roles name', async () => {
    const token = await issuer.token('verifier');
    const lookup = await app.get(BIRTH, bearer(token));
    assert.equal(lookup.status, 200);
    assert.equal(lookup.body.id, 123456789);
    assert.equal(lookup.body.registrar.signature, null, 'no full-details role: restricted fields are null');
    const search = await app.get(BIRTH_SEARCH, bearer(token));
    assert.equal(search.status, 200);
    assert.deepEqual(
      search.body.map((record: { id: number }) => record.id),
      [123456789],
    );
    assert.equal((await app.get('/v1/registration/death/123456789', bearer(token))).status, 200);
  });

  test("roles of the audience's client (resource_access) count, and full-details widens the fields", async () => {
    const token = await issuer.token('marriages');
    const marriage = await app.get('/v1/registration/marriage/123456789', bearer(token));
    assert.equal(marriage.status, 200);
    assert.notEqual(marriage.body.entryNumber, null, 'full-details shows restricted fields');
    assert.equal((await app.get(BIRTH, bearer(token))).status, 403, 'no birth role');
  });

  test('a missing dataset role is 403 Forbidden, and nothing is read', async () => {
    const token = await issuer.token('nobody');
    const before = reads();
    for (const path of [
      BIRTH,
      BIRTH_SEARCH,
      '/v1/registration/partnership/123456789',
      '/api/v0/events/birth/123456789',
    ]) {
      const response = await app.get(path, bearer(token));
      assert.equal(response.status, 403, path);
      assert.equal(response.body.code, 'Forbidden');
      assert.match(response.body.message, /'(birth|partnership)' role/);
    }
    // Even an invalid query: the role is checked before the parameters are.
    assert.equal((await app.get('/v1/registration/birth?surname=', bearer(token))).status, 403);
    assert.equal(reads(), before);
  });

  test('the identity comes from the claims: the audit report shows the service account', async () => {
    const token = await issuer.token('verifier');
    assert.equal((await app.get(BIRTH, bearer(token))).status, 200);
    const report = await app.get(
      '/api/v0/audit/user-activity?user=service-account-verifier',
      bearer(await issuer.token('auditor')),
    );
    assert.equal(report.status, 200);
    assert.deepEqual(Object.keys(report.body), ['service-account-verifier']);
    assert.equal((await app.get('/api/v0/audit/user-activity', bearer(token))).status, 403, 'audit needs its role');
  });

  test(
    'a token made here with the same claims and key is ' + 'accepted (the checks below differ from it in one thing)',
    async () => {
      assert.equal((await app.get(BIRTH, bearer(await issuer.sign()))).status, 200);
    },
  );

  test('a wrong client secret gets no token', async () => {
    await assert.rejects(issuer.token('verifier', 'wrong'), /401/);
  });
});

describe('every bad token is 401 invalid_token', () => {
  let app: RunningApp;
  before(async () => {
    app = await oidcApp(context);
    assert.equal((await app.get(BIRTH, bearer(await issuer.sign()))).status, 200, 'keys fetched');
  });
  const now = () => Math.floor(Date.now() / 1000);

  test('expired (beyond the 30 s clock tolerance); within it, accepted', async () => {
    await assertInvalidToken(app, await issuer.sign({ iat: now() - 600, exp: now() - 31 }), 'expired');
    assert.equal(
      (await app.get(BIRTH, bearer(await issuer.sign({ iat: now() - 600, exp: now() - 20 })))).status,
      200,
      'skew tolerated',
    );
  });

  test('not yet valid (nbf), and issued in the future (iat)', async () => {
    await assertInvalidToken(app, await issuer.sign({ nbf: now() + 120 }), 'nbf in the future');
    await assertInvalidToken(app, await issuer.sign({ iat: now() + 120, exp: now() + 600 }), 'iat in the future');
    assert.equal((await app.get(BIRTH, bearer(await issuer.sign({ nbf: now() + 20 })))).status, 200, 'skew tolerated');
  });

  test('without exp or iat', async () => {
    await assertInvalidToken(app, await issuer.sign({ exp: undefined }), 'no exp');
    await assertInvalidToken(app, await issuer.sign({ iat: undefined }), 'no iat');
  });

  test('living longer than OIDC_MAX_TOKEN_LIFETIME_S (24 h by default) past iat, up to an absurd exp', async () => {
    await assertInvalidToken(app, await issuer.sign({ exp: 1e300 }), 'exp 1e300');
    await assertInvalidToken(app, await issuer.sign({ exp: now() + 86_401 }), 'a second over a day');
    await assertInvalidToken(app, await issuer.sign({ iat: now() - 60, exp: now() + 86_400 }), 'a day and a minute');
    assert.equal(
      (await app.get(BIRTH, bearer(await issuer.sign({ exp: now() + 86_400 })))).status,
      200,
      'a day exactly',
    );
  });

  test(
    "a shorter OIDC_MAX_TOKEN_LIFETIME_S refuses what the default allows; the issuer's own 5-minute " + 'tokens pass',
    async (t) => {
      const strict = await oidcApp(t, { OIDC_MAX_TOKEN_LIFETIME_S: '600' });
      await assertInvalidToken(strict, await issuer.sign({ exp: now() + 601 }), 'over ten minutes');
      assert.equal(
        (await strict.get(BIRTH, bearer(await issuer.sign({ exp: now() + 600 })))).status,
        200,
        'ten minutes',
      );
      assert.equal((await strict.get(BIRTH, bearer(await issuer.token('verifier')))).status, 200, "the issuer's token");
    },
  );

  test(
    'a typ header naming anything but an access token ' + '(at+jwt, application/at+jwt, JWT); none at all is accepted',
    async () => {
      for (const typ of ['JOSE', 'id_token+jwt', 'logout+jwt', 'dpop+jwt', 'secevent+jwt', '', 42]) {
        await assertInvalidToken(app, await issuer.sign({}, { header: { typ } }), `typ ${JSON.stringify(typ)}`);
      }
      for (const typ of ['at+jwt', 'AT+JWT', 'application/at+jwt', 'JWT', 'jwt', undefined]) {
        const response = await app.get(BIRTH, bearer(await issuer.sign({}, { header: { typ } })));
        assert.equal(response.status, 200, `typ ${JSON.stringify(typ)}`);
      }
    },
  );

  test('wrong issuer, or none', async () => {
    await assertInvalidToken(app, await issuer.sign({ iss: 'http://127.0.0.1:1' }), 'wrong issuer');
    await assertInvalidToken(app, await issuer.sign({ iss: `${issuer.url}/` }), 'issuer with a trailing slash');
    await assertInvalidToken(app, await issuer.sign({ iss: undefined }), 'no issuer');
  });

  test('wrong audience, or none; an audience list that holds ours is accepted', async () => {
    await assertInvalidToken(app, await issuer.sign({ aud: 'account' }), 'wrong audience');
    await assertInvalidToken(app, await issuer.sign({ aud: undefined }), 'no audience');
    await assertInvalidToken(app, await issuer.sign({ aud: ['account', 'lev-api-x'] }), 'list without ours');
    assert.equal((await app.get(BIRTH, bearer(await issuer.sign({ aud: ['account', AUDIENCE] })))).status, 200);
  });

  test("bad signature: a key the issuer does not publish, under a published key's kid; a changed payload", async () => {
    const impostor = await newKey(issuer.signingKey.kid);
    await assertInvalidToken(app, await issuer.sign({}, { key: impostor }), 'signed by another key');
    const [header, , signature] = (await issuer.sign()).split('.');
    const payload = base64url.encode(
      JSON.stringify({
        ...JSON.parse(new TextDecoder().decode(base64url.decode((await issuer.sign()).split('.')[1]))),
        realm_access: { roles: ['birth', 'full-details'] },
      }),
    );
    await assertInvalidToken(app, `${header}.${payload}.${signature}`, 'payload changed after signing');
    await assertInvalidToken(app, `${header}.${payload}.`, 'signature removed');
  });

  test('alg none (an unsecured JWT)', async () => {
    const [, payload] = (await issuer.sign()).split('.');
    const header = base64url.encode(JSON.stringify({ alg: 'none', typ: 'JWT', kid: issuer.signingKey.kid }));
    await assertInvalidToken(app, `${header}.${payload}.`, 'alg none');
    await assertInvalidToken(app, `${base64url.encode(JSON.stringify({ alg: 'NONE' }))}.${payload}.`, 'alg NONE');
  });

  test('HS256 with the public key as the shared secret (algorithm confusion)', async () => {
    const claims = {
      iss: issuer.url,
      aud: AUDIENCE,
      azp: 'verifier',
      preferred_username: 'mallory',
      realm_access: { roles: ['birth'] },
    };
    const { publicJwk } = issuer.signingKey;
    const pem = createPublicKey({ key: publicJwk as import('node:crypto').JsonWebKey, format: 'jwk' }).export({
      type: 'spki',
      format: 'pem',
    }) as string;
    for (const secret of [pem, JSON.stringify(publicJwk), publicJwk.n as string]) {
      const token = await new SignJWT(claims)
        .setProtectedHeader({ alg: 'HS256', kid: issuer.signingKey.kid })
        .setIssuedAt()
        .setExpirationTime('5m')
        .sign(new TextEncoder().encode(secret));
      await assertInvalidToken(app, token, 'HS256');
    }
  });

  test('not a JWT at all, or a token without the claims an identity needs', async () => {
    await assertInvalidToken(app, 'abc.def.ghi', 'garbage');
    await assertInvalidToken(app, 'opaque-token', 'not three parts');
    await assertInvalidToken(app, await issuer.sign({ preferred_username: undefined, sub: undefined }), 'no username');
    await assertInvalidToken(app, await issuer.sign({ azp: undefined }), 'no client');
    const response = await app.get(BIRTH, bearer(await issuer.sign({ preferred_username: undefined, sub: 'svc-sub' })));
    assert.equal(response.status, 200, 'sub stands in for preferred_username');
  });

  test(
    'no Authorization header, another scheme: the bare challenge (RFC 6750 3.1); a malformed Bearer ' +
      'header: invalid_request',
    async () => {
      for (const headers of [
        {},
        { authorization: 'Basic dXNlcjpwYXNz' },
        { 'x-auth-username': 'jo', 'x-auth-aud': 'svc', 'x-auth-roles': 'birth' },
      ]) {
        const response = await app.get(BIRTH, headers);
        assert.equal(response.status, 401);
        assert.equal(response.headers.get('www-authenticate'), 'Bearer realm="lev-api"');
        assert.equal(response.body.code, 'Unauthorized');
      }
      for (const authorization of ['Bearer', 'Bearer ', 'Bearer a b', 'Bearer a,b', 'Bearer\ta']) {
        const response = await app.get(BIRTH, { authorization });
        assert.equal(response.status, 401, authorization);
        assert.equal(
          response.headers.get('www-authenticate'),
          'Bearer realm="lev-api", error="invalid_request"',
          authorization,
        );
      }
      assert.equal(
        (await app.get(BIRTH, { authorization: `bearer ${await issuer.sign()}` })).status,
        200,
        'the scheme is case-insensitive',
      );
    },
  );

  test('routes without a dataset need no token', async () => {
    for (const path of ['/healthz', '/readiness', '/openapi.json'])
      assert.equal((await app.get(path, {})).status, 200, path);
  });
});

describe('keys', () => {
  test(
    'discovery is lazy: building the app and answering ' + 'routes without a dataset asks the issuer nothing',
    async (t) => {
      const before = issuer.requests.get('/.well-known/openid-configuration') ?? 0;
      const app = await oidcApp(t);
      await app.get('/healthz', {});
      await app.get(BIRTH, { authorization: 'Bearer not-a-jwt' });
      const [, payload] = (await issuer.sign()).split('.');
      await app.get(BIRTH, bearer(`${base64url.encode('{"alg":"HS256"}')}.${payload}.c2ln`));
      assert.equal(issuer.requests.get('/.well-known/openid-configuration') ?? 0, before);
      assert.equal((await app.get(BIRTH, bearer(await issuer.sign()))).status, 200);
      assert.equal(issuer.requests.get('/.well-known/openid-configuration'), before + 1);
    },
  );

  test(
    'an unknown kid refetches the keys; once the issuer ' + 'rotates, a token with the new kid is accepted',
    async (t) => {
      const app = await oidcApp(t, { OIDC_JWKS_COOLDOWN_S: '0' });
      assert.equal((await app.get(BIRTH, bearer(await issuer.token('verifier')))).status, 200);
      const fetched = issuer.requests.get('/jwks') ?? 0;
      const next = await newKey('not-yet-published');
      await assertInvalidToken(app, await issuer.sign({}, { key: next }), 'unknown kid');
      assert.equal(issuer.requests.get('/jwks'), fetched + 1, 'the keys were fetched again for the unknown kid');

      const rotated = await issuer.rotate();
      const token = await issuer.token('verifier');
      assert.equal(
        JSON.parse(new TextDecoder().decode(base64url.decode(token.split('.')[0]))).kid,
        rotated.kid,
        'the issuer signs with the new key',
      );
      assert.equal((await app.get(BIRTH, bearer(token))).status, 200, 'accepted after the refetch');
      assert.equal(issuer.requests.get('/jwks'), fetched + 2);
      assert.equal((await app.get(BIRTH, bearer(token))).status, 200);
      assert.equal(issuer.requests.get('/jwks'), fetched + 2, 'then served from the cache');
    },
  );

  test('a flood of unknown kids fetches the keys at most once per cooldown', async (t) => {
    const app = await oidcApp(t, { OIDC_JWKS_COOLDOWN_S: '2' });
    // Keys and tokens made before the cooldown starts: on a busy machine making them took most of it.
    const strangers = await Promise.all(Array.from({ length: 5 }, (_, i) => newKey(`stranger-${i}`)));
    const tokens = await Promise.all(
      Array.from({ length: 40 }, (_, i) => issuer.sign({}, { key: strangers[i % strangers.length] })),
    );
    const known = await issuer.sign();
    const started = Date.now();
    assert.equal((await app.get(BIRTH, bearer(known))).status, 200);
    const fetched = issuer.requests.get('/jwks') ?? 0;
    const statuses = await Promise.all(tokens.map(async (token) => (await app.get(BIRTH, bearer(token))).status));
    assert.ok(Date.now() - started < 2000, 'the flood came within the cooldown');
    assert.deepEqual(new Set(statuses), new Set([401]));
    assert.equal(issuer.requests.get('/jwks'), fetched, 'no fetch during the cooldown');
    await new Promise((resolve) => setTimeout(resolve, 2000 - (Date.now() - started) + 100));
    await assertInvalidToken(app, tokens[0], 'unknown kid after the cooldown');
    assert.equal(issuer.requests.get('/jwks'), fetched + 1, 'one fetch once the cooldown has passed');
  });
});

describe('an unreachable issuer', () => {
  after(() => {
    issuer.down = false;
  });

  test('is 503 until it answers; a malformed token is still 401', async (t) => {
    const app = await oidcApp(t);
    const token = await issuer.sign();
    issuer.down = true;
    for (let i = 0; i < 2; i++) {
      const response = await app.get(BIRTH, bearer(token));
      assert.equal(response.status, 503);
      assert.equal(response.body.code, 'ServiceUnavailable');
    }
    assert.equal((await app.get(BIRTH, { authorization: 'Bearer x' })).status, 401, 'checked without the issuer');
    issuer.down = false;
    assert.equal((await app.get(BIRTH, bearer(token))).status, 200, 'discovery retried');
    issuer.down = true;
    assert.equal((await app.get(BIRTH, bearer(await issuer.sign()))).status, 200, 'cached keys outlive the issuer');
    issuer.down = false;
  });

  test('nothing listening is 503', async (t) => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as { port: number }).port;
    await new Promise((resolve) => closed.close(resolve));
    const app = await startApp(
      t,
      store,
      testConfig({ AUTH_MODE: 'oidc', OIDC_ISSUER: `http://127.0.0.1:${port}`, OIDC_AUDIENCE: AUDIENCE }),
    );
    const response = await app.get(BIRTH, bearer(await issuer.sign({ iss: `http://127.0.0.1:${port}` })));
    assert.equal(response.status, 503);
    assert.match(response.body.message, /issuer cannot be reached/);
  });

  test('a discovery document naming another issuer is refused (503), not trusted', async (t) => {
    const alias = issuer.url.replace('127.0.0.1', 'localhost');
    const app = await startApp(
      t,
      store,
      testConfig({ AUTH_MODE: 'oidc', OIDC_ISSUER: alias, OIDC_AUDIENCE: AUDIENCE }),
    );
    assert.equal((await app.get(BIRTH, bearer(await issuer.sign({ iss: alias })))).status, 503);
  });
});

test(
  'claim names can be configured (here: roles from ' + 'a namespaced top-level claim, username from email)',
  async (t) => {
    const app = await oidcApp(t, {
      OIDC_ROLES_CLAIM: 'https://lev.example/roles',
      OIDC_USERNAME_CLAIM: 'email',
      OIDC_CLIENT_CLAIM: 'client_id',
    });
    const token = await issuer.sign({
      'https://lev.example/roles': ['birth'],
      email: 'jo@example.gov.uk',
      client_id: 'svc',
      realm_access: undefined,
    });
    assert.equal((await app.get(BIRTH, bearer(token))).status, 200);
    assert.equal((await app.get(BIRTH, bearer(await issuer.sign()))).status, 401, 'no email claim, no username');
  },
);
