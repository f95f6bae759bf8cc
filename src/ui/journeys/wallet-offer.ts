/**
 * "Send to a wallet" on the record page: an offer of the registration made through the API as the
 * caseworker (so it needs their `credentials` role and is audited), shown as a QR code for the
 * holder's wallet to scan, its link, and the transaction code the holder types, to be read out or
 * sent separately (docs/wallets.md). Posted with the form's token: an offer is made, never fetched.
 */
import { LevApiError } from '@lev-api/client';
import type { FastifyInstance } from 'fastify';
import { whenNeeded } from '../../when-needed.ts';

/** The QR code encoder, loaded by the first offer drawn. */
const qrCode = whenNeeded<typeof import('qrcode')>('qrcode');
import type { Pages } from '../pages.ts';

export function walletOfferPages(app: FastifyInstance, { registrationOf, page, context, refused, nounOf }: Pages) {
  app.post<{ Params: { type: string; id: string }; Body: { csrf?: unknown } }>(
    '/ui/:type/:id/wallet',
    async (request, reply) => {
      const found = await registrationOf(request, reply);
      if (!found) return reply;
      const { signed, type, id } = found;
      if (request.body?.csrf !== signed.session.csrf) {
        return page(
          reply,
          'error.njk',
          context(signed.session, 'Send again', { message: 'The form had expired. Go back and send it again.' }),
          403,
        );
      }
      try {
        const offer = await signed.lev.createOffer(type, id, { format: 'dc+sd-jwt', txCode: true });
        const svg = await qrCode().toString(offer.offer, { type: 'svg', errorCorrectionLevel: 'L', margin: 2 });
        const expires = new Date(offer.expiresAt).toLocaleTimeString('en-GB', {
          hour: '2-digit',
          minute: '2-digit',
          timeZone: 'Europe/London',
        });
        return page(
          reply,
          'wallet-offer.njk',
          context(signed.session, 'Send to a wallet', {
            type,
            noun: nounOf(type),
            id,
            svg,
            link: offer.offer,
            txCode: offer.txCode,
            expires,
          }),
        );
      } catch (error) {
        if (error instanceof LevApiError && (error.status === 404 || error.status === 409)) {
          return page(
            reply,
            'error.njk',
            context(signed.session, 'No wallet offer for this registration', { message: error.message }),
            error.status,
          );
        }
        return refused(reply, signed.session, error);
      }
    },
  );
}
