/** The pages' security over HTTP: the CSP, no-store, the CSRF check of sign-in and sign-out, sessions that end. */
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { Writable } from 'node:stream';
import { describe, test } from 'node:test';
import pino from 'pino';
import { roleVocabulary } from '../../src/records/roles.ts';
import { searchKeys } from '../../src/records/search-keys.ts';
import { csvCell } from '../../src/ui/routes.ts';
import { memorySessions } from '../../src/ui/sessions.ts';
import { filledStore, sharedApp, startApp, testConfig } from '../helper.ts';
import { builtInTypes } from '../record-types.ts';
import { signIn } from './sign-in.ts';

const app = sharedApp();

describe('caseworker pages over HTTP', () => {
  test('pages carry a CSP without unsafe-inline, no-store, and an HttpOnly SameSite=Lax session cookie', async () => {
    const response = await fetch(`${app().url}/ui/sign-in`);
    assert.equal(response.status, 200);
    const csp = response.headers.get('content-security-policy') ?? '';
    assert.match(csp, /script-src 'self' 'sha256-[A-Za-z0-9+/=]+'/);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
    assert.equal(response.headers.get('cache-control'), 'no-store');
    assert.match(response.headers.get('set-cookie') ?? '', /HttpOnly/i);
    assert.match(response.headers.get('set-cookie') ?? '', /SameSite=Lax/i);
    assert.match(await response.text(), /Sign in to the mock/);
    const css = await fetch(`${app().url}/ui/govuk/govuk-frontend.min.css`);
    assert.equal(css.status, 200);
    assert.equal((await fetch(`${app().url}/ui/govuk/../../package.json`)).status, 404);
  });

  test('sign-in and sign-out refuse a form without the session token', async () => {
    const url = app().url;
    const refused = await fetch(`${url}/ui/sign-in`, {
      method: 'POST',
      body: new URLSearchParams({ username: 'x', roles: 'birth' }),
      redirect: 'manual',
    });
    assert.equal(refused.status, 403);
    const cookie = await signIn(url, ['birth']);
    const start = await fetch(`${url}/ui`, { headers: { cookie } });
    assert.equal(start.status, 200);
    assert.match(await start.text(), /Find a birth registration/);
    assert.equal(
      (
        await fetch(`${url}/ui/sign-out`, {
          method: 'POST',
          headers: { cookie },
          body: new URLSearchParams({ csrf: 'forged' }),
        })
      ).status,
      403,
    );
    assert.equal(
      (await fetch(`${url}/ui`, { headers: { cookie }, redirect: 'manual' })).status,
      200,
      'still signed in',
    );
    assert.equal((await fetch(`${url}/ui/sign-in`, { method: 'DELETE' })).status, 405);
  });

  test('a record page holds no name in its title and is not kept by caches', async () => {
    const url = app().url;
    const cookie = await signIn(url, ['birth']);
    const page = await fetch(`${url}/ui/birth/123456789`, { headers: { cookie } });
    const html = await page.text();
    assert.match(html, /Eleanor Rose/);
    assert.match(/<title>([^<]*)<\/title>/.exec(html)?.[1] ?? '', /^Birth record – /);
    assert.equal(page.headers.get('cache-control'), 'no-store');
  });

  test('a link giving a field twice is refused as such (400), on every page', async () => {
    const url = app().url;
    const cookie = await signIn(url, ['birth', 'audit']);
    for (const path of [
      '/ui/birth/search?submitted=1&surname=Ashworth&surname=Smith&forenames=Eleanor',
      '/ui/birth/verify?submitted=1&forenames=a&forenames=b',
      '/ui/audit?from-day=1&from-day=2',
      '/ui/audit/entries?user=a&user=b&day=2026-01-01',
    ]) {
      const page = await fetch(`${url}${path}`, { headers: { cookie } });
      assert.equal(page.status, 400, path);
      assert.match(await page.text(), /There is a problem with the link/, path);
    }
  });

  test('a session ends after its idle time, and each request restarts it', async () => {
    let now = 0;
    const sessions = memorySessions(1000, () => now);
    await sessions.set('a', { csrf: 't', user: { username: 'u', roles: [] } });
    now = 900;
    assert.ok(await sessions.get('a'));
    await sessions.set('a', { csrf: 't' });
    now = 1800;
    assert.ok(await sessions.get('a'), 'restarted at 900');
    now = 1901;
    assert.equal(await sessions.get('a'), undefined);
  });

  test('CSV cells are quoted and never formulas', () => {
    assert.equal(csvCell('plain@example.gov.uk'), 'plain@example.gov.uk');
    assert.equal(csvCell('=HYPERLINK("x")'), `"'=HYPERLINK(""x"")"`);
    assert.equal(csvCell('a,b'), '"a,b"');
  });

  test(
    'every cell a spreadsheet would read as a formula is ' + 'prefixed with an apostrophe (OWASP: = + - @ tab CR ; |)',
    () => {
      for (const first of ['=', '+', '-', '@', '\t', '\r', ';', '|']) {
        const cell = csvCell(`${first}cmd|' /C calc'!A0`);
        assert.match(cell, /^"?'/, JSON.stringify(cell));
      }
      assert.equal(csvCell('a=b'), 'a=b', 'only the first character makes a formula');
    },
  );

  test("the audit report's CSV, end to end: callers named like formulas are neutralised", async () => {
    const url = app().url;
    const callers = ['=1+2', '+1', '-1', '@SUM(A1)', ';cmd', '|cmd'];
    for (const username of callers) {
      const response = await fetch(`${url}/v1/registration/birth/123456789`, {
        headers: { 'x-auth-username': username, 'x-auth-aud': 'csv-test' },
      });
      assert.equal(response.status, 200, username);
    }
    const cookie = await signIn(url, ['audit']);
    const csv = await (await fetch(`${url}/ui/audit.csv`, { headers: { cookie } })).text();
    for (const username of callers) {
      const line = csv.split('\r\n').find((row) => row.replace(/^"?'/, '').startsWith(username));
      assert.ok(line, `${username} is in the report`);
      assert.match(line, /^"?'/, `${username}: ${line}`);
    }
  });
});

describe('the static files', () => {
  /** A GET whose path is sent as written (fetch would resolve its dot segments first). */
  const raw = (path: string, headers: Record<string, string> = {}) =>
    new Promise<{ status: number; type?: string; body: string }>((resolve, reject) => {
      const asked = request(`${app().url}/`, { path, headers }, (answer) => {
        let body = '';
        answer.on('data', (chunk) => (body += chunk));
        answer.on('end', () =>
          resolve({ status: answer.statusCode as number, type: answer.headers['content-type'], body }),
        );
      });
      asked.on('error', reject).end();
    });

  test(
    "a path out of their folder and a range past a file's end are refused with {code, message}, not plain " + 'text',
    async () => {
      assert.equal((await raw('/assets/images/favicon.ico')).status, 200, 'the file itself');
      const cases: Array<[string, Record<string, string>, number, string]> = [
        ['/assets/%2e%2e/%2e%2e/package.json', {}, 403, 'Forbidden'],
        ['/ui/static/%2e%2e/%2e%2e/package.json', {}, 403, 'Forbidden'],
        ['/assets/images/favicon.ico', { range: 'bytes=99999999-' }, 416, 'RangeNotSatisfiable'],
      ];
      for (const [path, headers, status, code] of cases) {
        const answer = await raw(path, headers);
        assert.equal(answer.status, status, path);
        assert.match(answer.type ?? '', /^application\/json/, path);
        const body = JSON.parse(answer.body);
        assert.deepEqual(Object.keys(body), ['code', 'message'], path);
        assert.equal(body.code, code, path);
      }
    },
  );
});

describe('digital certificates in the pages over HTTP', () => {
  test('text that is no credential (a JWT of JSON null, plain words) is a form error, never a failure', async () => {
    const url = app().url;
    const cookie = await signIn(url, ['birth']);
    const form = await fetch(`${url}/ui/credentials/check`, { headers: { cookie } });
    const csrf = /name="csrf" value="([^"]+)"/.exec(await form.text())?.[1] as string;
    const cases: Array<[string, RegExp]> = [
      ['eyJhbGciOiJFUzI1NiJ9.bnVsbA.AAAA~', /its issuer-signed JWT cannot be read/],
      ['not a credential', /it is not an SD-JWT/],
    ];
    for (const [credential, reason] of cases) {
      const answer = await fetch(`${url}/ui/credentials/check`, {
        method: 'POST',
        headers: { cookie },
        body: new URLSearchParams({ csrf, credential }),
      });
      assert.equal(answer.status, 400, credential);
      const html = await answer.text();
      assert.match(html, /govuk-error-summary/, credential);
      assert.match(html, new RegExp(`That is not a digital certificate: ${reason.source}`), credential);
    }
  });

  test(
    "with MOCK_ENFORCE_ROLES, the mock's sign-in offers every role, and the credentials role gets the QR " + 'code',
    async (t) => {
      const store = await filledStore(t, 'memory');
      const { url } = await startApp(t, store, testConfig({ MOCK_ENFORCE_ROLES: 'true' }));
      const offered = [
        ...(await (await fetch(`${url}/ui/sign-in`)).text()).matchAll(/name="roles"[^>]*value="([^"]+)"/g),
      ].map((match) => match[1]);
      assert.deepEqual(offered, roleVocabulary(builtInTypes));
      assert.ok(offered.includes('credentials'));
      const qr = async (roles: string[]) =>
        fetch(`${url}/ui/birth/123456789/qr`, { headers: { cookie: await signIn(url, roles) } });
      assert.equal((await qr(['birth'])).status, 403, 'the API refuses the QR code without the role');
      const allowed = await qr(['birth', 'credentials']);
      assert.equal(allowed.status, 200);
      assert.match(await allowed.text(), /<svg/);
      // Names too long for a QR code: a page saying why, as for a blocked registration.
      const [birth] = builtInTypes;
      const data = {
        id: 700_003_001,
        child: { forenames: 'A'.repeat(800), surname: 'B'.repeat(800), dateOfBirth: '2012-12-12' },
        status: { blocked: false, cancelled: false },
      };
      await store.upsert(birth.name, [{ id: data.id, data, keys: searchKeys(birth, data) }]);
      const tooLarge = await fetch(`${url}/ui/birth/700003001/qr`, {
        headers: { cookie: await signIn(url, ['birth', 'credentials']) },
      });
      assert.equal(tooLarge.status, 422);
      assert.match(await tooLarge.text(), /No QR code for this registration[\s\S]*more than a QR code holds/);
    },
  );
});

describe("the pages' log", () => {
  test(
    'a request the pages cannot read (too large, a broken escape, a body of another type) is logged as ' +
      'refused at info, not as a failure',
    async (t) => {
      const lines: Array<Record<string, any>> = [];
      const stream = new Writable({
        write(chunk: Buffer, _encoding, done) {
          for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
          done();
        },
      });
      const { url } = await startApp(t, await filledStore(t, 'memory'), testConfig(), pino({ level: 'info' }, stream));
      const form = { 'content-type': 'application/x-www-form-urlencoded' };
      const requests: Array<[string, number, RequestInit]> = [
        ['/ui/sign-in', 413, { method: 'POST', headers: form, body: `a=${'x'.repeat(2_000_000)}` }],
        ['/ui/birth/search?submitted=1&surname=%E0%A4%A', 400, {}],
        ['/ui/sign-in', 415, { method: 'POST', headers: { 'content-type': 'application/xml' }, body: '<a/>' }],
        ['/ui/sign-in', 400, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' }],
      ];
      for (const [path, status, init] of requests) {
        lines.length = 0;
        const answer = await fetch(url + path, init);
        assert.equal(answer.status, status, path);
        const logged = lines.filter((line) => line.msg !== 'request');
        assert.deepEqual(
          logged.filter((line) => line.level >= 50),
          [],
          `${status}: nothing at error level`,
        );
        const refused = logged.find((line) => line.msg === 'page request refused');
        assert.match(answer.headers.get('content-type') ?? '', /^application\/json/, `${status}: {code, message}`);
        assert.deepEqual(Object.keys(await answer.json()), ['code', 'message']);
        assert.equal(refused?.level, 30, `${status}: logged at info`);
        assert.equal(refused.status, status);
        assert.ok(refused.err.code, 'with the reason');
      }
    },
  );
});
