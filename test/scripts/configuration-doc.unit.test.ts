import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import test from 'node:test';
import { configReference } from '../../src/config/index.ts';
import { tracingConfigReference } from '../../src/config/tracing.ts';
import { uiConfigReference } from '../../src/config/ui.ts';
import { CONFIGURATION_DOC, withSettingsTables } from '../../scripts/configuration-doc.ts';

const page = readFileSync(CONFIGURATION_DOC, 'utf8');

test('docs/configuration.md lists every setting as src/config/ declares it (npm run docs:config rewrites it)', () => {
  assert.equal(page, withSettingsTables(page), 'the tables differ from the schema: run npm run docs:config');
});

test('each settings table is marked, and names every variable of its schema', () => {
  for (const [name, reference] of [
    ['serve', configReference],
    ['ui', uiConfigReference],
    ['tracing', tracingConfigReference],
  ] as const) {
    const table = page.split(`<!-- settings: ${name} -->`)[1]?.split('<!-- end settings -->')[0];
    assert.ok(table, `a table marked '${name}'`);
    for (const setting of reference()) assert.match(table, new RegExp(`^\\| \`${setting.name}\` \\|`, 'm'));
  }
});

test('a marker naming no schema is refused rather than left stale', () => {
  assert.throws(
    () => withSettingsTables('<!-- settings: nothing -->\n| x |\n<!-- end settings -->'),
    /no settings schema named 'nothing'/,
  );
});
