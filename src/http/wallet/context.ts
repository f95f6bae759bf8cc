/**
 * What the wallet routes share (plugin.ts builds it once): the record types as credentials render
 * them, the formats, the stores, the keys and how access tokens are checked.
 */
import type { FastifyRequest } from 'fastify';
import type { JWTVerifyGetKey } from 'jose';
import type { WalletConfig } from '../../config/wallet.ts';
import type { compileClaims } from '../../credentials/claims.ts';
import type { FormatRegistry } from '../../credentials/formats/index.ts';
import type { IssuerKeys } from '../../credentials/keys.ts';
import { invalidToken } from '../../credentials/openid4vci/errors.ts';
import {
  OWN_ACCESS_TOKEN_TYP,
  type VerifiedAccessToken,
  verifyAccessToken,
} from '../../credentials/openid4vci/tokens.ts';
import type { CompiledView } from '../../render/view.ts';
import type { CredentialStatuses } from '../../model/credentials.ts';
import type { RecordReader } from '../../model/store.ts';
import type { OfferState, WalletStore } from '../../model/wallet.ts';
import { storeUnavailable } from '../route-config.ts';

export interface WalletContext {
  readonly config: WalletConfig;
  readonly views: ReadonlyMap<string, CompiledView>;
  readonly claimsOf: ReadonlyMap<string, ReturnType<typeof compileClaims>>;
  readonly registry: FormatRegistry;
  readonly records: RecordReader;
  readonly statuses: CredentialStatuses;
  readonly wallet: WalletStore;
  readonly keys: IssuerKeys;
  readonly issuerUrl: () => string;
  /** The authorization server: the external one, or this issuer. */
  readonly authorizationServer: () => string;
  /** The key set access tokens are checked with: this service's own, or the external server's. */
  readonly tokenKeys: JWTVerifyGetKey;
}

/**
 * The access token of the request's Authorization header, checked, and the offer it names; a 401
 * invalid_token otherwise.
 */
export async function authorisedOffer(
  context: WalletContext,
  request: FastifyRequest,
): Promise<{ token: VerifiedAccessToken; state: OfferState }> {
  const header = request.headers.authorization;
  const bearer = header && /^Bearer ([A-Za-z0-9._~+/-]+=*)$/i.exec(header)?.[1];
  if (!bearer) throw invalidToken('A bearer access token is required');
  const external = context.config.authorizationServer;
  const token = await verifyAccessToken(bearer, {
    keys: context.tokenKeys,
    tokenIssuer: external ?? context.issuerUrl(),
    audience: context.issuerUrl(),
    ...(external ? {} : { typ: OWN_ACCESS_TOKEN_TYP }),
  });
  if ('problem' in token) throw invalidToken(token.problem);
  const state = await storeUnavailable(() => context.wallet.offer(token.offerId));
  if (!state) throw invalidToken('The access token names no offer of this issuer');
  // The holder signed in to the wallet must be the one the department offered the credential to.
  if (state.offer.walletSubject !== undefined && token.subject !== state.offer.walletSubject)
    throw invalidToken('The access token is for another wallet subject');
  return { token, state };
}
