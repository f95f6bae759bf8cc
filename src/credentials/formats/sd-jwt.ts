/**
 * `dc+sd-jwt` (OpenID4VCI 1.0, appendix A.3): the SD-JWT VC the service issues over its API
 * (issue.ts), bound to the key the wallet proved it holds (`cnf`). Its configuration names the
 * `vct` the credential carries, and labels every claim from the type metadata, itself derived from
 * the record description.
 */
import type { RecordDescription } from '../../records/define.ts';
import { type CredentialIssuer, createCredentialIssuer } from '../issue.ts';
import type { IssuerKeys } from '../keys.ts';
import { typeMetadata } from '../type-metadata.ts';
import type { CredentialFormat } from './format.ts';

export const SD_JWT = 'dc+sd-jwt';

export interface SdJwtFormatOptions {
  readonly keys: IssuerKeys;
  readonly validityS: number;
  /** The issuer to sign with; by default one over `keys`. */
  readonly issuer?: CredentialIssuer;
}

export function sdJwtFormat({
  keys,
  validityS,
  issuer = createCredentialIssuer(keys, validityS),
}: SdJwtFormatOptions): CredentialFormat {
  return {
    format: SD_JWT,
    // The proof's key goes into `cnf` as a JWK, however the wallet named it.
    bindingMethods: ['jwk', 'did:key'],
    configurationId: (type) => `${type}_sd_jwt`,
    configuration(description: RecordDescription, issuerUrl: string) {
      const metadata = typeMetadata(description, issuerUrl);
      return {
        vct: metadata.vct,
        credential_signing_alg_values_supported: [keys.current.alg],
        credential_metadata: {
          display: [
            { name: metadata.display[0].name, locale: metadata.display[0].locale, description: metadata.description },
          ],
          claims: metadata.claims.map((claim) => ({
            path: claim.path,
            display: claim.display.map(({ locale, label }) => ({ locale, name: label })),
          })),
        },
      };
    },
    async issue({ issuer: issuerUrl, description, claims, status, holderKey }) {
      return issuer.issue({ issuer: issuerUrl, type: description.name, claims, status, holderKey });
    },
  };
}
