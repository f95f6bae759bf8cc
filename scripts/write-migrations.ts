/**
 * Writes the migrations the code asks for and src/store/schema/ lacks (src/store/generated-migrations.ts):
 * a new record type's tables, the revoking reasons' function after a change to REVOKING_REASONS.
 * Each is a new file, numbered after the latest; a file written is never written again.
 *
 *   npm run regenerate       writes them, pins them, and writes the typed client's schema
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadRecordTypes } from '../src/records/index.ts';
import { migrationFileText, migrationsToWrite } from '../src/store/generated-migrations.ts';
import { latestVersion, loadMigrations } from '../src/store/migrations.ts';

const migrations = await loadMigrations();
const types = await loadRecordTypes();
let version = latestVersion(migrations);
for (const migration of migrationsToWrite(
  migrations,
  types.map((type) => type.name),
)) {
  version++;
  const file = fileURLToPath(new URL(`../src/store/schema/v${version}-${migration.stem}.ts`, import.meta.url));
  writeFileSync(file, migrationFileText(version, migration), { flag: 'wx' });
  console.log(`wrote migration ${version} (${migration.name}): ${file}`);
}
