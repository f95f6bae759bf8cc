/**
 * A real OpenID provider on loopback for the authentication tests: the
 * `oidc-provider` package, serving discovery, its JWKS and a token endpoint
 * with the client_credentials grant (client id and secret). Its access tokens
 * are JWTs for the audience `lev-api`, carrying Keycloak's claims.
 *
 * The tests also sign tokens themselves with the issuer's keys (`sign`), to
 * make the ones the provider would never issue: expired, not yet valid, for
 * another audience, and so on. `rotate()` publishes a new signing key, as an
 * issuer rotating its keys does; `down` makes every request fail with 503.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
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
}

export const CLIENTS: Record<string, TestClient> = {
  verifier: { secret: 'verifier-secret-0123456789', realmRoles: ['birth', 'death', 'offline_access'], groups: ['/dept/team'] },
  marriages: { secret: 'marriages-secret-0123456789', clientRoles: ['marriage', 'full-details'] },
  everything: { secret: 'everything-secret-0123456789', realmRoles: ['birth', 'death', 'marriage', 'partnership', 'full-details'] },
  auditor: { secret: 'auditor-secret-0123456789', realmRoles: ['audit'] },
  nobody: { secret: 'nobody-secret-0123456789' },
};

interface SigningKey {
  readonly kid: string;
  readonly privateKey: CryptoKey;
  readonly privateJwk: JWK;
  readonly publicJwk: JWK;
}

export async function newKey(kid: string): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  const meta = { kid, alg: 'RS256', use: 'sig' };
  return { kid, privateKey, privateJwk: { ...(await exportJWK(privateKey)), ...meta }, publicJwk: { ...(await exportJWK(publicKey)), ...meta } };
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
  async findByUid() {
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

function provider(issuer: string, keys: readonly SigningKey[]) {
  return new Provider(issuer, {
    adapter: MemoryAdapter,
    clients: Object.entries(CLIENTS).map(([id, client]) => ({
      client_id: id,
      client_secret: client.secret,
      grant_types: ['client_credentials'],
      redirect_uris: [],
      response_types: [],
      token_endpoint_auth_method: 'client_secret_basic',
    })),
    // The first key signs; the rest are still published (a rotation's overlap).
    jwks: { keys: keys.map((key) => key.privateJwk) as never },
    ttl: { ClientCredentials: 300 },
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => `urn:${AUDIENCE}`,
        useGrantedResource: () => true,
        getResourceServerInfo: () => ({
          scope: 'verify',
          audience: AUDIENCE,
          accessTokenFormat: 'jwt',
          accessTokenTTL: 300,
          jwt: { sign: { alg: 'RS256' } },
        }),
      },
    },
    // What Keycloak puts in a service account's access token.
    extraTokenClaims: (_ctx, token) => {
      const clientId = (token as { clientId?: string }).clientId ?? '';
      const client = CLIENTS[clientId];
      return {
        azp: clientId,
        preferred_username: `service-account-${clientId}`,
        ...(client?.realmRoles ? { realm_access: { roles: [...client.realmRoles] } } : {}),
        ...(client?.clientRoles ? { resource_access: { [AUDIENCE]: { roles: [...client.clientRoles] }, account: { roles: ['view-profile'] } } } : {}),
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
  /** An access token from the token endpoint (client_credentials, client_secret_basic). */
  token(clientId: string, secret?: string): Promise<string>;
  /** A token signed here; `claims` add to or (undefined) remove from a valid service-account token's. */
  sign(claims?: Record<string, unknown>, options?: { key?: SigningKey; header?: Record<string, unknown> }): Promise<string>;
  /** Publishes a new key, which signs from now on; the old ones stay published. */
  rotate(): Promise<SigningKey>;
  close(): Promise<void>;
}

export async function startIssuer(): Promise<TestIssuer> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let keys = [await newKey('key-1')];
  let handler = provider(url, keys).callback();
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
    down: false,
    async token(clientId, secret = CLIENTS[clientId]?.secret) {
      const response = await fetch(`${url}/token`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: 'grant_type=client_credentials&scope=verify',
      });
      const body = (await response.json()) as { access_token?: string };
      if (!response.ok || !body.access_token) throw new Error(`token endpoint answered ${response.status}: ${JSON.stringify(body)}`);
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
      return new SignJWT(payload as JWTPayload).setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid: key.kid, ...header }).sign(key.privateKey);
    },
    async rotate() {
      keys = [await newKey(`key-${keys.length + 1}`), ...keys];
      handler = provider(url, keys).callback();
      return keys[0];
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  server.on('request', (request, response) => {
    const path = (request.url ?? '').split('?')[0];
    requests.set(path, (requests.get(path) ?? 0) + 1);
    if (issuer.down) {
      response.writeHead(503).end();
      return;
    }
    handler(request, response);
  });
  return issuer;
}
