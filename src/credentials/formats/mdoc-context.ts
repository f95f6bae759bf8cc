/**
 * What `@owf/mdoc` needs of the platform to issue (its crypto is pluggable): random salts, digests
 * and COSE_Sign1 signatures, all from node:crypto. Issuing signs and hashes only, so MACs and the
 * ephemeral session keys of a presentation are refused.
 */
import { createHash, createPrivateKey, randomBytes, sign } from 'node:crypto';
import type { CoseKey, MdocContext } from '@owf/mdoc';

const HASHES = { 'SHA-256': 'sha256', 'SHA-384': 'sha384', 'SHA-512': 'sha512' } as const;

const notForIssuing = (what: string) => () => {
  throw new Error(`${what} is not used in issuing`);
};

/** The signature of a COSE_Sign1 by an EC P-256 key: ES256, r||s as COSE carries it. */
function es256(toBeSigned: Uint8Array, key: CoseKey): Uint8Array {
  const privateKey = createPrivateKey({ key: key.jwk as import('node:crypto').JsonWebKey, format: 'jwk' });
  return sign('sha256', toBeSigned, { key: privateKey, dsaEncoding: 'ieee-p1363' });
}

export const issuingContext: Pick<MdocContext, 'crypto' | 'cose'> = {
  crypto: {
    random: (length) => randomBytes(length),
    digest: ({ digestAlgorithm, bytes }) => createHash(HASHES[digestAlgorithm]).update(bytes).digest(),
    calculateEphemeralMacKey: notForIssuing('an ephemeral MAC key'),
  },
  cose: {
    sign1: { sign: ({ toBeSigned, key }) => es256(toBeSigned, key), verify: notForIssuing('verifying a signature') },
    mac0: { sign: notForIssuing('a MAC'), verify: notForIssuing('a MAC') },
  },
};
