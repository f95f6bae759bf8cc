/**
 * The audit report's filters over HTTP, on both stores: the `user` filter's
 * "contains, literally" rule, and text the database cannot hold refused as bad input.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import pino from 'pino';
import { userMatches } from '../../src/audit/activity.ts';
import { CALLER, filledStore, startApp, storeKinds } from '../helper.ts';

const REPORT = '/api/v0/audit/user-activity';
const AUDITOR = { ...CALLER, 'x-auth-roles': 'audit' };

/** Callers whose names tell a substring match from an exact one, and a literal `%`/`_` from a wildcard. */
const USERS = ['ann@hmrc.gov.uk', 'bob@hmrc.gov.uk', 'cy@dwp.gov.uk', 'HMRC-robot', 'x%y', 'x_y', 'xay', 'x\\y'];

for (const kind of await storeKinds()) {
  describe(`audit report on the ${kind} store`, () => {
    test('the user filter matches usernames containing the text, case-sensitively, % and _ taken literally', async (t) => {
      const app = await startApp(t, await filledStore(t, kind));
      for (const user of USERS) {
        const response = await app.get('/v1/registration/birth/123456789', { ...CALLER, 'x-auth-username': user });
        assert.equal(response.status, 200, user);
      }
      const today = new Date().toISOString().slice(0, 10);
      const expectations: Record<string, string[]> = {
        '@hmrc.gov.uk': ['ann@hmrc.gov.uk', 'bob@hmrc.gov.uk'],
        'hmrc': ['ann@hmrc.gov.uk', 'bob@hmrc.gov.uk'],
        'HMRC': ['HMRC-robot'],
        '.gov.uk': ['ann@hmrc.gov.uk', 'bob@hmrc.gov.uk', 'cy@dwp.gov.uk'],
        '%': ['x%y'],
        '_': ['x_y'],
        'x_y': ['x_y'],
        'x%': ['x%y'],
        '\\': ['x\\y'],
        'ann@hmrc.gov.uk': ['ann@hmrc.gov.uk'],
        'nobody': [],
      };
      for (const [filter, users] of Object.entries(expectations)) {
        // The rule the report applies is the one other backends are to share.
        assert.deepEqual(USERS.filter((user) => userMatches(user, filter)).sort(), users, `userMatches for ${filter}`);
        const response = await app.get(`${REPORT}?${new URLSearchParams({ user: filter })}`, AUDITOR);
        assert.equal(response.status, 200, response.text);
        assert.deepEqual(response.body, Object.fromEntries(users.map((user) => [user, { [today]: 1 }])), `user=${filter}`);
      }
    });

    test('a NUL character in a text filter is a 400 naming the parameter, and nothing is logged as an error', async (t) => {
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
      assert.deepEqual(lines.filter((line) => line.level >= 50), []);
    });
  });
}
