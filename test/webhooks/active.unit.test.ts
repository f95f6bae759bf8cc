/**
 * The bound on a pause: a turn asks the store whether its subscription may still be sent to at
 * most ACTIVE_EVERY_MS apart, never sends on an answer asked longer ago than that before the event
 * was due, and asks ahead so the sending rarely waits. A clock of the test's and a store whose
 * answers the test releases make every step exact.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ACTIVE_EVERY_MS, ASK_AHEAD, activeCheck } from '../../src/webhooks/active.ts';

const AHEAD_MS = ACTIVE_EVERY_MS * ASK_AHEAD;
import type { Lease } from '../../src/model/webhooks.ts';

const lease = { endpoint: { client: 'a' }, owner: 'w/0' } as unknown as Lease;

/** A store whose answers wait until the test gives them, each noted with the clock's time when asked. */
function heldStore() {
  const asked: { at: number; answer: (active: boolean | Error) => void }[] = [];
  let clock = 0;
  return {
    asked,
    now: () => clock,
    advance: (ms: number) => void (clock += ms),
    store: {
      active: () =>
        new Promise<boolean>((resolve, reject) => {
          asked.push({ at: clock, answer: (active) => (active instanceof Error ? reject(active) : resolve(active)) });
        }),
    },
  };
}

const settled = async (promise: Promise<unknown>) => {
  let done = false;
  void promise.then(
    () => (done = true),
    () => (done = true),
  );
  for (let i = 0; i < 5; i++) await Promise.resolve();
  return done;
};

test('the claim counts as an answer: within the bound of it, nothing is asked and nothing waits', async () => {
  const t = heldStore();
  const check = activeCheck(t.store, lease, { claimedAt: 0, now: t.now });
  t.advance(AHEAD_MS - 1);
  assert.equal(await check.may(), true);
  assert.equal(t.asked.length, 0);
});

test('past ASK_AHEAD of the bound the store is asked ahead, and the event goes without waiting for it', async () => {
  const t = heldStore();
  const check = activeCheck(t.store, lease, { claimedAt: 0, now: t.now });
  t.advance(AHEAD_MS);
  assert.equal(await check.may(), true);
  assert.equal(t.asked.length, 1);
  // A second event before the answer: the same question, not another.
  t.advance(1);
  assert.equal(await check.may(), true);
  assert.equal(t.asked.length, 1);
  t.asked[0].answer(true);
  await Promise.resolve();
  // That answer (asked at AHEAD_MS) carries the next events until the bound after it was asked.
  t.advance(ACTIVE_EVERY_MS - AHEAD_MS - 2);
  assert.equal(await settled(check.may()), true);
});

test(
  'an event due when the last answer is as old as the ' + 'bound waits for a new one, and a pause found stops it',
  async () => {
    const t = heldStore();
    const check = activeCheck(t.store, lease, { claimedAt: 0, now: t.now });
    t.advance(ACTIVE_EVERY_MS);
    const may = check.may();
    assert.equal(await settled(may), false, 'the event waits for the store');
    assert.equal(t.asked.length, 1);
    t.asked[0].answer(false);
    assert.equal(await may, false);
    // Once found paused, it stays stopped for the rest of the turn without asking again.
    t.advance(ACTIVE_EVERY_MS * 4);
    assert.equal(await check.may(), false);
    assert.equal(t.asked.length, 1);
  },
);

test(
  'an answer asked ahead but too old by the time the ' + 'event is due is not relied on: a new one is asked',
  async () => {
    const t = heldStore();
    const check = activeCheck(t.store, lease, { claimedAt: 0, now: t.now });
    t.advance(AHEAD_MS);
    assert.equal(await check.may(), true);
    assert.equal(t.asked.length, 1, 'asked ahead');
    // The next event is due more than the bound after that question (a slow receiver): its answer, true, is stale.
    t.advance(ACTIVE_EVERY_MS + 1);
    const may = check.may();
    t.asked[0].answer(true);
    assert.equal(await settled(may), false, 'still waiting, for a question asked now');
    assert.equal(t.asked.length, 2);
    assert.equal(t.asked[1].at, AHEAD_MS + ACTIVE_EVERY_MS + 1);
    t.asked[1].answer(false);
    assert.equal(await may, false);
  },
);

test(
  'a slow database does not stall the sending: an answer asked once the event was due is enough, however ' +
    'long it took',
  async () => {
    const t = heldStore();
    const check = activeCheck(t.store, lease, { claimedAt: 0, now: t.now });
    t.advance(ACTIVE_EVERY_MS * 2);
    const may = check.may();
    t.advance(ACTIVE_EVERY_MS * 3);
    t.asked[0].answer(true);
    assert.equal(await may, true);
    // That answer being old already, the next one is asked ahead.
    assert.equal(t.asked.length, 2);
    assert.equal(t.asked[1].at, ACTIVE_EVERY_MS * 5);
  },
);

test("the store's failure reaches the turn, even from a question asked ahead", async () => {
  const t = heldStore();
  const check = activeCheck(t.store, lease, { claimedAt: 0, now: t.now });
  t.advance(AHEAD_MS);
  assert.equal(await check.may(), true);
  t.asked[0].answer(new Error('the database does not answer'));
  await Promise.resolve();
  await assert.rejects(check.may(), /does not answer/);
});

test(
  "a position's recording answers too: while it keeps finding the subscription active, the store is not " +
    'asked; once it finds it paused, nothing more goes',
  async () => {
    const t = heldStore();
    const check = activeCheck(t.store, lease, { claimedAt: 0, now: t.now });
    for (let at = 0; at < ACTIVE_EVERY_MS * 10; at += AHEAD_MS / 2) {
      check.seen(t.now(), true);
      t.advance(AHEAD_MS / 2);
      assert.equal(await check.may(), true);
    }
    assert.equal(t.asked.length, 0);
    check.seen(t.now(), false);
    assert.equal(await check.may(), false);
    assert.equal(t.asked.length, 0);
  },
);

test("a recording's answer older than the last one does not move it back", async () => {
  const t = heldStore();
  const check = activeCheck(t.store, lease, { claimedAt: 0, now: t.now });
  t.advance(AHEAD_MS - 1);
  check.seen(-ACTIVE_EVERY_MS, true);
  assert.equal(await check.may(), true);
  assert.equal(t.asked.length, 0);
});
