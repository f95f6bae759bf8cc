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
import { MALFORMED_ESCAPES } from './malformed-escapes.ts';

describe('parseQuery', () => {
  test(
    'reads a well-formed query as the parser it replaces does: + is a space, a repeated name an array, no ' +
      'prototype',
    () => {
      const query = parseQuery(
        'surname=O%27Brien&forenames=Anne+Marie&a=1&a=2&a=3&flag&=x&&b=c=d&__proto__=p&e=%EF%BF%BD',
      );
      assert.equal(Object.getPrototypeOf(query), null);
      assert.deepEqual(
        { ...query },
        {
          surname: "O'Brien",
          forenames: 'Anne Marie',
          a: ['1', '2', '3'],
          flag: '',
          '': 'x',
          b: 'c=d',
          ['__proto__']: 'p',
          e: '\ufffd',
        },
      );
      assert.equal(query[MALFORMED], undefined);
    },
  );

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
