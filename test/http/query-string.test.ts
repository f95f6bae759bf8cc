/**
 * The query string read strictly: a parameter whose percent-escapes are
 * malformed or not UTF-8 is a 400 naming it, on every parameter of every
 * record search (never a search for the raw text); well-formed queries read
 * as Fastify's own parser reads them.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { views } from '../record-types.ts';
import { CALLER, sharedApp } from '../helper.ts';
import { MALFORMED_ESCAPES } from './malformed-escapes.ts';

const app = sharedApp();

for (const view of views) {
  const valid = { [view.query.surname]: 'Nobody', [view.query.forenames]: 'Nemo', [view.query.date]: '2000-01-01' };
  const parameters = [view.query.surname, view.query.forenames, view.query.date, ...(view.query.forenameParts ?? [])];

  test(
    `${view.path}: every parameter with a malformed or ` + `non-UTF-8 escape is a 400 naming it, never a search`,
    async () => {
      for (const name of parameters) {
        for (const escape of MALFORMED_ESCAPES) {
          const params = new URLSearchParams({ ...valid });
          if (view.query.forenameParts?.includes(name)) params.delete(view.query.forenames);
          params.delete(name);
          const path = `${view.path}?${params}&${name}=${escape}`;
          const response = await app().get(path);
          assert.equal(response.status, 400, `${name}=${escape}: ${response.text}`);
          assert.deepEqual(Object.keys(response.body).sort(), ['code', 'message']);
          assert.equal(response.body.code, 'BadRequest');
          assert.ok(response.body.message.includes(`'${name}'`), `${name}=${escape}: ${response.body.message}`);
          assert.equal(response.headers.get('cache-control'), 'no-store');
          // The caller is identified first, as for every other fault in the parameters.
          assert.equal((await app().get(path, {})).status, 401, `${name}=${escape} without an identity`);
        }
      }
      const unknown = await app().get(`${view.path}?${new URLSearchParams(valid)}&extra%FF=1`);
      assert.equal(unknown.status, 400, unknown.text);
      assert.ok(unknown.body.message.includes("'extra%FF'"), unknown.body.message);
    },
  );

  test(`${view.path}: a well-formed escape of any character is read, U+FFFD included`, async () => {
    for (const escape of ['%EF%BF%BD', '%F0%9F%98%80', '%C3%A9', '%25', '%2B']) {
      const response = await app().get(
        `${view.path}?${new URLSearchParams(valid)}`.replace('Nemo', `Nemo${escape}`),
        CALLER,
      );
      assert.equal(response.status, 200, `${escape}: ${response.text}`);
    }
  });
}
