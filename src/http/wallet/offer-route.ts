/**
 * `POST /v1/credentials/{type}/{id}/offer`: a department asks for a credential offer of a
 * registration in a format, optionally for one wallet subject and with a transaction code. Needs
 * the `credentials` role and the dataset's, as issuing over the API does, and is audited as it is.
 */
import type { FastifyInstance } from 'fastify';
import { type Static, Type } from '@sinclair/typebox';
import { WALLET_PATHS } from '../../credentials/openid4vci/metadata.ts';
import { offerRegistration } from '../../credentials/openid4vci/offer.ts';
import { ApiError, badRequest, notFound } from '../../errors.ts';
import { CREDENTIALS_ROLE, type Identity } from '../../model/identity.ts';
import { CREDENTIAL_ERRORS, answer, documentationOnly } from '../documentation.ts';
import { EXPECTED, systemNumberParameter } from '../parameters.ts';
import { refsOf } from '../plugins/audit.ts';
import { storeUnavailable } from '../route-config.ts';
import type { WalletContext } from './context.ts';

const offerBody = (formats: readonly string[]) =>
  Type.Object(
    {
      format: Type.Unsafe<string>({
        type: 'string',
        enum: [...formats],
        description: 'The credential format',
        [EXPECTED]: `one of ${formats.join(', ')}`,
      }),
      walletSubjectId: Type.Optional(
        Type.String({
          pattern: '^\\S{1,200}$',
          description:
            "The holder's wallet subject (GOV.UK Wallet's walletSubjectId): only a wallet signed in as " +
            'them may pick the credential up',
        }),
      ),
      txCode: Type.Optional(
        Type.Boolean({
          description:
            'Whether the wallet must also give a transaction code, answered here to be sent to the holder separately',
        }),
      ),
    },
    { additionalProperties: false },
  );

const offerAnswer = Type.Object({
  offer: Type.String({ description: 'The deep link: WALLET_OFFER_URL, then credential_offer, the offer as JSON' }),
  txCode: Type.Optional(
    Type.String({ description: 'The transaction code, when asked for: give it to the holder by another channel' }),
  ),
  expiresAt: Type.String({ description: "When the offer's pre-authorised code expires (ISO 8601)" }),
});

export async function offerRoute(app: FastifyInstance, context: WalletContext) {
  const types = [...context.views.keys()];
  const params = Type.Object(
    {
      type: Type.Unsafe<string>({
        type: 'string',
        enum: types,
        description: 'The record type',
        [EXPECTED]: `one of ${types.join(', ')}`,
      }),
      id: Type.Unsafe<string>(systemNumberParameter('The system number of the registration')),
    },
    { additionalProperties: false },
  );
  const body = offerBody(context.registry.formats.map((format) => format.format));
  app.post<{ Params: Static<typeof params>; Body: Static<typeof body> }>(
    WALLET_PATHS.offer,
    {
      schema: {
        tags: ['wallets'],
        operationId: 'createOffer',
        summary: 'A credential offer of a registration, for a wallet to pick up (OpenID4VCI)',
        description:
          'A deep link holding an OpenID4VCI credential offer by value, with a single-use pre-authorised ' +
          'code signed by the service that expires in WALLET_OFFER_TTL_S. ' +
          `Needs the '${CREDENTIALS_ROLE}' role besides the dataset's, and is audited (operation ` +
          'credential). docs/wallets.md explains the pick-up.',
        params,
        body,
        response: {
          201: answer('The offer', offerAnswer),
          ...CREDENTIAL_ERRORS,
        },
      },
      ...documentationOnly,
      config: { requiresIdentity: true },
    },
    async (request, reply) => {
      const { type } = request.params;
      request.authoriseDataset(type);
      request.authorise(CREDENTIALS_ROLE, 'Wallet offers need');
      const { format, walletSubjectId, txCode = false } = request.body;
      if (txCode && context.config.authorizationServer) {
        throw badRequest(
          "Invalid body member 'txCode': offers exchanged at an external authorization server (GOV.UK " +
            "Wallet's) take no transaction code",
        );
      }
      const id = Number(request.params.id.replace(/^0+(?=\d)/, ''));
      const identity = request.identity as Identity;
      const outcome = await storeUnavailable(() =>
        offerRegistration(
          context,
          {
            type,
            recordId: id,
            format,
            ...(walletSubjectId !== undefined ? { walletSubject: walletSubjectId } : {}),
            txCode,
            offeredBy: {
              username: identity.username,
              client: identity.client,
              groups: identity.groups,
              roles: identity.roles,
            },
          },
          {
            keys: context.keys,
            issuer: context.issuerUrl(),
            audience: context.authorizationServer(),
            clientId: context.config.clientId,
            offerUrl: context.config.offerUrl,
            ttlS: context.config.offerTtlS,
          },
        ),
      );
      if ('unknownFormat' in outcome)
        throw badRequest(`Invalid body member 'format': ${format} is not issued for ${type}`);
      if ('notFound' in outcome) throw notFound();
      if ('refused' in outcome) throw new ApiError(409, outcome.refused.code, outcome.refused.message);
      const { made } = outcome;
      await request.audited(1, refsOf(type, [id]), { dataset: type, operation: 'credential' });
      return reply
        .code(201)
        .send({ offer: made.link, ...(made.txCode ? { txCode: made.txCode } : {}), expiresAt: made.expiresAt });
    },
  );
}
