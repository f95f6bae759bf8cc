/**
 * The credential issuer's endpoints a wallet calls with its access token (OpenID4VCI 1.0): the
 * nonce endpoint, the credential endpoint (one credential for each key the wallet proves it holds,
 * bound to it, once an offer) and the notification endpoint.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { calculateJwkThumbprint, type JWK } from 'jose';
import { issueRefusal } from '../../credentials/issuable.ts';
import {
  credentialRequestDenied,
  invalidCredentialRequest,
  invalidNonce,
  invalidNotificationId,
  invalidNotificationRequest,
  invalidProof,
  invalidToken,
  unknownConfiguration,
} from '../../credentials/openid4vci/errors.ts';
import { BATCH_SIZE, WALLET_PATHS } from '../../credentials/openid4vci/metadata.ts';
import { PROOF_MAX_AGE_S, checkProof } from '../../credentials/openid4vci/proof.ts';
import { NOTIFICATION_EVENTS, type NotificationEvent } from '../../model/wallet.ts';
import type { Identity } from '../../model/identity.ts';
import { FULL_DETAILS_ROLE } from '../../model/identity.ts';
import { documentationOnly } from '../documentation.ts';
import { refsOf } from '../plugins/audit.ts';
import { storeUnavailable } from '../route-config.ts';
import { type WalletContext, authorisedOffer } from './context.ts';

const wallets = { tags: ['wallets'], security: [] };

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** The proof JWTs of a credential request: `proofs.jwt` (1.0) or `proof` (earlier drafts, GOV.UK Wallet's). */
function proofsOf(body: Record<string, unknown>): unknown[] {
  if (body.proof !== undefined && body.proofs !== undefined)
    throw invalidCredentialRequest('Give proof or proofs, not both');
  if (body.proofs !== undefined) {
    if (!isObject(body.proofs) || Object.keys(body.proofs).length !== 1 || !Array.isArray(body.proofs.jwt))
      throw invalidProof('proofs must hold one list, jwt');
    const list = body.proofs.jwt;
    if (list.length === 0 || list.length > BATCH_SIZE)
      throw invalidCredentialRequest(`proofs.jwt must hold 1 to ${BATCH_SIZE} proofs`);
    return list;
  }
  if (body.proof !== undefined) {
    if (!isObject(body.proof) || body.proof.proof_type !== 'jwt') throw invalidProof('proof must be of proof_type jwt');
    return [body.proof.jwt];
  }
  throw invalidProof('A proof of possession of the key to bind the credential to is required (proofs.jwt)');
}

export async function credentialRoutes(app: FastifyInstance, context: WalletContext) {
  app.post(
    WALLET_PATHS.nonce,
    {
      schema: {
        ...wallets,
        operationId: 'walletNonce',
        summary: `A fresh c_nonce for a proof of possession, valid ${PROOF_MAX_AGE_S} s and once`,
      },
      ...documentationOnly,
    },
    async (_request, reply) => {
      const nonce = randomBytes(24).toString('base64url');
      await storeUnavailable(() => context.wallet.addNonce(nonce, Date.now() + PROOF_MAX_AGE_S * 1000));
      return reply.send({ c_nonce: nonce, c_nonce_expires_in: PROOF_MAX_AGE_S });
    },
  );

  app.post<{ Body: unknown }>(
    WALLET_PATHS.credential,
    {
      schema: {
        ...wallets,
        operationId: 'walletCredential',
        summary: 'The credential endpoint: the offered credential, bound to each key proved',
        description:
          'Bearer access token; JSON body with proofs.jwt (or proof), each an openid4vci-proof+jwt (ES256) ' +
          'with the current c_nonce. ' +
          'Errors as OpenID4VCI names them: 401 invalid_token; 400 invalid_proof, invalid_nonce, ' +
          'unknown_credential_configuration, invalid_credential_request, credential_request_denied.',
      },
      ...documentationOnly,
    },
    async (request, reply) => {
      const { token, state } = await authorisedOffer(context, request);
      if (state.notificationId !== undefined) throw invalidToken('The offer was already redeemed');
      if (state.dead) throw invalidToken('The offer was withdrawn');
      const body = request.body;
      if (!isObject(body)) throw invalidCredentialRequest('The credential request must be a JSON object');
      const offered = context.registry.configuration(state.offer.configurationId);
      if (!offered) throw unknownConfiguration('The offered credential configuration is no longer issued');
      const asked = body.credential_configuration_id;
      if (asked !== undefined) {
        if (typeof asked !== 'string' || !context.registry.configuration(asked))
          throw unknownConfiguration('No credential configuration has that identifier');
        if (asked !== offered.id) throw invalidCredentialRequest('That credential configuration was not offered');
      }
      if (body.credential_identifier !== undefined && body.credential_identifier !== state.offer.id)
        throw invalidCredentialRequest('That credential identifier was not offered');
      const issuer = context.issuerUrl();
      const proofs = await Promise.all(proofsOf(body).map((jwt) => checkProof(jwt, issuer)));
      const nonces = new Set(proofs.map((proof) => proof.nonce));
      const [nonce] = nonces;
      if (nonces.size !== 1 || nonce === undefined)
        throw invalidNonce('Every proof must carry the current c_nonce: ask the nonce endpoint for one');
      // One credential a key, whichever proofs name it.
      const keys = new Map<string, JWK>();
      for (const { key } of proofs) keys.set(await calculateJwkThumbprint(key), key);

      const { type, recordId, offeredBy } = state.offer;
      const view = context.views.get(type);
      const stored = view && (await storeUnavailable(() => context.records.lookupJson(type, String(recordId))));
      if (!view || stored === undefined) throw credentialRequestDenied('The registration offered is no longer held');
      const record = JSON.parse(stored) as Record<string, unknown>;
      const refused = issueRefusal(record, view.record);
      if (refused) throw credentialRequestDenied(refused.message);
      if (nonce !== token.cNonce && !(await storeUnavailable(() => context.wallet.useNonce(nonce)))) {
        throw invalidNonce('The proof nonce is not a current c_nonce: ask the nonce endpoint for one');
      }
      const notificationId = randomUUID();
      if (!(await storeUnavailable(() => context.wallet.redeem(state.offer.id, notificationId))))
        throw invalidToken('The offer was already redeemed');

      // Rendered and audited as the department that made the offer: the wallet acts on its word.
      (request as FastifyRequest).identity = offeredBy as Identity;
      const { claims, fields } = (context.claimsOf.get(type) as NonNullable<ReturnType<typeof context.claimsOf.get>>)(
        view.render(record, { fullDetails: offeredBy.roles.includes(FULL_DETAILS_ROLE) }),
      );
      const statuses = await Promise.all(
        [...keys.values()].map(() => storeUnavailable(() => context.statuses.allocate(type, recordId))),
      );
      await request.audited(1, refsOf(type, [recordId]), { dataset: type, operation: 'credential' }, { fields });
      const credentials = await Promise.all(
        [...keys.values()].map(async (holderKey, i) => ({
          credential: await offered.format.issue({
            issuer,
            description: view.record,
            claims,
            status: statuses[i],
            holderKey,
          }),
        })),
      );
      return reply.send({ credentials, notification_id: notificationId });
    },
  );

  app.post<{ Body: unknown }>(
    WALLET_PATHS.notification,
    {
      schema: {
        ...wallets,
        operationId: 'walletNotification',
        summary:
          'The notification endpoint: what the wallet did with the credential (credential_accepted, ' +
          'credential_failure, credential_deleted)',
      },
      ...documentationOnly,
    },
    async (request, reply) => {
      const { state } = await authorisedOffer(context, request);
      const body = request.body;
      if (!isObject(body) || typeof body.notification_id !== 'string')
        throw invalidNotificationRequest('notification_id is required');
      if (typeof body.event !== 'string' || !NOTIFICATION_EVENTS.includes(body.event as NotificationEvent)) {
        throw invalidNotificationRequest(`event must be one of ${NOTIFICATION_EVENTS.join(', ')}`);
      }
      const kept = await storeUnavailable(() =>
        context.wallet.notify(state.offer.id, body.notification_id as string, body.event as NotificationEvent),
      );
      if (!kept)
        throw invalidNotificationId('No credential of this access token was issued under that notification_id');
      return reply.code(204).send();
    },
  );
}
