/**
 * Digital certificates end to end, on the memory store and on the real PostgreSQL server: a
 * credential issued over HTTP for each record type, presented with only the names and the date
 * disclosed (and key binding to the holder's key), verified with the OpenWallet Foundation's
 * `@sd-jwt/sd-jwt-vc` verifier and its status read with `@sd-jwt/jwt-status-list`; then a
 * correction of the registration loaded, and the status seen to turn invalid within 5 s. A tampered
 * disclosure, an expired credential and a key the issuer never published are refused.
 */
import assert from 'node:assert/strict';
import { createPublicKey, generateKeyPairSync, sign, verify } from 'node:crypto';
import { test } from 'node:test';
import { digest, generateSalt } from '@sd-jwt/crypto-nodejs';
import { getListFromStatusListJWT } from '@sd-jwt/jwt-status-list';
import { SDJwtVcInstance } from '@sd-jwt/sd-jwt-vc';
import { createCredentialIssuer } from '../../src/credentials/issue.ts';
import { STATUS_LIST_REUSE_MS } from '../../src/http/status-lists.ts';
import { issuerKeys, newIssuerKey } from '../../src/credentials/keys.ts';
import { type RecordDescription, readPath } from '../../src/records/define.ts';
import { searchKeys } from '../../src/records/search-keys.ts';
import type { StoredRecord } from '../../src/model/records.ts';
import {
  CALLER,
  type RunningApp,
  type TestStore,
  emptyStore,
  startApp,
  storeKinds,
  testConfig,
  trailEntries,
} from '../helper.ts';
import { builtInTypes as records } from '../record-types.ts';

type Json = Record<string, any>;

const setPath = (target: Json, path: string, value: unknown) => {
  const keys = path.split('.');
  let at = target;
  for (const key of keys.slice(0, -1)) at = at[key] ??= {};
  at[keys[keys.length - 1]] = value;
};

/** A registration of the type, its parties named and dated from the description, unblocked. */
function registration(
  description: RecordDescription,
  id: number,
  extra: (record: Json) => void = () => {},
): StoredRecord {
  const data: Json = { id };
  description.search.parties.forEach((party, i) => {
    setPath(data, party.surname, `Tester${i}`);
    setPath(data, party.forenames, `Alex${i} Sam`);
    for (const date of party.dates) setPath(data, date, '2001-02-03');
  });
  setPath(data, description.blockedFlag, false);
  if (description.verification.cancelledFlag) setPath(data, description.verification.cancelledFlag, false);
  if (description.changes.correction) setPath(data, description.changes.correction, 'None');
  extra(data);
  return { id, data, keys: searchKeys(description, data) };
}

/** A correction as the type records one: its correction text where it has one, otherwise a name put right. */
const corrected = (description: RecordDescription) => (record: Json) => {
  if (description.changes.correction) setPath(record, description.changes.correction, 'Surname corrected');
  setPath(record, description.search.parties[0].surname, 'Testor0');
};

/** The presentation frame of the first party's names and the date the type is searched by. */
function nameAndDate(description: RecordDescription): Json {
  const frame: Json = {};
  const party = description.search.parties[0];
  for (const path of [party.surname, party.forenames, description.verification.date.path]) setPath(frame, path, true);
  return frame;
}

const holder = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const holderJwk = holder.publicKey.export({ format: 'jwk' });
const holderKeyParam = Buffer.from(JSON.stringify(holderJwk)).toString('base64url');

/** A verifier of the issuer's signatures with the keys it publishes, picked by the header's kid. */
async function issuerVerifier(app: RunningApp) {
  const { body } = await app.get('/.well-known/jwt-vc-issuer', {});
  const keys: Json[] = body.jwks.keys;
  return (data: string, signature: string) => {
    const header = JSON.parse(Buffer.from(data.split('.')[0], 'base64url').toString());
    const jwk = keys.find((key) => key.kid === header.kid);
    if (!jwk) return false;
    const key = createPublicKey({ key: jwk as any, format: 'jwk' });
    return verify(
      jwk.alg === 'EdDSA' ? null : 'sha256',
      Buffer.from(data),
      { key, dsaEncoding: 'ieee-p1363' },
      Buffer.from(signature, 'base64url'),
    );
  };
}

const sdJwtFor = (verifier: (data: string, sig: string) => boolean) =>
  new SDJwtVcInstance({
    hasher: digest,
    hashAlg: 'sha-256',
    saltGenerator: generateSalt,
    verifier,
    kbSignAlg: 'ES256',
    kbSigner: (data) =>
      sign('sha256', Buffer.from(data), { key: holder.privateKey, dsaEncoding: 'ieee-p1363' }).toString('base64url'),
    kbVerifier: (data, signature, payload) =>
      verify(
        'sha256',
        Buffer.from(data),
        { key: createPublicKey({ key: (payload as Json).cnf.jwk, format: 'jwk' }), dsaEncoding: 'ieee-p1363' },
        Buffer.from(signature, 'base64url'),
      ),
  });

const statusOf = async (reference: { uri: string; idx: number }) => {
  const response = await fetch(reference.uri);
  assert.equal(response.headers.get('content-type'), 'application/statuslist+jwt');
  return getListFromStatusListJWT(await response.text()).getStatus(reference.idx);
};

const ROLES = { ...CALLER, 'x-auth-roles': 'credentials,birth,death,marriage,partnership' };

for (const kind of await storeKinds()) {
  test(
    `${kind}: a credential of each type is issued, presented, ` + `verified, and invalid within 5 s of a correction`,
    async (t) => {
      const store = await emptyStore(t, kind);
      const app = await startApp(t, store, testConfig({ MOCK_ENFORCE_ROLES: 'true' }));
      const sdJwt = sdJwtFor(await issuerVerifier(app));
      for (const [i, description] of records.entries()) {
        const id = 700_000_001 + i;
        await store.upsert(description.name, [registration(description, id)]);
        const issued = await app.get(`/v1/credentials/${description.name}/${id}?holderKey=${holderKeyParam}`, ROLES);
        assert.equal(issued.status, 200, issued.text);
        assert.equal(issued.headers.get('content-type'), 'application/dc+sd-jwt');
        const credential = issued.text;

        const presentation = await sdJwt.present(credential, nameAndDate(description), {
          kb: { payload: { iat: Math.floor(Date.now() / 1000), aud: 'https://relying.example', nonce: 'n-0S6' } },
        });
        const result = await sdJwt.verify(presentation, { keyBindingNonce: 'n-0S6' });
        const { payload } = result;
        assert.equal(payload.iss, app.url);
        assert.equal(payload.vct, `${app.url}/v1/credentials/types/${description.name}`);
        assert.deepEqual((payload.cnf as Json).jwk.x, holderJwk.x);
        assert.ok(result.kb, 'the key binding was checked');
        const party = description.search.parties[0];
        assert.equal(readPath(payload, party.surname), 'Tester0');
        assert.equal(readPath(payload, party.forenames), 'Alex0 Sam');
        assert.equal(readPath(payload, description.verification.date.path), '2001-02-03');
        // Nothing else of the record: the registered claims, and the one group holding what was disclosed.
        const recordClaims = Object.keys(payload).filter(
          (key) => !['iss', 'iat', 'exp', 'vct', 'status', 'cnf', '_sd_alg'].includes(key),
        );
        const disclosedRoots = new Set(
          [party.surname, party.forenames, description.verification.date.path].map((path) => path.split('.')[0]),
        );
        assert.deepEqual(
          recordClaims.sort(),
          [...disclosedRoots].sort(),
          `${description.name}: only the names and the date`,
        );

        const reference = (payload.status as Json).status_list;
        assert.equal(await statusOf(reference), 0, 'valid when issued');

        // A marginal note leaves it standing; a correction does not.
        await store.upsert(description.name, [registration(description, id, corrected(description))]);
        const started = Date.now();
        let status = 0;
        while (status === 0 && Date.now() - started < 5000) {
          status = await statusOf(reference);
          if (status === 0) await new Promise((resolve) => setTimeout(resolve, 100));
        }
        assert.equal(status, 1, `${description.name}: invalid within 5 s of the correction`);
        await assert.rejects(sdJwt.verify(credential), /Status is not valid/);
      }

      // Audited with the record and the fields disclosed, and listed among who has seen it.
      const entries = (await trailEntries(store)).filter((entry) => entry.operation === 'credential');
      assert.equal(entries.length, records.length);
      assert.deepEqual(entries[0].records, [{ type: records[0].name, id: 700_000_001 }]);
      assert.ok(entries[0].fields?.includes(records[0].search.parties[0].surname), 'the disclosed fields are named');
      const seen = await app.get(`/api/v0/audit/records/${records[0].name}/700000001`, {
        ...CALLER,
        'x-auth-roles': 'audit',
      });
      assert.equal(seen.status, 200, seen.text);
      assert.ok(
        seen.body.some((access: Json) => access.operation === 'credential'),
        seen.text,
      );
    },
  );
}

test('a tampered disclosure, an expired credential and an unknown key are refused', async (t) => {
  const store = await emptyStore(t, 'memory');
  const app = await startApp(t, store);
  const [birth] = records;
  await store.upsert(birth.name, [registration(birth, 700_000_101)]);
  const sdJwt = sdJwtFor(await issuerVerifier(app));
  const { text: credential } = await app.get(`/v1/credentials/${birth.name}/700000101`);
  await sdJwt.verify(credential);

  const parts = credential.split('~');
  const index = parts.findIndex((part, i) => i > 0 && Buffer.from(part, 'base64url').toString().includes('Tester0'));
  const disclosure = JSON.parse(Buffer.from(parts[index], 'base64url').toString());
  parts[index] = Buffer.from(JSON.stringify([disclosure[0], disclosure[1], 'Somebody'])).toString('base64url');
  // The verifier takes only disclosures the issuer signed a digest of: the altered one is dropped
  // (the typed client's verifyCredential refuses the whole credential: test/clients/credentials.test.ts).
  const tampered = await sdJwt.verify(parts.join('~'));
  assert.ok(!JSON.stringify(tampered.payload).includes('Somebody'), 'a tampered disclosure is not taken');
  assert.equal(
    readPath(
      tampered.payload,
      disclosure[1] === 'surname' ? birth.search.parties[0].surname : `child.${disclosure[1]}`,
    ),
    undefined,
  );

  const { payload } = await sdJwt.verify(credential);
  await assert.rejects(sdJwt.verify(credential, { currentDate: (payload.exp as number) + 1 }), /expired/i);

  // The same claims and status, signed by a key the issuer never published.
  const stranger = createCredentialIssuer(await issuerKeys([newIssuerKey()]), 3600);
  const forged = await stranger.issue({
    issuer: app.url,
    type: birth.name,
    claims: { id: 700_000_101 },
    status: { list: 1, idx: 0 },
  });
  await assert.rejects(sdJwt.verify(forged), /signature/i);
});

test(
  'bad input is a 400 naming it, a caller without the role is refused, and blocked or cancelled ' +
    'registrations have none',
  async (t) => {
    const store: TestStore = await emptyStore(t, 'memory');
    const app = await startApp(t, store, testConfig({ MOCK_ENFORCE_ROLES: 'true' }));
    const [birth] = records;
    await store.upsert(birth.name, [
      registration(birth, 700_000_201),
      registration(birth, 700_000_202, (record) => setPath(record, birth.blockedFlag, true)),
      registration(birth, 700_000_203, (record) => setPath(record, birth.verification.cancelledFlag as string, true)),
    ]);
    const roles = { ...CALLER, 'x-auth-roles': 'birth,credentials' };
    const refused = async (
      path: string,
      status: number,
      code: string,
      names: RegExp,
      headers: Record<string, string> = roles,
    ) => {
      const answer = await app.get(path, headers);
      assert.equal(answer.status, status, `${path}: ${answer.text}`);
      assert.equal(answer.body.code, code, path);
      assert.match(answer.body.message, names, path);
    };
    const p384 = generateKeyPairSync('ec', { namedCurve: 'P-384' }).publicKey.export({ format: 'jwk' });
    const privateJwk = holder.privateKey.export({ format: 'jwk' });
    const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    await refused('/v1/credentials/wedding/1', 400, 'BadRequest', /'type'.*birth, death, marriage, partnership/);
    await refused('/v1/credentials/birth/12x', 400, 'BadRequest', /'id'/);
    await refused('/v1/credentials/birth/700000201?holderKey=%7B%7D', 400, 'BadRequest', /'holderKey'/);
    await refused(`/v1/credentials/birth/700000201?holderKey=${b64(p384)}`, 400, 'BadRequest', /'holderKey'.*P-384/);
    await refused(
      `/v1/credentials/birth/700000201?holderKey=${b64(privateJwk)}`,
      400,
      'BadRequest',
      /'holderKey'.*private/,
    );
    const lowOrder = { kty: 'OKP', crv: 'Ed25519', x: Buffer.alloc(32).toString('base64url') };
    await refused(
      `/v1/credentials/birth/700000201?holderKey=${b64(lowOrder)}`,
      400,
      'BadRequest',
      /'holderKey'.*small order/,
    );
    await refused('/v1/credentials/birth/700000201?colour=red', 400, 'BadRequest', /colour/);
    await refused('/v1/credentials/birth/700000201', 403, 'Forbidden', /'credentials' role/, {
      ...CALLER,
      'x-auth-roles': 'birth',
    });
    await refused('/v1/credentials/birth/700000201', 403, 'Forbidden', /'birth' role/, {
      ...CALLER,
      'x-auth-roles': 'credentials',
    });
    await refused('/v1/credentials/birth/700000201', 401, 'Unauthorized', /identity/, {});
    await refused('/v1/credentials/birth/700000202', 409, 'Blocked', /blocked/);
    await refused('/v1/credentials/birth/700000203', 409, 'Cancelled', /cancelled/);
    await refused('/v1/credentials/birth/700000299', 404, 'NotFound', /system number/);
    await refused('/v1/credentials/status/99', 404, 'NotFound', /status list/, {});
    await refused('/v1/credentials/status/x', 400, 'BadRequest', /'list'/, {});
    const issued = await app.get(`/v1/credentials/birth/700000201?holderKey=${b64(holderJwk)}`, roles);
    assert.equal(issued.status, 200, issued.text);
  },
);

test(
  'the status list is public, signed, cacheable and the size the issue asks; the issuer publishes its key ' +
    'and the types',
  async (t) => {
    const store = await emptyStore(t, 'memory');
    const app = await startApp(t, store);
    const [birth] = records;
    await store.upsert(birth.name, [registration(birth, 700_000_301)]);
    const { text } = await app.get('/v1/credentials/birth/700000301');
    const { payload } = await sdJwtFor(await issuerVerifier(app)).verify(text);
    const list = await app.get(new URL((payload.status as Json).status_list.uri).pathname, {});
    assert.equal(list.status, 200);
    assert.match(list.headers.get('cache-control') ?? '', /^public, max-age=60$/);
    const [header, body] = list.text
      .split('.')
      .slice(0, 2)
      .map((part) => JSON.parse(Buffer.from(part, 'base64url').toString()));
    assert.equal(header.typ, 'statuslist+jwt');
    assert.equal(body.ttl, 60);
    assert.ok(getListFromStatusListJWT(list.text).statusList.length >= 100_000);
    assert.ok(
      (await issuerVerifier(app))(list.text.split('.').slice(0, 2).join('.'), list.text.split('.')[2]),
      'signed with the published key',
    );
    // Read again once the process would read it afresh: unchanged, so not signed again (the same token).
    await new Promise((resolve) => setTimeout(resolve, STATUS_LIST_REUSE_MS + 100));
    assert.equal((await app.get(new URL((payload.status as Json).status_list.uri).pathname, {})).text, list.text);
    const type = await app.get('/v1/credentials/types/birth', {});
    assert.equal(type.body.vct, `${app.url}/v1/credentials/types/birth`);
    assert.ok(type.body.claims.some((claim: Json) => claim.path.join('.') === 'child.forenames'));
    assert.ok(!type.body.claims.some((claim: Json) => claim.path[0] === 'nextRegistration'), 'no links');
  },
);

test('format=qr: the certificate claims in a token small enough for a QR code, and the QR code as SVG', async (t) => {
  const store = await emptyStore(t, 'memory');
  const app = await startApp(t, store);
  const sdJwt = sdJwtFor(await issuerVerifier(app));
  for (const [i, description] of records.entries()) {
    const id = 700_000_401 + i;
    await store.upsert(description.name, [registration(description, id)]);
    const { status, text, headers } = await app.get(`/v1/credentials/${description.name}/${id}?format=qr`);
    assert.equal(status, 200, text);
    assert.equal(headers.get('content-type'), 'application/dc+sd-jwt');
    assert.ok(text.endsWith('~') && text.split('~').length === 2, 'no disclosures: every claim in the clear');
    // A QR code of version 25 at error correction M holds 1,273 bytes in byte mode; leave room for a printed margin.
    assert.ok(text.length <= 1000, `${description.name}: ${text.length} characters`);
    const { payload } = await sdJwt.verify(text);
    assert.equal(payload.id, id);
    assert.equal(readPath(payload, description.search.parties[0].surname), 'Tester0');
    assert.equal(readPath(payload, description.verification.date.path), '2001-02-03');
    assert.equal(payload.registrar ?? payload.informant1, undefined, 'only what the certificate shows');
  }
  const svg = await app.get(`/v1/credentials/birth/700000401?format=qr`, { ...CALLER, accept: 'image/svg+xml' });
  assert.equal(svg.status, 200);
  assert.equal(svg.headers.get('content-type'), 'image/svg+xml');
  assert.match(svg.text, /^<svg[^>]*viewBox/);
  const refused = await app.get(`/v1/credentials/birth/700000401?format=qr&holderKey=${holderKeyParam}`);
  assert.equal(refused.status, 400);
  assert.match(refused.body.message, /'holderKey'/);
  const badFormat = await app.get(`/v1/credentials/birth/700000401?format=png`);
  assert.equal(badFormat.status, 400);
  assert.match(badFormat.body.message, /'format'.*sd-jwt or qr/);
});

for (const kind of await storeKinds()) {
  test(
    `${kind}: a certificate too large for a QR code is ` + `refused before a status is allocated or an access audited`,
    async (t) => {
      const store = await emptyStore(t, kind);
      const app = await startApp(t, store);
      const [birth] = records;
      // Names of 800 characters each (a load takes 1,000): the certificate's claims alone outgrow a QR code.
      const long = (letter: string) => `${letter.toUpperCase()}${letter.repeat(799)}`;
      await store.upsert(birth.name, [
        registration(birth, 700_000_501, (record) => {
          setPath(record, birth.search.parties[0].forenames, long('a'));
          setPath(record, birth.search.parties[0].surname, long('b'));
        }),
      ]);
      for (const accept of ['image/svg+xml', '*/*']) {
        const refused = await app.get('/v1/credentials/birth/700000501?format=qr', { ...CALLER, accept });
        assert.equal(refused.status, 422, refused.text);
        assert.equal(refused.body.code, 'TooLargeForQrCode');
        assert.match(refused.body.message, /more than a QR code holds.*without format=qr/);
      }
      assert.deepEqual(
        (await trailEntries(store)).filter((entry) => entry.operation === 'credential'),
        [],
        'nothing audited',
      );
      assert.equal(await store.credentials.invalid(1), undefined, 'no status allocated');
      // The same registration as an SD-JWT VC, with no QR code to fit, is issued.
      const issued = await app.get('/v1/credentials/birth/700000501');
      assert.equal(issued.status, 200, issued.text);
      assert.deepEqual(await store.credentials.invalid(1), [], 'its status allocated');
    },
  );
}
