/**
 * The service's own authorization server (used when WALLET_AUTHORIZATION_SERVER is unset): its
 * metadata (RFC 8414) and its token endpoint for the pre-authorised code grant (OpenID4VCI 1.0
 * section 6). A code is exchanged once; a wrong transaction code counts, and at
 * WALLET_TX_CODE_ATTEMPTS the offer dies.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { invalidGrant, invalidRequest, OAuthError } from '../../credentials/openid4vci/errors.ts';
import {
  PRE_AUTHORIZED_GRANT,
  WALLET_PATHS,
  authorizationServerMetadata,
} from '../../credentials/openid4vci/metadata.ts';
import { txCodeMatches } from '../../credentials/openid4vci/offer.ts';
import { ACCESS_TOKEN_TTL_S, accessToken, ownKeySet, verifyCode } from '../../credentials/openid4vci/tokens.ts';
import { UNREADABLE, answer, documentationOnly } from '../documentation.ts';
import { storeUnavailable } from '../route-config.ts';
import type { WalletContext } from './context.ts';

const publicDocument = { tags: ['wallets'], security: [] };

export async function tokenRoutes(app: FastifyInstance, context: WalletContext) {
  const ownKeys = ownKeySet(context.keys);
  app.get(
    WALLET_PATHS.authorizationServer,
    {
      schema: {
        ...publicDocument,
        operationId: 'authorizationServerMetadata',
        summary: "The service's own authorization server's metadata (RFC 8414). Public.",
        response: { 200: answer('The authorization server metadata', { type: 'object' }), 400: UNREADABLE },
      },
      ...documentationOnly,
      config: { cacheControl: 'public, max-age=300' },
    },
    async (_request, reply) =>
      reply.header('access-control-allow-origin', '*').send(authorizationServerMetadata(context.issuerUrl())),
  );

  app.post<{ Body: Record<string, unknown> }>(
    WALLET_PATHS.token,
    {
      schema: {
        ...publicDocument,
        operationId: 'walletToken',
        summary: 'The token endpoint: a pre-authorised code (and its transaction code) for an access token',
        description:
          'Form-encoded grant_type, pre-authorized_code and, when the offer has one, tx_code. Errors as ' +
          'RFC 6749 names them (invalid_request, invalid_grant, unsupported_grant_type).',
      },
      ...documentationOnly,
    },
    async (request, reply) => {
      const form = request.body;
      if (form === null || typeof form !== 'object') throw invalidRequest('The token request must be form-encoded');
      const { grant_type: grant, 'pre-authorized_code': code, tx_code: typed } = form;
      if (grant !== PRE_AUTHORIZED_GRANT) {
        throw grant === undefined
          ? invalidRequest('grant_type is required')
          : new OAuthError(400, 'unsupported_grant_type', `Only ${PRE_AUTHORIZED_GRANT} is supported`);
      }
      if (typeof code !== 'string' || code.length > 4096) throw invalidRequest('pre-authorized_code is required');
      if (typed !== undefined && (typeof typed !== 'string' || typed.length > 64))
        throw invalidRequest('tx_code must be one short string');
      const issuer = context.issuerUrl();
      const offerId = await verifyCode(code, ownKeys, issuer, issuer);
      const state = offerId === undefined ? undefined : await storeUnavailable(() => context.wallet.offer(offerId));
      if (!state) throw invalidGrant('The pre-authorised code is not valid, or has expired');
      if (state.dead)
        throw invalidGrant(
          'The offer was withdrawn after too many wrong transaction codes: ask the department for a new one',
        );
      if (state.codeUsed) throw invalidGrant('The pre-authorised code was already used');
      const { txCodeHash } = state.offer;
      if (txCodeHash !== undefined) {
        if (typed === undefined) throw invalidRequest('This offer needs its tx_code');
        if (!txCodeMatches(typed as string, txCodeHash)) {
          const dead = await storeUnavailable(() =>
            context.wallet.failTxCode(state.offer.id, context.config.txCodeAttempts),
          );
          throw invalidGrant(
            dead
              ? 'Wrong transaction code: the offer is withdrawn after too many; ask the department for a new one'
              : 'Wrong transaction code',
          );
        }
      } else if (typed !== undefined) {
        throw invalidRequest('This offer takes no tx_code');
      }
      if (!(await storeUnavailable(() => context.wallet.useCode(state.offer.id))))
        throw invalidGrant('The pre-authorised code was already used');
      const token = accessToken(context.keys, {
        issuer,
        offerId: state.offer.id,
        subject: state.offer.walletSubject ?? state.offer.id,
        clientId: context.config.clientId,
        cNonce: randomBytes(24).toString('base64url'),
        now: Date.now(),
      });
      return reply
        .header('pragma', 'no-cache')
        .send({ access_token: token, token_type: 'Bearer', expires_in: ACCESS_TOKEN_TTL_S });
    },
  );
}
