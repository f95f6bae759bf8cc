/**
 * OpenID Connect sign-in in Chromium: the pages' own process sends the caseworker to a real issuer,
 * the caseworker signs in on the issuer's page (by keyboard), comes back signed in, finds Eleanor
 * Rose Ashworth through the API called with their own token, and signs out at both ends.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { accessibilityViolations, browserMissing, launch, screenshot } from './browser.ts';
import { oidcPages } from './pages-process.ts';
import { suiteContext } from '../helper.ts';

const missing = browserMissing();

describe('OpenID Connect sign-in in Chromium', { skip: missing }, () => {
  const context = suiteContext();
  let browser: Browser;
  let set: Awaited<ReturnType<typeof oidcPages>>;

  before(async () => {
    set = await oidcPages(context);
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
  });

  test('sign in at the issuer, find a record with the roles the token carries, sign out at both ends', async () => {
    const { pages, issuer } = set;
    const page = await browser.newPage();
    const cspErrors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) cspErrors.push(message.text());
    });
    await page.goto(`${pages}/ui`);
    assert.match(page.url(), /\/ui\/sign-in$/);
    assert.equal(await page.locator('text=Sign in to the mock').count(), 0, 'no mock sign-in here');
    await screenshot(page, 'oidc-sign-in');
    assert.deepEqual(await accessibilityViolations(page), []);

    await page.focus('main form button');
    await page.keyboard.press('Enter');
    // The issuer's own login page (another origin: the pages' CSP lets the form lead there).
    await page.waitForURL((url) => url.origin === issuer.url);
    await page.focus('input[name="login"]');
    await page.keyboard.type('eleanor.checker');
    await page.keyboard.press('Tab');
    await page.keyboard.type('any password');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${pages}/ui`);
    assert.match(await page.locator('.lev-sign-out').innerText(), /eleanor\.checker/);

    await page.goto(
      `${pages}/ui/birth/search?submitted=1&surname=Ashworth&forenames=Eleanor&dateOfBirth-day=8` +
        `&dateOfBirth-month=8&dateOfBirth-year=2008`,
    );
    await page.waitForURL(/\/ui\/birth\/123456789$/);
    const text = await page.locator('main').innerText();
    assert.match(text, /Eleanor Rose/);
    assert.match(text, /Pharmacist/, 'full-details, from the roles in the token');

    await page.focus('.lev-sign-out button');
    await page.keyboard.press('Enter');
    // The issuer asks whether to end its session too; either way the pages' session has ended.
    await page.waitForURL((url) => url.origin === issuer.url);
    await page.goto(`${pages}/ui/birth/123456789`);
    assert.match(page.url(), /\/ui\/sign-in$/);
    assert.deepEqual(cspErrors, []);
    await page.close();
  });
});
