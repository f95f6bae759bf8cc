/**
 * The typed client verifies the wallet formats against the running service over real HTTP, as a
 * department does: an mdoc against the IACAs at /.well-known/iacas, a JWT VC against the did:web
 * document, each with its status list entry; an altered mdoc item, an mdoc of another chain, an
 * altered JWT VC and an untrusted issuer are refused.
 */
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { test } from 'node:test';
import { CredentialVerificationError, verifyJwtVc, verifyMdoc } from '@lev-api/client';
import type { JWK } from 'jose';
import { compileClaims } from '../../../src/credentials/claims.ts';
import { didKey } from '../../../src/credentials/did.ts';
import { jwtVcJsonFormat } from '../../../src/credentials/formats/jwt-vc-json.ts';
import { msoMdocFormat } from '../../../src/credentials/formats/mso-mdoc.ts';
import { issuerKeys, newIssuerKey } from '../../../src/credentials/keys.ts';
import { certificatePem, documentSigner } from '../../../src/credentials/mdoc-certificates.ts';
import { FULL_ID, mockRecords } from '../../../src/mock/dataset.ts';
import { viewsOf } from '../../../src/records/views.ts';
import { compileView } from '../../../src/render/view.ts';
import { emptyStore, startApp, testConfig } from '../../helper.ts';
import { builtInScenarios, builtInTypes } from '../../record-types.ts';

const views = viewsOf(builtInTypes)
  .map(compileView)
  .filter((view) => view.version === 'v1');
const dataset = mockRecords(builtInTypes, builtInScenarios);
const claimsOf = (view: (typeof views)[number]) =>
  compileClaims(
    view.record.name,
    view.fields,
    view.record.blockedFlag,
  )(
    view.render(
      dataset[view.record.name].find((r) => (r as { id: number }).id === FULL_ID) as Record<string, unknown>,
      { fullDetails: true },
    ),
  ).claims;

test(
  'the client verifies an mdoc and a JWT VC of every ' + 'type against the service, and refuses altered ones',
  async (t) => {
    const key = newIssuerKey();
    const signer = await documentSigner(undefined);
    const env = {
      CREDENTIAL_SIGNING_KEY: key.export({ format: 'pem', type: 'pkcs8' }).toString(),
      CREDENTIAL_IACA_CERTIFICATES: signer.iacas.map(certificatePem).join(''),
      CREDENTIAL_DOCUMENT_SIGNER:
        `${signer.privateKey.export({ format: 'pem', type: 'pkcs8' })}` + `${certificatePem(signer.certificate)}`,
    };
    const store = await emptyStore(t, 'memory');
    const running = await startApp(t, store, testConfig(env));
    const issuer = running.url;
    const options = { trustedIssuers: [issuer], allowHttp: true };
    const mdoc = msoMdocFormat({ signer: async () => signer, validityS: 86_400 });
    const jwtVc = jwtVcJsonFormat({ keys: await issuerKeys([key]), validityS: 86_400 });

    for (const view of views) {
      const description = view.record;
      const claims = claimsOf(view);
      const holderKey = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ format: 'jwk' }) as JWK;
      const status = await store.credentials.allocate(description.name, FULL_ID);

      const issued = await mdoc.issue({ issuer, description, claims, status, holderKey });
      const verified = await verifyMdoc(issued, options);
      assert.equal(verified.recordType, description.name);
      assert.equal(verified.stands, true);
      assert.equal(verified.claims.id, FULL_ID);
      assert.deepEqual(
        { x: (verified.holder as JWK).x, y: (verified.holder as JWK).y },
        { x: holderKey.x, y: holderKey.y },
      );

      const vc = await jwtVc.issue({ issuer, description, claims, status, holderKey });
      const checked = await verifyJwtVc(vc, options);
      assert.equal(checked.recordType, description.name);
      assert.equal(checked.stands, true);
      assert.equal(checked.holder, didKey(holderKey));
      assert.equal(checked.claims[`${description.name}Id`], FULL_ID);
    }

    const [view] = views;
    const claims = claimsOf(view);
    const holderKey = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ format: 'jwk' }) as JWK;
    const status = await store.credentials.allocate(view.record.name, FULL_ID);
    const input = { issuer, description: view.record, claims, status, holderKey };

    // An item's value altered after signing: its digest no longer matches the MSO's.
    const issued = Buffer.from(await mdoc.issue(input), 'base64url');
    const surname = Buffer.from(JSON.stringify(claims).match(/"surname":"([A-Za-z]+)"/)?.[1] ?? 'none in the claims');
    const tampered = Buffer.from(issued);
    const where = tampered.indexOf(surname);
    assert.ok(where > 0, 'a surname is in the CBOR');
    tampered[where] = tampered[where] === 0x41 ? 0x42 : 0x41;
    await assert.rejects(
      verifyMdoc(tampered.toString('base64url'), options),
      (error: Error) => error instanceof CredentialVerificationError && /digest/i.test(error.message),
    );

    // An mdoc whose document signer another IACA issued.
    const other = msoMdocFormat({ signer: () => documentSigner(undefined), validityS: 86_400 });
    await assert.rejects(verifyMdoc(await other.issue(input), options), /no IACA the issuer publishes/);

    // A JWT VC with its payload altered, and one of an issuer not trusted.
    const vc = await jwtVc.issue(input);
    const [h, p, s] = vc.split('.');
    const payload = JSON.parse(Buffer.from(p as string, 'base64url').toString());
    payload.credentialSubject.birthId = 1;
    await assert.rejects(
      verifyJwtVc(`${h}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${s}`, options),
      /signature/,
    );
    await assert.rejects(
      verifyJwtVc(vc, { trustedIssuers: ['https://elsewhere.example'], allowHttp: true }),
      /not one trusted here/,
    );
  },
);
