/**
 * Who is calling, by the configured AUTH_MODE: `mock` believes the identity
 * headers from anyone, `proxy` believes them only from TRUSTED_PROXIES, and
 * `oidc` verifies a Bearer JWT from OIDC_ISSUER. Each gives the same Identity
 * or throws the ApiError to answer with (401, or 503 when the issuer's keys
 * cannot be had).
 */
import type { IncomingHttpHeaders } from 'node:http';
import { type AuthMode, type Config, ConfigError } from '../config.ts';
import type { PresentedCertificate } from './client-certificate.ts';
import { forbidden } from '../http/errors.ts';
import type { Identity } from '../http/identity.ts';
import { mockIdentifier } from './mock.ts';
import { oidcIdentifier } from './oidc.ts';
import { proxyIdentifier } from './proxy.ts';

/** The parts of a request that identify its caller (a FastifyRequest has them). */
export interface Caller {
  readonly headers: IncomingHttpHeaders;
  readonly socket: { readonly remoteAddress?: string };
  /** The client certificate of the connection (mutual TLS), which a bound token must name. */
  readonly clientCertificate?: Pick<PresentedCertificate, 'thumbprint'>;
}

export type Identifier = (caller: Caller) => Promise<Identity>;

export function createIdentifier(config: Pick<Config, 'auth'>): Identifier {
  const { auth } = config;
  if (!auth) throw new ConfigError('No authentication settings: this configuration was loaded for a command that serves nothing');
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
 * Whether the caller may read the dataset: in `mock` mode every dataset is
 * open, as it was; otherwise each needs the role named after it.
 */
export function authoriseDataset(mode: AuthMode, identity: Identity, dataset: string): void {
  if (mode !== 'mock' && !identity.roles.includes(dataset)) {
    throw forbidden(`The ${dataset} records need the '${dataset}' role`);
  }
}

/** The role that allows verifying a dataset's registrations without reading them. */
export const verifyRole = (dataset: string) => `${dataset}-verify`;

/**
 * Whether the caller may verify against the dataset: with its `<dataset>-verify` role, or with
 * the dataset's own role (reading includes verifying). Open in `mock` mode, as the datasets are.
 */
export function authoriseVerification(mode: AuthMode, identity: Identity, dataset: string): void {
  if (mode !== 'mock' && !identity.roles.includes(dataset) && !identity.roles.includes(verifyRole(dataset))) {
    throw forbidden(`Verifying ${dataset} registrations needs the '${verifyRole(dataset)}' role (or '${dataset}')`);
  }
}
