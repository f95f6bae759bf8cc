/**
 * The wallet pick-up over OpenID4VCI 1.0 (docs/wallets.md), as one named plugin owning its wiring:
 * the issuer metadata and key set, a department's offers, the service's own authorization server
 * (unless WALLET_AUTHORIZATION_SERVER names an external one), and the nonce, credential and
 * notification endpoints a wallet calls. The protocol's errors answer in its own shape
 * (`error`, `error_description`) beside the service's (`code`, `message`).
 */
import formbody from '@fastify/formbody';
import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { WalletConfig } from '../../config/wallet.ts';
import { compileClaims } from '../../credentials/claims.ts';
import type { CredentialFormat } from '../../credentials/formats/format.ts';
import { formatRegistry, walletFormats } from '../../credentials/formats/index.ts';
import type { IssuerKeys } from '../../credentials/keys.ts';
import type { DocumentSigner } from '../../credentials/mdoc-certificates.ts';
import {
  OAuthError,
  invalidCredentialRequest,
  invalidNotificationRequest,
  invalidRequest,
} from '../../credentials/openid4vci/errors.ts';
import { WALLET_PATHS, issuerMetadata } from '../../credentials/openid4vci/metadata.ts';
import { ownKeySet, remoteKeySet } from '../../credentials/openid4vci/tokens.ts';
import type { CompiledView } from '../../render/view.ts';
import type { CredentialStatuses } from '../../model/credentials.ts';
import type { RecordReader } from '../../model/store.ts';
import type { WalletStore } from '../../model/wallet.ts';
import { UNREADABLE, answer, documentationOnly } from '../documentation.ts';
import type { WalletContext } from '../wallet/context.ts';
import { credentialRoutes } from '../wallet/credential-routes.ts';
import { offerRoute } from '../wallet/offer-route.ts';
import { tokenRoutes } from '../wallet/token-routes.ts';

export interface WalletPluginOptions {
  readonly config: WalletConfig;
  readonly views: readonly CompiledView[];
  readonly records: RecordReader;
  readonly statuses: CredentialStatuses;
  readonly wallet: WalletStore;
  readonly keys: IssuerKeys;
  /** A credential's validity, for the formats made here. */
  readonly validityS: number;
  /** The mdoc's document signer, made or checked at its first use. */
  readonly signer: () => Promise<DocumentSigner>;
  /** The formats issued; by default every one `walletFormats` lists. */
  readonly formats?: readonly CredentialFormat[];
  readonly issuerUrl: () => string;
  /** What a format adds to the issuer metadata (the mdoc's `mdoc_iacas_uri`). */
  readonly metadataExtra?: (issuer: string) => Record<string, unknown>;
}

/** The protocol's error a malformed request gets at each endpoint, where the parser or a schema refused it. */
const MALFORMED: Partial<Record<string, (message: string) => OAuthError>> = {
  [WALLET_PATHS.token]: invalidRequest,
  [WALLET_PATHS.credential]: invalidCredentialRequest,
  [WALLET_PATHS.notification]: invalidNotificationRequest,
};

async function walletRoutes(app: FastifyInstance, options: WalletPluginOptions) {
  const { config, keys, issuerUrl } = options;
  const views = new Map(options.views.filter((view) => view.version === 'v1').map((view) => [view.record.name, view]));
  const formats = options.formats ?? walletFormats({ keys, signer: options.signer, validityS: options.validityS });
  const context: WalletContext = {
    config,
    views,
    claimsOf: new Map(
      [...views].map(([type, view]) => [type, compileClaims(type, view.fields, view.record.blockedFlag)]),
    ),
    registry: formatRegistry(
      formats,
      [...views.values()].map((view) => view.record),
    ),
    records: options.records,
    statuses: options.statuses,
    wallet: options.wallet,
    keys,
    issuerUrl,
    authorizationServer: () => config.authorizationServer ?? issuerUrl(),
    tokenKeys: config.authorizationServer ? remoteKeySet(config.authorizationServer) : ownKeySet(keys),
  };

  await app.register(formbody);
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const malformed = MALFORMED[request.routeOptions.url ?? ''];
    const answer =
      error instanceof OAuthError
        ? error
        : malformed && error.statusCode === 400
          ? malformed(error.message)
          : undefined;
    // Anything else (a store that failed, the offer route's answers) is the service's error handler's.
    if (!answer) throw error;
    return reply.code(answer.status).headers(answer.headers).send(answer.body());
  });

  const publicDocument = { tags: ['wallets'], security: [] };
  app.get(
    WALLET_PATHS.issuerMetadata,
    {
      schema: {
        ...publicDocument,
        operationId: 'credentialIssuerMetadata',
        summary:
          "The credential issuer's metadata (OpenID4VCI 1.0 section 12.2): one configuration a record type " +
          'and format. Public.',
        response: { 200: answer('The credential issuer metadata', { type: 'object' }), 400: UNREADABLE },
      },
      ...documentationOnly,
      config: { cacheControl: 'public, max-age=300' },
    },
    async (_request, reply) => {
      const issuer = issuerUrl();
      const metadata = issuerMetadata({
        issuer,
        authorizationServer: context.authorizationServer(),
        registry: context.registry,
        extra: options.metadataExtra?.(issuer),
      });
      return reply.header('access-control-allow-origin', '*').send(metadata);
    },
  );
  app.get(
    WALLET_PATHS.jwks,
    {
      schema: {
        ...publicDocument,
        operationId: 'jwks',
        summary: 'The keys that sign pre-authorised codes, access tokens and credentials (a JWK set). Public.',
        response: { 200: answer('The JWK set', { type: 'object' }), 400: UNREADABLE },
      },
      ...documentationOnly,
      config: { cacheControl: 'public, max-age=300' },
    },
    async (_request, reply) =>
      reply.header('access-control-allow-origin', '*').send({ keys: keys.all.map((key) => key.publicJwk) }),
  );
  await offerRoute(app, context);
  if (!config.authorizationServer) await tokenRoutes(app, context);
  await credentialRoutes(app, context);
}

/** Registered once by the credentials plugin (plugins/credentials.ts), where digital certificates are issued. */
export const walletPlugin = fp(
  async (app: FastifyInstance, options: WalletPluginOptions) => app.register(walletRoutes, options),
  {
    name: 'lev-wallet',
    dependencies: ['lev-identity', 'lev-authorisation', 'lev-audit'],
  },
);
