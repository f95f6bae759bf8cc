/**
 * The watch on each client's share of false verifications, on a clock of the
 * test's own: judged once the client has VERIFY_FALSE_SHARE_MIN_COUNT answers
 * in the window, an alarm when the share passes the threshold, at most once a
 * window; old answers slide out; the clients tracked are bounded.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type FalseShareAlarm, FalseShareMonitor, MAX_CLIENTS } from '../../src/http/false-share-monitor.ts';

function monitor(settings = { threshold: 0.5, windowMs: 60_000, minCount: 4 }) {
  let now = 0;
  const alarms: FalseShareAlarm[] = [];
  const watch = new FalseShareMonitor(
    settings,
    (alarm) => alarms.push(alarm),
    () => now,
  );
  return { watch, alarms, advance: (ms: number) => void (now += ms) };
}

test('no alarm before the minimum count; one when the share passes the threshold', () => {
  const { watch, alarms } = monitor();
  for (let i = 0; i < 3; i++) watch.record('c', 'birth', false);
  assert.equal(alarms.length, 0, 'three answers are too few to judge');
  watch.record('c', 'death', false);
  assert.deepEqual(alarms, [{ client: 'c', dataset: 'death', answers: 4, falseShare: 1 }]);
});

test('a share at the threshold is not past it; mostly true answers never alarm', () => {
  const { watch, alarms } = monitor();
  for (let i = 0; i < 50; i++) watch.record('c', 'birth', i % 2 === 0);
  assert.equal(alarms.length, 0);
});

test('at most one alarm a window while the share stays high; another after it', () => {
  const { watch, alarms, advance } = monitor();
  for (let i = 0; i < 20; i++) watch.record('c', 'birth', false);
  assert.equal(alarms.length, 1);
  advance(59_000);
  watch.record('c', 'birth', false);
  assert.equal(alarms.length, 1);
  advance(1_000);
  for (let i = 0; i < 4; i++) watch.record('c', 'birth', false);
  assert.equal(alarms.length, 2);
});

test('answers older than the window no longer count', () => {
  const { watch, alarms, advance } = monitor();
  for (let i = 0; i < 3; i++) watch.record('c', 'birth', false);
  advance(61_000);
  watch.record('c', 'birth', false);
  assert.equal(alarms.length, 0, 'one answer in the window');
  for (let i = 0; i < 10; i++) watch.record('d', 'birth', true);
  advance(61_000);
  for (let i = 0; i < 4; i++) watch.record('d', 'birth', false);
  assert.equal(alarms.length, 1, "d's true answers slid out of the window");
});

test('clients are counted apart, and at most MAX_CLIENTS are tracked', () => {
  const { watch, alarms } = monitor();
  for (let i = 0; i < MAX_CLIENTS + 500; i++) watch.record(`client-${i}`, 'birth', false);
  assert.ok(watch.size <= MAX_CLIENTS, `${watch.size} tracked`);
  assert.equal(alarms.length, 0, 'one answer each');
});
