import assert from 'node:assert/strict';
import { test } from 'node:test';
import { views } from '../record-types.ts';
import { createRenderCache } from '../../src/render/cache.ts';
import { compileView } from '../../src/render/view.ts';

const compiled = views.map(compileView);
const v1 = compiled.find((view) => view.version === 'v1' && view.record.name === 'birth')!;
const v0 = compiled.find((view) => view.version === 'v0')!;
const basic = { fullDetails: false };
const full = { fullDetails: true };
const birth = (id: number, entryNumber: number, blocked = false) =>
  JSON.stringify({
    id,
    entryNumber,
    child: { forenames: 'Ann', surname: 'Bell', dateOfBirth: '2001-01-01' },
    status: { blocked },
  });

test('a cached answer is the rendering of the very text given, for its view and audience', () => {
  const cache = createRenderCache(compiled, 1 << 20);
  for (const stored of [birth(1, 7), birth(1, 8), birth(1, 8, true)]) {
    for (const view of [v1, v0]) {
      for (const audience of [basic, full]) {
        const expected = JSON.stringify(view.render(JSON.parse(stored), audience));
        assert.equal(cache.json(view, audience, stored), expected);
        // Again, from the cache; and from another string of the same text.
        assert.equal(cache.json(view, audience, stored), expected);
        assert.equal(cache.json(view, audience, ` ${stored}`.slice(1)), expected);
      }
    }
  }
  // The record changed (blocked): its new text gives the new rendering, never the old one.
  assert.equal(JSON.parse(cache.json(v1, full, birth(1, 8, true))).entryNumber, null);
  assert.equal(JSON.parse(cache.json(v1, full, birth(1, 8))).entryNumber, 8);
  assert.equal(cache.size.records, 3);
});

test('the cache stays within its bound, and keeps what is used again', () => {
  const one = birth(1, 1).length + JSON.stringify(v1.render(JSON.parse(birth(1, 1)), basic)).length;
  const cache = createRenderCache(compiled, one * 10);
  for (let id = 1; id <= 100; id++) {
    cache.json(v1, basic, birth(id, 1));
    cache.json(v1, basic, birth(1, 1)); // used again and again
    assert.ok(cache.size.bytes <= one * 10, `${cache.size.bytes} bytes held`);
  }
  assert.ok(cache.size.records >= 5 && cache.size.records <= 10, `${cache.size.records} records held`);
  const before = cache.size.bytes;
  assert.equal(cache.json(v1, basic, birth(1, 1)), JSON.stringify(v1.render(JSON.parse(birth(1, 1)), basic)));
  assert.equal(cache.size.bytes, before, 'record 1 is still held');
  const none = createRenderCache(compiled, 0);
  assert.equal(none.json(v1, basic, birth(1, 1)), JSON.stringify(v1.render(JSON.parse(birth(1, 1)), basic)));
  assert.equal(none.size.records, 0);
});

test('the bound counts two bytes a character for text beyond Latin-1, as V8 holds it', () => {
  const latin = JSON.stringify({
    id: 1,
    child: { forenames: 'Zoë', surname: 'Bell', dateOfBirth: '2001-01-01' },
    status: { blocked: false },
  });
  const wide = latin.replace('Zoë', 'Łuc');
  const held = (stored: string) => {
    const cache = createRenderCache(compiled, 1 << 20);
    const json = cache.json(v1, basic, stored);
    return { bytes: cache.size.bytes, chars: stored.length + json.length };
  };
  const [a, b] = [held(latin), held(wide)];
  assert.equal(a.chars, b.chars);
  assert.equal(b.bytes - a.bytes, b.chars);
});

test('a value derived from a record is worked out once for its text, and again for a changed record', () => {
  const cache = createRenderCache(compiled, 1 << 20);
  let parsed = 0;
  const surname = (data: unknown) => {
    parsed++;
    return (data as { child: { surname: string } }).child.surname;
  };
  assert.equal(cache.derived(birth(1, 7), 'surname', surname), 'Bell');
  assert.equal(cache.derived(` ${birth(1, 7)}`.slice(1), 'surname', surname), 'Bell');
  assert.equal(parsed, 1, 'kept for the same text');
  assert.equal(
    cache.derived(birth(1, 7), 'entry', (data) => (data as { entryNumber: number }).entryNumber),
    7,
    'kept apart by name',
  );
  assert.equal(cache.derived(birth(1, 8), 'surname', surname), 'Bell');
  assert.equal(parsed, 2, 'another text is another record');
  // Held with the renderings, within the same bound.
  const small = createRenderCache(compiled, 2_000);
  for (let id = 1; id <= 100; id++) small.derived(birth(id, 1), 'surname', surname);
  assert.ok(small.size.bytes <= 2_000, `${small.size.bytes} bytes held`);
  assert.equal(createRenderCache(compiled, 0).derived(birth(1, 7), 'surname', surname), 'Bell');
});
