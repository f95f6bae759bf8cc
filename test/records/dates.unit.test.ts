/**
 * isoInstant: the one reading of a date or time the service takes from a caller or an operator,
 * the day checked as isIsoDate checks it, where Date alone rolls an unreal day over into the next
 * month.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isoInstant, isoInstantShaped } from '../../src/records/dates.ts';

test('isoInstant reads a real date or time with its zone', () => {
  assert.equal(isoInstant('2026-11-20')?.toISOString(), '2026-11-20T00:00:00.000Z');
  assert.equal(isoInstant('2026-11-20T09:00Z')?.toISOString(), '2026-11-20T09:00:00.000Z');
  assert.equal(isoInstant('2026-11-20T09:00:30.125+01:00')?.toISOString(), '2026-11-20T08:00:30.125Z');
  assert.equal(isoInstant('2024-02-29T00:00:00Z')?.toISOString(), '2024-02-29T00:00:00.000Z');
  assert.equal(isoInstant('2016-12-31T23:59:60Z')?.toISOString(), '2017-01-01T00:00:00.000Z');
});

test('isoInstant refuses an unreal day or time that Date would roll over', () => {
  for (const unreal of [
    '2026-02-30',
    '2026-02-29T00:00Z',
    '2026-11-31',
    '2026-13-01',
    '0000-01-01',
    '2026-11-01T24:00Z',
    '2026-11-01T09:60Z',
    '2026-11-01T09:00+24:00',
  ]) {
    assert.equal(isoInstant(unreal), undefined, unreal);
    assert.equal(isoInstantShaped(unreal), true, unreal);
  }
  assert.equal(new Date('2026-02-30').toISOString(), '2026-03-02T00:00:00.000Z', 'Date alone reads it as 2 March');
  for (const malformed of ['yesterday', '2026-11-01 09:00Z', '2026-11-01T09:00', '20261101', '2026-11-01T09Z', '']) {
    assert.equal(isoInstant(malformed), undefined, malformed);
    assert.equal(isoInstantShaped(malformed), false, malformed);
  }
});

test(
  'isoInstant refuses an instant outside the years 0001 ' + 'to 9999 UTC, a leap second or an offset taking it there',
  () => {
    assert.equal(isoInstant('9999-12-31T23:59:59.999Z')?.toISOString(), '9999-12-31T23:59:59.999Z');
    assert.equal(isoInstant('0001-01-01')?.toISOString(), '0001-01-01T00:00:00.000Z');
    for (const beyond of [
      '9999-12-31T23:59:60Z',
      '9999-12-31T23:59:59-23:59',
      '9999-12-31T23:30-00:30',
      '0001-01-01T00:00+00:01',
    ]) {
      assert.equal(isoInstant(beyond), undefined, beyond);
      assert.equal(isoInstantShaped(beyond), true, beyond);
    }
  },
);
