/**
 * Where the records are: a PostgreSQL server (and its read replicas), or the embedded store with
 * the built-in mock or the records of LEV_DATA.
 */
import { Type } from '@sinclair/typebox';
import type { EnvValues } from './read-env.ts';
import { type Settled } from './shape.ts';

export const Database = {
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
};

export const DatabaseConfig = Type.Object({
  url: Type.String(),
  /** Replicas that serve lookups and searches (the primary does when there are none). */
  readUrls: Type.Array(Type.String()),
  schema: Type.Optional(Type.String()),
  poolSize: Type.Number(),
  statementTimeoutMs: Type.Number(),
});
export type DatabaseConfig = Settled<typeof DatabaseConfig>;

/** The server's settings, undefined for the embedded store; replicas without a primary, or LEV_DATA with one, are problems. */
export function databaseOf(value: EnvValues<typeof Database>, problems: string[]): DatabaseConfig | undefined {
  if (value.DATABASE_READ_URLS && !value.DATABASE_URL) problems.push('DATABASE_READ_URLS is set without DATABASE_URL (the primary, for audit and loads)');
  if (value.LEV_DATA && value.DATABASE_URL) problems.push("LEV_DATA is for the embedded store; load a server's records with 'lev-api load'");
  return value.DATABASE_URL
    ? {
        url: value.DATABASE_URL,
        readUrls: value.DATABASE_READ_URLS?.split(',') ?? [],
        schema: value.DATABASE_SCHEMA,
        poolSize: value.DATABASE_POOL_SIZE,
        statementTimeoutMs: value.STATEMENT_TIMEOUT_MS,
      }
    : undefined;
}
