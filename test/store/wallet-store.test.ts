/**
 * The wallet pick-up's store, one contract run against both backends (the embedded memory store
 * and the real PostgreSQL server): an offer is kept as given, its code is exchanged once, its
 * credential issued once, wrong transaction codes kill it at the cap, a nonce is used once and not
 * after it expires, and notifications are kept only for the credential they name.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import type { WalletOffer } from '../../src/model/wallet.ts';
import { emptyStore, storeKinds } from '../helper.ts';

const offerOf = (extra: Partial<WalletOffer> = {}): WalletOffer => ({
  id: randomUUID(),
  type: 'birth',
  recordId: 123456789,
  configurationId: 'birth_sd_jwt',
  offeredBy: { username: 'u', client: 'c', groups: ['g'], roles: ['credentials', 'birth'] },
  expiresAt: Date.now() + 300_000,
  ...extra,
});

for (const kind of await storeKinds()) {
  test(`${kind}: offers, codes, redemption, transaction codes, nonces and notifications`, async (t) => {
    const { wallet } = await emptyStore(t, kind);
    const offer = offerOf({ walletSubject: 'urn:fdc:wallet:1', txCodeHash: 'ab'.repeat(32) });
    await wallet.createOffer(offer);
    const state = await wallet.offer(offer.id);
    assert.deepEqual(state?.offer, offer);
    assert.equal(state?.codeUsed, false);
    assert.equal(state?.dead, false);
    assert.equal(await wallet.offer(randomUUID()), undefined);

    // A code is exchanged once, and a credential issued once.
    assert.equal(await wallet.useCode(offer.id), true);
    assert.equal(await wallet.useCode(offer.id), false);
    assert.equal(await wallet.useCode(randomUUID()), false);
    assert.equal(await wallet.redeem(offer.id, 'n-1'), true);
    assert.equal(await wallet.redeem(offer.id, 'n-2'), false);
    assert.equal((await wallet.offer(offer.id))?.notificationId, 'n-1');

    // Notifications are kept for the credential they name only.
    assert.equal(await wallet.notify(offer.id, 'n-2', 'credential_accepted'), false);
    assert.equal(await wallet.notify(offer.id, 'n-1', 'credential_accepted'), true);
    assert.equal(await wallet.notify(offer.id, 'n-1', 'credential_deleted'), true);
    assert.deepEqual(
      (await wallet.offer(offer.id))?.notifications.map((n) => n.event),
      ['credential_accepted', 'credential_deleted'],
    );

    // Wrong transaction codes: dead at the cap, and a dead offer's code is not exchanged.
    const guessed = offerOf({ txCodeHash: 'cd'.repeat(32) });
    await wallet.createOffer(guessed);
    const deaths = [];
    for (let i = 0; i < 5; i++) deaths.push(await wallet.failTxCode(guessed.id, 5));
    assert.deepEqual(deaths, [false, false, false, false, true]);
    const dead = await wallet.offer(guessed.id);
    assert.equal(dead?.txCodeFailures, 5);
    assert.equal(dead?.dead, true);
    assert.equal(await wallet.useCode(guessed.id), false);

    // Two exchanges of one code at once: one wins.
    const raced = offerOf();
    await wallet.createOffer(raced);
    const wins = await Promise.all(Array.from({ length: 8 }, () => wallet.useCode(raced.id)));
    assert.equal(wins.filter(Boolean).length, 1);

    // A nonce is used once; an expired one not at all.
    await wallet.addNonce('nonce-1', Date.now() + 60_000);
    await wallet.addNonce('nonce-2', Date.now() - 1);
    assert.equal(await wallet.useNonce('nonce-1'), true);
    assert.equal(await wallet.useNonce('nonce-1'), false);
    assert.equal(await wallet.useNonce('nonce-2'), false);
    assert.equal(await wallet.useNonce('never-given'), false);
  });
}
