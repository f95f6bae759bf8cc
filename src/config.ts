/**
 * The only reader of the environment. Everything else is given a Config.
 */
import { type Static, Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';

const Env = Type.Object({
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 8080, description: 'TCP port to listen on' }),
  HOST: Type.String({ minLength: 1, default: '0.0.0.0', description: 'Address to listen on' }),
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
  MAX_RESULTS: Type.Integer({ minimum: 1, maximum: 1000, default: 25, description: 'Most records a search returns' }),
  LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((level) => Type.Literal(level)),
    { default: 'info', description: 'pino log level' },
  ),
});

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
  readonly maxResults: number;
  readonly logLevel: Static<typeof Env>['LOG_LEVEL'];
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Reads and checks the settings; throws a ConfigError naming every bad variable. */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const known = Object.keys(Env.properties);
  const raw: Record<string, unknown> = {};
  for (const key of known) if (env[key] !== undefined && env[key] !== '') raw[key] = env[key];
  const value = Value.Default(Env, Value.Convert(Env, raw)) as Static<typeof Env>;
  const problems = [...Value.Errors(Env, value)].map((error) => {
    const key = error.path.slice(1);
    const schema = (Env.properties as Record<string, { description?: string }>)[key];
    return `${key}=${JSON.stringify(raw[key])}: ${error.message}${schema?.description ? ` (${schema.description})` : ''}`;
  });
  if (value.DATABASE_READ_URLS && !value.DATABASE_URL) problems.push('DATABASE_READ_URLS is set without DATABASE_URL (the primary, for audit and loads)');
  if (value.LEV_DATA && value.DATABASE_URL) problems.push("LEV_DATA is for the embedded store; load a server's records with 'lev-api load'");
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
    maxResults: value.MAX_RESULTS,
    logLevel: value.LOG_LEVEL,
  };
}

/** The settings, for the README and `--help`. */
export const configReference = () =>
  Object.entries(Env.properties).map(([name, schema]) => ({
    name,
    default: (schema as { default?: unknown }).default,
    description: (schema as { description?: string }).description ?? '',
  }));
