/**
 * Debian's Chromium driven by playwright-core (no browser is downloaded), and axe-core run in the
 * page. Tests skip without Chromium, except under CI=true, where a missing browser fails the run.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { type Browser, type Page, chromium } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const SCREENSHOTS = new URL('../../test-output/screenshots/', import.meta.url);

/** Why browser tests cannot run here, or undefined when they can. */
export function browserMissing(): string | undefined {
  if (existsSync(CHROMIUM)) return undefined;
  const reason = `no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`;
  if (process.env.CI === 'true') assert.fail(`CI=true, but the browser tests cannot run: ${reason}`);
  return reason;
}

export async function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    // As root in a container, and with no network beyond loopback: nothing to sandbox or fetch.
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
let axeSource: string | undefined;

/**
 * axe-core's WCAG 2.2 AA violations on the page, each as `rule: targets`; it fails the test if axe found
 * nothing to check.
 */
export async function accessibilityViolations(page: Page): Promise<string[]> {
  axeSource ??= await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  const result = (await page.evaluate(
    `${axeSource}; axe.run(document, { runOnly: { type: 'tag', values: ${JSON.stringify(WCAG_TAGS)} } ` +
      `}).then((r) => ({ passes: r.passes.length, violations: r.violations.map((v) => v.id + ': ' + ` +
      `v.nodes.map((n) => n.target.join(' ')).join(' | ')) }))`,
  )) as { passes: number; violations: string[] };
  assert.ok(result.passes > 0, 'axe checked the page');
  return result.violations;
}

/** A full-page screenshot under test-output/screenshots/. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: new URL(`${name}.png`, SCREENSHOTS).pathname, fullPage: true });
}
