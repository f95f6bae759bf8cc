/**
 * `streamEntries`: a byte stream told apart as a JSON array or NDJSON and cut
 * into entries, with the entries holding bytes that are not UTF-8 marked.
 */
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { describe, test } from 'node:test';
import type { RawEntry } from '../../src/load/splitter.ts';
import { streamEntries } from '../../src/load/stream-entries.ts';

describe('streamEntries', () => {
  const collect = async (chunks: (Buffer | string)[]) => {
    const entries: RawEntry[] = [];
    let bytes = 0;
    let format: string | undefined;
    for await (const chunk of streamEntries(Readable.from(chunks))) {
      entries.push(...chunk.entries);
      bytes += chunk.bytes;
      format = chunk.format ?? format;
    }
    return { entries, bytes, format };
  };
  /** A buffer cut into single bytes: multi-byte characters are split across chunks. */
  const bytewise = (text: string) => [...Buffer.from(text)].map((b) => Buffer.from([b]));

  test('tells a JSON array from NDJSON by the first non-blank character, past a BOM and blank lines', async () => {
    const ndjson = await collect(bytewise('\ufeff\n \n{"n":"Zoë 李 😀"}\n{"n":2}\n'));
    assert.equal(ndjson.format, 'ndjson');
    assert.deepEqual(ndjson.entries, [
      { number: 3, text: '{"n":"Zoë 李 😀"}' },
      { number: 4, text: '{"n":2}' },
    ]);
    assert.equal(ndjson.bytes, Buffer.byteLength('\ufeff\n \n{"n":"Zoë 李 😀"}\n{"n":2}\n'));

    const array = await collect(bytewise('\n  [{"n":"Zoë 李 😀"},\n{"n":2}]'));
    assert.equal(array.format, 'json-array');
    assert.deepEqual(
      array.entries.map((e) => JSON.parse(e.text).n),
      ['Zoë 李 😀', 2],
    );
  });

  test('an empty or blank input has no entries', async () => {
    assert.deepEqual((await collect([])).entries, []);
    assert.deepEqual((await collect(['  \n\n', '\t'])).entries, []);
  });
  test(
    'marks the entries holding bytes that are not UTF-8, however the bytes are cut; a real U+FFFD is text ' +
      'like any other',
    async () => {
      const good = Buffer.from('{"n":"Zoë 李 😀 \ufffd"}\n');
      const cases: [string, Buffer][] = [
        ['FF FE', Buffer.from([0xff, 0xfe])],
        ['a lone continuation byte', Buffer.from([0x80])],
        ['an overlong encoding', Buffer.from([0xc0, 0x80])],
        ['an encoded surrogate', Buffer.from([0xed, 0xa0, 0x80])],
        ['a sequence cut short', Buffer.from([0xe2, 0x82])],
        ['beyond U+10FFFF', Buffer.from([0xf4, 0x90, 0x80, 0x80])],
      ];
      for (const [name, bytes] of cases) {
        const input = Buffer.concat([good, Buffer.from('{"n":"Sm'), bytes, Buffer.from('th"}\n'), good]);
        for (const chunks of [[input], [...input].map((b) => Buffer.from([b]))]) {
          const { entries } = await collect(chunks);
          assert.deepEqual(
            entries.map((e) => [e.number, e.invalidUtf8 ?? false]),
            [
              [1, false],
              [2, true],
              [3, false],
            ],
            name,
          );
          assert.equal(JSON.parse(entries[0].text).n, 'Zoë 李 😀 \ufffd', name);
        }
      }
      // Cut short at the very end of the input.
      const { entries } = await collect([Buffer.concat([good, Buffer.from('{"n":"x"}'), Buffer.from([0xf0, 0x9f])])]);
      assert.deepEqual(
        entries.map((e) => e.invalidUtf8 ?? false),
        [false, true],
      );
    },
  );
});
