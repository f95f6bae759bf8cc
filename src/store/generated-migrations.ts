/**
 * Migrations written from the code, so that what SQL must know of a rule TypeScript holds comes
 * from the one statement of it: a record type's tables (recordTablesSql) and the reasons that
 * revoke a credential (REVOKING_REASONS, which migration 12's trigger function wrote out by hand).
 * `npm run regenerate` (scripts/write-migrations.ts) writes each migration asked for as a new file
 * of src/store/schema/, whose text is frozen from then on like any other's (migrations.ts): a
 * change to the code asks for a new migration, never an edit of one written.
 */
import { REVOKING_REASONS } from '../model/credentials.ts';
import type { Migration } from './migrations.ts';
import { recordTablesSql, tableNames } from './record-tables.ts';

export interface GeneratedMigration {
  /** The words of its file's name: `v<version>-<stem>.ts`. */
  readonly stem: string;
  readonly name: string;
  /** What it does, for its file's comment. */
  readonly about: string;
  readonly sql: string;
}

/**
 * The trigger function that makes every credential of a registration invalid when a change-feed event gives
 * one of `reasons`.
 */
export function revokingFunctionSql(reasons: readonly string[] = REVOKING_REASONS): string {
  for (const reason of reasons)
    if (!/^[a-z][a-z-]*$/.test(reason)) throw new Error(`a revoking reason is a word: '${reason}'`);
  return `
CREATE OR REPLACE FUNCTION credential_status_revoke() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE credential_status s SET invalid = true
    FROM added e
   WHERE e.reason IN (${reasons.map((reason) => `'${reason}'`).join(', ')})
     AND s.record_type = e.record_type AND s.record_id = e.record_id AND NOT s.invalid;
  RETURN NULL;
END
$$;
`;
}

/** Where a migration defines the revoking function. */
const DEFINES_REVOKING = 'FUNCTION credential_status_revoke()';

const createsTables = (sql: string, type: string) =>
  new RegExp(`CREATE TABLE (IF NOT EXISTS )?${tableNames(type).records} \\(`).test(sql);

/**
 * The migrations `written` lacks for the code as it is: the tables of each of `types` that no
 * migration creates, and the revoking function when the latest migration that defines it does not
 * name `reasons`, in the order they are to be written.
 */
export function migrationsToWrite(
  written: readonly Migration[],
  types: readonly string[],
  reasons: readonly string[] = REVOKING_REASONS,
): GeneratedMigration[] {
  const all = written.map((migration) => migration.sql).join('\n');
  const wanted: GeneratedMigration[] = types
    .filter((type) => !createsTables(all, type))
    .map((type) => ({
      stem: `${type.replaceAll('_', '-')}-tables`,
      name: `${type} tables`,
      about: `The tables of the record type ${type}: its records, search keys, close-match keys and counts of names.`,
      sql: recordTablesSql(type),
    }));
  const revoking = revokingFunctionSql(reasons);
  const latest = [...written].reverse().find((migration) => migration.sql.includes(DEFINES_REVOKING));
  if (latest && latest.sql !== revoking) {
    wanted.push({
      stem: 'credential-revoking-reasons',
      name: 'credentials: the reasons that revoke them',
      about:
        "the trigger function that makes a registration's credentials invalid (migration 12), made again from " +
        'the change-feed ' +
        'reasons that revoke them (REVOKING_REASONS, src/model/credentials.ts), so that SQL names the ones ' +
        'TypeScript does.',
      sql: revoking,
    });
  }
  return wanted;
}

/** A TypeScript template literal holding `text` as it is. */
const literal = (text: string) => `\`${text.replace(/[\\`]/g, (c) => `\\${c}`).replace(/\$\{/g, '\\${')}\``;

/** The file `v<version>-<stem>.ts` of a generated migration: its comment, its name and its SQL text. */
export function migrationFileText(version: number, migration: GeneratedMigration): string {
  const lines: string[] = [];
  for (const word of `Version ${version}: ${migration.about}`.split(' ')) {
    if (lines.length && `${lines[lines.length - 1]} ${word}`.length <= 96) lines[lines.length - 1] += ` ${word}`;
    else lines.push(word);
  }
  return [
    '/**',
    ...lines.map((line) => ` * ${line}`),
    ' *',
    ' * Written by `npm run regenerate` (src/store/generated-migrations.ts); frozen from then on.',
    ' */',
    `export const name = '${migration.name.replace(/[\\']/g, '\\$&')}';`,
    '',
    `export const sql = ${literal(migration.sql)};`,
    '',
  ].join('\n');
}
