/**
 * The type metadata a credential's `vct` names (SD-JWT VC, section 6): what the credential is and
 * each claim it may carry, labelled with the field's own description. Derived from the record
 * description, so it lists the fields a credential of the type can disclose and no others.
 */
import { claimFields } from './claims.ts';
import type { RecordDescription } from '../records/define.ts';

export const credentialsPath = '/v1/credentials';
/** Where a type's metadata is served, under the issuer. */
export const typePath = (type: string) => `${credentialsPath}/types/${type}`;

interface ClaimMetadata {
  readonly path: string[];
  readonly display: { readonly locale: string; readonly label: string }[];
  readonly sd: 'always';
}

const LOCALE = 'en-GB';

export function typeMetadata(description: RecordDescription, issuer: string) {
  return {
    vct: `${issuer}${typePath(description.name)}`,
    name: `${description.title}, England and Wales`,
    description:
      `A ${description.noun} registered in England and Wales, as the General Register Office's register ` +
      'holds it. Every claim is selectively disclosable.',
    display: [{ locale: LOCALE, name: `${description.title}` }],
    claims: claimFields(description.name, description.fields, description.blockedFlag).map(
      ({ path, label }): ClaimMetadata => ({ path: [...path], display: [{ locale: LOCALE, label }], sd: 'always' }),
    ),
  };
}
