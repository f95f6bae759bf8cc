/**
 * The mdoc of every built-in type's mock record 123456789, made by `@owf/mdoc` (mso-mdoc.ts), held to
 * a verifier that did not make it: `@auth0/mdl`. The wallet presents it as ISO 18013-7 has it (a
 * DeviceResponse signed with the holder's key over a session transcript), and the verifier checks
 * the issuer's signature, the chain to the published IACA, every item's digest, the validity, and
 * the device signature with the key the MSO names, which is then the holder's.
 */
import assert from 'node:assert/strict';
import { X509Certificate, generateKeyPairSync } from 'node:crypto';
import { test } from 'node:test';
import { Verifier } from '@auth0/mdl';
import { cborEncode, DataItem } from '@auth0/mdl/lib/cbor/index.js';
import { present } from './mdoc-presentation.ts';
import type { JWK } from 'jose';
import { compileClaims } from '../../../src/credentials/claims.ts';
import { msoMdocFormat, mdocDoctype, mdocElements } from '../../../src/credentials/formats/mso-mdoc.ts';
import {
  certificatePem,
  documentSigner,
  makeDocumentSigner,
  makeIaca,
  newMdocKey,
} from '../../../src/credentials/mdoc-certificates.ts';
import { FULL_ID, mockRecords } from '../../../src/mock/dataset.ts';
import { viewsOf } from '../../../src/records/views.ts';
import { compileView } from '../../../src/render/view.ts';
import { builtInScenarios, builtInTypes } from '../../record-types.ts';

const ISSUER = 'https://lev-api.example.gov.uk';
const views = viewsOf(builtInTypes)
  .map(compileView)
  .filter((view) => view.version === 'v1');
const dataset = mockRecords(builtInTypes, builtInScenarios);

function mockClaims(view: (typeof views)[number]) {
  const record = dataset[view.record.name].find((r) => (r as { id: number }).id === FULL_ID);
  assert.ok(record, `the mock has ${view.record.name} ${FULL_ID}`);
  return compileClaims(
    view.record.name,
    view.fields,
    view.record.blockedFlag,
  )(view.render(record as Record<string, unknown>, { fullDetails: true })).claims;
}

/** CBOR maps as the decoder gives them, as plain objects. */
const plain = (value: unknown): unknown =>
  value instanceof Map
    ? Object.fromEntries([...value].map(([k, v]) => [k, plain(v)]))
    : Array.isArray(value)
      ? value.map(plain)
      : value;

function holder() {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const { kty, crv, x, y } = publicKey.export({ format: 'jwk' }) as JWK;
  return { publicJwk: { kty, crv, x, y } as JWK, privateJwk: privateKey.export({ format: 'jwk' }) as JWK };
}

const signer = await documentSigner(undefined, { issuerUrl: ISSUER });
const format = msoMdocFormat({ signer: async () => signer, validityS: 365 * 86_400 });
const iacaPem = certificatePem(signer.iacas[0]);

for (const view of views) {
  test(
    `the ${view.record.name} mdoc of ${FULL_ID} verifies with @auth0/mdl: signature, chain to the IACA, ` +
      `digests, validity, device key`,
    async () => {
      const description = view.record;
      const doctype = mdocDoctype(description.name);
      const claims = mockClaims(view);
      const { publicJwk, privateJwk } = holder();
      const credential = await format.issue({
        issuer: ISSUER,
        description,
        claims,
        status: { list: 3, idx: 4242 },
        holderKey: publicJwk,
      });
      const ids = mdocElements(description).filter(
        (element) =>
          element.path.reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], claims) != null,
      );
      assert.ok(ids.length > 5, 'the record has claims');

      const transcript = cborEncode(
        DataItem.fromData([null, null, ['mdoc-nonce', 'client', 'https://verifier.example', 'nonce']]),
      );
      const response = await present(
        credential,
        doctype,
        ids.map((e) => e.id),
        privateJwk,
        transcript,
      );
      const checks: { status: string; check: string; reason?: string }[] = [];
      const verified = await new Verifier([iacaPem]).verify(response, {
        encodedSessionTranscript: transcript,
        onCheck: (check) => checks.push(check),
      });
      assert.deepEqual(
        checks.filter((check) => check.status !== 'PASSED'),
        [],
      );
      for (const id of [
        'ISSUER_SIGNATURE_VALIDITY',
        'ISSUER_CERTIFICATE_VALIDITY',
        'MSO_VALIDITY_AT_VERIFICATION_TIME',
        'DEVICE_SIGNATURE_VALIDITY',
      ]) {
        assert.ok(
          checks.some((check) => (check as { id?: string }).id === id && check.status === 'PASSED'),
          id,
        );
      }
      assert.equal(
        checks.filter((check) => (check as { id?: string }).id === 'ATTRIBUTE_DIGEST_MATCH').length,
        ids.length,
        'every item digest checked',
      );

      // What it says: every element the record has, dates as full-dates; the status reference.
      const [document] = verified.documents;
      const values = Object.fromEntries(
        document.issuerSigned.nameSpaces[doctype].map((item) => [item.elementIdentifier, item.elementValue]),
      );
      for (const element of ids) {
        const expected = element.path.reduce<unknown>((v, k) => (v as Record<string, unknown>)[k], claims);
        const got = values[element.id];
        assert.deepEqual(
          element.date ? new Date(got as Date).toISOString().slice(0, 10) : plain(got),
          expected,
          element.id,
        );
      }
      const mso = document.issuerSigned.issuerAuth.decodedPayload as unknown as {
        status: Map<string, Map<string, unknown>>;
        docType: string;
      };
      assert.equal(mso.docType, doctype);
      const statusList = (
        mso.status instanceof Map
          ? mso.status.get('status_list')
          : (mso.status as Record<string, Map<string, unknown>>).status_list
      ) as Map<string, unknown> | Record<string, unknown>;
      const reference = statusList instanceof Map ? Object.fromEntries(statusList) : statusList;
      assert.deepEqual(reference, { idx: 4242, uri: `${ISSUER}/v1/credentials/status/3` });
    },
  );
}

test("an mdoc presented with another key than the holder's fails the device signature", async () => {
  const view = views[0];
  const doctype = mdocDoctype(view.record.name);
  const claims = mockClaims(view);
  const credential = await format.issue({
    issuer: ISSUER,
    description: view.record,
    claims,
    status: { list: 1, idx: 1 },
    holderKey: holder().publicJwk,
  });
  const transcript = cborEncode(DataItem.fromData([null, null, ['n']]));
  const response = await present(
    credential,
    doctype,
    [mdocElements(view.record)[0].id],
    holder().privateJwk,
    transcript,
  );
  await assert.rejects(
    new Verifier([iacaPem]).verify(response, { encodedSessionTranscript: transcript }),
    /Device signature must be valid/,
  );
});

test('an mdoc whose chain leads to another IACA fails the chain check', async () => {
  const view = views[0];
  const doctype = mdocDoctype(view.record.name);
  const { publicJwk, privateJwk } = holder();
  const credential = await format.issue({
    issuer: ISSUER,
    description: view.record,
    claims: mockClaims(view),
    status: { list: 1, idx: 1 },
    holderKey: publicJwk,
  });
  const transcript = cborEncode(DataItem.fromData([null, null, ['n']]));
  const response = await present(credential, doctype, [mdocElements(view.record)[0].id], privateJwk, transcript);
  const other = certificatePem(await makeIaca(newMdocKey(), 30));
  await assert.rejects(
    new Verifier([other]).verify(response, { encodedSessionTranscript: transcript }),
    /No valid certificate paths found|Issuer certificate must be valid/,
  );
});

test('the DS certificate is issued by the IACA with the profile of ISO 18013-5 Annex B', async () => {
  const iacaKey = newMdocKey();
  const iaca = await makeIaca(iacaKey, 3650, { issuerUrl: ISSUER });
  const ds = await makeDocumentSigner(newMdocKey(), { key: iacaKey, certificate: iaca }, 365, { issuerUrl: ISSUER });
  const root = new X509Certificate(iaca);
  const leaf = new X509Certificate(ds);
  assert.ok(root.ca && !leaf.ca);
  assert.ok(leaf.checkIssued(root) && leaf.verify(root.publicKey));
  assert.deepEqual(leaf.keyUsage, ['1.0.18013.5.1.2']);
  assert.match(root.subject, /C=GB/);
});
