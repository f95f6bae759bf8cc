/** The pick-up's state in the process's memory, for the embedded store (model/wallet.ts). */
import type { NotificationEvent, OfferState, WalletStore } from '../model/wallet.ts';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

export function createMemoryWalletStore(now: () => number = Date.now): WalletStore {
  const offers = new Map<string, Mutable<OfferState> & { notifications: { event: NotificationEvent; at: number }[] }>();
  const nonces = new Map<string, number>();
  const copy = (state: OfferState): OfferState => ({ ...state, notifications: [...state.notifications] });
  return {
    async createOffer(offer) {
      if (offers.has(offer.id)) throw new Error('an offer of that id exists');
      offers.set(offer.id, { offer, txCodeFailures: 0, dead: false, codeUsed: false, notifications: [] });
    },
    async offer(id) {
      const state = offers.get(id);
      return state && copy(state);
    },
    async failTxCode(id, max) {
      const state = offers.get(id);
      if (!state) return true;
      state.txCodeFailures++;
      if (state.txCodeFailures >= max) state.dead = true;
      return state.dead;
    },
    async useCode(id) {
      const state = offers.get(id);
      if (!state || state.dead || state.codeUsed) return false;
      state.codeUsed = true;
      return true;
    },
    async redeem(id, notificationId) {
      const state = offers.get(id);
      if (!state || state.notificationId !== undefined) return false;
      state.notificationId = notificationId;
      return true;
    },
    async addNonce(nonce, expiresAt) {
      // Expired ones go as new ones come, so the map holds what is live.
      const at = now();
      for (const [kept, expiry] of nonces) if (expiry <= at) nonces.delete(kept);
      nonces.set(nonce, expiresAt);
    },
    async useNonce(nonce) {
      const expiry = nonces.get(nonce);
      if (expiry === undefined) return false;
      nonces.delete(nonce);
      return expiry > now();
    },
    async notify(offerId, notificationId, event) {
      const state = offers.get(offerId);
      if (!state || state.notificationId !== notificationId) return false;
      state.notifications.push({ event, at: now() });
      return true;
    },
  };
}
