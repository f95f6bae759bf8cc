/**
 * The settings of the pages served as a process of their own, in front of the API (`lev-api ui`).
 */
import { Type } from '@sinclair/typebox';
import { ConfigError } from '../errors.ts';
import { IdentityClaims, OidcClaims, identityClaimsOf } from './claims.ts';
import { certificatesIn, readSetting } from './pem.ts';
import { readEnv, referenceOf } from './read-env.ts';
import { ConnectionLimits, ConnectionSettings, Listening, LogLevel, connectionsOf } from './server.ts';
import { Sessions, UiSessionConfig, sessionsOf } from './sessions.ts';
import { opaque, type Settled } from './shape.ts';
import { TlsConfig, tlsConfig } from './tls.ts';
import { TracingConfig, tracingOf } from './tracing.ts';

const UiEnv = Type.Object({
  ...Listening,
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 8081, description: 'TCP port to listen on' }),
  UI_API_URL: Type.String({
    pattern: '^https?://[^\\s?#]+$',
    description:
      "The API the pages call, as each signed-in caseworker (e.g. https://lev-api.internal:8443); 'lev-api " +
      "ui --api-url' gives it too",
  }),
  AUTH_MODE: Type.Union([Type.Literal('mock'), Type.Literal('oidc')], {
    default: 'mock',
    description:
      'How caseworkers sign in: mock (they choose who they are; for an API in mock mode) or oidc ' +
      "(OIDC_ISSUER's authorisation-code flow with PKCE, the API called with their access token)",
  }),
  UI_PUBLIC_URL: Type.Optional(
    Type.String({
      pattern: '^https?://[^\\s?#]+[^/\\s?#]$',
      description:
        'oidc: the address caseworkers reach the pages at (scheme, host, port), to which the issuer sends them back',
    }),
  ),
  UI_OIDC_CLIENT_ID: Type.Optional(
    Type.String({ minLength: 1, description: "oidc: the pages' client id at the issuer" }),
  ),
  UI_OIDC_CLIENT_SECRET: Type.Optional(
    Type.String({ minLength: 1, description: "oidc: the pages' client secret (client_secret_basic)" }),
  ),
  UI_OIDC_SCOPE: Type.String({
    pattern: '^\\S+( \\S+)*$',
    default: 'openid',
    description: 'oidc: the scopes asked for at sign-in',
  }),
  UI_CREDENTIAL_ISSUER: Type.Optional(
    Type.String({
      pattern: '^https?://[^\\s?#]+[^/\\s?#]$',
      description:
        'The issuer of digital certificates the pages\' "Check a digital certificate" believes (the API\'s ' +
        'CREDENTIAL_ISSUER_URL); its keys and status lists are fetched from it. Without it the pages offer ' +
        'no certificate check. https:// unless AUTH_MODE=mock',
    }),
  ),
  UI_API_CA: Type.Optional(
    Type.String({
      minLength: 1,
      description: "PEM file of the CA certificates the API's certificate is checked against, besides the system's",
    }),
  ),
  UI_API_CLIENT_CERT: Type.Optional(
    Type.String({
      minLength: 1,
      description:
        'PEM file of the client certificate the pages present to the API (mutual TLS); with UI_API_CLIENT_KEY',
    }),
  ),
  UI_API_CLIENT_KEY: Type.Optional(
    Type.String({ minLength: 1, description: 'PEM file of the private key of UI_API_CLIENT_CERT (unencrypted)' }),
  ),
  ...ConnectionSettings,
  ...Sessions,
  ...OidcClaims,
});

export const UiSignInConfig = Type.Object({
  issuer: Type.String(),
  clientId: Type.String(),
  clientSecret: Type.String(),
  scope: Type.String(),
  /** Where the issuer sends a caseworker back: UI_PUBLIC_URL + /ui/auth/callback. */
  redirectUri: Type.String(),
  claims: IdentityClaims,
});
export type UiSignInConfig = Settled<typeof UiSignInConfig>;

export const UiConfig = Type.Object({
  port: Type.Number(),
  host: Type.String(),
  logLevel: LogLevel,
  apiUrl: Type.String(),
  /** How the API's TLS is checked, and the certificate the pages present to it. */
  apiTls: Type.Optional(
    Type.Object({
      ca: Type.Optional(opaque<Buffer>()),
      cert: Type.Optional(opaque<Buffer>()),
      key: Type.Optional(opaque<Buffer>()),
    }),
  ),
  tls: Type.Optional(TlsConfig),
  connections: ConnectionLimits,
  sessions: UiSessionConfig,
  /** The credential issuer the certificate check believes; no check offered when absent. */
  credentialIssuer: Type.Optional(Type.String()),
  /** OpenID Connect sign-in; the mock's sign-in when absent. */
  oidc: Type.Optional(UiSignInConfig),
  /** OpenTelemetry traces (tracing.ts); off when absent. */
  tracing: Type.Optional(TracingConfig),
});
export type UiConfig = Settled<typeof UiConfig>;

/** Reads and checks the pages' own settings (`lev-api ui`); throws a ConfigError naming every bad variable. */
export function loadUiConfig(env: Record<string, string | undefined>): UiConfig {
  const { value, problems, given } = readEnv(UiEnv, env);
  const oidcKeys = [
    'OIDC_ISSUER',
    'OIDC_AUDIENCE',
    'UI_PUBLIC_URL',
    'UI_OIDC_CLIENT_ID',
    'UI_OIDC_CLIENT_SECRET',
    'UI_OIDC_SCOPE',
  ];
  if (value.AUTH_MODE === 'oidc') {
    for (const key of ['OIDC_ISSUER', 'UI_PUBLIC_URL', 'UI_OIDC_CLIENT_ID', 'UI_OIDC_CLIENT_SECRET']) {
      if (!given(key))
        problems.push(
          `${key} is not set: AUTH_MODE=oidc signs caseworkers in at OIDC_ISSUER as the client ` +
            'UI_OIDC_CLIENT_ID, and needs UI_PUBLIC_URL to be sent back to',
        );
    }
  } else {
    const stray = oidcKeys.filter(given);
    if (stray.length)
      problems.push(`${stray.join(', ')} ${stray.length > 1 ? 'are' : 'is'} set, but AUTH_MODE is mock, not oidc`);
  }
  const sessions = sessionsOf(value, given, problems);
  if (Boolean(value.UI_API_CLIENT_CERT) !== Boolean(value.UI_API_CLIENT_KEY)) {
    problems.push(
      'UI_API_CLIENT_CERT and UI_API_CLIENT_KEY go together (the certificate the pages present to the API, ' +
        'and its private key)',
    );
  }
  const tls = tlsConfig(value, problems);
  const connections = connectionsOf(value, problems);
  const ca = value.UI_API_CA ? readSetting('UI_API_CA', value.UI_API_CA, problems) : undefined;
  if (ca) certificatesIn('UI_API_CA', value.UI_API_CA as string, ca, problems);
  const cert = value.UI_API_CLIENT_CERT
    ? readSetting('UI_API_CLIENT_CERT', value.UI_API_CLIENT_CERT, problems)
    : undefined;
  const key = value.UI_API_CLIENT_KEY ? readSetting('UI_API_CLIENT_KEY', value.UI_API_CLIENT_KEY, problems) : undefined;
  if (value.UI_CREDENTIAL_ISSUER?.startsWith('http://') && value.AUTH_MODE !== 'mock') {
    problems.push(
      `UI_CREDENTIAL_ISSUER=${value.UI_CREDENTIAL_ISSUER}: an issuer believed outside AUTH_MODE=mock is ` +
        'reached over https://',
    );
  }
  const tracing = tracingOf(env, problems);
  if (problems.length) throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  return {
    port: value.PORT,
    host: value.HOST,
    logLevel: value.LOG_LEVEL,
    apiUrl: value.UI_API_URL.replace(/\/+$/, ''),
    apiTls: ca || cert ? { ca, cert, key } : undefined,
    tls,
    connections,
    sessions,
    ...(value.UI_CREDENTIAL_ISSUER ? { credentialIssuer: value.UI_CREDENTIAL_ISSUER } : {}),
    oidc:
      value.AUTH_MODE === 'oidc'
        ? {
            issuer: value.OIDC_ISSUER as string,
            clientId: value.UI_OIDC_CLIENT_ID as string,
            clientSecret: value.UI_OIDC_CLIENT_SECRET as string,
            scope: value.UI_OIDC_SCOPE,
            redirectUri: `${value.UI_PUBLIC_URL}/ui/auth/callback`,
            claims: identityClaimsOf(value, value.OIDC_AUDIENCE ?? ''),
          }
        : undefined,
    ...(tracing ? { tracing } : {}),
  };
}

/** The pages' own settings, for `lev-api ui --help`. */
export const uiConfigReference = () => referenceOf(UiEnv);
