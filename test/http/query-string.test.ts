/**
 * The query string read strictly: a parameter whose percent-escapes are
 * malformed or not UTF-8 is a 400 naming it, on every parameter of every
 * record search (never a search for the raw text); well-formed queries read
 * as Fastify's own parser reads them.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { MALFORMED, parseQuery } from '../../src/http/query-string.ts';
import { views } from '../../src/records/views.ts';
import { CALLER, sharedApp } from '../helper.ts';

/** Escapes no decoder may turn into text: bare or half escapes, stray bytes, a lone surrogate, overlong forms, a cut sequence. */
const MALFORMED_ESCAPES = ['%', '%G1', 'a%2', '%FF', 'Smith%FF', '%ED%A0%80', 'a%ED%BF%BFb', '%C0%80', '%C0%AF', '%E0%A4%A', '%F0%9F%98'];

describe('parseQuery', () => {
  test('reads a well-formed query as the parser it replaces does: + is a space, a repeated name an array, no prototype', () => {
    const query = parseQuery('surname=O%27Brien&forenames=Anne+Marie&a=1&a=2&a=3&flag&=x&&b=c=d&__proto__=p&e=%EF%BF%BD');
    assert.equal(Object.getPrototypeOf(query), null);
    assert.deepEqual({ ...query }, {
      surname: "O'Brien",
      forenames: 'Anne Marie',
      a: ['1', '2', '3'],
      flag: '',
      '': 'x',
      b: 'c=d',
      ['__proto__']: 'p',
      e: '\ufffd',
    });
    assert.equal(query[MALFORMED], undefined);
  });

  test('any well-formed query reads as URLSearchParams reads it', () => {
    // Well-formed text only: encodeURIComponent refuses a lone surrogate.
    const wellFormed = (s: string) => {
      try {
        return encodeURIComponent(s) !== undefined;
      } catch {
        return false;
      }
    };
    const text = fc.string({ unit: 'binary', maxLength: 12 }).filter(wellFormed);
    fc.assert(
      fc.property(fc.array(fc.tuple(text, text, fc.boolean()), { maxLength: 6 }), (pairs) => {
        const sent = pairs
          .map(([name, value, plus]) => {
            const encode = (s: string) => (plus ? encodeURIComponent(s).replaceAll('%20', '+') : encodeURIComponent(s));
            return `${encode(name)}=${encode(value)}`;
          })
          .join('&');
        const expected: Record<string, string | string[]> = Object.create(null);
        for (const [name, value] of new URLSearchParams(sent)) {
          const earlier = expected[name];
          expected[name] = earlier === undefined ? value : [earlier, value].flat();
        }
        const parsed = parseQuery(sent);
        const plain = (query: object) => Object.fromEntries(Object.entries(query));
        assert.deepEqual(plain(parsed), plain(expected), sent);
        assert.equal(parsed[MALFORMED], undefined);
      }),
      { numRuns: 500 },
    );
  });

  test('sets aside, by name, each parameter it cannot decode, and reads the others', () => {
    for (const escape of MALFORMED_ESCAPES) {
      const query = parseQuery(`surname=${escape}&forenames=Anne&date=2000-01-01`);
      assert.deepEqual(query[MALFORMED], ['surname'], escape);
      assert.equal(query.surname, undefined, escape);
      assert.deepEqual(Object.fromEntries(Object.entries(query)), { forenames: 'Anne', date: '2000-01-01' });
    }
    assert.deepEqual(parseQuery('a%FF=1&b=2')[MALFORMED], ['a%FF'], 'a name it cannot decode is quoted as sent');
    assert.deepEqual(parseQuery(`${'n'.repeat(500)}%FF=1`)[MALFORMED], [`${'n'.repeat(100)}...`], 'cut short');
  });
});

const app = sharedApp();

for (const view of views) {
  const valid = { [view.query.surname]: 'Nobody', [view.query.forenames]: 'Nemo', [view.query.date]: '2000-01-01' };
  const parameters = [view.query.surname, view.query.forenames, view.query.date, ...(view.query.forenameParts ?? [])];

  test(`${view.path}: every parameter with a malformed or non-UTF-8 escape is a 400 naming it, never a search`, async () => {
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
  });

  test(`${view.path}: a well-formed escape of any character is read, U+FFFD included`, async () => {
    for (const escape of ['%EF%BF%BD', '%F0%9F%98%80', '%C3%A9', '%25', '%2B']) {
      const response = await app().get(`${view.path}?${new URLSearchParams(valid)}`.replace('Nemo', `Nemo${escape}`), CALLER);
      assert.equal(response.status, 200, `${escape}: ${response.text}`);
    }
  });
}
