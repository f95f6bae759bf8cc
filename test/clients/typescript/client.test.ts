/**
 * @lev-api/client against the running service over a socket, on every store: every operation,
 * the roles (mock with enforced roles, and oidc with a real issuer), errors, truncation, retries
 * and mutual TLS.
 */
import assert from 'node:assert/strict';
import { type Server, createServer } from 'node:http';
import { after, before, describe, test } from 'node:test';
import {
  LevApiError,
  bearerAuth,
  clientCredentials,
  createLevClient,
  mockAuth,
  mutualTls,
  retryAfterMs,
} from '@lev-api/client';
import { AUDIENCE, type TestIssuer, startIssuer } from '../../auth/issuer.ts';
import { createPki } from '../../auth/pki.ts';
import { type TestStore, filledStore, startApp, storeKinds, suiteContext, testConfig } from '../../helper.ts';

const ELEANOR = { surname: 'Ashworth', forenames: 'Eleanor', dateOfBirth: '2008-08-08' } as const;
const MARSDEN = { surname: 'Marsden', forenames: 'George', dateOfBirth: '2010-03-14' } as const;

for (const kind of await storeKinds()) {
  describe(`@lev-api/client on the ${kind} store`, () => {
    const context = suiteContext();
    let store: TestStore;
    let url: string;
    before(async () => {
      store = await filledStore(context, kind);
      url = (await startApp(context, store, testConfig({ MOCK_ENFORCE_ROLES: 'true', MAX_RESULTS: '2' }))).url;
    });
    const as = (roles: string[]) =>
      createLevClient({
        baseUrl: url,
        auth: mockAuth({ username: 'client-test', client: 'client-tests', roles, groups: ['/tests'] }),
      });

    test('lookups, searches and verifications of every type, v1 and v0', async () => {
      const lev = as(['birth', 'death', 'marriage', 'partnership']);
      const eleanor = await lev.lookup('birth', 123456789);
      assert.equal(eleanor.child.forenames, 'Eleanor Rose');
      assert.equal(eleanor.mother?.occupation, null, 'without full-details, restricted fields are null');
      assert.deepEqual(
        (await lev.search('birth', ELEANOR)).records.map((r) => r.id),
        [123456789],
      );
      assert.equal((await lev.lookup('death', '123456789')).deceased.surname, 'THORNE');
      assert.equal(
        (await lev.search('death', { surname: 'Thorne', forenames: 'Margery', date: '2009-11-21' })).records.length,
        1,
      );
      const marriage = await lev.search('marriage', {
        surname: 'Kingsley',
        forenames: 'Sophie',
        dateOfMarriage: '2008-08-08',
      });
      assert.equal(marriage.records.length, 1);
      assert.equal((await lev.lookup('partnership', 123456789)).id, 123456789);
      assert.equal(await lev.lookup('partnership', 1).catch((e: LevApiError) => e.status), 404);
      assert.equal(await lev.verify('birth', { ...ELEANOR, motherMaidenSurname: 'Pennington' }), true);
      assert.equal(await lev.verify('birth', { ...ELEANOR, motherMaidenSurname: 'Doyle' }), false);
      assert.equal(
        await lev.verify('marriage', {
          partner1Surname: 'Merridew',
          partner1Forenames: 'Daniel',
          partner2Surname: 'Kingsley',
          partner2Forenames: 'Sophie',
          dateOfMarriage: '2008-08-08',
        }),
        true,
      );
      const v0 = await lev.v0.search('birth', {
        lastname: 'Ashworth',
        forenames: 'Eleanor',
        dateofbirth: '2008-08-08',
      });
      assert.deepEqual(
        v0.records.map((r) => r.systemNumber),
        [123456789],
      );
      assert.equal((await lev.v0.lookup('birth', 123456789)).systemNumber, 123456789);
      const full = await as(['birth', 'full-details']).lookup('birth', 123456789);
      assert.equal(full.mother?.occupation, 'Pharmacist', 'full-details shows the restricted fields');
    });

    test("close matches: typed candidates with what matched; the suggest role as well as the dataset's", async () => {
      const lev = as(['birth', 'suggest']);
      const { candidates, truncated } = await lev.suggest('birth', {
        surname: 'Ashworth',
        forenames: 'Ellie',
        dateOfBirth: '2008-08-08',
        limit: '3',
      });
      assert.equal(truncated, false);
      assert.deepEqual(
        candidates.map((c) => [c.record.id, c.matched.forenames, c.matched.dateOfBirth]),
        [[123456789, 'nickname', 'exact']],
      );
      assert.ok(candidates[0].score > 0.9 && candidates[0].score <= 1);
      assert.equal(typeof candidates[0].weights.forenames, 'number', 'the evidence each detail added');
      assert.equal(
        await as(['birth'])
          .suggest('birth', ELEANOR)
          .catch((e: LevApiError) => e.status),
        403,
      );
    });

    test('truncated comes from the results header', async () => {
      const lev = as(['birth']);
      const cut = await lev.search('birth', MARSDEN);
      assert.deepEqual({ count: cut.records.length, truncated: cut.truncated }, { count: 2, truncated: true });
      assert.equal((await lev.search('birth', ELEANOR)).truncated, false);
    });

    test('the roles: a verify role verifies and reads nothing; the audit report needs audit', async () => {
      const verifier = as(['birth-verify']);
      assert.equal(await verifier.verify('birth', ELEANOR), true);
      for (const call of [
        () => verifier.lookup('birth', 123456789),
        () => verifier.search('birth', ELEANOR),
        () => verifier.v0.lookup('birth', 123456789),
      ]) {
        await assert.rejects(
          call(),
          (error: unknown) =>
            error instanceof LevApiError &&
            error.status === 403 &&
            error.code === 'Forbidden' &&
            typeof error.requestId === 'string',
        );
      }
      await assert.rejects(as(['death']).verify('birth', ELEANOR), (error: LevApiError) => error.status === 403);
      await assert.rejects(verifier.auditReport(), (error: LevApiError) => error.status === 403);
      const report = await as(['audit']).auditReport({ user: 'client-test', operation: 'verify' });
      const today = new Date().toISOString().slice(0, 10);
      assert.ok((report['client-test']?.[today] ?? 0) >= 1, 'the verifications are in the report');
    });

    test(
      "auditEntries: one user's accesses, newest first, the cut said by truncated; the audit role; bad " +
        'input named',
      async () => {
        const reader = createLevClient({
          baseUrl: url,
          auth: mockAuth({ username: 'entries-reader', client: 'client-tests', roles: ['birth'] }),
        });
        await reader.lookup('birth', 123456789);
        await reader.search('birth', ELEANOR);
        const auditor = as(['audit']);
        const today = new Date().toISOString().slice(0, 10);
        const listed = await auditor.auditEntries({ user: 'entries-reader', from: today, to: today });
        assert.equal(listed.truncated, false);
        assert.deepEqual(
          listed.entries.map(({ username, client, operation, dataset, path, query, results }) => ({
            username,
            client,
            operation,
            dataset,
            path,
            query,
            results,
          })),
          [
            {
              username: 'entries-reader',
              client: 'client-tests',
              operation: 'search',
              dataset: 'birth',
              path: '/v1/registration/birth',
              query: 'surname=Ashworth&forenames=Eleanor&dateOfBirth=2008-08-08',
              results: 1,
            },
            {
              username: 'entries-reader',
              client: 'client-tests',
              operation: 'lookup',
              dataset: 'birth',
              path: '/v1/registration/birth/123456789',
              query: '',
              results: 1,
            },
          ],
        );
        const cut = await auditor.auditEntries({ user: 'entries-reader', limit: 1 });
        assert.deepEqual(
          { count: cut.entries.length, truncated: cut.truncated, operation: cut.entries[0].operation },
          { count: 1, truncated: true, operation: 'search' },
        );
        assert.deepEqual(
          (await auditor.auditEntries({ user: 'entries-reader', operation: 'lookup', dataset: 'birth' })).entries
            .length,
          1,
        );
        assert.deepEqual(
          (await auditor.auditEntries({ user: 'entries' })).entries,
          [],
          'a part of a username is nobody',
        );
        await assert.rejects(
          reader.auditEntries({ user: 'entries-reader' }),
          (error: LevApiError) => error.status === 403 && error.code === 'Forbidden',
        );
        await assert.rejects(
          auditor.auditEntries({ user: 'entries-reader', limit: 1001 }),
          (error: LevApiError) => error.status === 400 && /'limit'/.test(error.message),
        );
      },
    );

    test('errors: bad input names the parameter, no identity is 401, every error carries the request id', async () => {
      const lev = as(['birth']);
      await assert.rejects(lev.search('birth', { ...ELEANOR, dateOfBirth: '2008-02-30' }), (error: unknown) => {
        assert.ok(error instanceof LevApiError);
        assert.equal(error.status, 400);
        assert.equal(error.code, 'BadRequest');
        assert.match(error.message, /dateOfBirth/);
        assert.match(error.requestId ?? '', /^[0-9a-f-]{36}$/);
        return true;
      });
      await assert.rejects(
        createLevClient({ baseUrl: url }).lookup('birth', 1),
        (error: LevApiError) => error.status === 401,
      );
      await assert.rejects(
        lev.lookup('birth', 1),
        (error: LevApiError) => error.status === 404 && error.code === 'NotFound',
      );
      assert.equal((await lev.openapi()).openapi, '3.1.0');
    });
  });
}

describe('retries', () => {
  let server: Server;
  let base: string;
  const script: Array<{ status: number; headers?: Record<string, string> }> = [];
  let served = 0;
  before(async () => {
    server = createServer((_request, response) => {
      served++;
      const next = script.shift() ?? { status: 200 };
      response.writeHead(next.status, {
        'content-type': 'application/json',
        'x-request-id': `req-${served}`,
        ...next.headers,
      });
      response.end(
        next.status === 200
          ? '{"verified":true}'
          : JSON.stringify({ code: next.status === 429 ? 'TooManyRequests' : 'ServiceUnavailable', message: 'later' }),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const lev = (attempts: number, maxDelayMs = 1000) =>
    createLevClient({ baseUrl: base, retry: { attempts, baseDelayMs: 1, maxDelayMs } });
  const verify = (client: ReturnType<typeof lev>) => client.verify('birth', ELEANOR);

  test('a GET answered 503, then 429 with Retry-After, is sent again until it succeeds', async () => {
    served = 0;
    script.push({ status: 503 }, { status: 429, headers: { 'retry-after': '0' } });
    assert.equal(await verify(lev(3)), true);
    assert.equal(served, 3);
  });

  test('the last refusal is thrown when the attempts run out, and other statuses are not retried', async () => {
    served = 0;
    script.push({ status: 503 }, { status: 503 });
    await assert.rejects(verify(lev(2)), (error: LevApiError) => error.status === 503 && error.requestId === 'req-2');
    served = 0;
    script.push({ status: 500 });
    await assert.rejects(verify(lev(3)), (error: LevApiError) => error.status === 500);
    assert.equal(served, 1);
  });

  test('a Retry-After longer than the longest wait is not waited for', async () => {
    served = 0;
    script.push({ status: 429, headers: { 'retry-after': '120' } });
    await assert.rejects(verify(lev(3, 1000)), (error: LevApiError) => error.status === 429);
    assert.equal(served, 1);
    assert.equal(retryAfterMs('7'), 7000);
    assert.ok((retryAfterMs(new Date(Date.now() + 60_000).toUTCString()) ?? 0) > 50_000);
    assert.equal(retryAfterMs('soon'), undefined);
  });
});

describe('authentication helpers against a real issuer, and mutual TLS', () => {
  const context = suiteContext();
  let issuer: TestIssuer;
  before(async () => {
    issuer = await startIssuer();
    context.after(() => issuer.close());
  });

  test('client credentials: a token from the issuer, cached, used as a bearer; roles from the token', async () => {
    const store = await filledStore(context, 'memory');
    const { url } = await startApp(
      context,
      store,
      testConfig({ AUTH_MODE: 'oidc', OIDC_ISSUER: issuer.url, OIDC_AUDIENCE: AUDIENCE }),
    );
    const before = issuer.requests.get('/token') ?? 0;
    const token = clientCredentials({
      issuer: issuer.url,
      clientId: 'verifier',
      clientSecret: 'verifier-secret-0123456789',
    });
    const lev = createLevClient({ baseUrl: url, auth: bearerAuth(token) });
    assert.equal((await lev.lookup('birth', 123456789)).id, 123456789);
    assert.equal(
      await lev.verify('death', { surname: 'Thorne', forenames: 'Margery', dateOfDeath: '2009-11-21' }),
      true,
    );
    await assert.rejects(
      lev.search('marriage', { surname: 'Kingsley', forenames: 'Sophie', dateOfMarriage: '2008-08-08' }),
      (e: LevApiError) => e.status === 403,
    );
    assert.equal((issuer.requests.get('/token') ?? 0) - before, 1, 'one token served every call');
    await assert.rejects(
      clientCredentials({ issuer: issuer.url, clientId: 'verifier', clientSecret: 'wrong' })(),
      /refused the client credentials: 401/,
    );
  });

  test('mutual TLS: the client presents its certificate through undici', async (t) => {
    const pki = await createPki(t);
    const ca = await pki.authority('client-test-ca');
    const [server, client] = await Promise.all([ca.issue('server', { usage: 'serverAuth' }), ca.issue('client-team')]);
    const store = await filledStore(context, 'memory');
    const env = { TLS_CERT: server.certPath, TLS_KEY: server.keyPath, TLS_CLIENT_CA: ca.certPath };
    const { url } = await startApp(t, store, testConfig(env));
    assert.match(url, /^https:/);
    const auth = mockAuth({ username: 'tls-user', client: 'client-team' });
    const lev = createLevClient({
      baseUrl: url,
      auth,
      ...mutualTls({ cert: client.cert, key: client.key, ca: ca.cert }),
    });
    assert.equal((await lev.lookup('birth', 123456789)).id, 123456789);
    const without = createLevClient({
      baseUrl: url,
      auth,
      ...mutualTls({ cert: server.cert, key: server.key, ca: ca.cert }),
    });
    await assert.rejects(without.lookup('birth', 123456789), 'a server certificate is not a client certificate');
  });
});
