/**
 * The unit tier's files (`*.unit.test.ts` under test/), and its run in two processes rather than
 * one a file: a process costs about a second of CPU before its first test (Node, tsx, the modules
 * it imports again), which, one a file, was most of the tier's time.
 */
import { readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { before } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';

const TEST = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The unit files under `dir`, sorted by path. */
export const unitFiles = (dir = TEST): string[] =>
  readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) =>
      entry.isDirectory()
        ? unitFiles(join(dir, entry.name))
        : entry.name.endsWith('.unit.test.ts')
          ? [join(dir, entry.name)]
          : [],
    )
    .sort();

/**
 * Runs every `of`-th unit file from the `half`-th in this process: each is imported in turn (its
 * top-level awaits finish before the next begins), and no test starts before all are, so that a
 * test that times something is not kept waiting by another file's import. A test is told by its
 * name and its file's location, as before; `node --import tsx --test <file>` runs one file alone.
 */
export async function runUnitFiles(half: number, of: number): Promise<void> {
  let imported!: () => void;
  const all = new Promise<void>((resolve) => (imported = resolve));
  before(() => all);
  try {
    for (const file of unitFiles().filter((_, i) => i % of === half)) await import(pathToFileURL(file).href);
  } finally {
    imported();
  }
}
