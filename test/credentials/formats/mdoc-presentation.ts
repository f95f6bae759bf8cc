/**
 * A wallet's presentation of an mdoc, as ISO 18013-7 has it, made with `@auth0/mdl` (which did not
 * make the mdoc): the IssuerSigned wrapped in a DeviceResponse of one document, its elements
 * disclosed, signed with the holder's key over a session transcript. What the mdoc tests and the
 * wallet pick-up tests present to `@auth0/mdl`'s Verifier.
 */
import { DeviceResponse, parse } from '@auth0/mdl';
import { cborEncode } from '@auth0/mdl/lib/cbor/index.js';
import type { JWK } from 'jose';

/** The IssuerSigned (base64url CBOR) in a DeviceResponse of one document, as a wallet would wrap it. */
export const inDeviceResponse = (credential: string, doctype: string) =>
  Buffer.concat([
    Buffer.from([0xa3]),
    cborEncode('version'),
    cborEncode('1.0'),
    cborEncode('documents'),
    Buffer.from([0x81, 0xa2]),
    cborEncode('docType'),
    cborEncode(doctype),
    cborEncode('issuerSigned'),
    Buffer.from(credential, 'base64url'),
    cborEncode('status'),
    cborEncode(0),
  ]);

/** The wallet's presentation of every element, signed with the holder's private key. */
export async function present(
  credential: string,
  doctype: string,
  ids: readonly string[],
  privateJwk: JWK,
  transcript: Buffer,
) {
  const definition = {
    id: 'all',
    input_descriptors: [
      {
        id: doctype,
        format: { mso_mdoc: { alg: ['ES256'] } },
        constraints: {
          limit_disclosure: 'required',
          fields: ids.map((id) => ({ path: [`$['${doctype}']['${id}']`], intent_to_retain: false })),
        },
      },
    ],
  };
  const presented = await DeviceResponse.from(parse(inDeviceResponse(credential, doctype)))
    .usingPresentationDefinition(definition)
    .usingSessionTranscriptBytes(transcript)
    .authenticateWithSignature(privateJwk, 'ES256')
    .sign();
  return presented.encode();
}
