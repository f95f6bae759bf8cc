/**
 * Fair shares of a worker's slots. A subscription whose last turn here used its whole time
 * (WEBHOOK_TURN_S: its receiver answers slowly) is slow until a turn of it ends sooner; slow
 * subscriptions together hold at most WEBHOOK_SLOW_SHARE of the slots, and never the last one, so
 * the others are always served by the rest while the slow ones still get their turns. Which
 * subscription a slot takes among those it may is the store's order: the one waiting longest since
 * its last turn first (WebhookStore.claim).
 */

interface SlotShares {
  /**
   * Runs a claim for `slot`, given the subscriptions it may not take now; one claim at a time while any is
   * slow, so the share holds.
   */
  claim<T extends { endpoint: { client: string } }>(
    slot: number,
    take: (exclude: readonly string[]) => Promise<T[]>,
  ): Promise<T[]>;
  /** The slot's turn of `client` ended; `slow` when it used its whole time. */
  ended(slot: number, client: string, slow: boolean): void;
}

/** The number of slots slow subscriptions may hold together: `share` of them, at least one, and one fewer than all. */
export const slowSlots = (slots: number, share: number) =>
  slots <= 1 ? 1 : Math.min(slots - 1, Math.max(1, Math.floor(slots * share)));

export function slotShares(slots: number, share: number): SlotShares {
  const cap = slowSlots(slots, share);
  const slow = new Set<string>();
  const holding = new Map<number, string>();
  let claiming: Promise<unknown> = Promise.resolve();
  const excluded = () => ([...holding.values()].filter((client) => slow.has(client)).length >= cap ? [...slow] : []);
  return {
    claim(slot, take) {
      // With no slow subscription known there is no share to keep: claims run side by side.
      if (slow.size === 0) {
        return take([]).then((leases) => {
          if (leases[0]) holding.set(slot, leases[0].endpoint.client);
          return leases;
        });
      }
      const claimed = claiming.then(async () => {
        const leases = await take(excluded());
        if (leases[0]) holding.set(slot, leases[0].endpoint.client);
        return leases;
      });
      claiming = claimed.catch(() => {});
      return claimed;
    },
    ended(slot, client, wasSlow) {
      holding.delete(slot);
      if (wasSlow) slow.add(client);
      else slow.delete(client);
    },
  };
}
