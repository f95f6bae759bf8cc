/**
 * The README's two tables of the mock's records are the scenario files': a row for each scenario
 * an exact search finds (its id, type, what it shows and its search), a row for each close-match
 * scenario (its query and what each detail matched), and no other row in either.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { closeMatchScenarios, searchableScenarios } from '../record-types.ts';

const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

/** The rows of the first table with `header` after `from` in the README, each cell unquoted, joined by ' | '. */
function rows(from: string, header: string): string[] {
  const table = README.slice(README.indexOf(from));
  const lines = table.slice(table.indexOf(header)).split('\n').slice(2);
  return lines
    .slice(
      0,
      lines.findIndex((line) => !line.startsWith('| ')),
    )
    .map((line) =>
      line
        .split(' | ')
        .map((cell) => cell.replace(/^\| |`| \|$/g, ''))
        .join(' | '),
    );
}

/** What each list has that the other has not, a row as often as it is there more. */
function unmatched(readme: readonly string[], scenarios: readonly string[]) {
  const less = (a: readonly string[], b: readonly string[]) => {
    const rest = [...b];
    return a.filter((row) => {
      const i = rest.indexOf(row);
      return i < 0 || (rest.splice(i, 1), false);
    });
  };
  return { 'rows of no scenario': less(readme, scenarios), 'scenarios with no row': less(scenarios, readme) };
}

const queryText = (query: Readonly<Record<string, string>>) =>
  Object.entries(query)
    .map(([name, value]) => `${name}=${value}`)
    .join('&');

test("the README's table of scenarios lists every scenario an exact search finds, as its scenario file has it", () => {
  const inReadme = rows("## The mock's records", '| id | type | shows | search |');
  const inFiles = searchableScenarios.map((s) => [String(s.id), s.type, s.shows, queryText(s.search)].join(' | '));
  assert.ok(inReadme.length > 0, 'the README has the table');
  assert.deepEqual(unmatched(inReadme, inFiles), { 'rows of no scenario': [], 'scenarios with no row': [] });
});

test("the README's close-match table lists every close-match scenario as its scenario file has it", () => {
  const inReadme = rows('Close matches: each query below', '| id | type | query | matched |');
  const inFiles = closeMatchScenarios.map((s) => {
    const { query, matched } = s.suggestion;
    const wanted = Object.entries(matched)
      .map(([name, kind]) => `${name}: ${kind}`)
      .join(', ');
    return [String(s.id), s.type, queryText(query), wanted].join(' | ');
  });
  assert.ok(inReadme.length > 0, 'the README has the table');
  assert.deepEqual(unmatched(inReadme, inFiles), { 'rows of no scenario': [], 'scenarios with no row': [] });
});
