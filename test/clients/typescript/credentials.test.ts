/**
 * The typed client's verifyCredential against the running mock: a credential presented with key
 * binding verifies and stands; a tampered or added disclosure, an expired credential, a key the
 * issuer does not publish, an untrusted or plain-HTTP issuer and a missing key binding are refused;
 * and once the registration is corrected, the same credential is still genuine but no longer stands.
 * `lev-api credentials verify FILE` says the same, and `rotate-key` keeps earlier credentials verifying.
 */
import assert from 'node:assert/strict';
import { generateKeyPairSync, sign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { digest, generateSalt } from '@sd-jwt/crypto-nodejs';
import { SDJwtVcInstance } from '@sd-jwt/sd-jwt-vc';
import { CredentialVerificationError, NotACredentialError, recordClaims, verifyCredential } from '@lev-api/client';
import { readIssuerKeyFile } from '../../../src/config/credentials.ts';
import { createCredentialIssuer } from '../../../src/credentials/issue.ts';
import { issuerKeys, newIssuerKey } from '../../../src/credentials/keys.ts';
import { searchKeys } from '../../../src/records/search-keys.ts';
import { emptyStore, startApp, testConfig } from '../../helper.ts';
import { runCli } from '../../run-cli.ts';
import { builtInTypes as records } from '../../record-types.ts';

const [birth] = records;
const child = (id: number, correction = 'None') => {
  const data = {
    id,
    child: { forenames: 'Robin Lee', surname: 'Verifiable', dateOfBirth: '2010-10-10' },
    status: { blocked: false, cancelled: false, correction },
  };
  return { id, data, keys: searchKeys(birth, data) };
};

const holder = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const holderKey = Buffer.from(JSON.stringify(holder.publicKey.export({ format: 'jwk' }))).toString('base64url');
const presenter = new SDJwtVcInstance({
  hasher: digest,
  hashAlg: 'sha-256',
  saltGenerator: generateSalt,
  kbSignAlg: 'ES256',
  kbSigner: (data) =>
    sign('sha256', Buffer.from(data), { key: holder.privateKey, dsaEncoding: 'ieee-p1363' }).toString('base64url'),
});
const present = (credential: string, nonce = 'nonce-1') =>
  presenter.present(credential, { child: { surname: true, dateOfBirth: true } } as never, {
    kb: { payload: { iat: Math.floor(Date.now() / 1000), aud: 'https://bank.example', nonce } },
  });

const refused = async (promise: Promise<unknown>, reason: RegExp) => {
  await assert.rejects(
    promise,
    (error: unknown) => error instanceof CredentialVerificationError && reason.test(error.message),
  );
};

test(
  'verifyCredential: genuine and standing, refused when altered, expired or foreign, and no longer ' +
    'standing after a correction',
  async (t) => {
    const store = await emptyStore(t, 'memory');
    const app = await startApp(t, store, testConfig({ CREDENTIAL_STATUS_TTL_S: '1' }));
    await store.upsert(birth.name, [child(700_001_001)]);
    const trust = { trustedIssuers: [app.url], allowHttp: true, nonce: 'nonce-1' };
    const { text: credential } = await app.get(`/v1/credentials/birth/700001001?holderKey=${holderKey}`);
    const presentation = await present(credential);

    const verified = await verifyCredential(presentation, trust);
    assert.equal(verified.stands, true);
    assert.equal(verified.holderBound, true);
    assert.equal(verified.recordType, 'birth');
    assert.deepEqual(recordClaims(verified), { child: { surname: 'Verifiable', dateOfBirth: '2010-10-10' } });

    const parts = presentation.split('~');
    const altered = [...parts];
    altered[1] = Buffer.from(JSON.stringify(['c2FsdA', 'surname', 'Someone'])).toString('base64url');
    await refused(verifyCredential(altered.join('~'), { ...trust, requireKeyBinding: false }), /altered|not genuine/);
    const withoutBinding = `${parts.slice(0, -1).join('~')}~`;
    await refused(verifyCredential(withoutBinding, trust), /without key binding/);
    await refused(verifyCredential(presentation, { ...trust, nonce: 'another' }), /not genuine/);
    await refused(
      verifyCredential(presentation, { ...trust, now: verified.expiresAt.getTime() / 1000 + 1 }),
      /expired/i,
    );
    await refused(
      verifyCredential(presentation, { ...trust, trustedIssuers: ['https://elsewhere.example'] }),
      /not one trusted/,
    );
    await refused(verifyCredential(presentation, { ...trust, allowHttp: false }), /not an HTTPS URL/);
    const stranger = createCredentialIssuer(await issuerKeys([newIssuerKey()]), 3600);
    const forged = await stranger.issue({
      issuer: app.url,
      type: 'birth',
      claims: { id: 700_001_001 },
      status: { list: 1, idx: 0 },
    });
    await refused(verifyCredential(forged, trust), /key the issuer does not publish/);
    await refused(verifyCredential('not a credential', trust), /not an SD-JWT/);

    // The command says the same, from a file.
    const folder = await mkdtemp(join(tmpdir(), 'credentials-'));
    t.after(() => rm(folder, { recursive: true, force: true }));
    const file = join(folder, 'credential.txt');
    await writeFile(file, credential);
    const ok = await runCli(t, ['credentials', 'verify', file, '--issuer', app.url, '--allow-http']);
    assert.equal(ok.code, 1, 'a holder-bound credential shown without key binding is refused');
    const unbound = await app.get('/v1/credentials/birth/700001001');
    await writeFile(file, unbound.text);
    const standing = await runCli(t, ['credentials', 'verify', file, '--issuer', app.url, '--allow-http']);
    assert.equal(standing.code, 0, standing.stderr);
    assert.equal(JSON.parse(standing.stdout).disclosed.child.surname, 'Verifiable');

    // A correction: still genuine, no longer standing (the list is kept for its ttl of 1 s).
    await store.upsert(birth.name, [child(700_001_001, 'Forenames corrected')]);
    await new Promise((resolve) => setTimeout(resolve, 2200));
    const after = await verifyCredential(presentation, trust);
    assert.equal(after.stands, false);
    const revoked = await runCli(t, ['credentials', 'verify', file, '--issuer', app.url, '--allow-http']);
    assert.equal(revoked.code, 1);
    assert.equal(JSON.parse(revoked.stdout).stands, false);
    assert.match(revoked.stderr, /no longer stands/);
  },
);

test('rotate-key: new credentials are signed by the new key, earlier ones still verify', async (t) => {
  const folder = await mkdtemp(join(tmpdir(), 'credential-keys-'));
  t.after(() => rm(folder, { recursive: true, force: true }));
  const keyFile = join(folder, 'issuer-keys.json');
  assert.equal((await runCli(t, ['credentials', 'rotate-key', '--file', keyFile])).code, 0);
  const store = await emptyStore(t, 'memory');
  await store.upsert(birth.name, [child(700_001_002)]);
  // One issuer URL for both processes, as behind one load balancer; the verifier is sent to the second.
  const issuer = 'http://issuer.test';
  const env = { CREDENTIAL_KEY_FILE: keyFile, CREDENTIAL_ISSUER_URL: issuer };
  const first = await startApp(t, store, testConfig(env));
  const before = (await first.get('/v1/credentials/birth/700001002')).text;

  const rotated = await runCli(t, ['credentials', 'rotate-key', '--file', keyFile, '--alg', 'EdDSA']);
  assert.equal(rotated.code, 0, rotated.stderr);
  assert.equal(readIssuerKeyFile(readFileSync(keyFile, 'utf8')).length, 2);
  const second = await startApp(t, store, testConfig(env));
  const { body } = await second.get('/.well-known/jwt-vc-issuer', {});
  assert.deepEqual(
    body.jwks.keys.map((key: { alg: string }) => key.alg),
    ['EdDSA', 'ES256'],
  );
  const afterRotation = (await second.get('/v1/credentials/birth/700001002')).text;
  const header = (credential: string) => JSON.parse(Buffer.from(credential.split('.')[0], 'base64url').toString());
  assert.equal(header(afterRotation).alg, 'EdDSA');
  assert.equal(header(before).alg, 'ES256');
  const toSecond: typeof fetch = (input, init) => fetch(String(input).replace(issuer, second.url), init);
  const options = { trustedIssuers: [issuer], allowHttp: true, fetch: toSecond };
  assert.equal((await verifyCredential(afterRotation, options)).stands, true, 'signed by the new key');
  assert.equal((await verifyCredential(before, options)).stands, true, 'signed by the earlier key, still published');
});

test(
  'a JWT whose header or payload is no JSON object is ' + 'not a credential; a disclosure given twice is refused',
  async (t) => {
    const store = await emptyStore(t, 'memory');
    const app = await startApp(t, store);
    await store.upsert(birth.name, [child(700_001_003)]);
    const trust = { trustedIssuers: [app.url], allowHttp: true };
    const b64 = (json: string) => Buffer.from(json).toString('base64url');
    const header = b64('{"alg":"ES256"}');
    // The fuzz's case first: a payload of JSON null, which was read as an object ("reading 'iss'").
    for (const jwt of [
      'eyJhbGciOiJFUzI1NiJ9.bnVsbA.AAAA',
      ...['1', '"iss"', '[]', 'true'].map((json) => `${header}.${b64(json)}.AAAA`),
      `${b64('null')}.${b64('{"iss":"x"}')}.AAAA`,
    ]) {
      await assert.rejects(
        verifyCredential(`${jwt}~`, trust),
        (error: unknown) => error instanceof NotACredentialError && /cannot be read/.test(error.message),
        jwt,
      );
    }
    const folder = await mkdtemp(join(tmpdir(), 'credentials-'));
    t.after(() => rm(folder, { recursive: true, force: true }));
    const file = join(folder, 'null.txt');
    await writeFile(file, 'eyJhbGciOiJFUzI1NiJ9.bnVsbA.AAAA~');
    const cli = await runCli(t, ['credentials', 'verify', file, '--issuer', app.url, '--allow-http']);
    assert.equal(cli.code, 1);
    assert.deepEqual(JSON.parse(cli.stdout), { genuine: false, reason: 'its issuer-signed JWT cannot be read' });
    assert.doesNotMatch(cli.stderr, /TypeError|Cannot read properties/);

    // A real credential of the service, one of its disclosures repeated.
    const { text: credential } = await app.get('/v1/credentials/birth/700001003');
    assert.equal((await verifyCredential(credential, trust)).stands, true);
    const parts = credential.split('~');
    const repeated = [parts[0], parts[1], ...parts.slice(1)].join('~');
    await refused(verifyCredential(repeated, trust), /given more than once/);
  },
);
