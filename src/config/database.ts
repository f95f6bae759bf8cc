/**
 * Where the records are: a PostgreSQL server (and its read replicas), or the embedded store with
 * the built-in mock or the records of LEV_DATA.
 */
import { Type } from '@sinclair/typebox';
import type { EnvValues } from './read-env.ts';
import type { Settled } from './shape.ts';

export const Database = {
  DATABASE_URL: Type.Optional(
    Type.String({
      pattern: '^postgres(ql)?://',
      description:
        'PostgreSQL server (the primary), one host: an address that follows the primary across a failover; ' +
        'without it the embedded store is used',
    }),
  ),
  DATABASE_READ_URLS: Type.Optional(
    Type.String({
      pattern: '^postgres(ql)?://[^,]+(,postgres(ql)?://[^,]+)*$',
      description: 'Comma-separated read replicas for lookups and searches; audit and loads use DATABASE_URL',
    }),
  ),
  DATABASE_READ_MAX_LAG_MS: Type.Integer({
    minimum: 100,
    maximum: 600_000,
    default: 1000,
    description:
      'A read replica further behind the primary than this (by its last probe, plus the time since) ' +
      'answers nothing until it catches up',
  }),
  DATABASE_READ_PROBE_MS: Type.Integer({
    minimum: 50,
    maximum: 60_000,
    default: 250,
    description: "How often each read replica's state and lag are measured; at most half DATABASE_READ_MAX_LAG_MS",
  }),
  DATABASE_SYNCHRONOUS_COMMIT: Type.Optional(
    Type.Union([Type.Literal('remote_write'), Type.Literal('on'), Type.Literal('remote_apply')], {
      description:
        "synchronous_commit for the service's own writes on the primary (audit entries above all): with " +
        "the server's synchronous_standby_names, an entry is acknowledged only once a standby has it, so a " +
        "promotion loses none. Unset: the server's setting",
    }),
  ),
  DATABASE_SCHEMA: Type.Optional(
    Type.String({ pattern: '^[a-z_][a-z0-9_]{0,62}$', description: 'PostgreSQL schema to use (search_path)' }),
  ),
  SUGGESTION_INDEX: Type.Union([Type.Literal('database'), Type.Literal('service')], {
    default: 'database',
    description:
      "Where PostgreSQL's close matches find their candidates: 'database', its key tables (any size of " +
      "register), or 'service', an index each process builds from the search keys at start, keeps current " +
      'from the change feed and matches on a thread of its own, about 170 MB a million records and several ' +
      'times the throughput (docs/postgresql.md)',
  }),
  DATABASE_POOL_SIZE: Type.Integer({ minimum: 1, maximum: 200, default: 10, description: 'Connections per process' }),
  STATEMENT_TIMEOUT_MS: Type.Integer({
    minimum: 100,
    maximum: 600000,
    default: 5000,
    description: 'Per-statement timeout',
  }),
  LEV_DATA: Type.Optional(
    Type.String({
      minLength: 1,
      description: 'File or folder of records (JSON or NDJSON) to serve instead of the built-in mock data',
    }),
  ),
};

export const DatabaseConfig = Type.Object({
  url: Type.String(),
  /** Replicas that serve lookups and searches (the primary does when there are none). */
  readUrls: Type.Array(Type.String()),
  /** The most a replica may be behind the primary and answer. */
  readMaxLagMs: Type.Number(),
  /** How often the replicas are probed. */
  readProbeMs: Type.Number(),
  schema: Type.Optional(Type.String()),
  /** Server settings for every connection (synchronous_commit). */
  settings: Type.Optional(Type.Record(Type.String(), Type.String())),
  poolSize: Type.Number(),
  statementTimeoutMs: Type.Number(),
  /** Where close matches find their candidates: the key tables, or an index held in the service. */
  suggestionIndex: Type.Optional(Type.Union([Type.Literal('database'), Type.Literal('service')])),
});
export type DatabaseConfig = Settled<typeof DatabaseConfig>;

/**
 * Whether a libpq URL names several hosts (`postgres://a:5432,b:5432/db`): a comma between the
 * scheme and the path, after any user and password (which may hold one).
 */
const severalHosts = (url: string) => /^postgres(?:ql)?:\/\/(?:[^@/?#]*@)?[^@/?#]*,[^@/?#]*(?:[/?#]|$)/.test(url);

/**
 * The server's settings, undefined for the embedded store; replicas without a primary, or LEV_DATA with one,
 * are problems.
 */
export function databaseOf(value: EnvValues<typeof Database>, problems: string[]): DatabaseConfig | undefined {
  if (value.DATABASE_READ_URLS && !value.DATABASE_URL)
    problems.push('DATABASE_READ_URLS is set without DATABASE_URL (the primary, for audit and loads)');
  if (value.DATABASE_READ_PROBE_MS * 2 > value.DATABASE_READ_MAX_LAG_MS) {
    problems.push(
      `DATABASE_READ_PROBE_MS (${value.DATABASE_READ_PROBE_MS}) must be at most half ` +
        `DATABASE_READ_MAX_LAG_MS (${value.DATABASE_READ_MAX_LAG_MS}): a replica is measured as behind by up ` +
        'to one interval more than it is',
    );
  }
  // pg takes one host: it would fail at the first connection with "Invalid URL" (docs/postgresql.md).
  if (value.DATABASE_URL && severalHosts(value.DATABASE_URL)) {
    problems.push(
      'DATABASE_URL names several hosts, which the PostgreSQL driver (pg) does not read: give one address ' +
        'that follows the primary, a DNS name, virtual IP or proxy (docs/postgresql.md)',
    );
  }
  if (value.LEV_DATA && value.DATABASE_URL)
    problems.push("LEV_DATA is for the embedded store; load a server's records with 'lev-api load'");
  if (value.SUGGESTION_INDEX === 'service' && !value.DATABASE_URL)
    problems.push(
      "SUGGESTION_INDEX=service is for PostgreSQL (DATABASE_URL): the embedded store's close matches " +
        'always use the index in its memory',
    );
  return value.DATABASE_URL
    ? {
        url: value.DATABASE_URL,
        readUrls: value.DATABASE_READ_URLS?.split(',') ?? [],
        readMaxLagMs: value.DATABASE_READ_MAX_LAG_MS,
        readProbeMs: value.DATABASE_READ_PROBE_MS,
        schema: value.DATABASE_SCHEMA,
        settings: value.DATABASE_SYNCHRONOUS_COMMIT
          ? { synchronous_commit: value.DATABASE_SYNCHRONOUS_COMMIT }
          : undefined,
        poolSize: value.DATABASE_POOL_SIZE,
        statementTimeoutMs: value.STATEMENT_TIMEOUT_MS,
        suggestionIndex: value.SUGGESTION_INDEX,
      }
    : undefined;
}
