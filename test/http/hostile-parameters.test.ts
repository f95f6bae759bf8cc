/**
 * Every parameter of every route, given what a database or a decoder chokes on (NUL, control
 * characters, lone surrogates, overlong and invalid UTF-8, non-characters, invisible marks): a 4xx
 * naming the parameter (or, in the path, saying the URL could not be read), or an ordinary answer;
 * never a 5xx. On both stores.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildApp } from '../../src/app.ts';
import { CALLER, filledStore, storeKinds, testConfig } from '../helper.ts';
import { builtInTypes as records } from '../record-types.ts';

const HOSTILE = [
  'a%00b',
  '%00',
  '%ED%A0%80',
  'a%ED%BF%BFb',
  '%FF',
  '%C0%80',
  '%EF%BF%BE',
  'a%1Fb',
  '%7F',
  '%C2%85',
  '%E2%80%8E',
  'a%F0%9F%98%80',
];

const ROUTES: Record<string, (value: string) => string> = {
  surname: (v) => `/v1/registration/birth?surname=${v}&forenames=a&dateOfBirth=2008-08-08`,
  forenames: (v) => `/v1/registration/death?surname=a&forenames=${v}&date=2008-08-08`,
  dateOfMarriage: (v) => `/v1/registration/marriage?surname=a&forenames=a&dateOfMarriage=${v}`,
  forename2: (v) => `/api/v0/events/birth?lastname=a&forename1=a&forename2=${v}&dateofbirth=2008-08-08`,
  id: (v) => `/v1/registration/partnership/${v}`,
  systemNumber: (v) => `/api/v0/events/birth/${v}`,
  placeOfBirth: (v) => `/v1/verification/birth?surname=a&forenames=a&dateOfBirth=2008-08-08&placeOfBirth=${v}`,
  partner2Forenames: (v) =>
    `/v1/verification/marriage?partner1Surname=a&partner1Forenames=b&partner2Surname=c&partner2Forenames=` +
    `${v}&dateOfMarriage=2008-08-08`,
  user: (v) => `/api/v0/audit/user-activity?user=${v}`,
  group: (v) => `/api/v0/audit/user-activity?group=${v}`,
  dataset: (v) => `/api/v0/audit/user-activity?dataset=${v}`,
  from: (v) => `/api/v0/audit/user-activity?from=${v}`,
};

for (const kind of await storeKinds()) {
  describe(`hostile parameter values on the ${kind} store`, () => {
    test('never a 5xx: a 400 naming the parameter, or an ordinary answer', async (t) => {
      const app = await buildApp(testConfig(), { backend: await filledStore(t, kind), descriptions: records });
      t.after(() => app.close());
      for (const [parameter, url] of Object.entries(ROUTES)) {
        for (const value of HOSTILE) {
          const response = await app.inject({ url: url(value), headers: { ...CALLER, 'x-auth-roles': 'audit' } });
          assert.ok(response.statusCode < 500, `${parameter}=${value}: ${response.statusCode} ${response.body}`);
          // A malformed escape in the path is refused before routing, where no parameter has a name yet.
          if (response.statusCode !== 400) continue;
          const { message } = response.json();
          assert.ok(
            message.includes(`'${parameter}'`) || /^The URL could not be read/.test(message),
            `${parameter}=${value}: ${response.body}`,
          );
        }
      }
    });
  });
}
