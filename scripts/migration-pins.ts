/**
 * The checksum of each migration's text, pinned in src/store/schema/checksums.json, so that editing
 * a migration already written fails a test (test/store/migration-files.unit.test.ts) before any database
 * refuses it. Pinning adds the migrations not pinned yet and never changes a pin: a migration
 * whose text no longer has its pinned checksum, or a pinned one that is gone, is refused.
 *
 *   npm run regenerate       pins new migrations (and writes the typed client's schema)
 *   node --import tsx scripts/migration-pins.ts      pins new migrations only
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type Migration, checksum, loadMigrations } from '../src/store/migrations.ts';

const migrations = await loadMigrations();

export const PINS_FILE = fileURLToPath(new URL('../src/store/schema/checksums.json', import.meta.url));

/** Version (as a JSON key) to the sha256 of its text. */
export type Pins = Readonly<Record<string, string>>;

export const readPins = (file = PINS_FILE): Pins =>
  existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Pins) : {};

export interface Pinning {
  /** Every pin: those there were, and one for each migration not pinned yet. */
  readonly pins: Pins;
  /** The versions pinned now, that were not. */
  readonly added: readonly number[];
  /** What is wrong with a pinned migration, one line each: its text changed, or its file is gone. */
  readonly refused: readonly string[];
}

/** The pins with the new migrations added; a changed or missing pinned migration is refused, never re-pinned. */
export function pin(pinned: Pins, list: readonly Migration[] = migrations): Pinning {
  const pins: Record<string, string> = { ...pinned };
  const added: number[] = [];
  const refused: string[] = [];
  for (const migration of list) {
    const key = String(migration.version);
    if (!(key in pins)) {
      pins[key] = checksum(migration);
      added.push(migration.version);
    } else if (pins[key] !== checksum(migration)) {
      refused.push(
        `migration ${key} (${migration.name}) is not the text pinned: a written migration is never edited; ` +
          `restore it, and make the change a new migration`,
      );
    }
  }
  const versions = new Set(list.map((m) => String(m.version)));
  for (const key of Object.keys(pinned))
    if (!versions.has(key)) refused.push(`migration ${key} is pinned but has no file in src/store/schema/: restore it`);
  return { pins, added, refused };
}

export const pinsText = (pins: Pins) => `${JSON.stringify(pins, null, 2)}\n`;

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { pins, added, refused } = pin(readPins());
  if (refused.length) {
    for (const line of refused) console.error(`migration-pins: ${line}`);
    process.exitCode = 2;
  } else if (added.length) {
    writeFileSync(PINS_FILE, pinsText(pins));
    console.log(`pinned migration(s) ${added.join(', ')} in ${PINS_FILE}`);
  }
}
