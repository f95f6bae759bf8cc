/**
 * Versioned schema migrations. Each is applied once, in order, inside one
 * transaction that also records it, under an advisory lock so that two
 * processes migrating at once cannot interleave. Applied migrations are
 * never edited: a change is a new migration.
 */
import { records } from '../records/index.ts';
import type { SqlDriver, SqlExecutor } from './driver.ts';
import { recordTablesSql, recordsAsJsonSql } from './record-tables.ts';
import { auditTableSql, auditVerifySql } from './audit-schema.ts';

export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

export const migrations: readonly Migration[] = [
  { version: 1, name: 'registration tables and search keys', sql: recordTablesSql(records) },
  { version: 2, name: 'append-only audit trail', sql: auditTableSql },
  { version: 3, name: 'records kept as json text', sql: recordsAsJsonSql(records) },
  { version: 4, name: 'audit trail records verifications', sql: auditVerifySql },
];

export const LATEST_VERSION = migrations[migrations.length - 1].version;

// Any fixed number: it names the lock that serialises migrations across processes.
const MIGRATION_LOCK = 7_240_001;

const TRACKING_TABLE = `CREATE TABLE IF NOT EXISTS schema_migrations (
  version integer PRIMARY KEY,
  name text NOT NULL,
  applied_at timestamptz NOT NULL DEFAULT now()
)`;

async function appliedVersions(db: SqlExecutor): Promise<Set<number>> {
  const exists = await db.query<{ present: boolean }>(`SELECT to_regclass('schema_migrations') IS NOT NULL AS present`);
  if (!exists[0]?.present) return new Set();
  const rows = await db.query<{ version: number }>('SELECT version FROM schema_migrations');
  return new Set(rows.map((row) => Number(row.version)));
}

/** Migrations not yet applied, in order. */
export async function pendingMigrations(db: SqlExecutor): Promise<Migration[]> {
  const applied = await appliedVersions(db);
  return migrations.filter((migration) => !applied.has(migration.version));
}

/** Applies every pending migration; returns those it applied. */
export async function migrate(driver: SqlDriver): Promise<Migration[]> {
  return driver.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await tx.query(TRACKING_TABLE);
    const pending = await pendingMigrations(tx);
    for (const migration of pending) {
      for (const statement of splitStatements(migration.sql)) await tx.query(statement);
      await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [migration.version, migration.name]);
    }
    return pending;
  });
}

/** Splits a migration into statements; `$$`-quoted bodies (functions) are kept whole. */
export function splitStatements(sql: string): string[] {
  const statements: string[] = [];
  let current = '';
  let quoted = false;
  for (const part of sql.split(/(\$\$|;)/)) {
    if (part === '$$') quoted = !quoted;
    if (part === ';' && !quoted) {
      if (current.trim()) statements.push(current.trim());
      current = '';
    } else current += part;
  }
  if (current.trim()) statements.push(current.trim());
  return statements;
}

export class SchemaBehindError extends Error {
  override name = 'SchemaBehindError';
  constructor(readonly pending: readonly Migration[]) {
    super(
      `The database schema is behind: ${pending.length} migration(s) to apply (${pending
        .map((m) => `${m.version} ${m.name}`)
        .join('; ')}). Run 'lev-api migrate' (npm run migrate) with the same DATABASE_URL.`,
    );
  }
}

/** Throws SchemaBehindError unless every migration is applied. */
export async function assertSchemaCurrent(db: SqlExecutor): Promise<void> {
  const pending = await pendingMigrations(db);
  if (pending.length) throw new SchemaBehindError(pending);
}
