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
const RESERVED = new Set([
  'iss',
  'sub',
  'aud',
  'exp',
  'nbf',
  'iat',
  'jti',
  'cnf',
  'vct',
  'vct#integrity',
  'status',
  '_sd',
  '_sd_alg',
  '...',
]);

/** The claim name of a top-level record field. */
export const claimName = (type: string, key: string) =>
  RESERVED.has(key) ? `${type}${key[0].toUpperCase()}${key.slice(1)}` : key;

interface ClaimField {
  /** The field's name in the rendered record. */
  readonly key: string;
  /** Its claim's name (claimName at the top). */
  readonly name: string;
  /** Its dot path, as the audit trail names it. */
  readonly path: string;
  readonly kind: 'leaf' | 'list' | 'group';
  readonly inner: readonly ClaimField[];
}

/**
 * The claims of a rendered record, nothing recorded or nothing visible left out, and the dot paths
 * of the record's fields they hold (a list counts as one field), as the audit trail names them.
 * What depends on the description alone (which fields, their names and paths) is worked out here,
 * once a type; what is left for each record is its values.
 */
export function compileClaims(
  type: string,
  fields: Fields,
  blockedFlag: string,
): (rendered: Claims) => { claims: Claims; fields: string[] } {
  const compile = (group: Fields, prefix: string): ClaimField[] =>
    Object.entries(group).flatMap(([key, field]): ClaimField[] => {
      const path = `${prefix}${key}`;
      if (isLink(field) || path === blockedFlag) return [];
      const name = prefix ? key : claimName(type, key);
      if (isLeaf(field)) return [{ key, name, path, kind: 'leaf', inner: [] }];
      if (isList(field)) return [{ key, name, path, kind: 'list', inner: [] }];
      return [
        { key, name, path, kind: 'group', inner: compile(groupFields(field as GroupField | Fields), `${path}.`) },
      ];
    });
  const top = compile(fields, '');
  return (rendered) => {
    const disclosed: string[] = [];
    const walk = (group: readonly ClaimField[], values: Claims): Claims => {
      const out: Claims = {};
      for (const field of group) {
        const value = values[field.key];
        if (value === null || value === undefined) continue;
        if (field.kind === 'leaf' || (field.kind === 'list' && Array.isArray(value) && value.length)) {
          out[field.name] = value;
          disclosed.push(field.path);
        } else if (field.kind === 'group' && typeof value === 'object') {
          const inner = walk(field.inner, value as Claims);
          for (const _ in inner) {
            out[field.name] = inner;
            break;
          }
        }
      }
      return out;
    };
    const claims = walk(top, rendered);
    return { claims, fields: disclosed };
  };
}
