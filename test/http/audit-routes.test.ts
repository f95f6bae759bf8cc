/**
 * The audit report's filters over HTTP, on both stores: the `user` filter's
 * "contains, literally" rule, and text the database cannot hold refused as bad input.
 * Its drill-down, /api/v0/audit/entries: one exact username, its parameters
 * checked (each refusal naming the parameter), the limit and the truncation
 * header, and a failing trail answered 503.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import pino from 'pino';
import { userMatches } from '../../src/audit/activity.ts';
import type { AuditReport } from '../../src/model/audit.ts';
import { TRUNCATED_HEADER } from '../../src/http/route-config.ts';
import { CALLER, filledStore, startApp, storeKinds } from '../helper.ts';

const REPORT = '/api/v0/audit/user-activity';
const ENTRIES = '/api/v0/audit/entries';
const AUDITOR = { ...CALLER, 'x-auth-roles': 'audit' };

/** Callers whose names tell a substring match from an exact one, and a literal `%`/`_` from a wildcard. */
const USERS = ['ann@hmrc.gov.uk', 'bob@hmrc.gov.uk', 'cy@dwp.gov.uk', 'HMRC-robot', 'x%y', 'x_y', 'xay', 'x\\y'];

for (const kind of await storeKinds()) {
  describe(`audit report on the ${kind} store`, () => {
    test(
      'the user filter matches usernames containing the ' + 'text, case-sensitively, % and _ taken literally',
      async (t) => {
        const app = await startApp(t, await filledStore(t, kind));
        for (const user of USERS) {
          const response = await app.get('/v1/registration/birth/123456789', { ...CALLER, 'x-auth-username': user });
          assert.equal(response.status, 200, user);
        }
        const today = new Date().toISOString().slice(0, 10);
        const expectations: Record<string, string[]> = {
          '@hmrc.gov.uk': ['ann@hmrc.gov.uk', 'bob@hmrc.gov.uk'],
          hmrc: ['ann@hmrc.gov.uk', 'bob@hmrc.gov.uk'],
          HMRC: ['HMRC-robot'],
          '.gov.uk': ['ann@hmrc.gov.uk', 'bob@hmrc.gov.uk', 'cy@dwp.gov.uk'],
          '%': ['x%y'],
          _: ['x_y'],
          x_y: ['x_y'],
          'x%': ['x%y'],
          '\\': ['x\\y'],
          'ann@hmrc.gov.uk': ['ann@hmrc.gov.uk'],
          nobody: [],
        };
        for (const [filter, users] of Object.entries(expectations)) {
          // The rule the report applies is the one other backends are to share.
          assert.deepEqual(
            USERS.filter((user) => userMatches(user, filter)).sort(),
            users,
            `userMatches for ${filter}`,
          );
          const response = await app.get(`${REPORT}?${new URLSearchParams({ user: filter })}`, AUDITOR);
          assert.equal(response.status, 200, response.text);
          assert.deepEqual(
            response.body,
            Object.fromEntries(users.map((user) => [user, { [today]: 1 }])),
            `user=${filter}`,
          );
        }
      },
    );

    test(
      'a NUL character in a text filter is a 400 naming ' + 'the parameter, and nothing is logged as an error',
      async (t) => {
        const lines: Array<{ level: number }> = [];
        const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
        const app = await startApp(t, await filledStore(t, kind), undefined, logger);
        for (const parameter of ['user', 'group', 'dataset']) {
          const response = await app.get(`${REPORT}?${parameter}=a%00b`, AUDITOR);
          assert.equal(response.status, 400, `${parameter}: ${response.text}`);
          assert.equal(response.body.code, 'BadRequest');
          assert.match(response.body.message, new RegExp(`'${parameter}'.*NUL`));
        }
        // The same filters without the NUL reach the database and answer.
        assert.equal((await app.get(`${REPORT}?user=ab&group=ab&dataset=ab`, AUDITOR)).status, 200);
        assert.deepEqual(
          lines.filter((line) => line.level >= 50),
          [],
        );
      },
    );
  });

  describe(`audit entries on the ${kind} store`, () => {
    const lookup = '/v1/registration/birth/123456789';
    const search = '/v1/registration/birth?surname=Ashworth&forenames=Eleanor&dateOfBirth=2008-08-08';

    test(
      "lists one username's accesses, the whole name compared exactly, newest first, without the " + 'hash',
      async (t) => {
        const app = await startApp(t, await filledStore(t, kind));
        for (const user of USERS)
          assert.equal(
            (await app.get(lookup, { ...CALLER, 'x-auth-username': user, 'x-auth-groups': '/team a' })).status,
            200,
            user,
          );
        assert.equal((await app.get(search, { ...CALLER, 'x-auth-username': 'ann@hmrc.gov.uk' })).status, 200);
        const today = new Date().toISOString().slice(0, 10);
        const listed = await app.get(
          `${ENTRIES}?${new URLSearchParams({ user: 'ann@hmrc.gov.uk', from: today, to: today })}`,
          AUDITOR,
        );
        assert.equal(listed.status, 200, listed.text);
        assert.equal(listed.headers.get(TRUNCATED_HEADER), null);
        assert.deepEqual(
          listed.body.map(
            ({ at, requestId, ...entry }: Record<string, unknown>) => (
              assert.match(String(at), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
              assert.equal(typeof requestId, 'string'),
              entry
            ),
          ),
          [
            {
              username: 'ann@hmrc.gov.uk',
              client: 'test-client',
              groups: [],
              dataset: 'birth',
              operation: 'search',
              path: '/v1/registration/birth',
              query: 'surname=Ashworth&forenames=Eleanor&dateOfBirth=2008-08-08',
              results: 1,
              records: [{ type: 'birth', id: 123456789 }],
            },
            {
              username: 'ann@hmrc.gov.uk',
              client: 'test-client',
              groups: ['/team a'],
              dataset: 'birth',
              operation: 'lookup',
              path: lookup,
              query: '',
              results: 1,
              records: [{ type: 'birth', id: 123456789 }],
            },
          ],
        );
        // Every user of the report, by their whole name: their own entry alone. Parts of names and other cases: nobody.
        for (const user of USERS)
          assert.deepEqual(
            (await app.get(`${ENTRIES}?${new URLSearchParams({ user, operation: 'lookup' })}`, AUDITOR)).body.map(
              (e: { username: string }) => e.username,
            ),
            [user],
            user,
          );
        for (const user of ['@hmrc.gov.uk', 'ann', 'HMRC', 'x', '%', '_'])
          assert.deepEqual((await app.get(`${ENTRIES}?${new URLSearchParams({ user })}`, AUDITOR)).body, [], user);
        assert.deepEqual(
          (await app.get(`${ENTRIES}?user=ann%40hmrc.gov.uk&operation=search&dataset=birth`, AUDITOR)).body.length,
          1,
        );
        assert.deepEqual((await app.get(`${ENTRIES}?user=ann%40hmrc.gov.uk&dataset=death`, AUDITOR)).body, []);
        assert.deepEqual((await app.get(`${ENTRIES}?user=ann%40hmrc.gov.uk&to=2000-01-01`, AUDITOR)).body, []);
      },
    );

    test('at most limit entries (100 by default), the truncation header saying more matched', async (t) => {
      const app = await startApp(t, await filledStore(t, kind));
      const reader = { ...CALLER, 'x-auth-username': 'reader' };
      for (let i = 0; i < 3; i++) assert.equal((await app.get(lookup, reader)).status, 200);
      const page = async (query: string) => {
        const response = await app.get(`${ENTRIES}?user=reader${query}`, AUDITOR);
        assert.equal(response.status, 200, response.text);
        return { count: response.body.length, truncated: response.headers.get(TRUNCATED_HEADER) };
      };
      assert.deepEqual(await page('&limit=2'), { count: 2, truncated: 'true' });
      assert.deepEqual(await page('&limit=3'), { count: 3, truncated: null });
      assert.deepEqual(await page(''), { count: 3, truncated: null });
      assert.deepEqual(await page('&limit=1000'), { count: 3, truncated: null });
      const newest = (await app.get(`${ENTRIES}?user=reader&limit=1`, AUDITOR)).body[0].at;
      const all = (await app.get(`${ENTRIES}?user=reader`, AUDITOR)).body.map((e: { at: string }) => e.at);
      assert.deepEqual([...all].sort().reverse(), all, 'newest first');
      assert.equal(newest, all[0]);
    });

    test('bad input is a 400 naming the parameter, and nothing is logged as an error', async (t) => {
      const lines: Array<{ level: number }> = [];
      const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
      const app = await startApp(t, await filledStore(t, kind), undefined, logger);
      const refusals: Array<[string, string, RegExp]> = [
        ['', 'user', /^Missing query parameter 'user'/],
        ['user=', 'user', /^Invalid query parameter 'user': expected 1 to 200 characters/],
        ['user=a%00b', 'user', /NUL/],
        [`user=${'u'.repeat(201)}`, 'user', /1 to 200 characters/],
        ['user=a&user=b', 'user', /given more than once/],
        ['user=a&from=2026-02-30', 'from', /real calendar date/],
        ['user=a&to=24-11-2026', 'to', /real calendar date/],
        ['user=a&operation=delete', 'operation', /lookup, search, verify, suggest, events, audit-read/],
        ['user=a&dataset=a%00b', 'dataset', /NUL/],
        ['user=a&limit=0', 'limit', /a whole number from 1 to 1000/],
        ['user=a&limit=1001', 'limit', /a whole number from 1 to 1000/],
        ['user=a&limit=99999999999', 'limit', /a whole number from 1 to 1000/],
        ['user=a&limit=1.5', 'limit', /a whole number from 1 to 1000/],
        ['user=a&limit=-1', 'limit', /a whole number from 1 to 1000/],
        ['user=a&limit=ten', 'limit', /a whole number from 1 to 1000/],
        ['user=a&limit=', 'limit', /a whole number from 1 to 1000/],
        ['user=a&limit=2&limit=3', 'limit', /given more than once/],
        [
          'user=a&users=b',
          'users',
          /^Unknown query parameter 'users': this path takes user, from, to, operation, dataset, limit$/,
        ],
      ];
      for (const [query, parameter, message] of refusals) {
        const response = await app.get(`${ENTRIES}?${query}`, AUDITOR);
        assert.equal(response.status, 400, `${query}: ${response.text}`);
        assert.deepEqual(Object.keys(response.body).sort(), ['code', 'message'], query);
        assert.equal(response.body.code, 'BadRequest', query);
        assert.match(response.body.message, new RegExp(`'${parameter}'`), query);
        assert.match(response.body.message, message, query);
      }
      assert.equal(
        (
          await app.get(
            `${ENTRIES}?user=a&limit=007&from=2026-01-01&to=2026-12-31&operation=verify&dataset=death`,
            AUDITOR,
          )
        ).status,
        200,
      );
      assert.deepEqual(
        lines.filter((line) => line.level >= 50),
        [],
      );
    });
  });
}

describe('audit routes when the trail fails', () => {
  test('the report and its drill-down answer 503, the request id to quote, and log no name', async (t) => {
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
    const store = await filledStore(t, 'memory');
    const fail = () => Promise.reject(new Error('connection reset'));
    const failing: AuditReport = { userActivity: fail, entries: fail, recordAccesses: fail, checkpoints: fail };
    const app = await startApp(t, { ...store, report: failing }, undefined, logger);
    for (const path of [`${REPORT}?user=ann`, `${ENTRIES}?user=ann%40hmrc.gov.uk`]) {
      const response = await app.get(path, AUDITOR);
      assert.equal(response.status, 503, response.text);
      assert.deepEqual(response.body, {
        code: 'ServiceUnavailable',
        message: 'The audit trail is unavailable; try again shortly',
      });
      assert.ok(response.headers.get('x-request-id'));
    }
    assert.ok(
      lines.some((line) => /"ServiceUnavailable"/.test(line)),
      'the failure is logged',
    );
    assert.deepEqual(
      lines.filter((line) => /ann/.test(line)),
      [],
      'without the username asked for',
    );
  });
});
