/**
 * The pages as a process of their own (`lev-api ui`), in front of the API over a real socket: the
 * mock's sign-in against an API in mock mode; OpenID Connect sign-in (authorisation code with PKCE)
 * at a real issuer against an API in oidc mode, the API called with the caseworker's own token;
 * sessions shared by two processes through Redis; and the API out of reach.
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { ConfigError } from '../../src/errors.ts';
import { loadUiConfig } from '../../src/config/ui.ts';
import { CASEWORKERS, PAGES_CLIENT } from '../auth/issuer.ts';
import {
  TEST_REDIS_URL,
  filledStore,
  redisAvailable,
  redisPrefix,
  startApp,
  testConfig,
  trailEntries,
} from '../helper.ts';
import { freePort, oidcPages, startPages } from './pages-process.ts';

/** A browser's cookies, one jar a site: enough for the pages and the issuer's interaction cookies. */
class Browser {
  private readonly jars = new Map<string, Map<string, string>>();

  async get(url: string, init: RequestInit = {}): Promise<Response> {
    const { host } = new URL(url);
    const jar = this.jars.get(host) ?? new Map<string, string>();
    this.jars.set(host, jar);
    const cookie = [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as Record<string, string>), ...(cookie ? { cookie } : {}) },
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair.indexOf('=');
      const [name, value] = [pair.slice(0, at), pair.slice(at + 1)];
      if (!value || /expires=Thu, 01 Jan 1970/i.test(line)) jar.delete(name);
      else jar.set(name, value);
    }
    return response;
  }

  post(url: string, form: Record<string, string>) {
    return this.get(url, {
      method: 'POST',
      body: new URLSearchParams(form),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
  }

  /** Follows redirects from `response`, as a browser does, until a page answers. */
  async follow(response: Response, from: string): Promise<{ response: Response; url: string }> {
    let url = from;
    while (response.status >= 300 && response.status < 400) {
      url = new URL(response.headers.get('location') as string, url).href;
      response = await this.get(url);
    }
    return { response, url };
  }

  cookie(host: string, name: string) {
    return this.jars.get(host)?.get(name);
  }
}

const csrfOf = (html: string) => /name="csrf" value="([^"]+)"/.exec(html)?.[1] as string;
const ELEANOR =
  'submitted=1&surname=Ashworth&forenames=Eleanor&dateOfBirth-day=8&dateOfBirth-month=8&dateOfBirth-year=2008';

/** The mock's sign-in, as a caseworker with `roles`. */
async function mockSignIn(browser: Browser, pages: string, roles: string[]) {
  const form = await browser.get(`${pages}/ui/sign-in`);
  const body = new URLSearchParams([
    ['csrf', csrfOf(await form.text())],
    ['username', 'pat.pages'],
    ...roles.map((role) => ['roles', role]),
  ]);
  const signed = await browser.get(`${pages}/ui/sign-in`, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  assert.equal(signed.status, 303);
}

describe("the pages' settings", () => {
  const refused = (env: Record<string, string>, message: RegExp) =>
    assert.throws(
      () => loadUiConfig(env),
      (error: Error) => error instanceof ConfigError && message.test(error.message),
    );

  test(
    'the API is required, mock sign-in is the default, ' + 'and OIDC sign-in needs its issuer, client and address',
    () => {
      refused({}, /UI_API_URL=undefined/);
      const mock = loadUiConfig({ UI_API_URL: 'http://127.0.0.1:8080/' });
      assert.equal(mock.apiUrl, 'http://127.0.0.1:8080');
      assert.equal(mock.port, 8081);
      assert.equal(mock.oidc, undefined);
      assert.equal(mock.sessions.redis, undefined);
      refused(
        { UI_API_URL: 'http://a', AUTH_MODE: 'oidc' },
        new RegExp(
          /OIDC_ISSUER is not set[\s\S]*UI_PUBLIC_URL is not set[\s\S]*/.source +
            /UI_OIDC_CLIENT_ID is not set[\s\S]*UI_OIDC_CLIENT_SECRET is not set/.source,
        ),
      );
      refused({ UI_API_URL: 'http://a', UI_OIDC_CLIENT_ID: 'x' }, /UI_OIDC_CLIENT_ID is set, but AUTH_MODE is mock/);
      refused(
        { UI_API_URL: 'http://a', UI_API_CLIENT_CERT: '/nowhere.pem' },
        /UI_API_CLIENT_CERT and UI_API_CLIENT_KEY go together/,
      );
      refused(
        { UI_API_URL: 'http://a', UI_API_CA: '/nowhere.pem' },
        /UI_API_CA="\/nowhere.pem": the file cannot be read/,
      );
      const oidc = loadUiConfig({
        UI_API_URL: 'https://api.internal',
        AUTH_MODE: 'oidc',
        OIDC_ISSUER: 'https://issuer.internal/realms/lev',
        OIDC_AUDIENCE: 'lev-api',
        UI_PUBLIC_URL: 'https://caseworkers.internal',
        UI_OIDC_CLIENT_ID: 'lev-ui',
        UI_OIDC_CLIENT_SECRET: 's',
        REDIS_URL: 'redis://cache.internal:6379',
      });
      assert.equal(oidc.oidc?.redirectUri, 'https://caseworkers.internal/ui/auth/callback');
      assert.deepEqual(
        oidc.oidc?.claims.roles.map((path) => path.segments.join('.')),
        ['realm_access.roles', 'resource_access.lev-api.roles'],
      );
      assert.deepEqual(oidc.sessions.redis, { url: 'redis://cache.internal:6379', keyPrefix: 'lev-api:' });
    },
  );
});

describe("the pages' connections", () => {
  test(
    'the same deadlines and places as the API: silent connections are closed within HEADERS_TIMEOUT_S, ' +
      'and beyond MAX_CONNECTIONS a request still gets in',
    async (t) => {
      const api = await startApp(t, await filledStore(t, 'memory'));
      const pages = new URL(
        await startPages(t, {
          UI_API_URL: api.url,
          HEADERS_TIMEOUT_S: '1',
          REQUEST_TIMEOUT_S: '2',
          MAX_CONNECTIONS: '2',
        }),
      );
      const opened = Date.now();
      const silent = [0, 1, 2, 3].map(() => connect(Number(pages.port), pages.hostname).on('error', () => {}));
      const closed = silent.map(
        (socket) => new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now() - opened))),
      );
      try {
        await sleep(100);
        const answer = await fetch(new URL('/healthz', pages));
        assert.equal(answer.status, 200, 'answered while silent connections hold every place');
        // Generous bounds (the deadline is 1 s): this runs beside browsers on a busy machine.
        const times = await Promise.race([Promise.all(closed), sleep(10_000, [] as number[])]);
        assert.equal(
          times.length,
          silent.length,
          `every silent connection closed within 10 s (${silent.map((socket) => socket.readyState).join(', ')})`,
        );
        for (const ms of times) assert.ok(ms < 6000, `closed after ${ms} ms`);
      } finally {
        for (const socket of silent) socket.destroy();
      }
    },
  );

  test('KEEP_ALIVE_TIMEOUT_S and MAX_CONNECTIONS are settings of the pages too', () => {
    const config = loadUiConfig({
      UI_API_URL: 'http://a',
      KEEP_ALIVE_TIMEOUT_S: '5',
      MAX_CONNECTIONS: '50',
      HEADERS_TIMEOUT_S: '3',
    });
    assert.deepEqual(config.connections, {
      requestTimeoutMs: 30_000,
      headersTimeoutMs: 3000,
      keepAliveTimeoutMs: 5000,
      maxConnections: 50,
    });
    assert.throws(
      () => loadUiConfig({ UI_API_URL: 'http://a', HEADERS_TIMEOUT_S: '60' }),
      /HEADERS_TIMEOUT_S=60 is longer than REQUEST_TIMEOUT_S=30/,
    );
  });
});

describe('the pages as a process of their own', () => {
  test(
    'mock sign-in: finds and shows a record through the ' + 'API over HTTP, audited as the caseworker of the pages',
    async (t) => {
      const store = await filledStore(t, 'memory');
      const api = await startApp(t, store);
      const pages = await startPages(t, { UI_API_URL: api.url });
      const browser = new Browser();
      await mockSignIn(browser, pages, ['birth']);
      const found = await browser.get(`${pages}/ui/birth/search?${ELEANOR}`);
      assert.equal(found.status, 303);
      assert.equal(found.headers.get('location'), '/ui/birth/123456789');
      const record = await browser.get(`${pages}/ui/birth/123456789`);
      assert.equal(record.status, 200);
      assert.match(await record.text(), /Eleanor Rose/);
      assert.equal(record.headers.get('cache-control'), 'no-store');
      const nowhere = await fetch(`${pages}/nowhere`);
      assert.equal(nowhere.status, 404);
      assert.deepEqual(await nowhere.json(), { code: 'ResourceNotFound', message: '/nowhere does not exist' });
      const entries = (await trailEntries(store)).filter((entry) => entry.username === 'pat.pages');
      assert.deepEqual(
        entries.map((entry) => [entry.client, entry.operation, entry.dataset]),
        [
          ['lev-ui', 'search', 'birth'],
          ['lev-ui', 'lookup', 'birth'],
        ],
      );
    },
  );

  test(
    "the certificate check, given the API's issuer: a credential the API issued is genuine, an altered " +
      'one is not; without it, no check',
    async (t) => {
      const store = await filledStore(t, 'memory');
      const api = await startApp(t, store);
      const { text: credential } = await api.get('/v1/credentials/birth/123456789');
      const check = async (pages: string) => {
        const browser = new Browser();
        await mockSignIn(browser, pages, ['birth']);
        const form = await browser.get(`${pages}/ui/credentials/check`);
        if (form.status !== 200) return { form: form.status };
        const csrf = csrfOf(await form.text());
        const answer = async (text: string) =>
          /<h1[^>]*>\s*([^<]+?)\s*</.exec(
            await (await browser.post(`${pages}/ui/credentials/check`, { csrf, credential: text })).text(),
          )?.[1];
        const [head, ...disclosures] = credential.split('~');
        const forged = [
          head,
          Buffer.from(JSON.stringify(['c2FsdA', 'surname', 'Someone'])).toString('base64url'),
          ...disclosures.slice(1),
        ].join('~');
        return { form: 200, genuine: await answer(credential), forged: await answer(forged) };
      };
      assert.deepEqual(await check(await startPages(t, { UI_API_URL: api.url, UI_CREDENTIAL_ISSUER: api.url })), {
        form: 200,
        genuine: 'The digital certificate is genuine',
        forged: 'The digital certificate is not genuine',
      });
      assert.deepEqual(await check(await startPages(t, { UI_API_URL: api.url })), { form: 404 });
      assert.throws(
        () =>
          loadUiConfig({
            UI_API_URL: 'https://a',
            AUTH_MODE: 'oidc',
            OIDC_ISSUER: 'https://i',
            UI_PUBLIC_URL: 'https://p',
            UI_OIDC_CLIENT_ID: 'c',
            UI_OIDC_CLIENT_SECRET: 's',
            UI_CREDENTIAL_ISSUER: 'http://a',
          }),
        /UI_CREDENTIAL_ISSUER=http:\/\/a: an issuer believed outside AUTH_MODE=mock is reached over https/,
      );
    },
  );

  test('with the API out of reach a page says so (503 with a reference), never a bare error', async (t) => {
    const pages = await startPages(t, { UI_API_URL: `http://127.0.0.1:${await freePort()}` });
    const browser = new Browser();
    await mockSignIn(browser, pages, ['birth']);
    const page = await browser.get(`${pages}/ui/birth/123456789`);
    assert.equal(page.status, 503);
    assert.match(await page.text(), /quote reference [0-9a-f-]{36}/);
  });

  test(
    'sessions in Redis: a caseworker signed in at one process is signed in at another, and signing out ' +
      'ends it for both',
    async (t) => {
      if (!(await redisAvailable())) return t.skip(`no Redis answers at ${TEST_REDIS_URL}`);
      const store = await filledStore(t, 'memory');
      const api = await startApp(t, store);
      const prefix = redisPrefix(t);
      const env = { UI_API_URL: api.url, REDIS_URL: TEST_REDIS_URL, REDIS_KEY_PREFIX: prefix };
      const [one, two] = [await startPages(t, env), await startPages(t, env)];
      const browser = new Browser();
      await mockSignIn(browser, one, ['birth']);
      const id = browser.cookie(new URL(one).host, 'lev_ui_session') as string;
      const redis = new Redis(TEST_REDIS_URL);
      t.after(() => redis.disconnect());
      const stored = JSON.parse((await redis.get(`${prefix}ui-session:${id}`)) as string);
      assert.equal(stored.user.username, 'pat.pages');
      assert.ok((await redis.pttl(`${prefix}ui-session:${id}`)) > 29 * 60_000, 'expires after the idle time');
      // The same cookie, sent to the other process (as a load balancer would).
      const other = await fetch(`${two}/ui/birth/123456789`, {
        headers: { cookie: `lev_ui_session=${id}` },
        redirect: 'manual',
      });
      assert.equal(other.status, 200);
      const start = await fetch(`${two}/ui`, { headers: { cookie: `lev_ui_session=${id}` } });
      const signedOut = await fetch(`${two}/ui/sign-out`, {
        method: 'POST',
        headers: { cookie: `lev_ui_session=${id}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ csrf: csrfOf(await start.text()) }),
        redirect: 'manual',
      });
      assert.equal(signedOut.status, 303);
      assert.equal(await redis.exists(`${prefix}ui-session:${id}`), 0);
      const after = await fetch(`${one}/ui/birth/123456789`, {
        headers: { cookie: `lev_ui_session=${id}` },
        redirect: 'manual',
      });
      assert.equal(after.status, 303, 'signed out at the first process too');
    },
  );

  test('the pages served by the mock keep their sessions in Redis too, when REDIS_URL is set', async (t) => {
    if (!(await redisAvailable())) return t.skip(`no Redis answers at ${TEST_REDIS_URL}`);
    const prefix = redisPrefix(t);
    const api = await startApp(
      t,
      await filledStore(t, 'memory'),
      testConfig({ REDIS_URL: TEST_REDIS_URL, REDIS_KEY_PREFIX: prefix }),
    );
    const browser = new Browser();
    await mockSignIn(browser, api.url, ['birth']);
    const redis = new Redis(TEST_REDIS_URL);
    t.after(() => redis.disconnect());
    const id = browser.cookie(new URL(api.url).host, 'lev_ui_session');
    assert.equal(JSON.parse((await redis.get(`${prefix}ui-session:${id}`)) as string).user.username, 'pat.pages');
  });

  describe('OpenID Connect sign-in', () => {
    /** Signs `username` in: the pages' button, the issuer's login form, and back. Returns the authorisation request. */
    async function signIn(browser: Browser, pages: string, username: string) {
      const form = await browser.get(`${pages}/ui/sign-in`);
      const html = await form.text();
      assert.doesNotMatch(html, /Sign in to the mock/);
      const started = await browser.post(`${pages}/ui/sign-in`, { csrf: csrfOf(html) });
      assert.equal(started.status, 303);
      const authorisation = new URL(started.headers.get('location') as string);
      const { response: login, url: loginUrl } = await browser.follow(started, `${pages}/ui/sign-in`);
      const action = /action="([^"]+)"/.exec(await login.text())?.[1] as string;
      const submitted = await browser.post(new URL(action, loginUrl).href, {
        prompt: 'login',
        login: username,
        password: 'any',
      });
      const { response: landed, url } = await browser.follow(submitted, loginUrl);
      return { authorisation, landed, url };
    }

    test('signs a caseworker in with PKCE, and the API answers with their own roles and audits them', async (t) => {
      const lines: string[] = [];
      const { store, pages } = await oidcPages(t, undefined, lines);
      const browser = new Browser();
      const { authorisation, landed, url } = await signIn(browser, pages, 'eleanor.checker');
      assert.equal(authorisation.searchParams.get('code_challenge_method'), 'S256');
      assert.match(authorisation.searchParams.get('code_challenge') ?? '', /^[A-Za-z0-9_-]{43}$/);
      assert.equal(authorisation.searchParams.get('client_id'), PAGES_CLIENT.id);
      assert.ok(authorisation.searchParams.get('state'));
      assert.equal(url, `${pages}/ui`);
      assert.equal(landed.status, 200);
      const start = await landed.text();
      assert.match(start, /eleanor\.checker/);
      assert.match(start, /Audit report/, 'the audit role, read from the token');
      const record = await browser.get(`${pages}/ui/birth/123456789`);
      assert.equal(record.status, 200);
      // full-details, from the token's roles: the registrar's signature is shown.
      assert.match(await record.text(), /M\. Ollerenshaw/);
      const [entry] = (await trailEntries(store)).filter((e) => e.username === 'eleanor.checker');
      assert.equal(entry.client, PAGES_CLIENT.id);
      assert.equal(entry.operation, 'lookup');
      await browser.get(`${pages}/ui/birth/search?${ELEANOR}`);
      // Route patterns only: neither the searched names nor the issuer's code or state, nor the caseworker.
      const log = lines.join('');
      assert.match(log, /"route":"\/ui\/auth\/callback"/);
      for (const secret of [
        'Ashworth',
        'Eleanor',
        'eleanor.checker',
        authorisation.searchParams.get('state') as string,
        'code=',
      ])
        assert.ok(!log.includes(secret), secret);
    });

    test("a caseworker's roles are the API's to enforce: birth-verify alone verifies, and cannot read", async (t) => {
      const { pages } = await oidcPages(t);
      const browser = new Browser();
      assert.deepEqual(CASEWORKERS['vera.verifier'], ['birth-verify']);
      await signIn(browser, pages, 'vera.verifier');
      const record = await browser.get(`${pages}/ui/birth/123456789`);
      assert.equal(record.status, 403);
      const check = await browser.get(`${pages}/ui/birth/verify?${ELEANOR}`);
      assert.equal(check.status, 200);
      assert.match(await check.text(), /The details match/);
    });

    test('a callback whose state is not the one sent, or that the issuer refused, signs no one in', async (t) => {
      const { pages } = await oidcPages(t);
      const browser = new Browser();
      const form = await browser.get(`${pages}/ui/sign-in`);
      const started = await browser.post(`${pages}/ui/sign-in`, { csrf: csrfOf(await form.text()) });
      assert.equal(started.status, 303);
      const forged = await browser.get(`${pages}/ui/auth/callback?code=forged&state=not-the-one`);
      assert.equal(forged.status, 400);
      assert.match(await forged.text(), /could not be completed/);
      assert.equal((await browser.get(`${pages}/ui`)).status, 303, 'still signed out');
      const refused = await browser.get(`${pages}/ui/auth/callback?error=access_denied&state=x`);
      assert.equal(refused.status, 400);
      // A callback with no sign-in started in this browser.
      const stray = await new Browser().get(`${pages}/ui/auth/callback?code=x&state=y`);
      assert.equal(stray.status, 400);
    });

    test('an access token about to expire is renewed with the refresh token before the API is called', async (t) => {
      // Tokens living 20 s are always within the 30 s of renewal: each page renews.
      const { issuer, pages } = await oidcPages(t, 20);
      const browser = new Browser();
      await signIn(browser, pages, 'eleanor.checker');
      const before = issuer.requests.get('/token') ?? 0;
      const record = await browser.get(`${pages}/ui/birth/123456789`);
      assert.equal(record.status, 200);
      assert.equal(issuer.requests.get('/token'), before + 1, 'one refresh');
    });

    test('signing out ends the session here and sends the caseworker to the issuer to end theirs', async (t) => {
      const { issuer, pages } = await oidcPages(t);
      const browser = new Browser();
      const { landed } = await signIn(browser, pages, 'eleanor.checker');
      const out = await browser.post(`${pages}/ui/sign-out`, { csrf: csrfOf(await landed.text()) });
      assert.equal(out.status, 303);
      const to = new URL(out.headers.get('location') as string);
      assert.equal(to.origin, issuer.url);
      assert.equal(to.searchParams.get('post_logout_redirect_uri'), `${pages}/ui/sign-in`);
      assert.ok(to.searchParams.get('id_token_hint'));
      assert.equal((await browser.get(`${pages}/ui`)).status, 303, 'signed out here');
    });
  });
});
