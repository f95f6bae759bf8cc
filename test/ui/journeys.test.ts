/**
 * The caseworkers' journeys in a real browser, against the mock served on a socket: sign in,
 * find Eleanor Rose Ashworth, read her record with the chosen roles' fields, check her certificate,
 * and find that search in the audit report and, following its row, in the caseworker's accesses of the day.
 * Every page passes axe's WCAG 2.2 AA rules and is photographed under test-output/screenshots/.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { type RunningApp, filledStore, startApp, suiteContext } from '../helper.ts';
import { accessibilityViolations, browserMissing, launch, screenshot } from './browser.ts';

const missing = browserMissing();

/** Longer than the audited journey takes (seconds), and short enough to wait within the test timeout. */
const JOURNEY_AT_MOST_MS = 2 * 60_000;

describe('caseworker pages in Chromium', { skip: missing }, () => {
  const context = suiteContext();
  let running: RunningApp;
  let browser: Browser;
  const consoleErrors: string[] = [];

  before(async () => {
    running = await startApp(context, await filledStore(context, 'memory'));
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
  });

  const newPage = async () => {
    const page = await browser.newPage();
    page.on('console', (message) => {
      // A CSP refusal reaches the console: none may happen.
      if (message.type() === 'error' && !/status of 4\d\d/.test(message.text())) consoleErrors.push(message.text());
    });
    return page;
  };

  /** Screenshot and accessibility check of the page as it is now. */
  const looked = async (page: Page, name: string) => {
    await screenshot(page, name);
    assert.deepEqual(await accessibilityViolations(page), [], `${name}: axe found violations`);
    assert.doesNotMatch(await page.title(), /Ashworth|Eleanor/, `${name}: no personal data in the title`);
  };

  const signIn = async (page: Page, username: string, roles: string[]) => {
    await page.goto(`${running.url}/ui`);
    assert.match(page.url(), /\/ui\/sign-in$/);
    // Keyboard only: the form must work without a pointer.
    await page.focus('#username');
    await page.keyboard.type(username);
    for (const role of roles) {
      await page.focus(`input[name="roles"][value="${role}"]`);
      await page.keyboard.press('Space');
    }
    await page.focus('button[type="submit"]:has-text("Sign in")');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${running.url}/ui`);
  };

  /** Eleanor Rose Ashworth's names and date of birth, in the search or the check form. */
  const fillEleanor = async (page: Page) => {
    await page.fill('#surname', 'Ashworth');
    await page.fill('#forenames', 'Eleanor');
    await page.fill('#dateOfBirth-day', '8');
    await page.fill('#dateOfBirth-month', '8');
    await page.fill('#dateOfBirth-year', '2008');
  };
  const checkEleanor = async (page: Page, motherMaidenSurname: string) => {
    await fillEleanor(page);
    await page.fill('#motherMaidenSurname', motherMaidenSurname);
    await page.click('button:has-text("Check")');
  };

  test(
    'sign in, find Eleanor Rose Ashworth, read her ' + 'record, check her certificate, see the search audited',
    async () => {
      // The audit report counts the journey's accesses by day (UTC): begun within minutes of midnight,
      // they could fall on two days, so it waits for the new day.
      const toMidnight = 86_400_000 - (Date.now() % 86_400_000);
      if (toMidnight < JOURNEY_AT_MOST_MS) await new Promise((resolve) => setTimeout(resolve, toMidnight + 1000));
      const page = await newPage();
      await page.goto(`${running.url}/ui/sign-in`);
      await looked(page, 'sign-in');
      await signIn(page, 'eleanor-finder@example.gov.uk', ['birth', 'full-details', 'audit']);
      await looked(page, 'start');

      await page.click('text=Find a birth registration');
      await looked(page, 'search');
      // Nothing filled: the error summary names each missing field and links to it.
      await page.click('button:has-text("Search")');
      const summary = page.locator('.govuk-error-summary');
      assert.equal(await summary.locator('a').count(), 3);
      assert.match(
        await summary.innerText(),
        /Enter the surname[\s\S]*Enter the forenames[\s\S]*Enter the child's date of birth/,
      );
      assert.match(await page.title(), /^Error: /);
      await looked(page, 'search-errors');

      await fillEleanor(page);
      await page.click('button:has-text("Search")');
      // One result: straight to the record.
      await page.waitForURL(/\/ui\/birth\/123456789$/);
      const text = await page.locator('main').innerText();
      assert.match(text, /Eleanor Rose/);
      assert.match(text, /Pharmacist/, "full-details: the mother's occupation is shown");
      await looked(page, 'record');

      // The audit role's link from the record: who has seen it. The search that found it and this reading of it.
      await page.click('text=Who has seen this record');
      await page.waitForURL(/\/ui\/birth\/123456789\/seen$/);
      const seen = page.locator('tbody tr');
      assert.deepEqual(
        await seen.evaluateAll((rows) =>
          rows.map((row) => [...row.querySelectorAll('td')].slice(2).map((cell) => cell.textContent?.trim())),
        ),
        [
          ['eleanor-finder@example.gov.uk', 'lev-ui', 'Lookup'],
          ['eleanor-finder@example.gov.uk', 'lev-ui', 'Search'],
        ],
      );
      await looked(page, 'record-accesses');
      await page.click('.govuk-back-link');
      await page.waitForURL(/\/ui\/birth\/123456789$/);

      await page.goto(`${running.url}/ui/birth/verify`);
      await looked(page, 'verify');
      await checkEleanor(page, 'Pennington');
      assert.match(await page.locator('h1').innerText(), /^The details match$/);
      await looked(page, 'verified');
      await page.goto(`${running.url}/ui/birth/verify`);
      await checkEleanor(page, 'Doyle');
      assert.match(await page.locator('h1').innerText(), /^The details do not match$/);
      await looked(page, 'not-verified');

      await page.click('.govuk-service-navigation >> text=Audit report');
      const today = new Date().toISOString().slice(0, 10);
      const row = page.locator('tr', { hasText: 'eleanor-finder@example.gov.uk' });
      assert.equal(await row.count(), 1, 'the caseworker is in the report');
      // The search that found the record, the record read twice, two verifications: five accesses today (who
      // has seen it, a reading of the trail, is listed only under its own operation). The count is the row's
      // link, named for screen readers by text only they are given.
      assert.deepEqual(
        (await row.locator('td').allInnerTexts()).map((cell) => cell.replace(/\s+/g, ' ').trim()),
        ['eleanor-finder@example.gov.uk', today, `5 accesses by eleanor-finder@example.gov.uk on ${today}`],
      );
      await looked(page, 'audit');
      const csv = await page.request.get(`${running.url}/ui/audit.csv`);
      assert.equal(csv.status(), 200);
      assert.match(csv.headers()['content-type'], /^text\/csv/);
      assert.match(
        await csv.text(),
        new RegExp(`^user,day,accesses\\r\\n[\\s\\S]*eleanor-finder@example\\.gov\\.uk,${today},5\\r\\n`),
      );

      // The drill-down: from the caseworker's row of today to what they asked.
      await row.getByRole('link', { name: `5 accesses by eleanor-finder@example.gov.uk on ${today}` }).click();
      await page.waitForURL(/\/ui\/audit\/entries\?/);
      assert.match(await page.locator('h1').innerText(), /^Accesses on \d{1,2} [A-Z][a-z]+ \d{4}$/);
      assert.doesNotMatch(await page.title(), /eleanor-finder/, 'no username in the title');
      const accesses = page.locator('tbody tr');
      assert.equal(await accesses.count(), 5);
      const searched = page.locator('tbody tr', { hasText: 'Search' });
      assert.equal(await searched.count(), 1, 'the search of Eleanor Rose Ashworth is listed');
      const [time, ...cells] = (await searched.locator('td').allInnerTexts()).map((cell) => cell.trim());
      assert.match(time, /^\d\d:\d\d:\d\d$/);
      assert.deepEqual(cells, [
        'Search',
        'birth',
        'surname: Ashworth\nforenames: Eleanor\ndateOfBirth: 2008-08-08',
        '1',
      ]);
      await looked(page, 'audit-entries');
      await page.click('.govuk-back-link');
      await page.waitForURL(/\/ui\/audit\?/);
      assert.equal(
        await page.locator('tr', { hasText: 'eleanor-finder@example.gov.uk' }).count(),
        1,
        'back to the report',
      );
      await page.close();
    },
  );

  test('a search that finds several lists them; a caseworker without full-details sees fewer fields', async () => {
    const page = await newPage();
    await signIn(page, 'basic-reader@example.gov.uk', ['birth']);
    await page.goto(
      `${running.url}/ui/birth/search?submitted=1&surname=Marsden&forenames=George&dateOfBirth-day=14` +
        `&dateOfBirth-month=3&dateOfBirth-year=2010`,
    );
    assert.equal(await page.locator('tbody tr').count(), 3);
    await looked(page, 'results');
    await page.goto(`${running.url}/ui/birth/123456789`);
    const text = await page.locator('main').innerText();
    assert.match(text, /Eleanor Rose/);
    assert.doesNotMatch(text, /Pharmacist/, "without full-details the mother's occupation is not shown");
    await page.goto(`${running.url}/ui/birth/999999020`);
    assert.match(await page.locator('main').innerText(), /This registration is blocked/);
    await looked(page, 'record-blocked');
    await page.goto(`${running.url}/ui/birth/999999041`);
    assert.equal(
      await page.locator('a[href="/ui/birth/999999040"]').count(),
      1,
      'a re-registration links to the registration it replaced',
    );
    await looked(page, 'record-re-registered');
    await page.close();
  });

  test('signing out ends the session; the pages then ask to sign in', async () => {
    const page = await newPage();
    await signIn(page, 'leaver@example.gov.uk', ['death']);
    await page.click('button:has-text("Sign out")');
    await page.waitForURL(/\/ui\/sign-in$/);
    await page.goto(`${running.url}/ui/death/search`);
    assert.match(page.url(), /\/ui\/sign-in$/);
    await page.close();
  });

  test('no page broke its Content-Security-Policy or logged an error', () => {
    assert.deepEqual(consoleErrors, []);
  });
});
