/**
 * No line of tracked TypeScript or JavaScript is longer than 120 characters (issue 49): Biome wraps code at
 * that width but not strings or comments, so this names each file:line it leaves over. The frozen migrations
 * (their text is checksummed) and the generated client schema are left as they are written.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const LIMIT = 120;
const SOURCE = /\.m?[tj]s$/;
const EXCEPTED = [/^src\/store\/schema\/v[^/]*\.ts$/, /^clients\/typescript\/src\/schema\.ts$/];

/** The tracked files, or why git could not list them (no git, or not a checkout). */
function trackedFiles(): string[] | Error {
  try {
    const out = execFileSync('git', ['ls-files', '-z'], {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return out.split('\0').filter((file) => file !== '');
  } catch (error) {
    return error as Error;
  }
}

const tracked = trackedFiles();

test(`no tracked .ts/.js/.mjs line is longer than ${LIMIT} characters`, (t) => {
  if (tracked instanceof Error) {
    t.skip(
      `git ls-files is unavailable here (${tracked.message.split('\n')[0]}), so there are no tracked files to check`,
    );
    return;
  }
  const long: string[] = [];
  for (const file of tracked) {
    if (!SOURCE.test(file) || EXCEPTED.some((excepted) => excepted.test(file))) continue;
    let text: string;
    try {
      text = readFileSync(join(ROOT, file), 'utf8');
    } catch {
      continue; // tracked but deleted in the working tree: nothing to read
    }
    text.split(/\r?\n/).forEach((line, i) => {
      if (line.length > LIMIT) long.push(`${file}:${i + 1} (${line.length})`);
    });
  }
  assert.deepEqual(long, [], `lines longer than ${LIMIT} characters:\n${long.join('\n')}`);
});
