/**
 * Writes the settings tables of docs/configuration.md from the configuration schema, so that the
 * page cannot drift from what `src/config/` accepts. Each table stands between a pair of
 * markers naming its schema; the prose around them is the page's own.
 *
 *   npm run docs:config            rewrite the tables in place
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { configReference } from '../src/config/index.ts';
import { tracingConfigReference } from '../src/config/tracing.ts';
import { uiConfigReference } from '../src/config/ui.ts';

export const CONFIGURATION_DOC = fileURLToPath(new URL('../docs/configuration.md', import.meta.url));

const references = { serve: configReference, ui: uiConfigReference, tracing: tracingConfigReference } as const;

type Setting = ReturnType<typeof configReference>[number];

const cell = (text: string) => text.replaceAll('|', '\\|');

export const settingsTable = (settings: readonly Setting[]) =>
  [
    '| Variable | Default | Meaning |',
    '|---|---|---|',
    ...settings.map(
      (s) =>
        `| \`${s.name}\` | ${s.default === undefined ? '(unset)' : `\`${String(s.default)}\``} ` +
        `| ${cell(s.description)} |`,
    ),
  ].join('\n');

const MARKERS = /(<!-- settings: (\w+) -->\n)[\s\S]*?(\n<!-- end settings -->)/g;

/** The page with each marked table made anew; throws on a marker naming no schema. */
export function withSettingsTables(page: string): string {
  return page.replace(MARKERS, (_, open: string, name: string, close: string) => {
    if (!(name in references)) throw new Error(`docs/configuration.md: no settings schema named '${name}'`);
    return `${open}${settingsTable(references[name as keyof typeof references]())}${close}`;
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(CONFIGURATION_DOC, withSettingsTables(readFileSync(CONFIGURATION_DOC, 'utf8')));
}
