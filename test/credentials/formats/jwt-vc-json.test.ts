/**
 * The JWT VC of every built-in type's mock record 123456789 (jwt-vc-json.ts), verified as a relying
 * party or GOV.UK Wallet would: the header's kid names a verification method of the issuer's
 * did:web, resolved over real HTTP from the running service's /.well-known/did.json, and `jose`
 * verifies the signature, the issuer, the type and the times with that key. The subject is the
 * holder's did:key and the claims are the record's.
 */
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { test } from 'node:test';
import { type JWK, decodeProtectedHeader, importJWK, jwtVerify } from 'jose';
import { compileClaims } from '../../../src/credentials/claims.ts';
import { didKey, didWeb } from '../../../src/credentials/did.ts';
import { jwtVcJsonFormat, vcType } from '../../../src/credentials/formats/jwt-vc-json.ts';
import { issuerKeys, newIssuerKey } from '../../../src/credentials/keys.ts';
import { FULL_ID, mockRecords } from '../../../src/mock/dataset.ts';
import { viewsOf } from '../../../src/records/views.ts';
import { compileView } from '../../../src/render/view.ts';
import { emptyStore, startApp, testConfig } from '../../helper.ts';
import { builtInScenarios, builtInTypes } from '../../record-types.ts';

const views = viewsOf(builtInTypes)
  .map(compileView)
  .filter((view) => view.version === 'v1');
const dataset = mockRecords(builtInTypes, builtInScenarios);

function mockClaims(view: (typeof views)[number]) {
  const record = dataset[view.record.name].find((r) => (r as { id: number }).id === FULL_ID) as Record<string, unknown>;
  return compileClaims(
    view.record.name,
    view.fields,
    view.record.blockedFlag,
  )(view.render(record, { fullDetails: true })).claims;
}

/** did:web resolution (did:web method, section 3.2), over plain HTTP for the loopback test service. */
async function resolveDidWeb(
  did: string,
): Promise<{ id: string; verificationMethod: { id: string; publicKeyJwk: JWK }[]; assertionMethod: string[] }> {
  const [, , host, ...path] = did.split(':');
  const url = `http://${decodeURIComponent(host)}${
    path.length ? `/${path.map(decodeURIComponent).join('/')}` + `/did.json` : '/.well-known/did.json'
  }`;
  const response = await fetch(url);
  assert.equal(response.status, 200);
  return (await response.json()) as never;
}

const signingKey = newIssuerKey();
const pem = signingKey.export({ format: 'pem', type: 'pkcs8' }).toString();

test(
  'the JWT VC of 123456789 of every type verifies with ' + 'jose against the did:web document the service serves',
  async (t) => {
    const running = await startApp(t, await emptyStore(t, 'memory'), testConfig({ CREDENTIAL_SIGNING_KEY: pem }));
    const issuer = running.url;
    const format = jwtVcJsonFormat({ keys: await issuerKeys([signingKey]), validityS: 86_400 });
    for (const view of views) {
      const holder = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ format: 'jwk' }) as JWK;
      const claims = mockClaims(view);
      const jwt = await format.issue({
        issuer,
        description: view.record,
        claims,
        status: { list: 2, idx: 77 },
        holderKey: holder,
      });

      const { kid, typ, cty } = decodeProtectedHeader(jwt);
      assert.equal(typ, 'vc+jwt');
      assert.equal(cty, 'vc');
      const did = (kid as string).split('#')[0];
      assert.equal(did, didWeb(issuer));
      const document = await resolveDidWeb(did);
      assert.equal(document.id, did);
      assert.ok(document.assertionMethod.includes(kid as string), 'the key may assert (issue)');
      const method = document.verificationMethod.find((m) => m.id === kid);
      assert.ok(method, 'the kid is a verification method of the document');
      const { payload } = await jwtVerify(jwt, await importJWK(method.publicKeyJwk, 'ES256'), {
        issuer: did,
        typ: 'vc+jwt',
        algorithms: ['ES256'],
      });

      assert.equal(payload.sub, didKey(holder));
      assert.match(payload.sub as string, /^did:key:zDn/, 'a P-256 did:key');
      assert.deepEqual(payload.type, ['VerifiableCredential', vcType(view.record.name)]);
      assert.equal(payload.issuer, did);
      assert.deepEqual(payload['@context'], ['https://www.w3.org/ns/credentials/v2']);
      const { id, ...subject } = payload.credentialSubject as Record<string, unknown>;
      assert.equal(id, payload.sub);
      const { id: systemNumber, ...rest } = claims;
      assert.deepEqual(
        subject,
        { [`${view.record.name}Id`]: systemNumber, ...rest },
        "the record's id is <type>Id, the subject's id the holder",
      );
      assert.deepEqual(payload.status, { status_list: { idx: 77, uri: `${issuer}/v1/credentials/status/2` } });
      assert.equal((payload.credentialStatus as { statusListIndex: number }).statusListIndex, 77);
      assert.equal(Date.parse(payload.validUntil as string) / 1000, payload.exp);
    }
  },
);

test('a JWT VC signed by a key the DID document does not list fails', async (t) => {
  const running = await startApp(t, await emptyStore(t, 'memory'), testConfig({ CREDENTIAL_SIGNING_KEY: pem }));
  const stranger = await issuerKeys([newIssuerKey()]);
  const view = views[0];
  const holder = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ format: 'jwk' }) as JWK;
  const jwt = await jwtVcJsonFormat({ keys: stranger, validityS: 60 }).issue({
    issuer: running.url,
    description: view.record,
    claims: mockClaims(view),
    status: { list: 1, idx: 1 },
    holderKey: holder,
  });
  const document = await resolveDidWeb(didWeb(running.url));
  const kid = decodeProtectedHeader(jwt).kid;
  assert.equal(
    document.verificationMethod.find((m) => m.id === kid),
    undefined,
  );
  // Nor does any key it lists verify it.
  for (const method of document.verificationMethod) {
    await assert.rejects(
      jwtVerify(jwt, await importJWK(method.publicKeyJwk, 'ES256')),
      /signature verification failed/,
    );
  }
});

test('did:key of a known Ed25519 key is the one the did:key specification gives', () => {
  // The did:key specification's first Ed25519 test vector.
  const x = Buffer.from('2e6fcce36701dc791488e0d0b1745cc1e33a4c1c9fcc41c63bd343dbbe0970e6', 'hex').toString(
    'base64url',
  );
  assert.equal(didKey({ kty: 'OKP', crv: 'Ed25519', x }), 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK');
});
