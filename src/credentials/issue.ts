/**
 * Issues SD-JWT VCs (IETF SD-JWT and SD-JWT VC) with the OpenWallet Foundation's
 * `@sd-jwt/sd-jwt-vc`: the record's claims, each separately disclosable, with the issuer, the
 * validity, the type (`vct`, a URL of this service serving its metadata), the status list entry
 * and, where the caller gave one, the holder's key (`cnf`).
 */
import { digest, generateSalt } from '@sd-jwt/crypto-nodejs';
import { SDJwtVcInstance } from '@sd-jwt/sd-jwt-vc';
import type { JWK } from 'jose';
import type { StatusEntry } from '../types/credentials.ts';
import { type Claims, disclosureFrame } from './claims.ts';
import { type IssuerKeys, signWith } from './keys.ts';
import { statusListPath } from './status-list.ts';
import { typePath } from './type-metadata.ts';

export const CREDENTIAL_TYPE = 'application/dc+sd-jwt';

export interface CredentialRequest {
  /** The issuer URL (https:// outside the mock). */
  readonly issuer: string;
  readonly type: string;
  readonly claims: Claims;
  readonly status: StatusEntry;
  readonly holderKey?: JWK;
}

export interface CredentialIssuer {
  issue(request: CredentialRequest): Promise<string>;
}

export function createCredentialIssuer(keys: IssuerKeys, validityS: number, now: () => number = Date.now): CredentialIssuer {
  const { current } = keys;
  const sdJwt = new SDJwtVcInstance({ signer: signWith(current), signAlg: current.alg, hasher: digest, hashAlg: 'sha-256', saltGenerator: generateSalt });
  return {
    async issue({ issuer, type, claims, status, holderKey }) {
      const iat = Math.floor(now() / 1000);
      const payload = {
        ...claims,
        iss: issuer,
        iat,
        exp: iat + validityS,
        vct: `${issuer}${typePath(type)}`,
        status: { status_list: { idx: status.idx, uri: `${issuer}${statusListPath(status.list)}` } },
        ...(holderKey ? { cnf: { jwk: holderKey } } : {}),
      };
      // The frame names the record's claims only: the registered claims above stay in the clear.
      return sdJwt.issue(payload, disclosureFrame(claims) as never, { header: { kid: current.kid } });
    },
  };
}
