import assert from 'node:assert/strict';
import { test } from 'node:test';
import { STORABLE_TEXT_PATTERN, UNSTORABLE_TEXT } from '../../src/load/storable.ts';

test('the schema pattern for storable text is the exact complement of UNSTORABLE_TEXT', () => {
  // JSON Schema patterns are read with the `u` flag (Ajv's default), as \p{Cs} needs.
  const storable = new RegExp(STORABLE_TEXT_PATTERN, 'u');
  const samples = ['', 'a', 'Zoë', '😀', 'x%y_z', '\t\n', 'a\u0000b', '\u0000', 'a\ud800', '\udfffb', 'end\u0000'];
  for (const sample of samples)
    assert.equal(storable.test(sample), !UNSTORABLE_TEXT.test(sample), JSON.stringify(sample));
  assert.equal(storable.test('a\u0000b'), false);
  assert.equal(storable.test('😀'), true);
});
