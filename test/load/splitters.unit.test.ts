/**
 * The streaming splitters on their own: NDJSON lines and JSON array elements,
 * with their numbers, however the text is cut into chunks, and the broken
 * arrays and over-long entries they refuse.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { JsonArraySplitter } from '../../src/load/json-array-entries.ts';
import { NdjsonSplitter } from '../../src/load/ndjson-entries.ts';
import type { RawEntry, Splitter } from '../../src/load/splitter.ts';

/** Feeds `text` to a splitter in pieces of `size` characters (every boundary is tried with size 1). */
function split(splitter: Splitter, text: string, size = text.length || 1): RawEntry[] {
  const out: RawEntry[] = [];
  for (let i = 0; i < text.length; i += size) splitter.push(text.slice(i, i + size), out);
  splitter.end(out);
  return out;
}

/** The same text cut every way: whole, one character at a time, and in a few uneven sizes. */
function splitEveryWay(make: () => Splitter, text: string): RawEntry[] {
  const whole = split(make(), text);
  for (const size of [1, 2, 3, 7, 64]) assert.deepEqual(split(make(), text, size), whole, `chunks of ${size}`);
  return whole;
}

describe('NDJSON splitter', () => {
  test('gives each non-blank line with its line number, however the text is cut', () => {
    const text = '{"a":1}\n\n  \n{"b":"x\\ny"}\r\n{"c":[1,2]}';
    assert.deepEqual(
      splitEveryWay(() => new NdjsonSplitter(), text),
      [
        { number: 1, text: '{"a":1}' },
        { number: 4, text: '{"b":"x\\ny"}' },
        { number: 5, text: '{"c":[1,2]}' },
      ],
    );
  });

  test('a final line break adds nothing; empty input has no entries', () => {
    assert.deepEqual(split(new NdjsonSplitter(), '{"a":1}\n'), [{ number: 1, text: '{"a":1}' }]);
    assert.deepEqual(split(new NdjsonSplitter(), ''), []);
    assert.deepEqual(split(new NdjsonSplitter(), '\n\n'), []);
  });

  test('refuses a line longer than its limit instead of buffering it', () => {
    assert.throws(() => split(new NdjsonSplitter(0, 10), '{"a":"0123456789"}\n', 4), /line 1 is longer than 10/);
    assert.throws(() => split(new NdjsonSplitter(0, 10), '{}\n{"a":"0123456789"}'), /line 2 is longer than 10/);
  });
});

describe('JSON array splitter', () => {
  test('splits top-level elements, leaving brackets, braces, commas and escapes inside strings alone', () => {
    const elements = [
      '{"a":"]},[{"}',
      '{"b":"say \\"hi\\", [ok]"}',
      '{"c":"back\\\\"}',
      '{"d":"\\\\\\"]"}',
      '{"e":{"f":[1,{"g":[]}],"h":"}"}}',
      '[1,[2,[3]]]',
      '"a string, with ] and }"',
      '42',
      'true',
      'null',
      '{"i":"line\\nbreak\\tand \\u005d"}',
      '{}',
    ];
    const text = `[\n  ${elements.join(',\n  ')}\n]\n`;
    const entries = splitEveryWay(() => new JsonArraySplitter(), text);
    assert.deepEqual(
      entries.map((e) => e.text),
      elements,
    );
    assert.deepEqual(
      entries.map((e) => e.number),
      elements.map((_, i) => i + 1),
    );
    // Each element's text is exactly what JSON.parse of the whole array holds.
    assert.deepEqual(
      entries.map((e) => JSON.parse(e.text)),
      JSON.parse(text),
    );
  });

  test('pretty-printed elements keep their inner line breaks; whitespace around them is dropped', () => {
    const value = [{ a: [1, 2], b: { c: 'x' } }, { d: null }];
    const entries = splitEveryWay(() => new JsonArraySplitter(), JSON.stringify(value, null, 2));
    assert.equal(entries.length, 2);
    assert.deepEqual(
      entries.map((e) => JSON.parse(e.text)),
      value,
    );
    assert.ok(entries[0].text.includes('\n'));
    assert.ok(entries[0].text.startsWith('{') && entries[0].text.endsWith('}'));
  });

  test('an empty array has no entries', () => {
    assert.deepEqual(split(new JsonArraySplitter(), '[]'), []);
    assert.deepEqual(split(new JsonArraySplitter(), ' \n[ \n ]\n\n', 1), []);
  });

  test('a malformed element is passed on whole, for JSON.parse to reject on its own', () => {
    const entries = split(new JsonArraySplitter(), '[{"a":1},{"b":tru},{"c":3}]', 5);
    assert.deepEqual(
      entries.map((e) => e.text),
      ['{"a":1}', '{"b":tru}', '{"c":3}'],
    );
    assert.throws(() => JSON.parse(entries[1].text));
  });

  test('a broken array structure stops the file', () => {
    const broken: [string, RegExp][] = [
      ['{"a":1}', /expected '\['/],
      ['', /empty/],
      ['[{"a":1},{"b":2}', /ends after item 2: the array is not closed/],
      ['[{"a":1},{"b":[2', /ends inside item 2: the array is not closed/],
      ['[{"a":1},', /ends before the array is closed/],
      ['[{"a":1},{"b":"2', /ends inside item 2 \(in a string\)/],
      ['[{"a":1},]', /comma after item 1/],
      ['[{"a":1},,{"b":2}]', /item 2 is missing/],
      ['[,{"b":2}]', /item 1 is missing/],
      ['[{"a":1}] x', /after the end of the array/],
      ['[{"a":1}][{"b":2}]', /after the end of the array/],
      ['[{"a":1}}]', /unexpected '}' in item 1/],
    ];
    for (const [text, message] of broken) {
      for (const size of [1, 4, 100]) {
        assert.throws(
          () => split(new JsonArraySplitter(), text, size),
          message,
          `${JSON.stringify(text)} in chunks of ${size}`,
        );
      }
    }
  });

  test('refuses an element longer than its limit instead of buffering it', () => {
    assert.throws(() => split(new JsonArraySplitter(10), '[{"a":"0123456789"}]', 3), /item 1 is longer than 10/);
  });

  test(
    'a broken item in the middle of an array is named with ' + 'the line it starts on, never as where the file ends',
    () => {
      const items = Array.from({ length: 30 }, (_, i) =>
        JSON.stringify({ id: i + 1, child: { surname: 'Smith', forenames: 'Ann' } }),
      );
      const broken: [string, (item: string) => string, RegExp][] = [
        [
          'a closing brace missing',
          (item) => item.slice(0, -1),
          /item 15 \(from line 15\): '\]' on line 30 closes a '\{'/,
        ],
        [
          'an opening brace too many',
          (item) => item.replace('{"surname"', '{{"surname"'),
          /item 15 \(from line 15\): '\]' on line 30 closes a '\{'/,
        ],
        [
          'a bracket where a brace belongs',
          (item) => item.replace('"Smith"', '["Smith"'),
          /item 15 \(from line 15\): '\}' on line 15 closes a '\['/,
        ],
        [
          'a quote missing',
          (item) => item.replace('"Smith"', '"Smith'),
          new RegExp(
            /ends inside item 15 \(in a string\): the array is not closed /.source +
              /\(it starts on line 15; a quote in it is not closed/.source,
          ),
        ],
      ];
      for (const [name, breakItem, message] of broken) {
        const copy = [...items];
        copy[14] = breakItem(copy[14]);
        const text = `[${copy.join(',\n')}]\n`;
        for (const size of [7, 1000, text.length]) {
          assert.throws(
            () => split(new JsonArraySplitter(), text, size),
            (error: Error) => {
              assert.doesNotMatch(error.message, /ends after item/, name);
              assert.match(error.message, message, `${name}: ${error.message}`);
              return true;
            },
          );
        }
      }
      // Cut short after a whole item, the file does end after it.
      assert.throws(
        () => split(new JsonArraySplitter(), `[${items.slice(0, 3).join(',\n')}`, 5),
        /the file ends after item 3: the array is not closed/,
      );
      assert.throws(
        () => split(new JsonArraySplitter(), `[${items[0]}\n${items[1]}`, 5),
        /the file ends inside item 1, which is not valid JSON \(from line 1\)/,
      );
    },
  );
});
