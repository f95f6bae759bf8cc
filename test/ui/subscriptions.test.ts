/**
 * The subscriptions page in Chromium, against the mock with roles enforced: for the audit role,
 * linked from the start page, each subscription with its endpoint (a webhook, or the feed), state
 * (active, paused, disabled by 410), lag, failures and dead letters; for a caseworker without it,
 * no link and a 403 page. Every page passes axe's WCAG 2.2 AA rules and is photographed under
 * test-output/screenshots/.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { type RunningApp, filledStore, startApp, suiteContext, testConfig } from '../helper.ts';
import { FEED_READER, subscribedStates } from '../http/subscription-states.ts';
import { accessibilityViolations, browserMissing, launch, screenshot } from './browser.ts';

const missing = browserMissing();

describe('the subscriptions page in Chromium', { skip: missing }, () => {
  const context = suiteContext();
  let running: RunningApp;
  let browser: Browser;
  const consoleErrors: string[] = [];

  before(async () => {
    const store = await filledStore(context, 'memory');
    await subscribedStates(store);
    running = await startApp(context, store, testConfig({ MOCK_ENFORCE_ROLES: 'true' }));
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
  });

  /** A browser of its own (its own cookies), signed in with these roles, on the start page. */
  const signedIn = async (username: string, roles: string[]): Promise<{ page: Page; session: BrowserContext }> => {
    const session = await browser.newContext();
    const page = await session.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error' && !/status of 4\d\d/.test(message.text())) consoleErrors.push(message.text());
    });
    await page.goto(`${running.url}/ui/sign-in`);
    await page.fill('#username', username);
    for (const role of roles) await page.check(`input[name="roles"][value="${role}"]`);
    await page.click('button[type="submit"]:has-text("Sign in")');
    await page.waitForURL(`${running.url}/ui`);
    return { page, session };
  };

  const looked = async (page: Page, name: string) => {
    await screenshot(page, name);
    assert.deepEqual(await accessibilityViolations(page), [], `${name}: axe found violations`);
  };

  /** Each card's rows, by the card's title and each row's key. */
  const cards = (page: Page) =>
    page.evaluate(() =>
      Object.fromEntries(
        [...document.querySelectorAll('.govuk-summary-card')].map((card) => [
          card.querySelector('.govuk-summary-card__title')?.textContent?.trim(),
          Object.fromEntries(
            [...card.querySelectorAll('.govuk-summary-list__row')].map((row) => [
              row.querySelector('dt')?.textContent?.trim(),
              row.querySelector('dd')?.textContent?.replace(/\s+/g, ' ').trim(),
            ]),
          ),
        ]),
      ),
    );

  test('the audit role follows the start page to every subscription and its state', async () => {
    const { page, session } = await signedIn('subscriptions-auditor@example.gov.uk', ['birth', 'audit']);
    await page.click('text=See the subscriptions to the change feed');
    await page.waitForURL(`${running.url}/ui/subscriptions`);
    assert.equal(await page.title(), 'Subscriptions – Life events verification – GOV.UK');
    const shown = await cards(page);
    assert.deepEqual(Object.keys(shown), [
      'dvla-licences',
      'dwp-bereavement',
      'hmrc-pensions',
      'nhs-records',
      'old-council',
      FEED_READER,
    ]);
    assert.deepEqual(shown['hmrc-pensions'], {
      State: 'Active',
      Endpoint: 'https://hooks.hmrc.example.gov.uk/lev',
      Events: 'death.registered',
      Lag: 'Up to date',
      Failures: 'None',
      'Dead letters': 'None',
    });
    assert.equal(shown['nhs-records'].Endpoint, 'https://nhs.example.gov.uk/receive/deaths?…');
    assert.match(
      shown['nhs-records'].Failures,
      new RegExp(
        /^2 failed attempts at the next event since \d+ \w+ \d{4} at \d\d:\d\d:\d\d UTC; /.source +
          /the last: HTTP 500: the receiver answered 500; the next attempt on .* UTC$/.source,
      ),
    );
    assert.match(shown['nhs-records'].Lag, /^3 events behind; the oldest waiting since .* UTC$/);
    assert.equal(shown['dvla-licences'].State, 'Paused');
    assert.match(
      shown['old-council'].State,
      /^Disabled The receiver answered 410 Gone on .* UTC: nothing is sent until an operator enables it again\.$/,
    );
    assert.equal(shown['dwp-bereavement']['Dead letters'], '1 event');
    assert.equal(shown[FEED_READER].Endpoint, 'Reads the feed (GET /v1/events)');
    assert.match(shown[FEED_READER].Lag, /^2 events behind; last read on .* UTC$/);
    assert.doesNotMatch(await page.content(), /whsec_|s3cret/, 'no secret, no token');
    await looked(page, 'subscriptions');
    await session.close();
  });

  test('a caseworker without the audit role has no link, and the page is refused with 403', async () => {
    const { page, session } = await signedIn('no-audit@example.gov.uk', ['birth']);
    assert.equal(await page.locator('a[href="/ui/subscriptions"]').count(), 0, 'no link from the start page');
    const response = await page.goto(`${running.url}/ui/subscriptions`);
    assert.equal(response?.status(), 403);
    assert.match(await page.locator('h1').innerText(), /You cannot do that/);
    assert.equal(await page.locator('.govuk-summary-card').count(), 0);
    await looked(page, 'subscriptions-refused');
    await session.close();
  });

  test('no page broke its Content-Security-Policy or logged an error', () => {
    assert.deepEqual(consoleErrors, []);
  });
});
