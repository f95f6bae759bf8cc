/**
 * Versioned schema migrations. Each is fixed text (src/store/schema/),
 * applied once, in order, inside one transaction that also records it with
 * the checksum of its text, under an advisory lock so that two processes
 * migrating at once cannot interleave. An applied migration is never edited:
 * a database whose recorded checksum differs from the code's is refused, and
 * a change (a new record type's tables, say) is a new migration.
 */
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { RecordDescription } from '../records/define.ts';
import { LevError } from '../errors.ts';
import { importFolder, soleExport, sourceFolder } from '../module-folder.ts';
import type { SqlDriver, SqlExecutor } from './driver.ts';
import { tableNames } from './record-tables.ts';
import { type BackfillOptions, backfillSuggestionKeys, pendingBackfills } from './suggestion-backfill.ts';

export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

/**
 * The names migrations 1 to 11 were released under (and databases recorded), by file, from before a
 * migration's file named it.
 */
const RELEASED_NAMES: Readonly<Record<string, string>> = {
  'v1-registration-tables': 'registration tables and search keys',
  'v2-audit-trail': 'append-only audit trail',
  'v3-records-as-json': 'records kept as json text',
  'v4-audit-verifications': 'audit trail records verifications',
  'v5-audit-operations': 'audit trail records suggestions, feed reads and its own reads',
  'v6-change-feed': 'change feed: events outbox and subscriptions',
  'v7-audit-writers': 'audit trail: a chain per writer, disclosed records, signed checkpoints',
  'v8-suggestion-keys': 'close-match keys',
  'v9-webhook-delivery': 'webhook delivery: endpoints, leases, dead letters',
  'v10-numeric-suggestion-keys': 'close-match keys as numbers',
  'v11-subscription-roles': 'the roles a subscribed client holds, for its pushed events',
};

/** A migration's file: `v<version>-<words>.ts`, `v12-adoption-tables.ts`. */
const MIGRATION_FILE = /^v([1-9][0-9]*)-([a-z0-9]+(?:-[a-z0-9]+)*)$/;

/**
 * The migrations of a folder, one a file named `v<version>-<words>`, in order of version: each
 * exports its SQL text (the one string it exports besides `name`) and may export its `name`; without
 * one it is named by the words of its file name. The versions run from 1 with none missing or twice.
 */
export async function readMigrations(folder: URL): Promise<Migration[]> {
  const modules = await importFolder(folder);
  const list = modules.map((module): Migration => {
    const parts = MIGRATION_FILE.exec(module.stem);
    if (!parts)
      throw new Error(`${module.path} is not named as a migration is: v<version>-<words>, as v12-adoption-tables`);
    const version = Number(parts[1]);
    const { name, ...texts } = module.exports;
    const sql = soleExport(
      { ...module, exports: texts },
      (value): value is string => typeof value === 'string',
      'SQL texts (strings besides its name)',
    );
    return {
      version,
      name: typeof name === 'string' ? name : (RELEASED_NAMES[module.stem] ?? parts[2].replaceAll('-', ' ')),
      sql,
    };
  });
  list.sort((a, b) => a.version - b.version);
  list.forEach((migration, i) => {
    if (migration.version !== i + 1) {
      const twice = list.filter((m) => m.version === migration.version).length > 1;
      throw new Error(
        `migrations in ${fileURLToPath(folder)}: ${
          twice ? `two files are ` + `version ${migration.version}` : `version ${i + 1} is missing`
        }; each version from 1 is one file`,
      );
    }
  });
  return list;
}

/**
 * This code's migrations: each file of src/store/schema/ (compiled, dist/store/schema/), found by its name;
 * read when asked for, never at import.
 */
export const loadMigrations = (): Promise<Migration[]> => readMigrations(sourceFolder('store/schema'));

/** The version the last of `list` brings a schema to. */
export const latestVersion = (list: readonly Migration[]): number => list[list.length - 1]?.version ?? 0;

export const checksum = (migration: Migration) => createHash('sha256').update(migration.sql).digest('hex');

// Any fixed number: it names the lock that serialises migrations across processes.
const MIGRATION_LOCK = 7_240_001;

const TRACKING_TABLE = `CREATE TABLE IF NOT EXISTS schema_migrations (
  version integer PRIMARY KEY,
  name text NOT NULL,
  applied_at timestamptz NOT NULL DEFAULT now(),
  checksum text
)`;
// Databases migrated before checksums were recorded: their rows get the checksums of the same text.
const CHECKSUM_COLUMN = 'ALTER TABLE schema_migrations ADD COLUMN IF NOT EXISTS checksum text';

export class MigrationChangedError extends LevError {
  constructor(readonly version: number) {
    super(
      `Migration ${version} as applied to this database differs from migration ${version} in this code: applied ` +
        `migrations ` +
        'must never be edited. Restore its text, and make the change a new migration.',
      { code: 'MigrationChanged' },
    );
  }
}

export class UnknownMigrationError extends LevError {
  constructor(
    readonly versions: readonly number[],
    latest: number,
  ) {
    super(
      `This database has migration(s) ${versions.join(', ')} applied, which this code does not know: it was ` +
        `migrated by a ` +
        `newer release (this one knows up to ${latest}). Run that release, or a newer one.`,
      { code: 'UnknownMigration' },
    );
  }
}

export class SchemaBehindError extends LevError {
  constructor(readonly pending: readonly Migration[]) {
    super(
      `The database schema is behind: ${pending.length} migration(s) to apply (${pending
        .map((m) => `${m.version} ${m.name}`)
        .join('; ')}). Run 'lev-api migrate' (npm run migrate) with the same DATABASE_URL.`,
      { code: 'SchemaBehind' },
    );
  }
}

export class MissingTablesError extends LevError {
  constructor(readonly types: readonly string[]) {
    super(
      `No tables for the record type(s) ${types.join(', ')} in this database, though every migration is applied: ` +
        'a record type added to the descriptions needs a new migration creating its tables.',
      { code: 'MissingTables' },
    );
  }
}

interface Applied {
  readonly version: number;
  readonly checksum: string | null;
}

async function appliedMigrations(db: SqlExecutor): Promise<Applied[]> {
  const [tracking] = await db.query<{ present: boolean; checksums: boolean }>(
    `SELECT to_regclass('schema_migrations') IS NOT NULL AS present,
            EXISTS (SELECT 1 FROM information_schema.columns
                     WHERE table_schema = current_schema() AND table_name = 'schema_migrations' AND column_name ` +
      `= 'checksum') AS checksums`,
  );
  if (!tracking?.present) return [];
  const rows = await db.query<{ version: number; checksum: string | null }>(
    `SELECT version, ${tracking.checksums ? 'checksum' : 'NULL AS checksum'} FROM schema_migrations ORDER BY version`,
  );
  return rows.map((row) => ({ version: Number(row.version), checksum: row.checksum }));
}

/** Throws unless every applied migration is one of this code's, with the same text (when its checksum is recorded). */
function checkApplied(applied: readonly Applied[], list: readonly Migration[]): void {
  const known = new Map(list.map((m) => [m.version, m]));
  const unknown = applied.filter((a) => !known.has(a.version)).map((a) => a.version);
  if (unknown.length) throw new UnknownMigrationError(unknown, latestVersion(list));
  for (const { version, checksum: recorded } of applied) {
    if (recorded !== null && recorded !== checksum(known.get(version)!)) throw new MigrationChangedError(version);
  }
}

/**
 * Migrations not yet applied, in order, after checking those that are; `list` is by default this code's (a
 * test may add a fixture type's).
 */
export async function pendingMigrations(db: SqlExecutor, given?: readonly Migration[]): Promise<Migration[]> {
  const list = given ?? (await loadMigrations());
  const applied = await appliedMigrations(db);
  checkApplied(applied, list);
  const done = new Set(applied.map((a) => a.version));
  return list.filter((migration) => !done.has(migration.version));
}

export class BackfillPendingError extends Error {
  override name = 'BackfillPendingError';
  constructor(readonly types: readonly string[]) {
    super(
      `The close-match keys of the ${types.join(', ')} records stored before migration 8, or before migration 10 ` +
        `made them numbers, are not all filled in yet: ` +
        "run 'lev-api migrate' (npm run migrate) with the same DATABASE_URL; it resumes where it stopped.",
    );
  }
}

/**
 * Applies every pending migration, then fills in what a migration left to fill (the close-match
 * keys of records stored before migration 8 or 10, resuming an interrupted run); returns the migrations it applied.
 */
export async function migrate(
  driver: SqlDriver,
  backfill: BackfillOptions = {},
  given?: readonly Migration[],
): Promise<Migration[]> {
  const applied = await applyMigrations(driver, given ?? (await loadMigrations()));
  await backfillSuggestionKeys(driver, backfill);
  return applied;
}

async function applyMigrations(driver: SqlDriver, list: readonly Migration[]): Promise<Migration[]> {
  return driver.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    // Not the requests' bound: a migration that rewrites a table of ten million registrations (19)
    // takes minutes, and one cut short applies nothing.
    await tx.query('SET LOCAL statement_timeout = 0');
    await tx.query(TRACKING_TABLE);
    await tx.query(CHECKSUM_COLUMN);
    const pending = await pendingMigrations(tx, list);
    for (const migration of list) {
      await tx.query('UPDATE schema_migrations SET checksum = $2 WHERE version = $1 AND checksum IS NULL', [
        migration.version,
        checksum(migration),
      ]);
    }
    for (const migration of pending) {
      for (const statement of splitStatements(migration.sql)) await tx.query(statement);
      await tx.query('INSERT INTO schema_migrations (version, name, checksum) VALUES ($1, $2, $3)', [
        migration.version,
        migration.name,
        checksum(migration),
      ]);
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

/** The described record types that have no tables (or only one of their two) in the database. */
export async function missingRecordTables(
  db: SqlExecutor,
  descriptions: readonly RecordDescription[],
): Promise<string[]> {
  if (descriptions.length === 0) return [];
  const tables = descriptions.map((d) => tableNames(d.name));
  // to_regclass looks in the search path, so a test's or an operator's schema is the one checked.
  const rows = await db.query<{ name: string }>(
    `SELECT name FROM unnest($1::text[], $2::text[], $3::text[]) AS t(name, records, keys)
      WHERE to_regclass(records) IS NULL OR to_regclass(keys) IS NULL`,
    [descriptions.map((d) => d.name), tables.map((t) => t.records), tables.map((t) => t.keys)],
  );
  return rows.map((row) => row.name);
}

/**
 * Throws unless the schema can serve every described record type: every migration applied, none
 * changed, each type's tables present, and their close-match keys filled in.
 */
export async function assertSchemaCurrent(db: SqlExecutor, descriptions: readonly RecordDescription[]): Promise<void> {
  const pending = await pendingMigrations(db);
  if (pending.length) throw new SchemaBehindError(pending);
  const missing = await missingRecordTables(db, descriptions);
  if (missing.length) throw new MissingTablesError(missing);
  const unfilled = await pendingBackfills(db);
  if (unfilled.length) throw new BackfillPendingError(unfilled);
}
