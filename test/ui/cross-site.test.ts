/**
 * Requests another site starts in a signed-in caseworker's browser: a page on 127.0.0.2 (another
 * site than the pages' 127.0.0.1) links to a record and posts a sign-out form. In Chromium, whose
 * cookies and Sec-Fetch-Site headers are the subject: a link must not read or audit anything in the
 * caseworker's name until they confirm, and a refused form must leave their session as it was.
 */
import assert from 'node:assert/strict';
import { type Server, createServer } from 'node:http';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { type RunningApp, type TestStore, filledStore, startApp, suiteContext, trailEntries } from '../helper.ts';
import { accessibilityViolations, browserMissing, launch, screenshot } from './browser.ts';

const missing = browserMissing();
const RECORD = '/ui/birth/123456789';

/** Audit entries of lookups made in the test caseworker's name. */
const lookupsBy = async (store: TestStore, username: string) =>
  (await trailEntries(store)).filter((entry) => entry.operation === 'lookup' && entry.username === username).length;

describe('pages opened from another site, in Chromium', { skip: missing }, () => {
  const context = suiteContext();
  let running: RunningApp;
  let store: TestStore;
  let browser: Browser;
  let foreign: Server;
  let foreignUrl: string;

  before(async () => {
    store = await filledStore(context, 'memory');
    running = await startApp(context, store);
    browser = await launch();
    // Another site: a page with a link, and one with a form, aimed at the pages.
    foreign = createServer((request, response) => {
      const target = new URL(request.url ?? '/', 'http://x').searchParams.get('to') ?? '';
      const body = request.url?.startsWith('/form')
        ? `<form method="post" action="${target}"><input type="hidden" name="csrf" value="guess"><button ` +
          `id="go">Go</button></form>`
        : `<a id="go" href="${target}">Go</a>`;
      response
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(`<!doctype html><title>elsewhere</title>${body}`);
    });
    await new Promise<void>((resolve) => foreign.listen(0, '127.0.0.2', resolve));
    const address = foreign.address();
    foreignUrl = `http://127.0.0.2:${typeof address === 'object' && address ? address.port : 0}`;
  });
  after(async () => {
    await browser?.close();
    foreign?.close();
  });

  /** A browser profile of its own, signed in as `username` with the birth role. */
  const signedIn = async (username: string): Promise<{ browserContext: BrowserContext; page: Page }> => {
    const browserContext = await browser.newContext();
    const page = await browserContext.newPage();
    await page.goto(`${running.url}/ui/sign-in`);
    await page.fill('#username', username);
    await page.check('input[name="roles"][value="birth"]');
    await page.click('button:has-text("Sign in")');
    await page.waitForURL(`${running.url}/ui`);
    return { browserContext, page };
  };

  const sessionCookie = async (browserContext: BrowserContext) =>
    (await browserContext.cookies(`${running.url}/ui`)).find((cookie) => cookie.name === 'lev_ui_session')?.value;

  test(
    'a link on another site to a record: a page asking to confirm, nothing looked up or audited; ' +
      'confirming shows the record',
    async () => {
      const { browserContext, page } = await signedIn('followed-a-link');
      await page.goto(`${foreignUrl}/link?to=${encodeURIComponent(running.url + RECORD)}`);
      await Promise.all([page.waitForURL(running.url + RECORD), page.click('#go')]);
      const text = await page.innerText('main');
      assert.doesNotMatch(text, /Ashworth|Eleanor/, 'nothing of the record is shown');
      assert.match(text, /another website/i);
      assert.equal(await lookupsBy(store, 'followed-a-link'), 0, "no lookup made or audited in the caseworker's name");
      await screenshot(page, 'confirm-link-from-another-site');
      assert.deepEqual(await accessibilityViolations(page), []);

      await Promise.all([page.waitForURL(running.url + RECORD), page.click('a:has-text("Continue")')]);
      assert.match(
        await page.innerText('main'),
        /Eleanor/,
        'the record, once the caseworker chose to go on from the pages themselves',
      );
      assert.equal(await lookupsBy(store, 'followed-a-link'), 1);

      // From the pages' own links (same origin), no confirmation is asked.
      await page.goto(`${running.url}/ui`);
      await page.evaluate((href) => {
        const link = document.createElement('a');
        link.href = href;
        link.id = 'own';
        link.textContent = 'own';
        document.querySelector('main')?.append(link);
      }, RECORD);
      await Promise.all([page.waitForURL(running.url + RECORD), page.click('#own')]);
      assert.match(await page.innerText('main'), /Eleanor/);
      await browserContext.close();
    },
  );

  test(
    'a sign-out form posted from another site: refused, and ' + 'the caseworker stays signed in with the same session',
    async () => {
      const { browserContext, page } = await signedIn('posted-to');
      const before = await sessionCookie(browserContext);
      assert.ok(before);
      await page.goto(`${foreignUrl}/form?to=${encodeURIComponent(`${running.url}/ui/sign-out`)}`);
      const [response] = await Promise.all([
        page.waitForEvent('response', (r) => r.url() === `${running.url}/ui/sign-out`),
        page.click('#go'),
      ]);
      assert.equal(response.status(), 403);
      assert.equal(await response.headerValue('set-cookie'), null, 'the refusal sets no cookie');
      assert.equal(await sessionCookie(browserContext), before, 'the session cookie is the one the caseworker had');
      await page.goto(`${running.url}/ui`);
      assert.equal(page.url(), `${running.url}/ui`, 'still signed in: no redirect to sign in');
      assert.match(await page.innerText('body'), /posted-to/);
      await browserContext.close();
    },
  );

  test(
    'a form posted without the session it belongs to (no browser to say where it came from): refused, and ' +
      'no session made',
    async () => {
      for (const path of ['/ui/sign-out', '/ui/sign-in']) {
        const response = await fetch(running.url + path, {
          method: 'POST',
          body: new URLSearchParams({ csrf: 'guess', username: 'x', roles: 'birth' }),
          redirect: 'manual',
        });
        assert.equal(response.status, 403, path);
        assert.equal(response.headers.get('set-cookie'), null, `${path}: no cookie set`);
      }
    },
  );
});
