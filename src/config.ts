/**
 * The only reader of the environment. Everything else is given a Config.
 */
import { type KeyObject, X509Certificate, createPrivateKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { type Static, type TObject, Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { ConfigError } from './errors.ts';
import { networkList, webhookUrlProblem } from './webhook-addresses.ts';

const AUTH_MODES = ['mock', 'oidc', 'proxy'] as const;
export type AuthMode = (typeof AUTH_MODES)[number];

/** Comma list of claim names, or dotted paths into the claims; `{audience}` stands for OIDC_AUDIENCE. */
const claimList = (value: string, description: string) =>
  Type.String({ pattern: '^[^,\\s]+(,[^,\\s]+)*$', default: value, description });

/**
 * The embedded store's records are few and all in memory already, so their renderings are found
 * again: 256 MB (a bound, not a reservation) holds the benchmark's 80,000 records' renderings.
 * With a server there is no default cache: at national size lookups rarely repeat soon enough
 * to be found, and a cache that mostly misses costs memory and garbage collection (measured at
 * 10,000,000 births: 64 MB of cache took the process from 149 to 350 MB and slowed lookups).
 */
const EMBEDDED_RENDER_CACHE_MB = 256;

/** Where and how a process listens: the API's and the pages' own (`lev-api ui`) alike. */
const Listening = {
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 8080, description: 'TCP port to listen on' }),
  HOST: Type.String({ minLength: 1, default: '0.0.0.0', description: 'Address to listen on' }),
  TLS_CERT: Type.Optional(
    Type.String({ minLength: 1, description: 'PEM file of the certificate the service presents (then its chain); with TLS_KEY, the service serves HTTPS only' }),
  ),
  TLS_KEY: Type.Optional(Type.String({ minLength: 1, description: 'PEM file of the private key of TLS_CERT (unencrypted)' })),
  LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((level) => Type.Literal(level)),
    { default: 'info', description: 'pino log level' },
  ),
};

/** What a connection may take of the server, for the API and the pages' own process alike (http/transport.ts). */
const ConnectionSettings = {
  REQUEST_TIMEOUT_S: Type.Integer({
    minimum: 1,
    maximum: 3600,
    default: 30,
    description: 'Seconds a client has to send a whole request (line, headers and body); a slower one gets 408 and is disconnected',
  }),
  HEADERS_TIMEOUT_S: Type.Integer({
    minimum: 1,
    maximum: 3600,
    default: 10,
    description: 'Seconds a client has to send the request line and headers; at most REQUEST_TIMEOUT_S',
  }),
  KEEP_ALIVE_TIMEOUT_S: Type.Integer({
    minimum: 1,
    maximum: 3600,
    default: 72,
    description: 'Seconds a connection may stay open idle between requests',
  }),
  MAX_CONNECTIONS: Type.Integer({
    minimum: 1,
    maximum: 1_000_000,
    default: 10_000,
    description:
      'Open connections the process serves at once; beyond it, a new connection that sends its request at once takes the place of the connection idle longest, and one that does not is closed',
  }),
};

/** The caseworkers' sessions, wherever the pages are served. */
const Sessions = {
  UI_IDLE_TIMEOUT_MIN: Type.Integer({
    minimum: 1,
    maximum: 480,
    default: 30,
    description: "Minutes without a request after which a caseworker's session of the pages at /ui ends (they are warned before)",
  }),
  REDIS_URL: Type.Optional(
    Type.String({
      pattern: '^rediss?://\\S+$',
      description: "Redis that every process shares the rate-limit buckets and the caseworkers' sessions through; without it, each process keeps its own",
    }),
  ),
  REDIS_KEY_PREFIX: Type.String({ pattern: '^[\\x21-\\x7e]{1,64}$', default: 'lev-api:', description: 'Prefix of the keys the service keeps in Redis' }),
};

/** Which issuer's tokens, and what their claims mean: the API checks them, the pages sign caseworkers in with them. */
const OidcClaims = {
  OIDC_ISSUER: Type.Optional(
    Type.String({ pattern: '^https?://[^\\s?#]+$', description: "oidc: the issuer URL, exactly as tokens' iss claim gives it; its discovery document names the keys" }),
  ),
  OIDC_AUDIENCE: Type.Optional(Type.String({ pattern: '^\\S+$', description: "oidc: the API's audience; tokens' aud claim must contain it" })),
  OIDC_USERNAME_CLAIM: claimList('preferred_username,sub', 'oidc: claims giving the username, the first present wins'),
  OIDC_CLIENT_CLAIM: claimList('azp,client_id', 'oidc: claims giving the client, the first present wins'),
  OIDC_ROLES_CLAIM: claimList(
    'realm_access.roles,resource_access.{audience}.roles',
    'oidc: claims (dotted paths; {audience} is OIDC_AUDIENCE) whose roles are merged',
  ),
  OIDC_GROUPS_CLAIM: claimList('groups', 'oidc: claims (dotted paths) whose groups are merged'),
};

const Env = Type.Object({
  ...Listening,
  ...Sessions,
  ...OidcClaims,
  DATABASE_URL: Type.Optional(
    Type.String({
      pattern: '^postgres(ql)?://',
      description: 'PostgreSQL server; without it the embedded store is used',
    }),
  ),
  DATABASE_READ_URLS: Type.Optional(
    Type.String({
      pattern: '^postgres(ql)?://[^,]+(,postgres(ql)?://[^,]+)*$',
      description: 'Comma-separated read replicas for lookups and searches; audit and loads use DATABASE_URL',
    }),
  ),
  DATABASE_SCHEMA: Type.Optional(
    Type.String({ pattern: '^[a-z_][a-z0-9_]{0,62}$', description: 'PostgreSQL schema to use (search_path)' }),
  ),
  DATABASE_POOL_SIZE: Type.Integer({ minimum: 1, maximum: 200, default: 10, description: 'Connections per process' }),
  STATEMENT_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 600000, default: 5000, description: 'Per-statement timeout' }),
  LEV_DATA: Type.Optional(
    Type.String({ minLength: 1, description: 'File or folder of records (JSON or NDJSON) to serve instead of the built-in mock data' }),
  ),
  AUDIT_FILE: Type.Optional(
    Type.String({
      minLength: 1,
      description:
        "Embedded store only: file the audit trail is appended to (NDJSON, hash-chained, checked by 'lev-api audit verify --file'), its latest head kept beside it in FILE.head; without it the trail is kept only in memory",
    }),
  ),
  AUDIT_FILE_MAX_MB: Type.Integer({ minimum: 1, maximum: 100000, default: 64, description: 'Size at which AUDIT_FILE is rotated (FILE becomes FILE.1, and so on)' }),
  AUDIT_FILE_KEEP: Type.Integer({ minimum: 0, maximum: 1000, default: 9, description: 'Rotated audit files kept besides the current one; older ones are deleted' }),
  AUDIT_MEMORY_ENTRIES: Type.Integer({
    minimum: 1,
    maximum: 10_000_000,
    default: 10_000,
    description: 'Embedded store only: the latest audit entries kept in memory for the audit report',
  }),
  AUDIT_CHECKPOINT_S: Type.Integer({
    minimum: 1,
    maximum: 86400,
    default: 60,
    description: "Seconds between signed checkpoints of the audit trail (its size and every writer's head), listed at /api/v0/audit/checkpoints for witnesses to keep",
  }),
  AUDIT_SIGNING_KEY: Type.Optional(
    Type.String({
      minLength: 1,
      description: "Ed25519 private key that signs the audit trail's checkpoints: PKCS#8, PEM or its DER in base64. Without it each process makes one at start, which no witness can know beforehand",
    }),
  ),
  EVENTS_RETENTION_DAYS: Type.Integer({
    minimum: 1,
    maximum: 3650,
    default: 35,
    description: "Days the change feed keeps its events (GET /v1/events); a reader further behind is told to start again from a date (410 CursorExpired)",
  }),
  MOCK_EVENT_INTERVAL_S: Type.Integer({
    minimum: 0,
    maximum: 86_400,
    default: 30,
    description: 'Embedded store with the built-in records: seconds between the invented registrations added to the mock (each a birth.registered, death.registered... event); 0 adds none',
  }),
  EVENTS_DELIVERY: Type.Optional(
    Type.Union([Type.Literal('on'), Type.Literal('off')], {
      description: "'on' runs webhook delivery workers in the serving process (as 'lev-api deliver' does on its own); default on for the embedded store (the mock), off with DATABASE_URL",
    }),
  ),
  WEBHOOK_TIMEOUT_S: Type.Integer({ minimum: 1, maximum: 120, default: 15, description: "Seconds a webhook receiver has to answer 2xx before the attempt counts as failed and is retried" }),
  WEBHOOK_RETRY_HOURS: Type.Integer({
    minimum: 1,
    maximum: 720,
    default: 72,
    description: "Hours a webhook event is retried (exponential backoff with jitter) before it goes to the subscription's dead letters",
  }),
  WEBHOOK_LEASE_S: Type.Integer({
    minimum: 5,
    maximum: 3600,
    default: 30,
    description: "Seconds a delivery worker holds a subscription's lease: another worker takes a dead worker's subscriptions over within this",
  }),
  WEBHOOK_ALLOW_HTTP: Type.Union([Type.Literal('no'), Type.Literal('loopback')], {
    default: 'no',
    description: "'loopback' allows plain http webhook URLs to a loopback address written in the URL (tests, a local receiver); otherwise https only",
  }),
  WEBHOOK_ALLOWED_NETWORKS: Type.Optional(
    Type.String({
      pattern: '^[0-9a-fA-F:.]+/[0-9]{1,3}(,[0-9a-fA-F:.]+/[0-9]{1,3})*$',
      description: 'Comma list of networks (CIDR) webhooks may be delivered to although private, loopback or link-local, e.g. 10.20.0.0/16',
    }),
  ),
  WEBHOOK_CA_FILE: Type.Optional(Type.String({ minLength: 1, description: "PEM file of CA certificates a webhook receiver's certificate may chain to, besides the public ones" })),
  MOCK_WEBHOOKS: Type.Optional(
    Type.String({
      pattern: '^\\S+$',
      description: 'Embedded store: comma list of URLs subscribed to every event as webhooks at start (each secret printed once); implies EVENTS_DELIVERY=on',
    }),
  ),
  MAX_RESULTS: Type.Integer({ minimum: 1, maximum: 1000, default: 25, description: 'Most records a search returns' }),
  ...ConnectionSettings,
  RENDER_CACHE_MB: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 65536,
      description:
        'Memory for rendered records, each reused while its stored text is unchanged (least recently used go first); ' +
        `0 for none. Default ${EMBEDDED_RENDER_CACHE_MB} on the embedded store, 0 (none) with DATABASE_URL`,
    }),
  ),
  AUTH_MODE: Type.Optional(
    Type.Union(
      AUTH_MODES.map((mode) => Type.Literal(mode)),
      {
        description:
          'How callers are identified: mock (identity headers, from anyone), oidc (Bearer JWTs from OIDC_ISSUER) or proxy (identity headers, only from TRUSTED_PROXIES). Defaults to mock only without DATABASE_URL; with it, required',
      },
    ),
  ),
  OIDC_CLOCK_TOLERANCE_S: Type.Integer({ minimum: 0, maximum: 300, default: 30, description: 'oidc: seconds of clock skew allowed on exp, nbf and iat' }),
  OIDC_JWKS_COOLDOWN_S: Type.Integer({
    minimum: 0,
    maximum: 3600,
    default: 30,
    description: "oidc: least seconds between two fetches of the issuer's keys when a token names an unknown key id",
  }),
  REQUIRE_BOUND_TOKENS: Type.Boolean({
    default: false,
    description: "oidc: refuse access tokens that are not bound to the caller's client certificate (RFC 8705 cnf x5t#S256); needs TLS_CLIENT_CA",
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
    description: "mock: apply the production rules to the identity headers' roles (each dataset needs its role, the audit report 'audit'); otherwise every dataset and the audit report are open to any identified caller",
  }),
  TRUSTED_PROXIES: Type.Optional(
    Type.String({ minLength: 1, description: 'proxy: comma list of the IP addresses or CIDR ranges whose identity headers are believed' }),
  ),
  TLS_CLIENT_CA: Type.Optional(
    Type.String({
      minLength: 1,
      description: 'PEM file of the CA certificates whose client certificates are accepted: every connection must then present one (mutual TLS); needs TLS_CERT',
    }),
  ),
  CORS_ORIGINS: Type.Optional(
    Type.String({
      pattern: '^https?://[^,/\\s]+(,https?://[^,/\\s]+)*$',
      description:
        'Comma-separated origins (scheme://host[:port]) whose web pages may call the API from a browser (CORS); unset, no page of another origin may',
    }),
  ),
  RATE_LIMIT_PER_MINUTE: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 1_000_000, description: 'Requests a minute each client may make on average (token bucket refill); unset, no limit' }),
  ),
  RATE_LIMIT_BURST: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 1_000_000, description: 'Requests a client may make at once (the bucket size); RATE_LIMIT_PER_MINUTE when unset' }),
  ),
  // Verification: the watch on clients whose answers are mostly "not verified" (an enumeration looks like that).
  VERIFY_FALSE_SHARE_THRESHOLD: Type.Number({
    minimum: 0,
    maximum: 1,
    default: 0.8,
    description: 'Share of a client\'s verifications answered false, over VERIFY_FALSE_SHARE_WINDOW_S, above which it is logged (warn) and counted',
  }),
  VERIFY_FALSE_SHARE_WINDOW_S: Type.Integer({
    minimum: 10,
    maximum: 86_400,
    default: 600,
    description: "Seconds of a client's verifications whose share of false answers is watched",
  }),
  VERIFY_FALSE_SHARE_MIN_COUNT: Type.Integer({
    minimum: 1,
    maximum: 1_000_000,
    default: 50,
    description: 'Fewest verifications in the window before a client\'s share of false answers is judged',
  }),
  SUGGEST_MIN_PROBABILITY: Type.Number({
    minimum: 0.0001,
    maximum: 1,
    default: 0.001,
    description:
      'Lowest probability (0 to 1) of being the registration sought of a close match GET /v1/suggestions returns (docs/search.md): the evidence of two details right at least, so a vague query cannot page through the register; never under 0.0001',
  }),
});

export interface OidcConfig {
  readonly mode: 'oidc';
  readonly issuer: string;
  readonly audience: string;
  readonly clockToleranceS: number;
  readonly jwksCooldownS: number;
  /** Longest a token may live (exp - iat), in seconds. */
  readonly maxTokenLifetimeS: number;
  /** Refuse tokens without a `cnf` binding them to the client certificate (RFC 8705). */
  readonly requireBoundTokens: boolean;
  /** Claim names or paths (each a list of segments) for each part of the identity. */
  readonly claims: {
    readonly username: readonly ClaimPath[];
    readonly client: readonly ClaimPath[];
    readonly roles: readonly ClaimPath[];
    readonly groups: readonly ClaimPath[];
  };
}

/** A claim's name, and the path into the claims that the name read as dotted segments gives. */
export interface ClaimPath {
  readonly name: string;
  readonly segments: readonly string[];
}

export type AuthConfig =
  | { readonly mode: 'mock'; readonly enforceRoles: boolean }
  | { readonly mode: 'proxy'; readonly trustedProxies: readonly string[] }
  | OidcConfig;

export interface Config {
  readonly port: number;
  readonly host: string;
  readonly database?: {
    readonly url: string;
    /** Replicas that serve lookups and searches (the primary does when there are none). */
    readonly readUrls: readonly string[];
    readonly schema?: string;
    readonly poolSize: number;
    readonly statementTimeoutMs: number;
  };
  readonly dataPath?: string;
  /** The embedded store's audit trail (a server's is its audit table). */
  readonly embeddedAudit: EmbeddedAuditConfig;
  /** The audit trail's signed checkpoints, in either store. */
  readonly auditCheckpoints: AuditCheckpointConfig;
  readonly maxResults: number;
  /** Origins whose pages may call the API from a browser (CORS); none when empty. */
  readonly corsOrigins: readonly string[];
  /** The caseworkers' pages (served at /ui in mock mode). */
  readonly ui: UiSessionConfig;
  /** What a connection may take of the server before it is refused or cut off. */
  readonly connections: ConnectionLimits;
  /** Bound of the rendered-record cache, in bytes (string lengths); 0 for none. */
  readonly renderCacheBytes: number;
  readonly logLevel: Static<typeof Env>['LOG_LEVEL'];
  /** How callers are identified; absent only from a configuration loaded with `serving: false`. */
  readonly auth?: AuthConfig;
  /** HTTPS (and client certificates): the files' contents, read and checked at load. */
  readonly tls?: TlsConfig;
  /** The per-client token bucket; absent when RATE_LIMIT_PER_MINUTE is unset (no limit). */
  readonly rateLimit?: RateLimitConfig;
  readonly verification: VerificationConfig;
  /** Close matches scoring under this (0 to 1) are never returned. */
  readonly suggestMinProbability: number;
  readonly events: EventsConfig;
}

export interface EventsConfig {
  /** Days events are kept and served. */
  readonly retentionDays: number;
  readonly webhooks: WebhooksConfig;
  /** Seconds between the mock's invented registrations; 0 for none. */
  readonly mockIntervalS: number;
}

export interface WebhooksConfig {
  /** Run delivery workers in the serving process. */
  readonly delivery: boolean;
  readonly timeoutMs: number;
  readonly retryMs: number;
  readonly leaseMs: number;
  readonly allowHttpLoopback: boolean;
  readonly allowedNetworks: readonly string[];
  /** Extra CAs (PEM text). */
  readonly ca?: string;
  /** The mock's URLs subscribed to everything at start. */
  readonly mockUrls: readonly string[];
}

export interface UiSessionConfig {
  readonly idleMs: number;
  /** Sessions kept in Redis, shared by every process serving the pages; in the process when absent. */
  readonly redis?: RedisConfig;
}

export interface RedisConfig {
  readonly url: string;
  readonly keyPrefix: string;
}

export interface EmbeddedAuditConfig {
  /** The latest entries kept in memory for the report. */
  readonly keep: number;
  readonly file?: { readonly path: string; readonly maxBytes: number; readonly keep: number };
}

export interface AuditCheckpointConfig {
  readonly intervalMs: number;
  /** The key that signs them; the backend makes one at start when none is configured. */
  readonly signingKey?: KeyObject;
}

export interface VerificationConfig {
  /** The watch on each client's share of verifications answered false. */
  readonly falseShare: {
    /** Above this share (0 to 1) the client is logged and counted. */
    readonly threshold: number;
    readonly windowMs: number;
    /** Fewest answers in the window before the share is judged. */
    readonly minCount: number;
  };
}

export interface ConnectionLimits {
  readonly requestTimeoutMs: number;
  readonly headersTimeoutMs: number;
  readonly keepAliveTimeoutMs: number;
  readonly maxConnections: number;
}

export interface TlsConfig {
  /** PEM: the certificate, then its chain. */
  readonly cert: Buffer;
  /** PEM: its private key. */
  readonly key: Buffer;
  /** PEM: the CA certificates a client certificate must be issued by; without it none is asked for. */
  readonly clientCa?: Buffer;
}

export interface RateLimitConfig {
  /** Tokens added to a client's bucket each minute. */
  readonly perMinute: number;
  /** The bucket's size: the most requests a client can make at once. */
  readonly burst: number;
  /** Buckets kept in Redis, shared by every process; in the process when absent. */
  readonly redis?: RedisConfig;
}

export { ConfigError };

/** An Ed25519 private key from PKCS#8: PEM, or its DER in base64 (one line, for an environment variable). */
export function parseSigningKey(text: string): KeyObject {
  const key = text.includes('-----BEGIN')
    ? createPrivateKey(text)
    : createPrivateKey({ key: Buffer.from(text, 'base64'), format: 'der', type: 'pkcs8' });
  if (key.asymmetricKeyType !== 'ed25519') throw new Error(`it is an ${key.asymmetricKeyType} key, not Ed25519`);
  return key;
}

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
  if (!/^\d{1,3}$/.test(prefix) || Number(prefix) > bits) return `'${entry}' has a prefix length that is not 0 to ${bits}`;
  if (Number(prefix) === 0) return `'${entry}' trusts every address; AUTH_MODE=mock says that plainly`;
  return undefined;
}

const claimPaths = (list: string, audience: string): ClaimPath[] =>
  list.split(',').map((name) => ({ name, segments: name.split('.').map((segment) => (segment === '{audience}' ? audience : segment)) }));

function authProblems(value: Static<typeof Env>, given: (key: string) => boolean): string[] {
  const problems: string[] = [];
  const mode = value.AUTH_MODE;
  if (mode && !AUTH_MODES.includes(mode)) return problems; // already named as invalid
  if (!mode && value.DATABASE_URL) {
    problems.push(
      'AUTH_MODE is not set: with DATABASE_URL (a production database) it must be given explicitly, as oidc, proxy or mock, so that the service never falls back to believing identity headers from anyone',
    );
  }
  const effective = mode ?? (value.DATABASE_URL ? undefined : 'mock');
  if (effective === 'oidc') {
    if (!value.OIDC_ISSUER) problems.push('OIDC_ISSUER is not set: AUTH_MODE=oidc needs the issuer whose tokens are accepted');
    if (!value.OIDC_AUDIENCE) problems.push("OIDC_AUDIENCE is not set: AUTH_MODE=oidc needs this service's audience");
  } else if (effective) {
    const stray = OIDC_KEYS.filter(given);
    if (stray.length) problems.push(`${stray.join(', ')} ${stray.length > 1 ? 'are' : 'is'} set, but AUTH_MODE is ${effective}, not oidc`);
  }
  if (effective && effective !== 'mock' && given('MOCK_ENFORCE_ROLES')) {
    problems.push(`MOCK_ENFORCE_ROLES is set, but AUTH_MODE is ${effective}, where roles are always enforced`);
  }
  if (effective === 'proxy') {
    if (!value.TRUSTED_PROXIES) problems.push('TRUSTED_PROXIES is not set: AUTH_MODE=proxy needs the addresses of the proxies whose headers are believed');
    for (const entry of value.TRUSTED_PROXIES?.split(',') ?? []) {
      const problem = proxyEntryProblem(entry.trim());
      if (problem) problems.push(`TRUSTED_PROXIES: ${problem}`);
    }
  } else if (effective && value.TRUSTED_PROXIES) {
    problems.push(`TRUSTED_PROXIES is set, but AUTH_MODE is ${effective}, not proxy`);
  }
  if (effective === 'oidc' && value.REQUIRE_BOUND_TOKENS && !value.TLS_CLIENT_CA) {
    problems.push("REQUIRE_BOUND_TOKENS is true without TLS_CLIENT_CA: a token is bound to a client certificate, which only mutual TLS gives the service");
  }
  return problems;
}

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** Reads a file a setting names; undefined (and a problem) when it cannot be read. */
function readSetting(key: string, path: string, problems: string[]): Buffer | undefined {
  try {
    return readFileSync(path);
  } catch (error) {
    problems.push(`${key}=${JSON.stringify(path)}: the file cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
    return undefined;
  }
}

/** The PEM certificates in a file, each parsed; a problem when there is none or one does not parse. */
function certificatesIn(key: string, path: string, pem: Buffer, problems: string[]): X509Certificate[] {
  const blocks = pem.toString('latin1').match(PEM_CERTIFICATE) ?? [];
  if (!blocks.length) problems.push(`${key}=${JSON.stringify(path)}: the file holds no PEM certificate (-----BEGIN CERTIFICATE-----)`);
  const certificates: X509Certificate[] = [];
  for (const [index, block] of blocks.entries()) {
    try {
      certificates.push(new X509Certificate(block));
    } catch {
      problems.push(`${key}=${JSON.stringify(path)}: certificate ${index + 1} of the file cannot be read`);
    }
  }
  return certificates;
}

function tlsConfig(value: { TLS_CERT?: string; TLS_KEY?: string; TLS_CLIENT_CA?: string }, problems: string[]): TlsConfig | undefined {
  const { TLS_CERT, TLS_KEY, TLS_CLIENT_CA } = value;
  if (!TLS_CERT || !TLS_KEY) {
    if (TLS_CERT || TLS_KEY) problems.push(`${TLS_CERT ? 'TLS_KEY' : 'TLS_CERT'} is not set: TLS_CERT and TLS_KEY go together (the certificate and its private key)`);
    if (TLS_CLIENT_CA) problems.push('TLS_CLIENT_CA is set without TLS_CERT and TLS_KEY: client certificates need the service to serve HTTPS');
    return undefined;
  }
  const cert = readSetting('TLS_CERT', TLS_CERT, problems);
  const key = readSetting('TLS_KEY', TLS_KEY, problems);
  const clientCa = TLS_CLIENT_CA ? readSetting('TLS_CLIENT_CA', TLS_CLIENT_CA, problems) : undefined;
  if (!cert || !key || (TLS_CLIENT_CA && !clientCa)) return undefined;
  const [leaf] = certificatesIn('TLS_CERT', TLS_CERT, cert, problems);
  if (clientCa) certificatesIn('TLS_CLIENT_CA', TLS_CLIENT_CA as string, clientCa, problems);
  try {
    const privateKey = createPrivateKey(key);
    if (leaf && !leaf.checkPrivateKey(privateKey)) problems.push(`TLS_KEY=${JSON.stringify(TLS_KEY)}: the key is not the one of the certificate in TLS_CERT`);
  } catch {
    problems.push(`TLS_KEY=${JSON.stringify(TLS_KEY)}: the file holds no unencrypted PEM private key`);
  }
  return { cert, key, clientCa };
}

function rateLimitConfig(value: Static<typeof Env>, given: (key: string) => boolean, problems: string[]): RateLimitConfig | undefined {
  const perMinute = value.RATE_LIMIT_PER_MINUTE;
  if (!perMinute) {
    // The pages (served in mock mode) keep their sessions in Redis too; otherwise REDIS_URL would go unused.
    const servesPages = (value.AUTH_MODE ?? (value.DATABASE_URL ? undefined : 'mock')) === 'mock';
    const stray = ['RATE_LIMIT_BURST', ...(servesPages ? [] : ['REDIS_URL'])].filter(given);
    if (stray.length) problems.push(`${stray.join(', ')} ${stray.length > 1 ? 'are' : 'is'} set without RATE_LIMIT_PER_MINUTE: there is no rate limit to apply`);
    return undefined;
  }
  return {
    perMinute,
    burst: value.RATE_LIMIT_BURST ?? perMinute,
    redis: redisOf(value),
  };
}

const redisOf = (value: { REDIS_URL?: string; REDIS_KEY_PREFIX: string }): RedisConfig | undefined =>
  value.REDIS_URL ? { url: value.REDIS_URL, keyPrefix: value.REDIS_KEY_PREFIX } : undefined;

function authConfig(value: Static<typeof Env>): AuthConfig {
  const mode = value.AUTH_MODE ?? 'mock';
  if (mode === 'proxy') return { mode, trustedProxies: (value.TRUSTED_PROXIES as string).split(',').map((entry) => entry.trim()) };
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
    claims: {
      username: claimPaths(value.OIDC_USERNAME_CLAIM, audience),
      client: claimPaths(value.OIDC_CLIENT_CLAIM, audience),
      roles: claimPaths(value.OIDC_ROLES_CLAIM, audience),
      groups: claimPaths(value.OIDC_GROUPS_CLAIM, audience),
    },
  };
}

export interface LoadOptions {
  /**
   * False for commands that serve no requests (migrate, load, audit): the
   * authentication settings are then neither required nor read.
   */
  readonly serving?: boolean;
}

/** The settings a schema knows, converted, defaulted and checked: a problem for each bad one. */
function readEnv<S extends TObject>(schema: S, env: Record<string, string | undefined>) {
  const raw: Record<string, unknown> = {};
  for (const key of Object.keys(schema.properties)) if (env[key] !== undefined && env[key] !== '') raw[key] = env[key];
  const value = Value.Default(schema, Value.Convert(schema, { ...raw })) as Static<S>;
  const problems = [...Value.Errors(schema, value)].map((error) => {
    const key = error.path.slice(1);
    const property = (schema.properties as Record<string, { description?: string }>)[key];
    return `${key}=${JSON.stringify(raw[key])}: ${error.message}${property?.description ? ` (${property.description})` : ''}`;
  });
  return { value, problems, given: (key: string) => raw[key] !== undefined };
}

function webhooksConfig(value: Static<typeof Env>, problems: string[]): WebhooksConfig {
  const allowedNetworks = value.WEBHOOK_ALLOWED_NETWORKS?.split(',') ?? [];
  try {
    networkList(allowedNetworks);
  } catch (error) {
    problems.push(`WEBHOOK_ALLOWED_NETWORKS: ${(error as Error).message}`);
  }
  let ca: string | undefined;
  if (value.WEBHOOK_CA_FILE) {
    try {
      ca = readFileSync(value.WEBHOOK_CA_FILE, 'utf8');
      new X509Certificate(ca);
    } catch (error) {
      problems.push(`WEBHOOK_CA_FILE=${JSON.stringify(value.WEBHOOK_CA_FILE)}: not a readable PEM certificate file (${(error as Error).message})`);
    }
  }
  const mockUrls = value.MOCK_WEBHOOKS?.split(',').filter(Boolean) ?? [];
  if (mockUrls.length && value.DATABASE_URL) problems.push("MOCK_WEBHOOKS is for the embedded store (the mock); with DATABASE_URL use 'lev-api subscriptions add --webhook'");
  for (const url of mockUrls) {
    const problem = webhookUrlProblem(url, value.WEBHOOK_ALLOW_HTTP === 'loopback');
    if (problem) problems.push(`MOCK_WEBHOOKS: ${url}: ${problem}`);
  }
  if (value.WEBHOOK_RETRY_HOURS >= value.EVENTS_RETENTION_DAYS * 24) {
    problems.push(`WEBHOOK_RETRY_HOURS=${value.WEBHOOK_RETRY_HOURS} is not shorter than EVENTS_RETENTION_DAYS=${value.EVENTS_RETENTION_DAYS}: an event could leave the feed while it is still being retried`);
  }
  if (value.WEBHOOK_TIMEOUT_S >= value.WEBHOOK_LEASE_S) {
    problems.push(`WEBHOOK_TIMEOUT_S=${value.WEBHOOK_TIMEOUT_S} is not shorter than WEBHOOK_LEASE_S=${value.WEBHOOK_LEASE_S}: a lease could run out while its worker still waits for an answer, and another worker send the same event at once`);
  }
  if (mockUrls.length && value.EVENTS_DELIVERY === 'off') problems.push('MOCK_WEBHOOKS is set with EVENTS_DELIVERY=off: nothing would deliver to them');
  return {
    delivery: value.EVENTS_DELIVERY ? value.EVENTS_DELIVERY === 'on' : !value.DATABASE_URL,
    timeoutMs: value.WEBHOOK_TIMEOUT_S * 1000,
    retryMs: value.WEBHOOK_RETRY_HOURS * 3_600_000,
    leaseMs: value.WEBHOOK_LEASE_S * 1000,
    allowHttpLoopback: value.WEBHOOK_ALLOW_HTTP === 'loopback',
    allowedNetworks,
    ...(ca ? { ca } : {}),
    mockUrls,
  };
}

type ConnectionValues = { [K in keyof typeof ConnectionSettings]: number };

/** The connection settings, checked together. */
function connectionsOf(value: ConnectionValues, problems: string[]): ConnectionLimits {
  if (value.HEADERS_TIMEOUT_S > value.REQUEST_TIMEOUT_S) {
    problems.push(`HEADERS_TIMEOUT_S=${value.HEADERS_TIMEOUT_S} is longer than REQUEST_TIMEOUT_S=${value.REQUEST_TIMEOUT_S}: the headers are part of the request`);
  }
  return {
    requestTimeoutMs: value.REQUEST_TIMEOUT_S * 1000,
    headersTimeoutMs: value.HEADERS_TIMEOUT_S * 1000,
    keepAliveTimeoutMs: value.KEEP_ALIVE_TIMEOUT_S * 1000,
    maxConnections: value.MAX_CONNECTIONS,
  };
}

/** Reads and checks the settings; throws a ConfigError naming every bad variable. */
export function loadConfig(env: Record<string, string | undefined>, { serving = true }: LoadOptions = {}): Config {
  const { value, problems, given } = readEnv(Env, env);
  if (value.DATABASE_READ_URLS && !value.DATABASE_URL) problems.push('DATABASE_READ_URLS is set without DATABASE_URL (the primary, for audit and loads)');
  if (value.LEV_DATA && value.DATABASE_URL) problems.push("LEV_DATA is for the embedded store; load a server's records with 'lev-api load'");
  if (value.AUDIT_FILE && value.DATABASE_URL) problems.push('AUDIT_FILE is for the embedded store; with DATABASE_URL the audit trail is the audit_log table');
  const connections = connectionsOf(value, problems);
  if (serving) problems.push(...authProblems(value, given));
  if (given('REDIS_KEY_PREFIX') && !value.REDIS_URL) problems.push('REDIS_KEY_PREFIX is set without REDIS_URL');
  const tls = serving ? tlsConfig(value, problems) : undefined;
  let signingKey: KeyObject | undefined;
  if (value.AUDIT_SIGNING_KEY) {
    try {
      signingKey = parseSigningKey(value.AUDIT_SIGNING_KEY);
    } catch (error) {
      problems.push(`AUDIT_SIGNING_KEY: not an Ed25519 private key in PKCS#8 (PEM, or DER in base64): ${(error as Error).message}`);
    }
  }
  const rateLimit = serving ? rateLimitConfig(value, given, problems) : undefined;
  const webhooks = webhooksConfig(value, problems);
  if (problems.length) throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  return {
    port: value.PORT,
    host: value.HOST,
    database: value.DATABASE_URL
      ? {
          url: value.DATABASE_URL,
          readUrls: value.DATABASE_READ_URLS?.split(',') ?? [],
          schema: value.DATABASE_SCHEMA,
          poolSize: value.DATABASE_POOL_SIZE,
          statementTimeoutMs: value.STATEMENT_TIMEOUT_MS,
        }
      : undefined,
    dataPath: value.LEV_DATA,
    embeddedAudit: {
      keep: value.AUDIT_MEMORY_ENTRIES,
      file: value.AUDIT_FILE
        ? { path: value.AUDIT_FILE, maxBytes: value.AUDIT_FILE_MAX_MB * 1024 * 1024, keep: value.AUDIT_FILE_KEEP }
        : undefined,
    },
    auditCheckpoints: { intervalMs: value.AUDIT_CHECKPOINT_S * 1000, signingKey },
    maxResults: value.MAX_RESULTS,
    corsOrigins: value.CORS_ORIGINS?.split(',') ?? [],
    ui: { idleMs: value.UI_IDLE_TIMEOUT_MIN * 60_000, redis: redisOf(value) },
    connections,
    renderCacheBytes: (value.RENDER_CACHE_MB ?? (value.DATABASE_URL ? 0 : EMBEDDED_RENDER_CACHE_MB)) * 1024 * 1024,
    logLevel: value.LOG_LEVEL,
    auth: serving ? authConfig(value) : undefined,
    tls,
    rateLimit,
    verification: {
      falseShare: {
        threshold: value.VERIFY_FALSE_SHARE_THRESHOLD,
        windowMs: value.VERIFY_FALSE_SHARE_WINDOW_S * 1000,
        minCount: value.VERIFY_FALSE_SHARE_MIN_COUNT,
      },
    },
    events: { retentionDays: value.EVENTS_RETENTION_DAYS, mockIntervalS: value.MOCK_EVENT_INTERVAL_S, webhooks },
    suggestMinProbability: value.SUGGEST_MIN_PROBABILITY,
  };
}

/** The settings of the pages served as a process of their own, in front of the API (`lev-api ui`). */
const UiEnv = Type.Object({
  ...Listening,
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 8081, description: 'TCP port to listen on' }),
  UI_API_URL: Type.String({
    pattern: '^https?://[^\\s?#]+$',
    description: "The API the pages call, as each signed-in caseworker (e.g. https://lev-api.internal:8443); 'lev-api ui --api-url' gives it too",
  }),
  AUTH_MODE: Type.Union([Type.Literal('mock'), Type.Literal('oidc')], {
    default: 'mock',
    description: "How caseworkers sign in: mock (they choose who they are; for an API in mock mode) or oidc (OIDC_ISSUER's authorisation-code flow with PKCE, the API called with their access token)",
  }),
  UI_PUBLIC_URL: Type.Optional(
    Type.String({ pattern: '^https?://[^\\s?#]+[^/\\s?#]$', description: 'oidc: the address caseworkers reach the pages at (scheme, host, port), to which the issuer sends them back' }),
  ),
  UI_OIDC_CLIENT_ID: Type.Optional(Type.String({ minLength: 1, description: "oidc: the pages' client id at the issuer" })),
  UI_OIDC_CLIENT_SECRET: Type.Optional(Type.String({ minLength: 1, description: "oidc: the pages' client secret (client_secret_basic)" })),
  UI_OIDC_SCOPE: Type.String({ pattern: '^\\S+( \\S+)*$', default: 'openid', description: 'oidc: the scopes asked for at sign-in' }),
  UI_API_CA: Type.Optional(Type.String({ minLength: 1, description: "PEM file of the CA certificates the API's certificate is checked against, besides the system's" })),
  UI_API_CLIENT_CERT: Type.Optional(Type.String({ minLength: 1, description: 'PEM file of the client certificate the pages present to the API (mutual TLS); with UI_API_CLIENT_KEY' })),
  UI_API_CLIENT_KEY: Type.Optional(Type.String({ minLength: 1, description: 'PEM file of the private key of UI_API_CLIENT_CERT (unencrypted)' })),
  ...ConnectionSettings,
  ...Sessions,
  ...OidcClaims,
});

export interface UiSignInConfig {
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly scope: string;
  /** Where the issuer sends a caseworker back: UI_PUBLIC_URL + /ui/auth/callback. */
  readonly redirectUri: string;
  readonly claims: OidcConfig['claims'];
}

export interface UiConfig {
  readonly port: number;
  readonly host: string;
  readonly logLevel: Static<typeof Env>['LOG_LEVEL'];
  readonly apiUrl: string;
  /** How the API's TLS is checked, and the certificate the pages present to it. */
  readonly apiTls?: { readonly ca?: Buffer; readonly cert?: Buffer; readonly key?: Buffer };
  readonly tls?: TlsConfig;
  readonly connections: ConnectionLimits;
  readonly sessions: UiSessionConfig;
  /** OpenID Connect sign-in; the mock's sign-in when absent. */
  readonly oidc?: UiSignInConfig;
}

/** Reads and checks the pages' own settings (`lev-api ui`); throws a ConfigError naming every bad variable. */
export function loadUiConfig(env: Record<string, string | undefined>): UiConfig {
  const { value, problems, given } = readEnv(UiEnv, env);
  const oidcKeys = ['OIDC_ISSUER', 'OIDC_AUDIENCE', 'UI_PUBLIC_URL', 'UI_OIDC_CLIENT_ID', 'UI_OIDC_CLIENT_SECRET', 'UI_OIDC_SCOPE'];
  if (value.AUTH_MODE === 'oidc') {
    for (const key of ['OIDC_ISSUER', 'UI_PUBLIC_URL', 'UI_OIDC_CLIENT_ID', 'UI_OIDC_CLIENT_SECRET']) {
      if (!given(key)) problems.push(`${key} is not set: AUTH_MODE=oidc signs caseworkers in at OIDC_ISSUER as the client UI_OIDC_CLIENT_ID, and needs UI_PUBLIC_URL to be sent back to`);
    }
  } else {
    const stray = oidcKeys.filter(given);
    if (stray.length) problems.push(`${stray.join(', ')} ${stray.length > 1 ? 'are' : 'is'} set, but AUTH_MODE is mock, not oidc`);
  }
  if (given('REDIS_KEY_PREFIX') && !value.REDIS_URL) problems.push('REDIS_KEY_PREFIX is set without REDIS_URL');
  if (Boolean(value.UI_API_CLIENT_CERT) !== Boolean(value.UI_API_CLIENT_KEY)) {
    problems.push('UI_API_CLIENT_CERT and UI_API_CLIENT_KEY go together (the certificate the pages present to the API, and its private key)');
  }
  const tls = tlsConfig(value, problems);
  const connections = connectionsOf(value, problems);
  const ca = value.UI_API_CA ? readSetting('UI_API_CA', value.UI_API_CA, problems) : undefined;
  if (ca) certificatesIn('UI_API_CA', value.UI_API_CA as string, ca, problems);
  const cert = value.UI_API_CLIENT_CERT ? readSetting('UI_API_CLIENT_CERT', value.UI_API_CLIENT_CERT, problems) : undefined;
  const key = value.UI_API_CLIENT_KEY ? readSetting('UI_API_CLIENT_KEY', value.UI_API_CLIENT_KEY, problems) : undefined;
  if (problems.length) throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  const audience = value.OIDC_AUDIENCE;
  return {
    port: value.PORT,
    host: value.HOST,
    logLevel: value.LOG_LEVEL,
    apiUrl: value.UI_API_URL.replace(/\/+$/, ''),
    apiTls: ca || cert ? { ca, cert, key } : undefined,
    tls,
    connections,
    sessions: { idleMs: value.UI_IDLE_TIMEOUT_MIN * 60_000, redis: redisOf(value) },
    oidc:
      value.AUTH_MODE === 'oidc'
        ? {
            issuer: value.OIDC_ISSUER as string,
            clientId: value.UI_OIDC_CLIENT_ID as string,
            clientSecret: value.UI_OIDC_CLIENT_SECRET as string,
            scope: value.UI_OIDC_SCOPE,
            redirectUri: `${value.UI_PUBLIC_URL}/ui/auth/callback`,
            claims: {
              username: claimPaths(value.OIDC_USERNAME_CLAIM, audience ?? ''),
              client: claimPaths(value.OIDC_CLIENT_CLAIM, audience ?? ''),
              roles: claimPaths(value.OIDC_ROLES_CLAIM, audience ?? ''),
              groups: claimPaths(value.OIDC_GROUPS_CLAIM, audience ?? ''),
            },
          }
        : undefined,
  };
}

/** The pages' own settings, for `lev-api ui --help`. */
export const uiConfigReference = () => referenceOf(UiEnv);

/** The settings, for the README and `--help`. */
export const configReference = () => referenceOf(Env);

const referenceOf = (schema: TObject) =>
  Object.entries(schema.properties).map(([name, property]) => ({
    name,
    default: (property as { default?: unknown }).default,
    description: (property as { description?: string }).description ?? '',
  }));
