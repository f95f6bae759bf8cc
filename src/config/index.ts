/**
 * The only reader of the environment. Everything else is given a Config.
 *
 * The API's settings are the groups each module of this folder declares, in the order the docs
 * list them; loadConfig reads them all, checks each group and the groups against each other,
 * and throws one ConfigError naming every bad variable.
 */
import { Type } from '@sinclair/typebox';
import { ConfigError } from '../errors.ts';
import { Audit, AuditCheckpointConfig, EmbeddedAuditConfig, auditCheckpointsOf, embeddedAuditOf } from './audit.ts';
import { Auth, AuthConfig, authConfig, authProblems } from './auth.ts';
import { OidcClaims } from './claims.ts';
import { Credentials, CredentialsConfig, credentialsOf } from './credentials.ts';
import { Database, DatabaseConfig, databaseOf } from './database.ts';
import { Events, EventsConfig, eventsOf } from './events.ts';
import { RateLimit, RateLimitConfig, rateLimitConfig } from './rate-limit.ts';
import { readEnv, referenceOf } from './read-env.ts';
import { RenderCache, renderCacheBytesOf } from './render-cache.ts';
import { MaxResults, SuggestMinProbability, SuggestThreads } from './search.ts';
import { Sessions, UiSessionConfig, sessionsOf } from './sessions.ts';
import { ConnectionLimits, ConnectionSettings, Cors, Listening, LogLevel, connectionsOf } from './server.ts';
import type { Settled } from './shape.ts';
import { ClientCa, TlsConfig, tlsConfig } from './tls.ts';
import { TracingConfig, tracingOf } from './tracing.ts';
import { Verification, VerificationConfig, verificationOf } from './verification.ts';
import { Wallet, WalletConfig, walletOf } from './wallet.ts';

const Env = Type.Object({
  ...Listening,
  ...Sessions,
  ...OidcClaims,
  ...Database,
  ...Audit,
  ...Events,
  ...MaxResults,
  ...ConnectionSettings,
  ...RenderCache,
  ...Auth,
  ...ClientCa,
  ...Cors,
  ...RateLimit,
  ...Verification,
  ...SuggestMinProbability,
  ...SuggestThreads,
  ...Credentials,
  ...Wallet,
});

export const Config = Type.Object({
  port: Type.Number(),
  host: Type.String(),
  database: Type.Optional(DatabaseConfig),
  dataPath: Type.Optional(Type.String()),
  /** The embedded store's audit trail (a server's is its audit table). */
  embeddedAudit: EmbeddedAuditConfig,
  /** The audit trail's signed checkpoints, in either store. */
  auditCheckpoints: AuditCheckpointConfig,
  maxResults: Type.Number(),
  /** Origins whose pages may call the API from a browser (CORS); none when empty. */
  corsOrigins: Type.Array(Type.String()),
  /** The caseworkers' pages (served at /ui in mock mode). */
  ui: UiSessionConfig,
  /** What a connection may take of the server before it is refused or cut off. */
  connections: ConnectionLimits,
  /** Bound of the rendered-record cache, in bytes (string lengths); 0 for none. */
  renderCacheBytes: Type.Number(),
  logLevel: LogLevel,
  /** How callers are identified; absent only from a configuration loaded with `serving: false`. */
  auth: Type.Optional(AuthConfig),
  /** HTTPS (and client certificates): the files' contents, read and checked at load. */
  tls: Type.Optional(TlsConfig),
  /** The per-client token bucket; absent when RATE_LIMIT_PER_MINUTE is unset (no limit). */
  rateLimit: Type.Optional(RateLimitConfig),
  verification: VerificationConfig,
  /** Close matches scoring under this (0 to 1) are never returned. */
  suggestMinProbability: Type.Number(),
  /** Threads finding close matches, each with its own copy of the index. */
  suggestThreads: Type.Number(),
  events: EventsConfig,
  /** Digital certificates: issuer, keys, validity (credentials.ts). */
  credentials: CredentialsConfig,
  /** The wallet pick-up over OpenID4VCI (wallet.ts). */
  wallet: WalletConfig,
  /** OpenTelemetry traces (tracing.ts); off when absent. */
  tracing: Type.Optional(TracingConfig),
});
export type Config = Settled<typeof Config>;

export interface LoadOptions {
  /**
   * False for commands that serve no requests (migrate, load, audit): the
   * authentication settings are then neither required nor read.
   */
  readonly serving?: boolean;
}

/** Reads and checks the settings; throws a ConfigError naming every bad variable. */
export function loadConfig(env: Record<string, string | undefined>, { serving = true }: LoadOptions = {}): Config {
  const { value, problems, given } = readEnv(Env, env);
  const database = databaseOf(value, problems);
  const embeddedAudit = embeddedAuditOf(value, problems);
  const connections = connectionsOf(value, problems);
  if (serving) problems.push(...authProblems(value, given));
  const ui = sessionsOf(value, given, problems);
  const tls = serving ? tlsConfig(value, problems) : undefined;
  const auditCheckpoints = auditCheckpointsOf(value, problems);
  const rateLimit = serving ? rateLimitConfig(value, given, problems) : undefined;
  const events = eventsOf(value, problems);
  const credentials = credentialsOf(value, problems);
  const wallet = walletOf(value, problems);
  const tracing = tracingOf(env, problems);
  if (problems.length) throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  return {
    port: value.PORT,
    host: value.HOST,
    database,
    dataPath: value.LEV_DATA,
    embeddedAudit,
    auditCheckpoints,
    maxResults: value.MAX_RESULTS,
    corsOrigins: value.CORS_ORIGINS?.split(',') ?? [],
    ui,
    connections,
    renderCacheBytes: renderCacheBytesOf(value),
    logLevel: value.LOG_LEVEL,
    auth: serving ? authConfig(value) : undefined,
    tls,
    rateLimit,
    verification: verificationOf(value),
    events,
    suggestMinProbability: value.SUGGEST_MIN_PROBABILITY,
    suggestThreads: value.SUGGEST_THREADS,
    credentials,
    wallet,
    ...(tracing ? { tracing } : {}),
  };
}

/** The settings, for the README and `--help`. */
export const configReference = () => referenceOf(Env);
