/**
 * The settings of the wallet pick-up (OpenID4VCI, docs/wallets.md): where offers point, the client
 * identifier the pre-authorised code names, the authorization server wallets exchange it at, and
 * the limits on an offer. Read and checked here, with the rest of the configuration.
 */
import { Type } from '@sinclair/typebox';
import type { EnvValues } from './read-env.ts';
import type { Settled } from './shape.ts';

export const Wallet = {
  WALLET_OFFER_URL: Type.String({
    pattern: '^[a-z][a-z0-9+.-]*://[^\\s?#]*$',
    default: 'openid-credential-offer://',
    description:
      "What an offer's deep link starts with, before `?credential_offer=`: the OpenID4VCI scheme by " +
      "default; GOV.UK Wallet's is its /wallet/add page (https://mobile.account.gov.uk/wallet/add)",
  }),
  WALLET_CLIENT_ID: Type.String({
    pattern: '^\\S+$',
    default: 'lev-api',
    description:
      "The pre-authorised code's clientId claim: the client identifier GOV.UK One Login gave the service " +
      'at on-boarding',
  }),
  WALLET_AUTHORIZATION_SERVER: Type.Optional(
    Type.String({
      pattern: '^https?://[^\\s?#]+[^/\\s?#]$',
      description:
        "An external authorization server (GOV.UK One Login's token service): the pre-authorised code's " +
        "audience and the metadata's authorization_servers; access tokens are verified against " +
        "<url>/.well-known/jwks.json. Without it the service's own authorization server exchanges codes",
    }),
  ),
  WALLET_OFFER_TTL_S: Type.Integer({
    minimum: 30,
    maximum: 3600,
    default: 300,
    description: "Seconds an offer's pre-authorised code is valid (GOV.UK Wallet's are five minutes)",
  }),
  WALLET_TX_CODE_ATTEMPTS: Type.Integer({
    minimum: 1,
    maximum: 20,
    default: 5,
    description: 'Wrong transaction codes an offer survives: at this many it dies, and the department makes a new one',
  }),
};

export const WalletConfig = Type.Object({
  offerUrl: Type.String(),
  clientId: Type.String(),
  /** The external authorization server; absent when the service's own exchanges codes. */
  authorizationServer: Type.Optional(Type.String()),
  offerTtlS: Type.Number(),
  txCodeAttempts: Type.Number(),
});
export type WalletConfig = Settled<typeof WalletConfig>;

export function walletOf(value: EnvValues<typeof Wallet> & { AUTH_MODE?: string }, problems: string[]): WalletConfig {
  const server = value.WALLET_AUTHORIZATION_SERVER;
  if (server && (value.AUTH_MODE ?? 'mock') !== 'mock' && !server.startsWith('https://')) {
    problems.push(
      `WALLET_AUTHORIZATION_SERVER=${JSON.stringify(server)}: its keys vouch for every access token, so ` +
        'outside AUTH_MODE=mock it must be https://',
    );
  }
  return {
    offerUrl: value.WALLET_OFFER_URL,
    clientId: value.WALLET_CLIENT_ID,
    ...(server ? { authorizationServer: server } : {}),
    offerTtlS: value.WALLET_OFFER_TTL_S,
    txCodeAttempts: value.WALLET_TX_CODE_ATTEMPTS,
  };
}
