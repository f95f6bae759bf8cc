/**
 * The README's close-match table is the mock's: a row for each close-match scenario, with its query
 * and what each detail matched, and no other.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { closeMatchOnlyScenarios, scenarios } from '../../src/mock/dataset.ts';

test("the README's close-match table lists every close-match scenario as the mock has it", () => {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const table = readme.slice(readme.indexOf('Close matches: each query below'));
  const lines = table.slice(table.indexOf('| id | type | query | matched |')).split('\n').slice(2);
  const rows = lines.slice(0, lines.findIndex((line) => !line.startsWith('| ')));
  const inReadme = rows.map((line) => line.split(' | ').map((cell) => cell.replace(/^\| |`| \|$/g, '')).join(' | ')).sort();
  const inMock = [...scenarios.filter((s) => s.suggestion), ...closeMatchOnlyScenarios]
    .map((s) => {
      const { query, matched } = s.suggestion!;
      const wanted = Object.entries(matched).map(([name, kind]) => `${name}: ${kind}`).join(', ');
      return [String(s.id), s.type, new URLSearchParams(query).toString().replaceAll('+', ' '), wanted].join(' | ');
    })
    .sort();
  assert.deepEqual(inReadme, inMock);
});
