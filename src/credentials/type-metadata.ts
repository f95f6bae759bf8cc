/**
 * The type metadata a credential's `vct` names (SD-JWT VC, section 6): what the credential is and
 * each claim it may carry, labelled with the field's own description. Derived from the record
 * description, so it lists the fields a credential of the type can disclose and no others.
 */
import { claimName } from './claims.ts';
import {
  type Fields,
  type GroupField,
  groupFields,
  isLeaf,
  isLink,
  isList,
  type RecordDescription,
} from '../records/define.ts';

export const credentialsPath = '/v1/credentials';
/** Where a type's metadata is served, under the issuer. */
export const typePath = (type: string) => `${credentialsPath}/types/${type}`;

interface ClaimMetadata {
  readonly path: string[];
  readonly display: { readonly locale: string; readonly label: string }[];
  readonly sd: 'always';
}

const LOCALE = 'en-GB';

function claimsOf(
  type: string,
  fields: Fields,
  blockedFlag: string,
  prefix: string[] = [],
  fieldPrefix = '',
): ClaimMetadata[] {
  return Object.entries(fields).flatMap(([key, field]): ClaimMetadata[] => {
    const path = [...prefix, prefix.length ? key : claimName(type, key)];
    if (isLink(field) || `${fieldPrefix}${key}` === blockedFlag) return [];
    if (isLeaf(field))
      return [{ path, display: [{ locale: LOCALE, label: String(field.description ?? key) }], sd: 'always' }];
    if (isList(field)) return [{ path, display: [{ locale: LOCALE, label: field.description }], sd: 'always' }];
    return claimsOf(type, groupFields(field as GroupField | Fields), blockedFlag, path, `${fieldPrefix}${key}.`);
  });
}

export function typeMetadata(description: RecordDescription, issuer: string) {
  return {
    vct: `${issuer}${typePath(description.name)}`,
    name: `${description.title}, England and Wales`,
    description: `A ${description.noun} registered in England and Wales, as the General Register Office's register holds it. Every claim is selectively disclosable.`,
    display: [{ locale: LOCALE, name: `${description.title}` }],
    claims: claimsOf(description.name, description.fields, description.blockedFlag),
  };
}
