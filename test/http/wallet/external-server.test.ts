/**
 * An external authorization server (WALLET_AUTHORIZATION_SERVER, as GOV.UK One Login is for GOV.UK
 * Wallet), played by a real HTTP server publishing its key set: the pre-authorised code names it as
 * audience with WALLET_CLIENT_ID, the metadata points wallets to it, the service serves no token
 * endpoint, and the credential endpoint takes its access tokens (issuer, audience, wallet subject,
 * `c_nonce` as the proof's nonce) and refuses others. The proof's key is given as a did:key.
 */
import assert from 'node:assert/strict';
import { ECDH, createPublicKey, generateKeyPairSync } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { SignJWT, exportJWK } from 'jose';
import { CALLER, filledStore, startApp, testConfig } from '../../helper.ts';
import { VERIFIERS, newWallet } from './wallet.ts';

const GRANT = 'urn:ietf:params:oauth:grant-type:pre-authorized_code';
const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const base58 = (bytes: Buffer) => {
  let value = BigInt(`0x${bytes.toString('hex')}`);
  let text = '';
  while (value > 0n) {
    text = BASE58[Number(value % 58n)] + text;
    value /= 58n;
  }
  return text;
};

test('access tokens of an external authorization server are checked against its key set', async (t) => {
  const server = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = { ...(await exportJWK(server.publicKey)), kid: 'as-1', alg: 'ES256', use: 'sig' };
  const as = createServer((request, response) => {
    if (request.url !== '/.well-known/jwks.json') return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((resolve) => as.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise((resolve) => as.close(resolve)));
  const asUrl = `http://127.0.0.1:${(as.address() as AddressInfo).port}`;

  const store = await filledStore(t, 'memory');
  const app = await startApp(
    t,
    store,
    testConfig({
      WALLET_AUTHORIZATION_SERVER: asUrl,
      WALLET_CLIENT_ID: 'TEST_CLIENT_ID',
      WALLET_OFFER_URL: 'https://mobile.account.gov.uk/wallet/add',
    }),
  );
  const headers = { ...CALLER, 'x-auth-roles': 'credentials,birth', 'content-type': 'application/json' };
  const post = async (path: string, body: unknown, extra: Record<string, string> = headers) => {
    const response = await fetch(app.url + path, { method: 'POST', headers: extra, body: JSON.stringify(body) });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  };

  const metadata = await app.get('/.well-known/openid-credential-issuer', {});
  assert.deepEqual(metadata.body.authorization_servers, [asUrl]);
  assert.equal(
    (await post('/v1/wallet/token', {}, { 'content-type': 'application/json' })).status,
    404,
    'no token endpoint of its own',
  );
  assert.equal(
    (await post('/v1/credentials/birth/123456789/offer', { format: 'dc+sd-jwt', txCode: true })).status,
    400,
    'no transaction code',
  );

  const offered = await post('/v1/credentials/birth/123456789/offer', {
    format: 'dc+sd-jwt',
    walletSubjectId: 'urn:fdc:wallet:alice',
  });
  assert.equal(offered.status, 201, JSON.stringify(offered.body));
  assert.match(offered.body.offer, /^https:\/\/mobile\.account\.gov\.uk\/wallet\/add\?credential_offer=/);
  const credentialOffer = JSON.parse(decodeURIComponent(offered.body.offer.split('credential_offer=')[1]));
  const code: string = credentialOffer.grants[GRANT]['pre-authorized_code'];
  const [header, claims] = code
    .split('.')
    .slice(0, 2)
    .map((part) => JSON.parse(Buffer.from(part, 'base64url').toString()));
  assert.deepEqual([header.typ, header.alg], ['JWT', 'ES256']);
  const published = (await app.get('/.well-known/jwks.json', {})).body.keys.map((key: { kid: string }) => key.kid);
  assert.ok(published.includes(header.kid), 'its key is published at /.well-known/jwks.json');
  assert.deepEqual(Object.keys(claims).sort(), ['aud', 'clientId', 'credential_identifiers', 'exp', 'iat', 'iss']);
  assert.equal(claims.aud, asUrl);
  assert.equal(claims.iss, app.url);
  assert.equal(claims.clientId, 'TEST_CLIENT_ID');
  assert.equal(claims.exp - claims.iat, 300);
  const [offerId] = claims.credential_identifiers;

  const accessToken = (overrides: Record<string, unknown> = {}, key = server.privateKey) =>
    new SignJWT({
      iss: asUrl,
      aud: app.url,
      sub: 'urn:fdc:wallet:alice',
      credential_identifiers: [offerId],
      c_nonce: 'nonce-from-the-server',
      ...overrides,
    })
      .setProtectedHeader({ alg: 'ES256', kid: 'as-1', typ: 'at+jwt' })
      .setIssuedAt()
      .setExpirationTime('3m')
      .sign(key);
  const wallet = newWallet();
  const point = ECDH.convertKey(
    Buffer.concat([
      Buffer.from([4]),
      Buffer.from(wallet.publicJwk.x as string, 'base64url'),
      Buffer.from(wallet.publicJwk.y as string, 'base64url'),
    ]),
    'prime256v1',
    undefined,
    undefined,
    'compressed',
  ) as Buffer;
  const did = `did:key:z${base58(Buffer.concat([Buffer.from([0x80, 0x24]), point]))}`;
  const proof = wallet.signJwt(
    { typ: 'openid4vci-proof+jwt', alg: 'ES256', kid: `${did}#${did.slice(8)}` },
    { aud: app.url, iat: Math.floor(Date.now() / 1000), nonce: 'nonce-from-the-server' },
  );
  const ask = async (token: string) =>
    post(
      '/v1/wallet/credential',
      { proof: { proof_type: 'jwt', jwt: proof } },
      { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    );

  for (const [why, token] of [
    ['another subject', await accessToken({ sub: 'urn:fdc:wallet:bob' })],
    ['another issuer', await accessToken({ iss: 'https://elsewhere.example' })],
    ['another audience', await accessToken({ aud: 'https://elsewhere.example' })],
    ['another key', await accessToken({}, generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey)],
  ] as const) {
    const answer = await ask(token);
    assert.equal(answer.status, 401, why);
    assert.equal(answer.body.error, 'invalid_token', why);
  }
  const issued = await ask(await accessToken());
  assert.equal(issued.status, 200, JSON.stringify(issued.body));
  await VERIFIERS['dc+sd-jwt'](issued.body.credentials[0].credential, {
    issuer: app.url,
    type: 'birth',
    recordId: 123456789,
    wallet,
  });
  assert.ok(createPublicKey({ key: wallet.publicJwk as never, format: 'jwk' }));
});
