/**
 * `jwt_vc_json` (OpenID4VCI 1.0 appendix A.1.1): a registration as a W3C Verifiable Credential (VCDM
 * 2.0) secured as a JWT, in the shape GOV.UK Wallet's issuer interface describes for its older path:
 * the header names the key as a verification method of the issuer's `did:web` (`kid`
 * `did:web:<host>#<kid>`, did.ts), `typ` `vc+jwt` and `cty` `vc`; the payload is the credential
 * itself (`@context`, `type`, `issuer`, `validFrom`, `validUntil`, `credentialSubject`) beside the
 * JWT claims a JWT verifier reads (`iss` the same DID, `sub` the holder, `nbf`, `iat`, `exp`). The
 * holder is the key the wallet proved it holds, as a `did:key`: the subject's `id` and `sub`. Every
 * claim is in the clear (a JWT VC discloses all or nothing). The status is the token status list
 * entry the other formats carry: the `status` claim draft-ietf-oauth-status-list defines for any JWT,
 * repeated as `credentialStatus` for a VCDM reader (docs/wallets.md says why).
 */
import { SignJWT } from 'jose';
import type { RecordDescription } from '../../records/define.ts';
import { claimFields } from '../claims.ts';
import { didKey, didWeb, verificationMethodId } from '../did.ts';
import type { IssuerKeys } from '../keys.ts';
import { statusListPath } from '../status-list.ts';
import type { CredentialFormat, FormatIssueInput } from './format.ts';

const LOCALE = 'en-GB';
const VCDM2_CONTEXT = 'https://www.w3.org/ns/credentials/v2';

/** The VC type of a record type's credential: `BirthRegistrationCredential`. */
export const vcType = (type: string) => `${type[0].toUpperCase()}${type.slice(1)}RegistrationCredential`;

/**
 * A subject's `id` is the holder in VCDM, so the record's own `id` (its system number) is carried as
 * `<type>Id`, as claims.ts renames a field that clashes with a registered claim.
 */
const subjectName = (type: string, key: string) => (key === 'id' ? `${type}Id` : key);

/** Each claim's path under credentialSubject and its label, as the metadata lists them. */
const claimPaths = (description: RecordDescription): { path: string[]; label: string }[] =>
  claimFields(description.name, description.fields, description.blockedFlag).map(
    ({ path: [top, ...inner], label }) => ({
      path: ['credentialSubject', subjectName(description.name, top), ...inner],
      label,
    }),
  );

export interface JwtVcJsonDependencies {
  /** The issuer's keys (keys.ts): the current one signs, all are in the DID document. */
  readonly keys: IssuerKeys;
  /** Seconds a credential is valid from its issue (CREDENTIAL_VALIDITY_DAYS). */
  readonly validityS: number;
  readonly now?: () => number;
}

export function jwtVcJsonFormat({ keys, validityS, now = Date.now }: JwtVcJsonDependencies): CredentialFormat {
  return {
    format: 'jwt_vc_json',
    // The holder is named as a did:key, the subject's id (GOV.UK Wallet's JWT VCs).
    bindingMethods: ['did:key'],
    configurationId: (type) => `${type}_jwt_vc_json`,
    configuration(description) {
      return {
        credential_definition: { type: ['VerifiableCredential', vcType(description.name)] },
        credential_signing_alg_values_supported: [keys.current.alg],
        credential_metadata: {
          display: [{ name: description.title, locale: LOCALE }],
          claims: claimPaths(description).map(({ path, label }) => ({
            path,
            display: [{ name: label, locale: LOCALE }],
          })),
        },
      };
    },
    async issue({ issuer, description, claims, status, holderKey }: FormatIssueInput) {
      const { current } = keys;
      const did = didWeb(issuer);
      const holder = didKey(holderKey);
      const iat = Math.floor(now() / 1000);
      const exp = iat + validityS;
      const uri = `${issuer}${statusListPath(status.list)}`;
      const subject = Object.fromEntries(
        Object.entries(claims).map(([key, value]) => [subjectName(description.name, key), value]),
      );
      return new SignJWT({
        '@context': [VCDM2_CONTEXT],
        type: ['VerifiableCredential', vcType(description.name)],
        issuer: did,
        name: description.title,
        description:
          `A ${description.noun} registered in England and Wales, as the General Register Office's register ` +
          'holds it.',
        validFrom: new Date(iat * 1000).toISOString(),
        validUntil: new Date(exp * 1000).toISOString(),
        credentialSubject: { id: holder, ...subject },
        credentialStatus: {
          id: `${uri}#${status.idx}`,
          type: 'TokenStatusListEntry',
          statusListIndex: status.idx,
          statusListCredential: uri,
        },
        status: { status_list: { idx: status.idx, uri } },
      })
        .setProtectedHeader({
          alg: current.alg,
          typ: 'vc+jwt',
          cty: 'vc',
          kid: verificationMethodId(issuer, current.kid),
        })
        .setIssuer(did)
        .setSubject(holder)
        .setIssuedAt(iat)
        .setNotBefore(iat)
        .setExpirationTime(exp)
        .sign(current.privateKey);
    },
  };
}
