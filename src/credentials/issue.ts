/**
 * Issues SD-JWT VCs (IETF SD-JWT, RFC 9901, and SD-JWT VC): the record's claims, each separately
 * disclosable (disclosures.ts), with the issuer, the validity, the type (`vct`, a URL of this
 * service serving its metadata), the status list entry and, where the caller gave one, the holder's
 * key (`cnf`), signed with the issuer's key as a JWS of `typ` `dc+sd-jwt`. What it issues is what
 * the OpenWallet Foundation's `@sd-jwt/sd-jwt-vc` issues for the same claims and salts, and that
 * library verifies it (test/credentials/issue.unit.test.ts); it is made here, in one synchronous
 * step, because the library's way cost six times the lookup it renders.
 */
import type { JWK } from 'jose';
import type { StatusEntry } from '../model/credentials.ts';
import type { Claims } from './claims.ts';
import { DIGEST_ALG, discloseAll, saltSource } from './disclosures.ts';
import { type IssuerKeys, signWith } from './keys.ts';
import { statusListPath } from './status-list.ts';
import { typePath } from './type-metadata.ts';

export const CREDENTIAL_TYPE = 'application/dc+sd-jwt';
/** The JWS `typ` of an SD-JWT VC. */
const CREDENTIAL_TYP = 'dc+sd-jwt';

interface CredentialRequest {
  /** The issuer URL (https:// outside the mock). */
  readonly issuer: string;
  readonly type: string;
  readonly claims: Claims;
  readonly status: StatusEntry;
  readonly holderKey?: JWK;
  /** Every claim in the clear, none disclosable: the compact form a printed certificate's QR code holds. */
  readonly inTheClear?: boolean;
}

export interface CredentialIssuer {
  /** The credential in its compact form: the signed JWT, then each disclosure, each followed by `~`. */
  issue(request: CredentialRequest): string;
}

export interface IssuerOptions {
  readonly now?: () => number;
  /** Where the disclosures' salts come from (a test gives fixed ones). */
  readonly salt?: () => string;
}

const base64url = (json: unknown) => Buffer.from(JSON.stringify(json)).toString('base64url');

export function createCredentialIssuer(
  keys: IssuerKeys,
  validityS: number,
  { now = Date.now, salt = saltSource() }: IssuerOptions = {},
): CredentialIssuer {
  const { current } = keys;
  const sign = signWith(current);
  // The header is the same for every credential the key signs.
  const header = base64url({ typ: CREDENTIAL_TYP, kid: current.kid, alg: current.alg });
  return {
    issue({ issuer, type, claims, status, holderKey, inTheClear = false }) {
      const iat = Math.floor(now() / 1000);
      // The registered claims stay in the clear; only the record's claims are disclosable.
      const registered = {
        iss: issuer,
        iat,
        exp: iat + validityS,
        vct: `${issuer}${typePath(type)}`,
        status: { status_list: { idx: status.idx, uri: `${issuer}${statusListPath(status.list)}` } },
        ...(holderKey ? { cnf: { jwk: holderKey } } : {}),
      };
      const { packed, disclosures } = inTheClear ? { packed: claims, disclosures: [] } : discloseAll(claims, salt);
      const payload = inTheClear ? { ...claims, ...registered } : { ...registered, ...packed, _sd_alg: DIGEST_ALG };
      const signingInput = `${header}.${base64url(payload)}`;
      let compact = `${signingInput}.${sign(signingInput)}~`;
      for (const disclosure of disclosures) compact += `${disclosure}~`;
      return compact;
    },
  };
}
