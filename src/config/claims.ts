/**
 * Which claims of an OpenID Connect token give the caller's identity: the settings, and their
 * parsing into paths. The API reads tokens with them (auth/oidc.ts), the pages sign in with them.
 */
import { Type } from '@sinclair/typebox';
import type { EnvValues } from './read-env.ts';
import type { Settled } from './shape.ts';

/** Comma list of claim names, or dotted paths into the claims; `{audience}` stands for OIDC_AUDIENCE. */
const claimList = (value: string, description: string) =>
  Type.String({ pattern: '^[^,\\s]+(,[^,\\s]+)*$', default: value, description });

/** Which issuer's tokens, and what their claims mean: the API checks them, the pages sign caseworkers in with them. */
export const OidcClaims = {
  OIDC_ISSUER: Type.Optional(
    Type.String({
      pattern: '^https?://[^\\s?#]+$',
      description: "oidc: the issuer URL, exactly as tokens' iss claim gives it; its discovery document names the keys",
    }),
  ),
  OIDC_AUDIENCE: Type.Optional(
    Type.String({ pattern: '^\\S+$', description: "oidc: the API's audience; tokens' aud claim must contain it" }),
  ),
  OIDC_USERNAME_CLAIM: claimList('preferred_username,sub', 'oidc: claims giving the username, the first present wins'),
  OIDC_CLIENT_CLAIM: claimList('azp,client_id', 'oidc: claims giving the client, the first present wins'),
  OIDC_ROLES_CLAIM: claimList(
    'realm_access.roles,resource_access.{audience}.roles',
    'oidc: claims (dotted paths; {audience} is OIDC_AUDIENCE) whose roles are merged',
  ),
  OIDC_GROUPS_CLAIM: claimList('groups', 'oidc: claims (dotted paths) whose groups are merged'),
};

/** A claim's name, and the path into the claims that the name read as dotted segments gives. */
export const ClaimPath = Type.Object({
  name: Type.String(),
  segments: Type.Array(Type.String()),
});
export type ClaimPath = Settled<typeof ClaimPath>;

/** Claim names or paths (each a list of segments) for each part of the identity. */
export const IdentityClaims = Type.Object({
  username: Type.Array(ClaimPath),
  client: Type.Array(ClaimPath),
  roles: Type.Array(ClaimPath),
  groups: Type.Array(ClaimPath),
});
export type IdentityClaims = Settled<typeof IdentityClaims>;

const claimPaths = (list: string, audience: string): ClaimPath[] =>
  list.split(',').map((name) => ({
    name,
    segments: name.split('.').map((segment) => (segment === '{audience}' ? audience : segment)),
  }));

/** The claim settings as paths, `{audience}` replaced by the audience. */
export const identityClaimsOf = (value: EnvValues<typeof OidcClaims>, audience: string): IdentityClaims => ({
  username: claimPaths(value.OIDC_USERNAME_CLAIM, audience),
  client: claimPaths(value.OIDC_CLIENT_CLAIM, audience),
  roles: claimPaths(value.OIDC_ROLES_CLAIM, audience),
  groups: claimPaths(value.OIDC_GROUPS_CLAIM, audience),
});
