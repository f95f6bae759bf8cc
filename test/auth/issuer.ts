/**
 * A real OpenID provider on loopback for the authentication tests: the
 * `oidc-provider` package, serving discovery, its JWKS and a token endpoint
 * with the client_credentials grant (client id and secret). Its access tokens
 * are JWTs for the audience `lev-api`, carrying Keycloak's claims.
 *
 * With `mtls` (a server certificate), it also serves the same endpoints over
 * HTTPS asking for a client certificate (RFC 8705's mutual-TLS endpoint): a
 * token from there for a client registered with
 * tls_client_certificate_bound_access_tokens (here `bound`) carries
 * `cnf["x5t#S256"]`, the thumbprint of the certificate presented.
 *
 * Run directly (`node --import tsx test/auth/issuer.ts --port 9000
 * [--mtls-port 9443 --tls-cert issuer.pem --tls-key issuer.key]`) it stays up,
 * for trying the README's walkthrough on one machine.
 *
 * The tests also sign tokens themselves with the issuer's keys (`sign`), to
 * make the ones the provider would never issue: expired, not yet valid, for
 * another audience, and so on. `rotate()` publishes a new signing key, as an
 * issuer rotating its keys does; `down` makes every request fail with 503.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { parseArgs } from 'node:util';
import { type CryptoKey, type JWK, type JWTPayload, SignJWT, exportJWK, generateKeyPair } from 'jose';
import Provider, { type Adapter, type AdapterPayload } from 'oidc-provider';

export const AUDIENCE = 'lev-api';

export interface TestClient {
  readonly secret: string;
  /** Realm roles (realm_access.roles). */
  readonly realmRoles?: readonly string[];
  /** Roles of the lev-api client (resource_access['lev-api'].roles). */
  readonly clientRoles?: readonly string[];
  readonly groups?: readonly string[];
  /** Registered with tls_client_certificate_bound_access_tokens: its tokens from the mTLS endpoint are bound. */
  readonly certificateBound?: boolean;
}

export const CLIENTS: Record<string, TestClient> = {
  verifier: {
    secret: 'verifier-secret-0123456789',
    realmRoles: ['birth', 'death', 'offline_access'],
    groups: ['/dept/team'],
  },
  marriages: { secret: 'marriages-secret-0123456789', clientRoles: ['marriage', 'full-details'] },
  everything: {
    secret: 'everything-secret-0123456789',
    realmRoles: ['birth', 'death', 'marriage', 'partnership', 'full-details'],
  },
  auditor: { secret: 'auditor-secret-0123456789', realmRoles: ['audit'] },
  nobody: { secret: 'nobody-secret-0123456789' },
  bound: { secret: 'bound-secret-0123456789', realmRoles: ['birth', 'death'], certificateBound: true },
};

/** Caseworkers who sign in to the pages (the authorisation-code flow), by username, with their realm roles. */
export const CASEWORKERS: Record<string, readonly string[]> = {
  'eleanor.checker': ['birth', 'full-details', 'audit'],
  'vera.verifier': ['birth-verify'],
};

/** The pages' client at the issuer. */
export const PAGES_CLIENT = { id: 'lev-ui', secret: 'lev-ui-secret-0123456789' } as const;

export interface PagesRegistration {
  /** The pages' callback, registered as the client's one redirect URI. */
  readonly redirectUri: string;
  /** Seconds the caseworkers' access tokens live (300 by default). */
  readonly accessTokenTtl?: number;
}

interface SigningKey {
  readonly kid: string;
  readonly privateKey: CryptoKey;
  readonly privateJwk: JWK;
  readonly publicJwk: JWK;
}

export async function newKey(kid: string): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  const meta = { kid, alg: 'RS256', use: 'sig' };
  return {
    kid,
    privateKey,
    privateJwk: { ...(await exportJWK(privateKey)), ...meta },
    publicJwk: { ...(await exportJWK(publicKey)), ...meta },
  };
}

/** oidc-provider's storage: in memory (its built-in one says so on every start). */
const stores = new Map<string, Map<string, AdapterPayload>>();
class MemoryAdapter implements Adapter {
  private readonly items: Map<string, AdapterPayload>;
  constructor(name: string) {
    this.items = stores.get(name) ?? new Map();
    stores.set(name, this.items);
  }
  async upsert(id: string, payload: AdapterPayload) {
    this.items.set(id, payload);
  }
  async find(id: string) {
    return this.items.get(id);
  }
  async findByUserCode() {
    return undefined;
  }
  async findByUid(uid: string) {
    // Sessions, which an authorisation code is bound to, are looked up by their uid.
    for (const item of this.items.values()) if (item.uid === uid) return item;
    return undefined;
  }
  async consume(id: string) {
    const item = this.items.get(id);
    if (item) item.consumed = Math.floor(Date.now() / 1000);
  }
  async destroy(id: string) {
    this.items.delete(id);
  }
  async revokeByGrantId() {}
}

function provider(issuer: string, keys: readonly SigningKey[], pages?: PagesRegistration) {
  return new Provider(issuer, {
    adapter: MemoryAdapter,
    clients: [
      ...Object.entries(CLIENTS).map(([id, client]) => ({
        client_id: id,
        client_secret: client.secret,
        grant_types: ['client_credentials'],
        redirect_uris: [],
        response_types: [],
        token_endpoint_auth_method: 'client_secret_basic' as const,
        tls_client_certificate_bound_access_tokens: client.certificateBound ?? false,
      })),
      ...(pages
        ? [
            {
              client_id: PAGES_CLIENT.id,
              client_secret: PAGES_CLIENT.secret,
              grant_types: ['authorization_code', 'refresh_token'],
              response_types: ['code' as const],
              redirect_uris: [pages.redirectUri],
              post_logout_redirect_uris: [new URL('/ui/sign-in', pages.redirectUri).href],
              token_endpoint_auth_method: 'client_secret_basic' as const,
            },
          ]
        : []),
    ],
    // Caseworkers: any username of CASEWORKERS signs in with any password (oidc-provider's development login form).
    findAccount: (_ctx, id) =>
      Object.hasOwn(CASEWORKERS, id)
        ? { accountId: id, claims: () => ({ sub: id, preferred_username: id }) }
        : undefined,
    // The pages are the service's own: no consent screen, as a department's issuer would set it up.
    loadExistingGrant: async (ctx) => {
      const { client, session } = ctx.oidc;
      if (!client || !session?.accountId) return undefined;
      const existing = session.grantIdFor(client.clientId);
      if (existing) return ctx.oidc.provider.Grant.find(existing);
      const grant = new ctx.oidc.provider.Grant({ clientId: client.clientId, accountId: session.accountId });
      grant.addOIDCScope('openid');
      grant.addResourceScope(`urn:${AUDIENCE}`, 'verify');
      await grant.save();
      return grant;
    },
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    // The first key signs; the rest are still published (a rotation's overlap).
    jwks: { keys: keys.map((key) => key.privateJwk) as never },
    ttl: {
      ClientCredentials: 300,
      Session: 3600,
      Interaction: 600,
      Grant: 3600,
      AuthorizationCode: 60,
      RefreshToken: 3600,
      IdToken: 300,
    },
    // Signs its interaction cookies (none in the client_credentials grant); without keys it warns at every start.
    cookies: { keys: ['test-issuer-cookie-key'] },
    features: {
      devInteractions: { enabled: Boolean(pages) },
      rpInitiatedLogout: { enabled: true },
      clientCredentials: { enabled: true },
      mTLS: {
        enabled: true,
        certificateBoundAccessTokens: true,
        // The certificate of the TLS connection itself (the mTLS listener); none over plain HTTP.
        getCertificate: (ctx) => (ctx.req.socket as Partial<TLSSocket>).getPeerX509Certificate?.() as never,
      },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => `urn:${AUDIENCE}`,
        useGrantedResource: () => true,
        getResourceServerInfo: () => ({
          scope: 'verify',
          audience: AUDIENCE,
          accessTokenFormat: 'jwt',
          accessTokenTTL: pages?.accessTokenTtl ?? 300,
          jwt: { sign: { alg: 'RS256' } },
        }),
      },
    },
    // What Keycloak puts in a service account's access token.
    extraTokenClaims: (_ctx, token) => {
      const clientId = (token as { clientId?: string }).clientId ?? '';
      // A caseworker's token (the authorisation-code flow): their own username and roles.
      const accountId = (token as { accountId?: string }).accountId;
      if (accountId)
        return {
          azp: clientId,
          preferred_username: accountId,
          realm_access: { roles: [...(CASEWORKERS[accountId] ?? [])] },
        };
      const client = CLIENTS[clientId];
      return {
        azp: clientId,
        preferred_username: `service-account-${clientId}`,
        ...(client?.realmRoles ? { realm_access: { roles: [...client.realmRoles] } } : {}),
        ...(client?.clientRoles
          ? {
              resource_access: { [AUDIENCE]: { roles: [...client.clientRoles] }, account: { roles: ['view-profile'] } },
            }
          : {}),
        ...(client?.groups ? { groups: [...client.groups] } : {}),
      };
    },
  });
}

export interface TestIssuer {
  /** The issuer identifier (also where discovery is). */
  readonly url: string;
  /** The key that signs now; `keys` are all those published. */
  readonly signingKey: SigningKey;
  readonly keys: readonly SigningKey[];
  /** Requests per path since the start (`/.well-known/openid-configuration`, `/jwks`, `/token`). */
  readonly requests: Map<string, number>;
  /** When true, every request is answered 503 (the issuer is down). */
  down: boolean;
  /** The mutual-TLS endpoint's base URL (`${mtlsUrl}/token`), when started with `mtls`. */
  readonly mtlsUrl?: string;
  /**
   * An access token from the token endpoint (client_credentials, client_secret_basic); with `tls`,
   * from the mTLS endpoint, presenting that client certificate (`ca` checks the issuer's).
   */
  token(clientId: string, secret?: string, tls?: { cert: Buffer; key: Buffer; ca: Buffer }): Promise<string>;
  /** A token signed here; `claims` add to or (undefined) remove from a valid service-account token's. */
  sign(
    claims?: Record<string, unknown>,
    options?: { key?: SigningKey; header?: Record<string, unknown> },
  ): Promise<string>;
  /** Publishes a new key, which signs from now on; the old ones stay published. */
  rotate(): Promise<SigningKey>;
  close(): Promise<void>;
}

export interface IssuerOptions {
  readonly port?: number;
  /** Also serve over HTTPS with this certificate, asking clients for theirs (any; the binding needs no CA). */
  readonly mtls?: { readonly cert: Buffer; readonly key: Buffer; readonly port?: number };
  /** Register the pages' client (authorisation code with PKCE, refresh tokens) and let CASEWORKERS sign in. */
  readonly pages?: PagesRegistration;
}

/** POSTs a client_credentials token request over HTTPS with a client certificate. */
function mtlsTokenRequest(
  url: string,
  authorization: string,
  tls: { cert: Buffer; key: Buffer; ca: Buffer },
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = https.request(
      url,
      {
        method: 'POST',
        ...tls,
        agent: false,
        headers: { authorization, 'content-type': 'application/x-www-form-urlencoded' },
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    request.on('error', reject);
    request.end('grant_type=client_credentials&scope=verify');
  });
}

export async function startIssuer({ port = 0, mtls, pages }: IssuerOptions = {}): Promise<TestIssuer> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const mtlsServer = mtls
    ? https.createServer({ cert: mtls.cert, key: mtls.key, requestCert: true, rejectUnauthorized: false })
    : undefined;
  if (mtlsServer) await new Promise<void>((resolve) => mtlsServer.listen(mtls?.port ?? 0, '127.0.0.1', resolve));
  const mtlsUrl = mtlsServer ? `https://127.0.0.1:${(mtlsServer.address() as AddressInfo).port}` : undefined;
  let keys = [await newKey('key-1')];
  let handler = provider(url, keys, pages).callback();
  const requests = new Map<string, number>();
  const issuer: TestIssuer = {
    url,
    get signingKey() {
      return keys[0];
    },
    get keys() {
      return keys;
    },
    requests,
    mtlsUrl,
    down: false,
    async token(clientId, secret = CLIENTS[clientId]?.secret, tls) {
      const authorization = `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`;
      if (tls) {
        if (!mtlsUrl) throw new Error('the issuer was started without mtls');
        const { status, body } = await mtlsTokenRequest(`${mtlsUrl}/token`, authorization, tls);
        const token = (JSON.parse(body) as { access_token?: string }).access_token;
        if (status !== 200 || !token) throw new Error(`mTLS token endpoint answered ${status}: ${body}`);
        return token;
      }
      const response = await fetch(`${url}/token`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: 'grant_type=client_credentials&scope=verify',
      });
      const body = (await response.json()) as { access_token?: string };
      if (!response.ok || !body.access_token)
        throw new Error(`token endpoint answered ${response.status}: ${JSON.stringify(body)}`);
      return body.access_token;
    },
    async sign(claims = {}, { key = keys[0], header = {} } = {}) {
      const now = Math.floor(Date.now() / 1000);
      const payload: Record<string, unknown> = {
        iss: url,
        aud: AUDIENCE,
        sub: 'verifier',
        azp: 'verifier',
        preferred_username: 'service-account-verifier',
        realm_access: { roles: ['birth', 'death'] },
        iat: now,
        exp: now + 300,
        jti: `${now}-${Math.random()}`,
        ...claims,
      };
      for (const [name, value] of Object.entries(payload)) if (value === undefined) delete payload[name];
      return new SignJWT(payload as JWTPayload)
        .setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid: key.kid, ...header })
        .sign(key.privateKey);
    },
    async rotate() {
      keys = [await newKey(`key-${keys.length + 1}`), ...keys];
      handler = provider(url, keys, pages).callback();
      return keys[0];
    },
    close: async () => {
      for (const listening of [server, mtlsServer]) {
        if (!listening) continue;
        listening.closeAllConnections();
        await new Promise<void>((resolve) => listening.close(() => resolve()));
      }
    },
  };
  const handle = (request: http.IncomingMessage, response: http.ServerResponse) => {
    const path = (request.url ?? '').split('?')[0];
    requests.set(path, (requests.get(path) ?? 0) + 1);
    if (issuer.down) {
      response.writeHead(503).end();
      return;
    }
    handler(request, response);
  };
  server.on('request', handle);
  mtlsServer?.on('request', handle);
  return issuer;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '9000' },
      'mtls-port': { type: 'string', default: '9443' },
      'tls-cert': { type: 'string' },
      'tls-key': { type: 'string' },
    },
  });
  const mtls =
    values['tls-cert'] && values['tls-key']
      ? {
          cert: readFileSync(values['tls-cert']),
          key: readFileSync(values['tls-key']),
          port: Number(values['mtls-port']),
        }
      : undefined;
  const issuer = await startIssuer({ port: Number(values.port), mtls });
  console.log(`issuer ${issuer.url}${issuer.mtlsUrl ? `; mutual-TLS token endpoint ${issuer.mtlsUrl}/token` : ''}`);
  console.log(
    `clients: ${Object.entries(CLIENTS)
      .map(([id, client]) => `${id}:${client.secret}`)
      .join(' ')}`,
  );
}
