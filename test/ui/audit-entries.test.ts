/**
 * The audit report's drill-down page over HTTP: the report links each row to it, it lists that
 * user's accesses of that day with what was asked decoded and escaped, its title names no one,
 * its back link returns to the report's range, a broken link is a 400 page, a list cut short
 * says so, and without the audit role (where roles are enforced) it is refused.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { longDate } from '../../src/ui/dates.ts';
import { CALLER, type RunningApp, filledStore, startApp, testConfig } from '../helper.ts';
import { signIn } from './sign-in.ts';

const titleOf = (html: string) => /<title>([^<]*)<\/title>/.exec(html)?.[1] ?? '';
const today = () => new Date().toISOString().slice(0, 10);
/** The text of each body row's cells, tags dropped. */
const cells = (html: string) =>
  [...(/<tbody[^>]*>([\s\S]*?)<\/tbody>/.exec(html)?.[1] ?? '').matchAll(/<tr[\s\S]*?<\/tr>/g)].map(([row]) =>
    [...row.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map(([, cell]) =>
      cell
        .replace(/<\/li><li>/g, '; ')
        .replace(/<[^>]+>/g, '')
        .trim(),
    ),
  );

describe('the audit drill-down page', () => {
  const caller = { ...CALLER, 'x-auth-username': 'o.brien@dwp.example.gov.uk', 'x-auth-aud': 'tell-us-once' };

  async function running(t: { after: (fn: () => unknown) => void }, env: Record<string, string> = {}) {
    const store = await filledStore(t, 'memory');
    const app = await startApp(t, store, testConfig(env));
    return { store, app };
  }
  const get = (app: RunningApp, path: string, cookie: string) =>
    fetch(`${app.url}${path}`, { headers: { cookie }, redirect: 'manual' });

  test(
    'a row of the report links to its user and day; the page lists what they asked, decoded and escaped, ' +
      'the newest first',
    async (t) => {
      const { app } = await running(t);
      assert.equal((await app.get('/v1/registration/birth/123456789', caller)).status, 200);
      assert.equal(
        (
          await app.get(
            '/v1/registration/death?surname=O%27Neill+%3Cscript%3E&forenames=Ann%C3%A9e&date=2009-11-21',
            caller,
          )
        ).status,
        200,
      );
      assert.equal(
        (await app.get('/v1/verification/birth?surname=Ashworth&forenames=Eleanor&dateOfBirth=2008-08-08', caller))
          .status,
        200,
      );
      // A neighbour whose name contains the caller's: not on the caller's page.
      assert.equal(
        (
          await app.get('/v1/registration/birth/123456789', {
            ...caller,
            'x-auth-username': 'o.brien@dwp.example.gov.uk.old',
          })
        ).status,
        200,
      );
      const cookie = await signIn(app.url, ['audit'], 'auditor');

      const report = await (await get(app, '/ui/audit', cookie)).text();
      const day = today();
      const from = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10);
      const href = `/ui/audit/entries?user=o.brien%40dwp.example.gov.uk&amp;day=${day}&amp;from=${from}&amp;to=${day}`;
      assert.ok(report.includes(`href="${href}"`), `the report links ${href}`);
      assert.match(
        report,
        /3<span class="govuk-visually-hidden"> accesses by o.brien@dwp.example.gov.uk on \d{4}-\d\d-\d\d<\/span>/,
      );

      const response = await get(app, href.replaceAll('&amp;', '&'), cookie);
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('cache-control'), 'no-store');
      const html = await response.text();
      assert.equal(titleOf(html), `Accesses on ${longDate(day)} – Life events verification – GOV.UK`);
      assert.match(longDate('2026-11-24'), /^24 November 2026$/);
      assert.match(html, /By <strong>o.brien@dwp.example.gov.uk<\/strong>/);
      assert.match(html, /Signed in as <strong>auditor<\/strong>/, 'the layout still names the caseworker signed in');
      const rows = cells(html);
      assert.deepEqual(
        rows.map(([time, ...rest]) => (assert.match(time, /^\d\d:\d\d:\d\d$/), rest)),
        [
          ['Certificate check', 'birth', 'surname: Ashworth; forenames: Eleanor; dateOfBirth: 2008-08-08', 'matched'],
          ['Search', 'death', 'surname: O&#39;Neill &lt;script&gt;; forenames: Année; date: 2009-11-21', '0'],
          ['Lookup', 'birth', 'system number: 123456789', '1'],
        ],
      );
      assert.doesNotMatch(html, /Neill <script>/, 'what was asked is escaped');
      const backTo = (html: string) =>
        /<a href="([^"]*)" class="govuk-back-link">Back to the audit report<\/a>/.exec(html)?.[1];
      const [fy, fm, fd] = from.split('-');
      const [ty, tm, td] = day.split('-');
      assert.equal(
        backTo(html),
        `/ui/audit?from-day=${fd}&amp;from-month=${fm}&amp;from-year=${fy}&amp;to-day=${td}&amp;to-month=` +
          `${tm}&amp;to-year=${ty}`,
        "back to the report's range",
      );
      assert.equal(
        backTo(await (await get(app, `/ui/audit/entries?user=o.brien%40dwp.example.gov.uk&day=${day}`, cookie)).text()),
        '/ui/audit',
        'without the range: the report as it opens',
      );
      assert.match(
        await (await get(app, '/ui/audit/entries?user=nobody&day=2001-01-01', cookie)).text(),
        /No accesses by this user on this day/,
      );
    },
  );

  test('a broken link is a 400 page; a list cut short says so', async (t) => {
    const { store, app } = await running(t);
    assert.ok(store.kind === 'memory');
    const cookie = await signIn(app.url, ['audit'], 'auditor');
    for (const query of [
      '',
      'user=a',
      'day=2026-11-24',
      'user=&day=2026-11-24',
      'user=a&day=24-11-2026',
      'user=a&day=2026-02-30',
      'user=a%00b&day=2026-11-24',
    ]) {
      const response = await get(app, `/ui/audit/entries?${query}`, cookie);
      assert.equal(response.status, 400, query);
      const html = await response.text();
      assert.match(titleOf(html), /^There is a problem with the link/, query);
    }
    const busy = {
      username: 'busy',
      client: 'c',
      groups: [],
      dataset: 'birth',
      operation: 'lookup' as const,
      path: '/v1/registration/birth/1',
      query: '',
      results: 1,
      requestId: 'r',
    };
    await store.trail.append(
      Array.from({ length: 1001 }, () => busy),
      '2026-11-24T10:00:00.000Z',
    );
    const cut = await (await get(app, '/ui/audit/entries?user=busy&day=2026-11-24', cookie)).text();
    assert.match(cut, /Only the latest 1000 of this day&#39;s accesses are shown: there were more\./);
    assert.equal(cells(cut).length, 1000);
    const whole = await (await get(app, '/ui/audit/entries?user=busy&day=2026-11-23', cookie)).text();
    assert.doesNotMatch(whole, /Only the latest/);
  });

  test('signed out, it asks to sign in; where roles are enforced, it needs the audit role', async (t) => {
    const { app } = await running(t, { MOCK_ENFORCE_ROLES: 'true' });
    const path = `/ui/audit/entries?user=auditor&day=${today()}`;
    const anonymous = await fetch(`${app.url}${path}`, { redirect: 'manual' });
    assert.equal(anonymous.status, 303);
    assert.match(anonymous.headers.get('location') ?? '', /\/ui\/sign-in$/);
    const refused = await get(app, path, await signIn(app.url, ['birth'], 'reader'));
    assert.equal(refused.status, 403);
    assert.match(titleOf(await refused.text()), /^You cannot do that/);
    assert.equal((await get(app, path, await signIn(app.url, ['audit'], 'auditor'))).status, 200);
  });
});

describe('the "who has seen this record" page', () => {
  const get = (app: RunningApp, path: string, cookie: string) =>
    fetch(`${app.url}${path}`, { headers: { cookie }, redirect: 'manual' });

  test(
    'linked from the record page for the audit role only; lists who saw it, newest first; refused without ' +
      'the role',
    async (t) => {
      const app = await startApp(t, await filledStore(t, 'memory'), testConfig({ MOCK_ENFORCE_ROLES: 'true' }));
      const dwp = {
        ...CALLER,
        'x-auth-username': 'o.brien@dwp.example.gov.uk',
        'x-auth-aud': 'tell-us-once',
        'x-auth-roles': 'birth',
      };
      assert.equal((await app.get('/v1/registration/birth/123456789', dwp)).status, 200);
      assert.equal(
        (await app.get('/v1/verification/birth?surname=Ashworth&forenames=Eleanor&dateOfBirth=2008-08-08', dwp)).status,
        200,
      );
      assert.equal((await app.get('/v1/registration/birth/1', dwp)).status, 404);

      const reader = await signIn(app.url, ['birth'], 'reader');
      assert.doesNotMatch(await (await get(app, '/ui/birth/123456789', reader)).text(), /Who has seen this record/);
      assert.equal((await get(app, '/ui/birth/123456789/seen', reader)).status, 403);

      const auditor = await signIn(app.url, ['birth', 'audit'], 'auditor');
      assert.match(
        await (await get(app, '/ui/birth/123456789', auditor)).text(),
        /<a class="govuk-link" href="\/ui\/birth\/123456789\/seen">Who has seen this record<\/a>/,
      );
      const response = await get(app, '/ui/birth/0123456789/seen', auditor);
      assert.equal(response.status, 200);
      const html = await response.text();
      assert.equal(titleOf(html), 'Who has seen birth registration 123456789 – Life events verification – GOV.UK');
      assert.deepEqual(
        cells(html).map(
          ([day, time, ...rest]) => (
            assert.equal(day, longDate(today())), assert.match(time, /^\d\d:\d\d:\d\d$/), rest
          ),
        ),
        [
          ['auditor', 'lev-ui', 'Lookup'],
          ['reader', 'lev-ui', 'Lookup'],
          ['o.brien@dwp.example.gov.uk', 'tell-us-once', 'Certificate check'],
          ['o.brien@dwp.example.gov.uk', 'tell-us-once', 'Lookup'],
        ],
      );
      assert.match(
        await (await get(app, '/ui/death/999999999/seen', auditor)).text(),
        /No one has seen this registration/,
      );
      assert.equal((await get(app, '/ui/birth/12x/seen', auditor)).status, 404);
    },
  );
});
