/**
 * A credential's claims, derived from the record description as every other view is: the record
 * rendered for the caller (so what the caller may not see is null and left out here), without the
 * links to other registrations (each has its own credential) and without the blocked flag (a
 * blocked record has no credential, so it would always say false). Every claim, at every depth, is
 * disclosed separately: a group is disclosed as the container of the claims of it presented, a
 * list (aliases) as a whole. A field added to a description appears in credentials with no other
 * change.
 */
import { type Fields, type GroupField, groupFields, isLeaf, isLink, isList } from '../records/define.ts';

export type Claims = { [key: string]: unknown };

/**
 * Claim names JWT and SD-JWT VC give a meaning of their own (RFC 7519, SD-JWT VC section 3.2.2).
 * A record field of such a name at the top (a record's `status` flags, beside the credential's
 * `status` reference) is carried as `<type>` + the name capitalised: `birthStatus`.
 */
const RESERVED = new Set(['iss', 'sub', 'aud', 'exp', 'nbf', 'iat', 'jti', 'cnf', 'vct', 'vct#integrity', 'status', '_sd', '_sd_alg', '...']);

/** The claim name of a top-level record field. */
export const claimName = (type: string, key: string) => (RESERVED.has(key) ? `${type}${key[0].toUpperCase()}${key.slice(1)}` : key);

/**
 * The claims of a rendered record, nothing recorded or nothing visible left out, and the dot paths
 * of the record's fields they hold (a list counts as one field), as the audit trail names them.
 */
export function credentialClaims(type: string, fields: Fields, rendered: Claims, blockedFlag: string): { claims: Claims; fields: string[] } {
  const disclosed: string[] = [];
  const walk = (group: Fields, values: Claims, prefix: string): Claims => {
    const out: Claims = {};
    for (const [key, field] of Object.entries(group)) {
      const path = `${prefix}${key}`;
      const value = values[key];
      const name = prefix ? key : claimName(type, key);
      if (isLink(field) || path === blockedFlag || value === null || value === undefined) continue;
      if (isLeaf(field)) {
        out[name] = value;
        disclosed.push(path);
      } else if (isList(field)) {
        if (Array.isArray(value) && value.length) {
          out[name] = value;
          disclosed.push(path);
        }
      } else if (typeof value === 'object') {
        const inner = walk(groupFields(field as GroupField | Fields), value as Claims, `${path}.`);
        if (Object.keys(inner).length) out[name] = inner;
      }
    }
    return out;
  };
  const claims = walk(fields, rendered, '');
  return { claims, fields: disclosed };
}
