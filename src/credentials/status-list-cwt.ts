/**
 * A token status list in its CWT form (draft-ietf-oauth-status-list, "Status List Token in CWT
 * Format"), `application/statuslist+cwt`: the same list as the JWT form (status-list.ts), for mdoc
 * verifiers, which read CBOR and trust an mdoc's issuer through its IACA rather than a JWK set. So it is
 * signed as the mdocs are: a COSE_Sign1 (ES256) by the document signer, its certificate in `x5chain`,
 * which chains to the IACA at /.well-known/iacas.
 */
import { sign } from 'node:crypto';
import { StatusList } from '@sd-jwt/jwt-status-list';
import { LIST_SIZE } from '../model/credentials.ts';
import type { DocumentSigner } from './mdoc-certificates.ts';
import { statusListPath } from './status-list.ts';

export const STATUS_LIST_CWT_TYPE = 'application/statuslist+cwt';

// COSE header and CWT claim keys (RFC 9052, RFC 8392, and the draft's registrations).
const ALG = 1;
const TYP = 16;
const X5CHAIN = 33;
const ES256 = -7;
const SUB = 2;
const EXP = 4;
const IAT = 6;
const TTL = 65534;
const STATUS_LIST = 65533;
/** CBOR tag 18, COSE_Sign1, as the first byte of a tagged item (major type 6, value 18). */
const COSE_SIGN1_TAG = 0xd2;

export async function statusListCwt(
  signer: DocumentSigner,
  issuer: string,
  list: number,
  invalid: readonly number[],
  ttlS: number,
  now = Date.now(),
): Promise<Uint8Array> {
  // Imported when first asked for: a process no mdoc verifier asks loads no CBOR code.
  const { cborEncode } = await import('@owf/mdoc');
  const bits = new Array<number>(LIST_SIZE).fill(0);
  for (const idx of invalid) bits[idx] = 1;
  const lst = Buffer.from(new StatusList(bits, 1).compressStatusList(), 'base64url');
  const iat = Math.floor(now / 1000);
  const claims = new Map<number, unknown>([
    [SUB, `${issuer}${statusListPath(list)}`],
    [IAT, iat],
    [EXP, iat + Math.max(ttlS * 2, 86_400)],
    [TTL, ttlS],
    [
      STATUS_LIST,
      new Map<string, unknown>([
        ['bits', 1],
        ['lst', lst],
      ]),
    ],
  ]);
  const protectedHeader = cborEncode(
    new Map<number, unknown>([
      [ALG, ES256],
      [TYP, STATUS_LIST_CWT_TYPE],
    ]),
  );
  const payload = cborEncode(claims);
  const toBeSigned = cborEncode(['Signature1', protectedHeader, new Uint8Array(0), payload]);
  const signature = sign('sha256', toBeSigned, { key: signer.privateKey, dsaEncoding: 'ieee-p1363' });
  const body = cborEncode([protectedHeader, new Map([[X5CHAIN, signer.certificate]]), payload, signature]);
  return Buffer.concat([Buffer.from([COSE_SIGN1_TAG]), body]);
}
