/**
 * The pick-up's state in PostgreSQL (migration 18): each change one statement whose WHERE clause
 * is the rule, so two processes answering the same wallet at once cannot both exchange a code or
 * both issue a credential.
 */
import type { SqlDriver } from './driver.ts';
import type { NotificationEvent, WalletOffer, WalletStore } from '../model/wallet.ts';

interface OfferRow {
  id: string;
  record_type: string;
  record_id: string;
  configuration_id: string;
  wallet_subject: string | null;
  tx_code_hash: string | null;
  offered_by: WalletOffer['offeredBy'];
  expires_at: Date;
  tx_code_failures: number;
  dead: boolean;
  code_used: boolean;
  notification_id: string | null;
  notifications: { event: NotificationEvent; at: string }[];
}

export function createPostgresWalletStore(driver: SqlDriver): WalletStore {
  return {
    async createOffer(offer) {
      await driver.query(
        `INSERT INTO wallet_offer (id, record_type, record_id, configuration_id, wallet_subject, tx_code_hash, ` +
          `offered_by, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [
          offer.id,
          offer.type,
          offer.recordId,
          offer.configurationId,
          offer.walletSubject ?? null,
          offer.txCodeHash ?? null,
          JSON.stringify(offer.offeredBy),
          new Date(offer.expiresAt),
        ],
      );
    },
    async offer(id) {
      const [row] = await driver.query<OfferRow>(
        `SELECT o.*, coalesce((SELECT json_agg(json_build_object('event', n.event, 'at', n.at) ORDER BY n.at, n.seq)
                                 FROM wallet_notification n WHERE n.offer_id = o.id), '[]') AS notifications
           FROM wallet_offer o WHERE o.id = $1`,
        [id],
      );
      if (!row) return undefined;
      return {
        offer: {
          id: row.id,
          type: row.record_type,
          recordId: Number(row.record_id),
          configurationId: row.configuration_id,
          ...(row.wallet_subject !== null ? { walletSubject: row.wallet_subject } : {}),
          ...(row.tx_code_hash !== null ? { txCodeHash: row.tx_code_hash } : {}),
          offeredBy: row.offered_by,
          expiresAt: row.expires_at.getTime(),
        },
        txCodeFailures: row.tx_code_failures,
        dead: row.dead,
        codeUsed: row.code_used,
        ...(row.notification_id !== null ? { notificationId: row.notification_id } : {}),
        notifications: row.notifications.map((n) => ({ event: n.event, at: Date.parse(n.at) })),
      };
    },
    async failTxCode(id, max) {
      const rows = await driver.query<{ dead: boolean }>(
        'UPDATE wallet_offer SET tx_code_failures = tx_code_failures + 1, dead = dead OR tx_code_failures + 1 >= ' +
          '$2 WHERE id = $1 RETURNING dead',
        [id, max],
      );
      return rows[0]?.dead ?? true;
    },
    async useCode(id) {
      const rows = await driver.query(
        'UPDATE wallet_offer SET code_used = true WHERE id = $1 AND NOT code_used AND NOT dead RETURNING id',
        [id],
      );
      return rows.length === 1;
    },
    async redeem(id, notificationId) {
      const rows = await driver.query(
        'UPDATE wallet_offer SET notification_id = $2, redeemed_at = now() WHERE id = $1 AND notification_id IS ' +
          'NULL RETURNING id',
        [id, notificationId],
      );
      return rows.length === 1;
    },
    async addNonce(nonce, expiresAt) {
      // Expired ones go as new ones come, a few at a time, so the table holds what is live.
      await driver.query(
        `WITH gone AS (DELETE FROM wallet_nonce WHERE nonce IN (SELECT nonce FROM wallet_nonce WHERE expires_at ` +
          `< now() LIMIT 10))
         INSERT INTO wallet_nonce (nonce, expires_at) VALUES ($1, $2)`,
        [nonce, new Date(expiresAt)],
      );
    },
    async useNonce(nonce) {
      const rows = await driver.query(
        'DELETE FROM wallet_nonce WHERE nonce = $1 AND expires_at > now() RETURNING nonce',
        [nonce],
      );
      return rows.length === 1;
    },
    async notify(offerId, notificationId, event) {
      const rows = await driver.query(
        `INSERT INTO wallet_notification (offer_id, event)
         SELECT id, $3 FROM wallet_offer WHERE id = $1 AND notification_id = $2 RETURNING offer_id`,
        [offerId, notificationId, event],
      );
      return rows.length === 1;
    },
  };
}
