/**
 * How callers are identified (AUTH_MODE): the settings of each mode, the problems of a
 * combination that would not do what it seems to, and the mode's configuration.
 */
import { isIP } from 'node:net';
import { Type } from '@sinclair/typebox';
import { IdentityClaims, type OidcClaims, identityClaimsOf } from './claims.ts';
import type { EnvValues } from './read-env.ts';
import type { Settled } from './shape.ts';

const AUTH_MODES = ['mock', 'oidc', 'proxy'] as const;

export const Auth = {
  AUTH_MODE: Type.Optional(
    Type.Union(
      AUTH_MODES.map((mode) => Type.Literal(mode)),
      {
        description:
          'How callers are identified: mock (identity headers, from anyone), oidc (Bearer JWTs from ' +
          'OIDC_ISSUER) or proxy (identity headers, only from TRUSTED_PROXIES). Defaults to mock only ' +
          'without DATABASE_URL; with it, required',
      },
    ),
  ),
  OIDC_CLOCK_TOLERANCE_S: Type.Integer({
    minimum: 0,
    maximum: 300,
    default: 30,
    description: 'oidc: seconds of clock skew allowed on exp, nbf and iat',
  }),
  OIDC_JWKS_COOLDOWN_S: Type.Integer({
    minimum: 0,
    maximum: 3600,
    default: 30,
    description: "oidc: least seconds between two fetches of the issuer's keys when a token names an unknown key id",
  }),
  REQUIRE_BOUND_TOKENS: Type.Boolean({
    default: false,
    description:
      "oidc: refuse access tokens that are not bound to the caller's client certificate (RFC 8705 cnf " +
      'x5t#S256); needs TLS_CLIENT_CA',
  }),
  // Hardening (issue 11): how long a token may live, and roles in the mock.
  OIDC_MAX_TOKEN_LIFETIME_S: Type.Integer({
    minimum: 60,
    maximum: 2_592_000,
    default: 86_400,
    description: 'oidc: longest a token may live, exp minus iat, in seconds; a token meant to live longer is refused',
  }),
  MOCK_ENFORCE_ROLES: Type.Boolean({
    default: false,
    description:
      "mock: apply the production rules to the identity headers' roles (each dataset needs its role, the " +
      "audit report 'audit'); otherwise every dataset and the audit report are open to any identified " +
      'caller',
  }),
  TRUSTED_PROXIES: Type.Optional(
    Type.String({
      minLength: 1,
      description: 'proxy: comma list of the IP addresses or CIDR ranges whose identity headers are believed',
    }),
  ),
};

export const OidcConfig = Type.Object({
  mode: Type.Literal('oidc'),
  issuer: Type.String(),
  audience: Type.String(),
  clockToleranceS: Type.Number(),
  jwksCooldownS: Type.Number(),
  /** Longest a token may live (exp - iat), in seconds. */
  maxTokenLifetimeS: Type.Number(),
  /** Refuse tokens without a `cnf` binding them to the client certificate (RFC 8705). */
  requireBoundTokens: Type.Boolean(),
  claims: IdentityClaims,
});
export type OidcConfig = Settled<typeof OidcConfig>;

export const AuthConfig = Type.Union([
  Type.Object({ mode: Type.Literal('mock'), enforceRoles: Type.Boolean() }),
  Type.Object({ mode: Type.Literal('proxy'), trustedProxies: Type.Array(Type.String()) }),
  OidcConfig,
]);
export type AuthConfig = Settled<typeof AuthConfig>;

type AuthValues = EnvValues<typeof Auth & typeof OidcClaims> & { DATABASE_URL?: string; TLS_CLIENT_CA?: string };

const OIDC_KEYS = [
  'OIDC_ISSUER',
  'OIDC_AUDIENCE',
  'OIDC_CLOCK_TOLERANCE_S',
  'OIDC_JWKS_COOLDOWN_S',
  'OIDC_MAX_TOKEN_LIFETIME_S',
  'OIDC_USERNAME_CLAIM',
  'OIDC_CLIENT_CLAIM',
  'OIDC_ROLES_CLAIM',
  'OIDC_GROUPS_CLAIM',
  'REQUIRE_BOUND_TOKENS',
] as const;

/** Why a TRUSTED_PROXIES entry is refused, or undefined when it is an address or a CIDR range. */
function proxyEntryProblem(entry: string): string | undefined {
  const [address, prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (!family || rest.length) return `'${entry}' is not an IP address or a CIDR range`;
  if (prefix === undefined) return undefined;
  const bits = family === 4 ? 32 : 128;
  if (!/^\d{1,3}$/.test(prefix) || Number(prefix) > bits)
    return `'${entry}' has a prefix length that is not 0 to ${bits}`;
  if (Number(prefix) === 0) return `'${entry}' trusts every address; AUTH_MODE=mock says that plainly`;
  return undefined;
}

export function authProblems(value: AuthValues, given: (key: string) => boolean): string[] {
  const problems: string[] = [];
  const mode = value.AUTH_MODE;
  if (mode && !AUTH_MODES.includes(mode)) return problems; // already named as invalid
  if (!mode && value.DATABASE_URL) {
    problems.push(
      'AUTH_MODE is not set: with DATABASE_URL (a production database) it must be given explicitly, as ' +
        'oidc, proxy or mock, so that the service never falls back to believing identity headers from anyone',
    );
  }
  const effective = mode ?? (value.DATABASE_URL ? undefined : 'mock');
  if (effective === 'oidc') {
    if (!value.OIDC_ISSUER)
      problems.push('OIDC_ISSUER is not set: AUTH_MODE=oidc needs the issuer whose tokens are accepted');
    if (!value.OIDC_AUDIENCE) problems.push("OIDC_AUDIENCE is not set: AUTH_MODE=oidc needs this service's audience");
  } else if (effective) {
    const stray = OIDC_KEYS.filter(given);
    if (stray.length)
      problems.push(
        `${stray.join(', ')} ${stray.length > 1 ? 'are' : 'is'} set, but AUTH_MODE is ${effective}, not oidc`,
      );
  }
  if (effective && effective !== 'mock' && given('MOCK_ENFORCE_ROLES')) {
    problems.push(`MOCK_ENFORCE_ROLES is set, but AUTH_MODE is ${effective}, where roles are always enforced`);
  }
  if (effective === 'proxy') {
    if (!value.TRUSTED_PROXIES)
      problems.push(
        'TRUSTED_PROXIES is not set: AUTH_MODE=proxy needs the addresses of the proxies whose headers are believed',
      );
    for (const entry of value.TRUSTED_PROXIES?.split(',') ?? []) {
      const problem = proxyEntryProblem(entry.trim());
      if (problem) problems.push(`TRUSTED_PROXIES: ${problem}`);
    }
  } else if (effective && value.TRUSTED_PROXIES) {
    problems.push(`TRUSTED_PROXIES is set, but AUTH_MODE is ${effective}, not proxy`);
  }
  if (effective === 'oidc' && value.REQUIRE_BOUND_TOKENS && !value.TLS_CLIENT_CA) {
    problems.push(
      'REQUIRE_BOUND_TOKENS is true without TLS_CLIENT_CA: a token is bound to a client certificate, which ' +
        'only mutual TLS gives the service',
    );
  }
  return problems;
}

/** The mode's configuration, from settings authProblems found nothing wrong with. */
export function authConfig(value: AuthValues): AuthConfig {
  const mode = value.AUTH_MODE ?? 'mock';
  if (mode === 'proxy')
    return { mode, trustedProxies: (value.TRUSTED_PROXIES as string).split(',').map((entry) => entry.trim()) };
  if (mode === 'mock') return { mode, enforceRoles: value.MOCK_ENFORCE_ROLES };
  const audience = value.OIDC_AUDIENCE as string;
  return {
    mode,
    issuer: value.OIDC_ISSUER as string,
    audience,
    clockToleranceS: value.OIDC_CLOCK_TOLERANCE_S,
    jwksCooldownS: value.OIDC_JWKS_COOLDOWN_S,
    maxTokenLifetimeS: value.OIDC_MAX_TOKEN_LIFETIME_S,
    requireBoundTokens: value.REQUIRE_BOUND_TOKENS,
    claims: identityClaimsOf(value, audience),
  };
}
