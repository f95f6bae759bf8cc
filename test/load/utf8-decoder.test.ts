import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Utf8Decoder, holdsBadBytes } from '../../src/load/utf8-decoder.ts';

test('valid chunks decode to their text, a byte-order mark and characters cut between chunks included', () => {
  const decoder = new Utf8Decoder();
  const bytes = Buffer.from('\uFEFF{"surname":"Ó Briain ☃ 😀"}\n\uFEFFx', 'utf8');
  // Cut inside the snowman's three bytes, and so that the second mark starts a chunk.
  const snowman = bytes.indexOf(Buffer.from('☃')) + 1;
  const mark = bytes.lastIndexOf(Buffer.from('\uFEFF'));
  const text =
    decoder.write(bytes.subarray(0, snowman)) +
    decoder.write(bytes.subarray(snowman, mark)) +
    decoder.write(bytes.subarray(mark)) +
    decoder.end();
  assert.equal(text, bytes.toString('utf8'));
  assert.equal(decoder.sawBadBytes, false);
});

test('bytes that are no UTF-8 decode to lone surrogates', () => {
  const decoder = new Utf8Decoder();
  const text = decoder.write(Buffer.from([0x61, 0xff, 0x62])) + decoder.end();
  assert.equal(text, 'a\uD800b');
  assert.equal(holdsBadBytes(text), true);
  assert.equal(decoder.sawBadBytes, true);
});
