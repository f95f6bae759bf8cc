/**
 * The service makes its SD-JWT VCs itself (src/credentials/issue.ts, disclosures.ts), for speed:
 * here they are held to what the OpenWallet Foundation's `@sd-jwt/sd-jwt-vc` issues for the same
 * claims and salts, byte for byte (Ed25519 signatures are deterministic, so the whole credential
 * compares), and verified by that library's verifier, for a generated record of every type.
 */
import assert from 'node:assert/strict';
import { createPublicKey, generateKeyPairSync, verify } from 'node:crypto';
import { test } from 'node:test';
import { digest } from '@sd-jwt/crypto-nodejs';
import { SDJwtVcInstance } from '@sd-jwt/sd-jwt-vc';
import { type Claims, compileClaims } from '../../src/credentials/claims.ts';
import { SALT_BYTES, discloseAll, saltSource } from '../../src/credentials/disclosures.ts';
import { createCredentialIssuer } from '../../src/credentials/issue.ts';
import { type IssuerKey, issuerKeys, newIssuerKey, signWith } from '../../src/credentials/keys.ts';
import { statusListToken } from '../../src/credentials/status-list.ts';
import { recordAt } from '../../src/generate/records.ts';
import { builtInTypes as records } from '../record-types.ts';
import { viewsOf } from '../../src/records/views.ts';
import { compileView } from '../../src/render/view.ts';

const views = viewsOf(records)
  .map(compileView)
  .filter((view) => view.version === 'v1');
const NOW = Date.UTC(2026, 10, 27, 12);
const ISSUER = 'https://lev-api.example.gov.uk';

/** The same salts each time it is made: the two issuers given one each draw alike. */
const fixedSalts = () => {
  let n = 0;
  return () => `salt-${n++}`;
};

/** Every key at every depth disclosable, as the service's credentials make them, in @sd-jwt's frame. */
type Frame = { _sd: string[]; [key: string]: Frame | string[] };
const everyKey = (claims: Claims): Frame => {
  const frame: Frame = { _sd: Object.keys(claims) };
  for (const [key, value] of Object.entries(claims)) {
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) frame[key] = everyKey(value as Claims);
  }
  return frame;
};

const library = (key: IssuerKey) =>
  new SDJwtVcInstance({
    signer: signWith(key),
    signAlg: key.alg,
    hasher: digest,
    hashAlg: 'sha-256',
    saltGenerator: fixedSalts(),
  });

const verifierOf = (key: IssuerKey) =>
  new SDJwtVcInstance({
    hasher: digest,
    hashAlg: 'sha-256',
    verifier: (data: string, signature: string) =>
      verify(
        key.alg === 'EdDSA' ? null : 'sha256',
        Buffer.from(data),
        { key: createPublicKey(key.privateKey), dsaEncoding: 'ieee-p1363' },
        Buffer.from(signature, 'base64url'),
      ),
    // The list the credentials point into, signed by the same key, with no entry invalid.
    statusListFetcher: () => statusListToken(key, ISSUER, 1, [], 60),
  });

const claimsOf = (view: (typeof views)[number], position: number) =>
  compileClaims(
    view.record.name,
    view.fields,
    view.record.blockedFlag,
  )(view.render(recordAt(view.record.name, { count: 10, seed: 'issue' }, position), { fullDetails: true })).claims;

const holderKey = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ format: 'jwk' }) as Record<
  string,
  string
>;

test(
  'a credential is what @sd-jwt/sd-jwt-vc issues for the same claims and salts, for every type, ' +
    'disclosable or in the clear',
  async () => {
    const keys = await issuerKeys([newIssuerKey('EdDSA')]);
    for (const view of views) {
      const type = view.record.name;
      const claims = claimsOf(view, 1);
      for (const inTheClear of [false, true]) {
        const ours = createCredentialIssuer(keys, 3600, { now: () => NOW, salt: fixedSalts() });
        const status = { list: 3, idx: 4711 };
        const issued = ours.issue({ issuer: ISSUER, type, claims, status, holderKey, inTheClear });
        const iat = Math.floor(NOW / 1000);
        const expected = await library(keys.current).issue(
          {
            ...claims,
            iss: ISSUER,
            iat,
            exp: iat + 3600,
            vct: `${ISSUER}/v1/credentials/types/${type}`,
            status: { status_list: { idx: 4711, uri: `${ISSUER}/v1/credentials/status/3` } },
            cnf: { jwk: holderKey },
          },
          inTheClear ? undefined : (everyKey(claims) as never),
          { header: { kid: keys.current.kid } },
        );
        assert.equal(issued, expected, `${type}${inTheClear ? ', in the clear' : ''}`);
      }
    }
  },
);

test('@sd-jwt/sd-jwt-vc verifies every type signed with ES256 and EdDSA, and gets back every claim', async () => {
  for (const alg of ['ES256', 'EdDSA'] as const) {
    const keys = await issuerKeys([newIssuerKey(alg)]);
    const issuer = createCredentialIssuer(keys, 3600);
    for (const view of views) {
      const claims = claimsOf(view, 2);
      const credential = issuer.issue({ issuer: ISSUER, type: view.record.name, claims, status: { list: 1, idx: 9 } });
      const { payload, header } = await verifierOf(keys.current).verify(credential);
      assert.deepEqual(header, { typ: 'dc+sd-jwt', kid: keys.current.kid, alg });
      const { iss, iat, exp, vct, status, ...rest } = payload as Claims;
      assert.deepEqual(rest, claims, `${alg} ${view.record.name}`);
      assert.equal(iss, ISSUER);
      assert.equal((exp as number) - (iat as number), 3600);
      assert.equal(vct, `${ISSUER}/v1/credentials/types/${view.record.name}`);
      assert.deepEqual(status, { status_list: { idx: 9, uri: `${ISSUER}/v1/credentials/status/1` } });
    }
  }
});

test('salts are 128 random bits each, never repeated across draws of the CSPRNG', () => {
  const salt = saltSource(4);
  const drawn = Array.from({ length: 4000 }, salt);
  assert.equal(new Set(drawn).size, drawn.length);
  for (const one of drawn.slice(0, 10)) assert.equal(Buffer.from(one, 'base64url').length, SALT_BYTES);
  // One salt a claim at every depth, and one disclosure each.
  const { disclosures } = discloseAll({ a: 1, b: { c: 2, d: { e: 3 } }, f: ['x'] }, salt);
  const salts = disclosures.map((disclosure) => JSON.parse(Buffer.from(disclosure, 'base64url').toString())[0]);
  assert.equal(new Set(salts).size, 6);
});
