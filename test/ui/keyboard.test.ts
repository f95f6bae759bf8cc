/**
 * The caseworkers' journeys by keyboard alone, in Chromium: every control is reached with Tab (in
 * the page's own order, never by a script's focus), filled by typing and used with Enter or Space.
 * A journey that needs a pointer anywhere fails here.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { type RunningApp, filledStore, startApp, suiteContext } from '../helper.ts';
import { accessibilityViolations, browserMissing, launch, screenshot } from './browser.ts';

const missing = browserMissing();

/** Presses Tab until the focused element matches `selector`; fails when a whole round of the page never reaches it. */
async function tabTo(page: Page, selector: string, most = 80): Promise<void> {
  for (let presses = 0; presses < most; presses++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return;
  }
  assert.fail(`${most} presses of Tab never reached ${selector} on ${page.url()}`);
}

/** Tabs to a field and types into it. */
async function type(page: Page, selector: string, text: string): Promise<void> {
  await tabTo(page, selector);
  await page.keyboard.type(text);
}

/** Tabs to each field in turn, by the page's order, and types its text. */
async function typeAll(page: Page, fields: Record<string, string>): Promise<void> {
  for (const [selector, text] of Object.entries(fields)) await type(page, selector, text);
}

/** Tabs to the link to `href` and follows it with Enter. */
async function follow(page: Page, href: string): Promise<void> {
  await tabTo(page, `a[href="${href}"]`);
  await page.keyboard.press('Enter');
  await page.waitForURL((url) => url.pathname === href);
}

describe('caseworker journeys by keyboard alone', { skip: missing }, () => {
  const context = suiteContext();
  let running: RunningApp;
  let browser: Browser;

  before(async () => {
    running = await startApp(context, await filledStore(context, 'memory'));
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
  });

  /** A new page, signed in through the mock's form by keyboard. */
  async function signedIn(username: string, roles: string[]): Promise<Page> {
    const page = await browser.newPage();
    await page.goto(`${running.url}/ui/sign-in`);
    await type(page, '#username', username);
    for (const role of roles) {
      await tabTo(page, `input[name="roles"][value="${role}"]`);
      await page.keyboard.press('Space');
    }
    await tabTo(page, 'main button[type="submit"]');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${running.url}/ui`);
    return page;
  }

  test('search by names and date, choose among several results, and read the record', async () => {
    const page = await signedIn('keys-only@example.gov.uk', ['birth']);
    await follow(page, '/ui/birth/search');
    await typeAll(page, {
      '#surname': 'Marsden',
      '#forenames': 'George',
      '#dateOfBirth-day': '14',
      '#dateOfBirth-month': '3',
      '#dateOfBirth-year': '2010',
    });
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/ui\/birth\/search\?/);
    assert.equal(await page.locator('tbody tr').count(), 3);
    await follow(page, '/ui/birth/999999002');
    assert.match(await page.locator('main').innerText(), /George/);
    await page.close();
  });

  test('a search that finds nothing offers close matches, each explained; one is followed to its record', async () => {
    const page = await signedIn('close-matches@example.gov.uk', ['birth', 'suggest']);
    await follow(page, '/ui/birth/search');
    // Kathryn Smith for Catherine Grace Smyth: no exact match.
    await typeAll(page, {
      '#surname': 'Smith',
      '#forenames': 'Kathryn',
      '#dateOfBirth-day': '22',
      '#dateOfBirth-month': '10',
      '#dateOfBirth-year': '2012',
    });
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/ui\/birth\/search\?/);
    assert.match(await page.locator('main').innerText(), /No birth registration matches those details/);
    await screenshot(page, 'close-matches-offered');
    assert.deepEqual(await accessibilityViolations(page), [], 'the offer: axe found violations');
    await tabTo(page, 'a[href^="/ui/birth/close-matches?"]');
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Search for close matches');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/ui\/birth\/close-matches\?/);
    const main = await page.locator('main').innerText();
    assert.match(main, /Surname: Smith sounds like Smyth/);
    assert.match(main, /Forenames: Kathryn sounds like Catherine/);
    assert.match(main, /date of birth: 22 October 2012 is as registered/);
    // How much each detail counts, in words, and the chance it is the registration sought.
    assert.match(main, /date of birth: 22 October 2012 is as registered[^\n]*: (very strong|strong) evidence for/);
    assert.match(
      main,
      new RegExp(
        /Surname: Smith sounds like Smyth[^\n]*: (very strong|strong|some|weak) evidence (for|against)/.source +
          /|Surname: Smith sounds like Smyth[^\n]*: hardly evidence either way/.source,
      ),
    );
    assert.match(main, /\b\d{1,3}%/);
    await screenshot(page, 'close-matches');
    assert.deepEqual(await accessibilityViolations(page), [], 'the close matches: axe found violations');
    await follow(page, '/ui/birth/999999071');
    assert.match(await page.locator('main').innerText(), /Catherine Grace/);
    await page.close();
  });

  test('without the suggest role no close matches are offered', async () => {
    const page = await signedIn('keys-only@example.gov.uk', ['birth']);
    await page.goto(
      `${running.url}/ui/birth/search?submitted=1&surname=Smith&forenames=Kathryn&dateOfBirth-day=22` +
        `&dateOfBirth-month=10&dateOfBirth-year=2012`,
    );
    assert.match(await page.locator('main').innerText(), /No birth registration matches those details/);
    assert.equal(await page.locator('a[href^="/ui/birth/close-matches"]').count(), 0);
    await page.close();
  });

  test(
    'a mistake is reached from the error summary, corrected, ' + 'and the search by system number goes to the record',
    async () => {
      const page = await signedIn('keys-only@example.gov.uk', ['birth']);
      await page.goto(`${running.url}/ui/birth/search`);
      await type(page, '#systemNumber', 'twelve');
      await page.keyboard.press('Enter');
      await page.waitForSelector('.govuk-error-summary');
      // GOV.UK's error summary takes the focus, and its link leads to the field.
      await tabTo(page, '.govuk-error-summary a[href="#systemNumber"]', 5);
      await page.keyboard.press('Enter');
      assert.equal(await page.evaluate(() => document.activeElement?.id), 'systemNumber');
      await page.keyboard.press('Control+A');
      await page.keyboard.type('123456789');
      await page.keyboard.press('Enter');
      await page.waitForURL(/\/ui\/birth\/123456789$/);
      assert.match(await page.locator('main').innerText(), /Eleanor Rose/);
      await page.close();
    },
  );

  test("check a certificate's details with the verify role alone", async () => {
    const page = await signedIn('checker@example.gov.uk', ['birth-verify']);
    await follow(page, '/ui/birth/verify');
    await typeAll(page, {
      '#surname': 'Ashworth',
      '#forenames': 'Eleanor',
      '#dateOfBirth-day': '8',
      '#dateOfBirth-month': '8',
      '#dateOfBirth-year': '2008',
      '#motherMaidenSurname': 'Pennington',
    });
    await tabTo(page, 'main button[type="submit"]');
    await page.keyboard.press('Enter');
    await page.waitForSelector('h1:has-text("The details match")');
    await page.close();
  });

  test('read the audit report over chosen days, then sign out', async () => {
    const page = await signedIn('auditor@example.gov.uk', ['birth', 'audit']);
    await page.goto(`${running.url}/ui/birth/123456789`);
    await tabTo(page, '.govuk-service-navigation a[href="/ui/audit"]');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/ui\/audit$/);
    const today = new Date();
    for (const [field, value] of [
      ['#from-day', '1'],
      ['#from-month', '1'],
      ['#from-year', '2000'],
    ] as const) {
      await tabTo(page, field);
      await page.keyboard.press('Control+A');
      await page.keyboard.type(value);
    }
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/ui\/audit\?/);
    const row = page.locator('tr', { hasText: 'auditor@example.gov.uk' });
    assert.equal(await row.count(), 1);
    assert.match(await row.innerText(), new RegExp(today.toISOString().slice(0, 10)));
    await tabTo(page, '.lev-sign-out button');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/ui\/sign-in$/);
    await page.close();
  });
});
