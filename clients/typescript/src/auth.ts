/**
 * Who a request is made as. An `Auth` sets the request's identity headers: the mock's headers
 * (for the mock, and behind a trusted proxy), or a bearer token from a function called for every
 * request, so tokens can be cached and renewed by whatever issues them.
 */
export type Auth = (headers: Headers) => void | Promise<void>;

export interface MockIdentity {
  readonly username: string;
  /** The calling service (the token audience the existing service's gateway set). */
  readonly client: string;
  readonly roles?: readonly string[];
  readonly groups?: readonly string[];
}

/** The mock's identity headers: anyone may claim anything there, so never for real data. */
export const mockAuth =
  ({ username, client, roles = [], groups = [] }: MockIdentity): Auth =>
  (headers) => {
    headers.set('x-auth-username', username);
    headers.set('x-auth-aud', client);
    if (roles.length) headers.set('x-auth-roles', roles.join(','));
    if (groups.length) headers.set('x-auth-groups', groups.join(','));
  };

/** `Authorization: Bearer <token>`, the token asked for anew for every request (cache it in `getToken`). */
export const bearerAuth =
  (getToken: () => string | Promise<string>): Auth =>
  async (headers) => {
    headers.set('authorization', `Bearer ${await getToken()}`);
  };

export interface ClientCredentialsOptions {
  /** The OIDC issuer: its token endpoint is read from `<issuer>/.well-known/openid-configuration`. */
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly scope?: string;
  /** Sent as `audience` (RFC 8707 `resource` is not used: most issuers of this kind read `audience`). */
  readonly audience?: string;
  /** Renew this long before the token expires (default 30 s). */
  readonly renewBeforeMs?: number;
  readonly fetch?: typeof fetch;
}

interface Held {
  readonly token: string;
  readonly renewAt: number;
}

/**
 * Access tokens by the OAuth 2.0 client-credentials grant, for `bearerAuth`: fetched when first
 * needed, kept until shortly before they expire, and fetched once however many requests wait.
 */
export function clientCredentials(options: ClientCredentialsOptions): () => Promise<string> {
  const { issuer, clientId, clientSecret, scope, audience, renewBeforeMs = 30_000, fetch: fetchFn = fetch } = options;
  let held: Held | undefined;
  let pending: Promise<Held> | undefined;
  let tokenEndpoint: string | undefined;

  const discover = async () => {
    const url = `${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;
    const response = await fetchFn(url);
    if (!response.ok) throw new Error(`OIDC discovery at ${url} answered ${response.status}`);
    const { token_endpoint: endpoint } = (await response.json()) as { token_endpoint?: unknown };
    if (typeof endpoint !== 'string') throw new Error(`OIDC discovery at ${url} names no token_endpoint`);
    return endpoint;
  };

  const fetchToken = async (): Promise<Held> => {
    tokenEndpoint ??= await discover();
    const body = new URLSearchParams({ grant_type: 'client_credentials' });
    if (scope) body.set('scope', scope);
    if (audience) body.set('audience', audience);
    const basic = Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString('base64');
    const response = await fetchFn(tokenEndpoint, {
      method: 'POST',
      headers: {
        authorization: `Basic ${basic}`,
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body,
    });
    const answer = (await response.json().catch(() => ({}))) as {
      access_token?: unknown;
      expires_in?: unknown;
      error?: unknown;
    };
    if (!response.ok || typeof answer.access_token !== 'string') {
      throw new Error(
        (
          `the token endpoint refused the client ` +
          `credentials: ${response.status} ${typeof answer.error === 'string' ? answer.error : ''}`
        ).trim(),
      );
    }
    const lifetimeMs = typeof answer.expires_in === 'number' ? answer.expires_in * 1000 : 60_000;
    return { token: answer.access_token, renewAt: Date.now() + Math.max(0, lifetimeMs - renewBeforeMs) };
  };

  return async () => {
    if (held && Date.now() < held.renewAt) return held.token;
    pending ??= fetchToken().finally(() => (pending = undefined));
    held = await pending;
    return held.token;
  };
}
