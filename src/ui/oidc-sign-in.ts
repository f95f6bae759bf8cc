/**
 * Caseworkers signing in at an OpenID Connect issuer: the authorisation-code flow with PKCE,
 * through openid-client. The pages then call the API with the caseworker's own access token, so
 * the API checks it, applies its roles and audits the caseworker, exactly as for any caller.
 *
 * @see https://openid.net/specs/openid-connect-core-1_0.html#CodeFlowAuth
 * @see https://www.rfc-editor.org/rfc/rfc7636 (PKCE)
 *
 * The issuer must put the API's audience (OIDC_AUDIENCE) in the access tokens it gives the pages'
 * client: Keycloak does that with an audience mapper on the client.
 */
import { decodeJwt, type JWTPayload } from 'jose';
import type * as OpenId from 'openid-client';
import { identityFromClaims } from '../auth/oidc.ts';
import type { UiSignInConfig } from '../config/ui.ts';
import type { SessionTokens, SessionUser } from './sessions.ts';

/** What the callback is checked against: kept in the session between the redirect and the return. */
interface PendingSignIn {
  readonly state: string;
  readonly nonce: string;
  readonly verifier: string;
}

export interface OidcSignIn {
  /** The issuer's origin: where the sign-in and sign-out forms lead (the CSP's form-action). */
  readonly origin: string;
  /** Where to send the caseworker to sign in, and what to keep for the callback. */
  start(): Promise<{ url: string; pending: PendingSignIn }>;
  /**
   * The caseworker and their tokens, from the issuer's answer (the callback's query); throws SignInError when
   * it does not check out.
   */
  finish(answer: URLSearchParams, pending: PendingSignIn): Promise<{ user: SessionUser; tokens: SessionTokens }>;
  /** New tokens from the refresh token; undefined when there is none, or the issuer no longer honours it. */
  refresh(tokens: SessionTokens): Promise<SessionTokens | undefined>;
  /**
   * The issuer's own sign-out page (RP-initiated logout), when it has one; it sends the caseworker back to
   * the sign-in page.
   */
  signOutUrl(tokens: SessionTokens | undefined): Promise<string | undefined>;
}

/** The sign-in failed for a reason the issuer or the caseworker's browser gave, not a fault of ours. */
export class SignInError extends Error {
  override name = 'SignInError';
  constructor(
    readonly code: string,
    options?: ErrorOptions,
  ) {
    super(`sign-in did not complete: ${code}`, options);
  }
}

/** openid-client, imported by the process that signs caseworkers in, when it first does: the mock's never does. */
let loaded: Promise<typeof OpenId> | undefined;
const openIdClient = () => (loaded ??= import('openid-client'));

function tokensOf(
  answer: OpenId.TokenEndpointResponse & OpenId.TokenEndpointResponseHelpers,
  previous?: SessionTokens,
): SessionTokens {
  const expiresIn = answer.expiresIn();
  return {
    access: answer.access_token,
    // Without expires_in the token's own exp, else a minute: the API refuses it when it has expired anyway.
    expiresAt:
      expiresIn !== undefined ? Date.now() + expiresIn * 1000 : (expiryOf(answer.access_token) ?? Date.now() + 60_000),
    refresh: answer.refresh_token ?? previous?.refresh,
    idToken: answer.id_token ?? previous?.idToken,
  };
}

const claimsOf = (jwt: string): JWTPayload | undefined => {
  try {
    return decodeJwt(jwt);
  } catch {
    return undefined;
  }
};

const expiryOf = (jwt: string) => {
  const exp = claimsOf(jwt)?.exp;
  return typeof exp === 'number' ? exp * 1000 : undefined;
};

export function createOidcSignIn(config: UiSignInConfig): OidcSignIn {
  const issuer = new URL(config.issuer);
  let discovered: Promise<OpenId.Configuration> | undefined;
  // Discovered when first needed, and again after a failure: the issuer may be down when the pages start.
  const configuration = () =>
    (discovered ??= openIdClient()
      .then((client) =>
        client.discovery(issuer, config.clientId, undefined, client.ClientSecretBasic(config.clientSecret), {
          // An http:// issuer is only ever a development one; the configuration refuses nothing else.
          execute: issuer.protocol === 'http:' ? [client.allowInsecureRequests] : [],
          timeout: 10,
        }),
      )
      .catch((error: unknown) => {
        discovered = undefined;
        throw error;
      }));

  /**
   * Who signed in: the API reads the same claims of the same access token, so the pages show what
   * the API will allow. Read without checking the signature, which is the API's to check; the ID
   * token (checked by openid-client) stands in when the access token is not a JWT.
   */
  const userOf = (tokens: SessionTokens, idClaims: JWTPayload | undefined): SessionUser => {
    const claims = claimsOf(tokens.access) ?? idClaims ?? {};
    const identity = identityFromClaims({ azp: config.clientId, ...claims }, config.claims);
    return { username: identity.username, roles: identity.roles };
  };

  return {
    origin: issuer.origin,

    async start() {
      const oidc = await configuration();
      const client = await openIdClient();
      const pending = {
        state: client.randomState(),
        nonce: client.randomNonce(),
        verifier: client.randomPKCECodeVerifier(),
      };
      const parameters = {
        redirect_uri: config.redirectUri,
        scope: config.scope,
        state: pending.state,
        nonce: pending.nonce,
        code_challenge: await client.calculatePKCECodeChallenge(pending.verifier),
        code_challenge_method: 'S256',
      };
      return { url: client.buildAuthorizationUrl(oidc, parameters).href, pending };
    },

    async finish(query, pending) {
      const error = query.get('error');
      // The issuer's own refusal (the caseworker cancelled, say): a code of the spec's short list, safe to log.
      if (error) throw new SignInError(/^[a-z_]{1,64}$/.test(error) ? error : 'issuer_error');
      const oidc = await configuration();
      const client = await openIdClient();
      // The address the issuer sent the caseworker to, as registered: openid-client sends it as redirect_uri.
      const callbackUrl = new URL(config.redirectUri);
      callbackUrl.search = query.toString();
      let answer;
      try {
        answer = await client.authorizationCodeGrant(oidc, callbackUrl, {
          pkceCodeVerifier: pending.verifier,
          expectedState: pending.state,
          expectedNonce: pending.nonce,
          idTokenExpected: true,
        });
      } catch (cause) {
        // The token endpoint's OAuth error code (invalid_grant, say) when it gave one: a code of the spec's
        // list, never personal.
        const { error: oauthError, code } = cause as { error?: unknown; code?: string };
        throw new SignInError(
          typeof oauthError === 'string' && /^[a-z_]{1,64}$/.test(oauthError)
            ? oauthError
            : (code ?? 'token_request_failed'),
          { cause },
        );
      }
      const tokens = tokensOf(answer);
      try {
        return { user: userOf(tokens, answer.claims()), tokens };
      } catch (cause) {
        // A token that names no one (no username claim): the issuer's set-up, which the log then names.
        throw new SignInError('no_username_claim', { cause });
      }
    },

    async refresh(tokens) {
      if (!tokens.refresh) return undefined;
      try {
        const client = await openIdClient();
        const answer = await client.refreshTokenGrant(await configuration(), tokens.refresh);
        return tokensOf(answer, tokens);
      } catch {
        return undefined;
      }
    },

    async signOutUrl(tokens) {
      let oidc;
      try {
        oidc = await configuration();
      } catch {
        return undefined;
      }
      if (!oidc.serverMetadata().end_session_endpoint) return undefined;
      const parameters: Record<string, string> = {
        client_id: config.clientId,
        post_logout_redirect_uri: new URL('/ui/sign-in', config.redirectUri).href,
      };
      if (tokens?.idToken) parameters.id_token_hint = tokens.idToken;
      return (await openIdClient()).buildEndSessionUrl(oidc, parameters).href;
    },
  };
}
