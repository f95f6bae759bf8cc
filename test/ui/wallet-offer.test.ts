/**
 * "Send to a wallet" in the caseworkers' pages, in Chromium against the mock on a socket: the record
 * page's button makes an offer as the caseworker, shown as a QR code with the code to type, and a
 * wallet (`Openid4vciClient`) picks the credential up from the link with that code. The page passes
 * axe's WCAG 2.2 AA rules and is photographed under test-output/screenshots/.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { type RunningApp, filledStore, startApp, suiteContext } from '../helper.ts';
import { VERIFIERS, newWallet, pickUp } from '../http/wallet/wallet.ts';
import { accessibilityViolations, browserMissing, launch, screenshot } from './browser.ts';

const missing = browserMissing();

describe('send to a wallet, in Chromium', { skip: missing }, () => {
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

  test('the record page sends an offer: a QR code, the code to type, and a wallet picks it up', async () => {
    const page = await browser.newPage();
    await page.goto(`${running.url}/ui`);
    await page.fill('#username', 'casey.worker');
    await page.check('input[name="roles"][value="full-details"]');
    await page.click('button[type="submit"]:has-text("Sign in")');
    await page.waitForURL(`${running.url}/ui`);
    await page.goto(`${running.url}/ui/birth/123456789`);
    await page.click('button:has-text("Send to a wallet")');
    assert.equal((await page.textContent('h1'))?.trim(), 'Send to a wallet');
    assert.ok(await page.$('figure.lev-qr svg'), 'the QR code is shown');
    const txCode = (await page.textContent('.govuk-panel__body'))?.trim() ?? '';
    assert.match(txCode, /^\d{6}$/);
    await screenshot(page, 'wallet-offer');
    assert.deepEqual(await accessibilityViolations(page), [], 'axe found violations');
    const link = (await page.textContent('details code'))?.trim() ?? '';
    const wallet = newWallet();
    const { credentials } = await pickUp(wallet, link, txCode);
    await VERIFIERS['dc+sd-jwt'](credentials[0], { issuer: running.url, type: 'birth', recordId: 123456789, wallet });
    await page.close();
  });
});
