/**
 * Who is calling, by the configured AUTH_MODE: `mock` believes the identity
 * headers from anyone, `proxy` believes them only from TRUSTED_PROXIES, and
 * `oidc` verifies a Bearer JWT from OIDC_ISSUER. Each gives the same Identity
 * or throws the ApiError to answer with (401, or 503 when the issuer's keys
 * cannot be had).
 */
import type { Config } from '../config/index.ts';
import { ConfigError } from '../errors.ts';
import { forbidden } from '../errors.ts';
import { type Identifier, type Identity, SUGGEST_ROLE } from '../model/identity.ts';
import { mockIdentifier } from './mock.ts';
import { oidcIdentifier } from './oidc.ts';
import { proxyIdentifier } from './proxy.ts';

export function createIdentifier(config: Pick<Config, 'auth'>): Identifier {
  const { auth } = config;
  if (!auth)
    throw new ConfigError(
      'No authentication settings: this configuration was loaded for a command that serves nothing',
    );
  switch (auth.mode) {
    case 'mock':
      return mockIdentifier;
    case 'proxy':
      return proxyIdentifier(auth.trustedProxies);
    case 'oidc':
      return oidcIdentifier(auth);
  }
}

/**
 * Whether roles are checked: always in `proxy` and `oidc`; in `mock` only with
 * MOCK_ENFORCE_ROLES, otherwise every dataset and the audit report are open to
 * any identified caller, as they were (lev-web calls with no roles at all).
 * Without settings (a test's own identifier), as in the real modes.
 */
export const enforcesRoles = (auth: Config['auth']): boolean => auth?.mode !== 'mock' || auth.enforceRoles;

/**
 * The one authorisation rule, for a dataset (its role is its name) and for the
 * audit report (the `audit` role) alike: when roles are enforced, the caller
 * must hold the role; `what` names the thing refused, for the 403's message.
 */
export function authorise(enforceRoles: boolean, identity: Identity | undefined, role: string, what: string): void {
  if (enforceRoles && !identity?.roles.includes(role)) throw forbidden(`${what} the '${role}' role`);
}

/** A dataset's records need the role named after the dataset. */
export const authoriseDataset = (enforceRoles: boolean, identity: Identity, dataset: string): void =>
  authorise(enforceRoles, identity, dataset, `The ${dataset} records need`);

/** The role that allows verifying a dataset's registrations without reading them. */
export const verifyRole = (dataset: string) => `${dataset}-verify`;

/**
 * Whether the caller may verify against the dataset: with its `<dataset>-verify` role, or with
 * the dataset's own role (reading includes verifying). Open where roles are not enforced, as the
 * datasets are.
 */
export function authoriseVerification(enforceRoles: boolean, identity: Identity, dataset: string): void {
  if (enforceRoles && !identity.roles.includes(dataset) && !identity.roles.includes(verifyRole(dataset))) {
    throw forbidden(`Verifying ${dataset} registrations needs the '${verifyRole(dataset)}' role (or '${dataset}')`);
  }
}

export { SUGGEST_ROLE };

/**
 * Whether the caller may ask for close matches in the dataset: with the `suggest` role as well as
 * the dataset's own (close matches disclose records, as a search does, and more of them). Open
 * where roles are not enforced, as the datasets are.
 */
export function authoriseSuggestion(enforceRoles: boolean, identity: Identity, dataset: string): void {
  authoriseDataset(enforceRoles, identity, dataset);
  authorise(enforceRoles, identity, SUGGEST_ROLE, `Close matches in the ${dataset} records need`);
}
