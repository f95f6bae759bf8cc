/**
 * A credential's claims, derived from the record description as every other view is: the record
 * rendered for the caller (so what the caller may not see is null and left out here), without the
 * links to other registrations (each has its own credential) and without the blocked flag (a
 * blocked record has no credential, so it would always say false). Every claim, at every depth, is
 * disclosed separately: a group is disclosed as the container of the claims of it presented, a
 * list (aliases) as a whole. A field added to a description appears in credentials with no other
 * change.
 */
import type { TSchema } from '@sinclair/typebox';
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

/** A field a credential carries as one claim: a leaf, or a list as a whole. */
export interface ClaimField {
  /** Its keys in the rendered record. */
  readonly keys: readonly string[];
  /** Its claim's path: the same keys, the top one named by claimName. */
  readonly path: readonly string[];
  /** Its dot path, as the audit trail names it. */
  readonly field: string;
  /** What it is, from its description: each format's metadata labels the claim with it. */
  readonly label: string;
  /** The leaf's schema; none for a list. */
  readonly leaf?: TSchema;
}

/**
 * Every claim a credential of a type may carry, depth first in the description's order: each leaf
 * and list, without links (each registration has its own credential) or the blocked flag. The one
 * walk over a description that the claims of a record and every format's metadata follow.
 */
export function claimFields(type: string, fields: Fields, blockedFlag: string): ClaimField[] {
  const walk = (group: Fields, keys: readonly string[], path: readonly string[]): ClaimField[] =>
    Object.entries(group).flatMap(([key, field]): ClaimField[] => {
      const at = { keys: [...keys, key], path: [...path, keys.length ? key : claimName(type, key)] };
      const dotted = at.keys.join('.');
      if (isLink(field) || dotted === blockedFlag) return [];
      if (isLeaf(field)) return [{ ...at, field: dotted, label: String(field.description ?? key), leaf: field }];
      if (isList(field)) return [{ ...at, field: dotted, label: field.description }];
      return walk(groupFields(field as GroupField | Fields), at.keys, at.path);
    });
  return walk(fields, [], []);
}

/** The value at a path of nested objects; undefined where a step is missing or not an object. */
export const valueAt = (value: unknown, path: readonly string[]): unknown =>
  path.reduce<unknown>(
    (inner, key) => (inner !== null && typeof inner === 'object' ? (inner as Claims)[key] : undefined),
    value,
  );

/**
 * The claims of a rendered record, nothing recorded or nothing visible left out (a group with
 * nothing left is left out whole, a list when empty), and the dot paths of the record's fields they
 * hold (a list counts as one field), as the audit trail names them. What depends on the
 * description alone (which fields, their names and paths) is worked out here, once a type; what is
 * left for each record is its values.
 */
export function compileClaims(
  type: string,
  fields: Fields,
  blockedFlag: string,
): (rendered: Claims) => { claims: Claims; fields: string[] } {
  const all = claimFields(type, fields, blockedFlag);
  return (rendered) => {
    const claims: Claims = {};
    const disclosed: string[] = [];
    for (const { keys, path, field, leaf } of all) {
      const value = valueAt(rendered, keys);
      if (value === null || value === undefined || (!leaf && !(Array.isArray(value) && value.length))) continue;
      // Depth first, a group is made at its first claim, so its members come in the description's order.
      let group = claims;
      for (const key of path.slice(0, -1)) group = (group[key] ??= {}) as Claims;
      group[path[path.length - 1]] = value;
      disclosed.push(field);
    }
    return { claims, fields: disclosed };
  };
}
