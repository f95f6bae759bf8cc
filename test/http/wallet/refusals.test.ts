/**
 * What a wallet gets wrong, over real HTTP on both stores: each mistake gets the error OpenID4VCI
 * (or OAuth) names for it, nothing is issued, and nothing is half-stored: the offer is still
 * unredeemed and the trail holds no credential, so the wallet's next correct request succeeds.
 */
import assert from 'node:assert/strict';
import { createHmac, generateKeyPairSync } from 'node:crypto';
import { test } from 'node:test';
import { issuerKeys, newIssuerKey } from '../../../src/credentials/keys.ts';
import { accessToken } from '../../../src/credentials/openid4vci/tokens.ts';
import { CALLER, type RunningApp, filledStore, startApp, storeKinds, testConfig, trailEntries } from '../../helper.ts';
import { newWallet } from './wallet.ts';

type Json = Record<string, any>;
const ROLES = { ...CALLER, 'x-auth-roles': 'credentials,birth', 'content-type': 'application/json' };
const GRANT = 'urn:ietf:params:oauth:grant-type:pre-authorized_code';
const b64 = (json: unknown) => Buffer.from(JSON.stringify(json)).toString('base64url');

async function post(app: RunningApp, path: string, body: unknown, headers: Record<string, string> = {}) {
  const form = headers['content-type'] === 'application/x-www-form-urlencoded';
  const response = await fetch(app.url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: form ? new URLSearchParams(body as Record<string, string>).toString() : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}

async function offer(app: RunningApp, body: Json = { format: 'dc+sd-jwt' }, id = 123456789) {
  const answer = await post(app, `/v1/credentials/birth/${id}/offer`, body, ROLES);
  assert.equal(answer.status, 201, JSON.stringify(answer.body));
  const credentialOffer = JSON.parse(decodeURIComponent(answer.body.offer.split('credential_offer=')[1]));
  const code: string = credentialOffer.grants[GRANT]['pre-authorized_code'];
  const offerId: string = JSON.parse(Buffer.from(code.split('.')[1], 'base64url').toString()).credential_identifiers[0];
  return { code, offerId, txCode: answer.body.txCode as string | undefined };
}

const token = (app: RunningApp, code: string, txCode?: string) =>
  post(
    app,
    '/v1/wallet/token',
    { grant_type: GRANT, 'pre-authorized_code': code, ...(txCode ? { tx_code: txCode } : {}) },
    { 'content-type': 'application/x-www-form-urlencoded' },
  );

const SIGNING_KEY = newIssuerKey();
const config = () =>
  testConfig({
    MOCK_ENFORCE_ROLES: 'true',
    CREDENTIAL_SIGNING_KEY: SIGNING_KEY.export({ format: 'der', type: 'pkcs8' }).toString('base64'),
  });

for (const kind of await storeKinds()) {
  test(
    `${kind}: bad tokens, bad proofs, unknown configurations ` + `and guessed codes are refused, and nothing is issued`,
    async (t) => {
      const store = await filledStore(t, kind);
      const app = await startApp(t, store, config());
      const wallet = newWallet();
      const { code, offerId } = await offer(app, { format: 'dc+sd-jwt', walletSubjectId: 'urn:fdc:wallet:alice' });
      const granted = await token(app, code);
      assert.equal(granted.status, 200, JSON.stringify(granted.body));
      const access: string = granted.body.access_token;
      assert.equal((await token(app, code)).body.error, 'invalid_grant', 'a code is exchanged once');

      const nonce = async () => (await post(app, '/v1/wallet/nonce', {})).body.c_nonce as string;
      const now = () => Math.floor(Date.now() / 1000);
      const proof = async (header: Json = {}, payload: Json = {}) =>
        wallet.signJwt(
          { typ: 'openid4vci-proof+jwt', alg: 'ES256', jwk: wallet.publicJwk, ...header },
          { aud: app.url, iat: now(), nonce: await nonce(), ...payload },
        );
      const credential = (body: Json, bearer = access) =>
        post(app, '/v1/wallet/credential', body, { authorization: `Bearer ${bearer}` });
      const refused = async (body: Json, status: number, error: string, bearer = access) => {
        const answer = await credential(body, bearer);
        assert.equal(answer.status, status, `${error}: ${JSON.stringify(answer.body)}`);
        assert.equal(answer.body.error, error, JSON.stringify(answer.body));
        assert.equal(answer.body.code, error);
        if (status === 401) assert.match(answer.headers.get('www-authenticate') ?? '', /^Bearer error="invalid_token"/);
      };

      // Proofs.
      await refused({ proofs: { jwt: [await proof({ typ: 'JWT' })] } }, 400, 'invalid_proof');
      await refused({ proofs: { jwt: [await proof({}, { aud: 'https://elsewhere.example' })] } }, 400, 'invalid_proof');
      await refused({ proofs: { jwt: [await proof({}, { iat: now() - 3600 })] } }, 400, 'invalid_proof');
      await refused({ proofs: { jwt: [await proof({}, { nonce: 'not-a-nonce-we-gave' })] } }, 400, 'invalid_nonce');
      await refused({ proofs: { jwt: [await proof({}, { nonce: undefined })] } }, 400, 'invalid_nonce');
      const unsigned =
        `${b64({ typ: 'openid4vci-proof+jwt', alg: 'none', jwk: wallet.publicJwk })}.` +
        `${b64({ aud: app.url, iat: now(), nonce: await nonce() })}.`;
      await refused({ proofs: { jwt: [unsigned] } }, 400, 'invalid_proof');
      const hmacInput =
        `${b64({ typ: 'openid4vci-proof+jwt', alg: 'HS256', jwk: wallet.publicJwk })}.` +
        `${b64({ aud: app.url, iat: now(), nonce: await nonce() })}`;
      const hmac = `${hmacInput}.${createHmac('sha256', 'secret').update(hmacInput).digest('base64url')}`;
      await refused({ proofs: { jwt: [hmac] } }, 400, 'invalid_proof');
      const privateJwk = wallet.privateKey.export({ format: 'jwk' });
      await refused({ proofs: { jwt: [await proof({ jwk: privateJwk })] } }, 400, 'invalid_proof');
      const stranger = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ format: 'jwk' });
      await refused({ proofs: { jwt: [await proof({ jwk: stranger })] } }, 400, 'invalid_proof');
      await refused({}, 400, 'invalid_proof');
      // The request itself.
      await refused(
        { credential_configuration_id: 'no_such_configuration', proofs: { jwt: [await proof()] } },
        400,
        'unknown_credential_configuration',
      );
      await refused(
        { credential_configuration_id: 'death_sd_jwt', proofs: { jwt: [await proof()] } },
        400,
        'invalid_credential_request',
      );
      await refused(
        { proof: { proof_type: 'jwt', jwt: await proof() }, proofs: { jwt: [await proof()] } },
        400,
        'invalid_credential_request',
      );
      const unreadable = await fetch(`${app.url}/v1/wallet/credential`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${access}` },
        body: '{"proofs":',
      });
      assert.equal(unreadable.status, 400);
      assert.equal(((await unreadable.json()) as Json).error, 'invalid_credential_request', 'a body that is not JSON');
      // Tokens: none, garbage, signed by another key, expired, for another subject.
      await refused({ proofs: { jwt: [await proof()] } }, 401, 'invalid_token', '');
      await refused({ proofs: { jwt: [await proof()] } }, 401, 'invalid_token', 'not.a.token');
      const claims = { issuer: app.url, offerId, subject: 'urn:fdc:wallet:alice', clientId: 'lev-api', cNonce: 'n' };
      const otherKeys = await issuerKeys([newIssuerKey()]);
      await refused(
        { proofs: { jwt: [await proof()] } },
        401,
        'invalid_token',
        accessToken(otherKeys, { ...claims, now: Date.now() }),
      );
      const ownKeys = await issuerKeys([SIGNING_KEY]);
      await refused(
        { proofs: { jwt: [await proof()] } },
        401,
        'invalid_token',
        accessToken(ownKeys, { ...claims, now: Date.now() - 3_600_000 }),
      );
      await refused(
        { proofs: { jwt: [await proof()] } },
        401,
        'invalid_token',
        accessToken(ownKeys, { ...claims, subject: 'urn:fdc:wallet:bob', now: Date.now() }),
      );

      // Nothing issued, nothing half-stored: the offer stands unredeemed, the trail has no credential from the wallet.
      const before = await store.wallet.offer(offerId);
      assert.equal(before?.notificationId, undefined);
      assert.equal((await trailEntries(store)).filter((entry) => entry.path === '/v1/wallet/credential').length, 0);
      // So the right request still succeeds, once.
      const issued = await credential({ proofs: { jwt: [await proof()] } });
      assert.equal(issued.status, 200, JSON.stringify(issued.body));
      assert.equal(issued.body.credentials.length, 1);
      await refused({ proofs: { jwt: [await proof()] } }, 401, 'invalid_token');
      assert.equal((await trailEntries(store)).filter((entry) => entry.path === '/v1/wallet/credential').length, 1);

      // Notifications: a missing id or unknown event is a 400, a bad token a 401, a right one a 204.
      const notify = (body: Json, bearer = access) =>
        post(app, '/v1/wallet/notification', body, { authorization: `Bearer ${bearer}` });
      assert.equal((await notify({ event: 'credential_accepted' })).body.error, 'invalid_notification_request');
      assert.equal(
        (await notify({ notification_id: issued.body.notification_id, event: 'credential_kept' })).status,
        400,
      );
      assert.equal(
        (await notify({ notification_id: 'another', event: 'credential_deleted' })).body.error,
        'invalid_notification_id',
      );
      assert.equal(
        (await notify({ notification_id: issued.body.notification_id, event: 'credential_deleted' }, 'bad')).status,
        401,
      );
      assert.equal(
        (await notify({ notification_id: issued.body.notification_id, event: 'credential_failure' })).status,
        204,
      );
      assert.deepEqual(
        (await store.wallet.offer(offerId))?.notifications.map((n) => n.event),
        ['credential_failure'],
      );

      // 1,000 guesses of a transaction code: the offer dies at the cap, and then even the right code is refused.
      const guessed = await offer(app, { format: 'dc+sd-jwt', txCode: true });
      const wrong = guessed.txCode === '000000' ? '000001' : '000000';
      assert.equal((await token(app, guessed.code)).body.error, 'invalid_request', 'the code is required');
      for (let round = 0; round < 20; round++) {
        const answers = await Promise.all(Array.from({ length: 50 }, () => token(app, guessed.code, wrong)));
        for (const answer of answers) assert.equal(answer.body.error, 'invalid_grant');
      }
      const right = await token(app, guessed.code, guessed.txCode);
      assert.equal(right.status, 400);
      assert.equal(right.body.error, 'invalid_grant');
      const dead = await store.wallet.offer(guessed.offerId);
      assert.equal(dead?.dead, true);
      assert.ok(
        (dead?.txCodeFailures ?? 0) <= 5 + 50,
        `failures stop being counted once dead (${dead?.txCodeFailures})`,
      );
      assert.equal(dead?.codeUsed, false);

      // A blocked registration has no offer.
      assert.equal(
        (await post(app, '/v1/credentials/birth/999999020/offer', { format: 'dc+sd-jwt' }, ROLES)).status,
        409,
      );
      // A caller without the credentials role has none either.
      const unroled = await post(
        app,
        '/v1/credentials/birth/123456789/offer',
        { format: 'dc+sd-jwt' },
        { ...ROLES, 'x-auth-roles': 'birth' },
      );
      assert.equal(unroled.status, 403);
    },
  );
}
