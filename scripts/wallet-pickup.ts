/**
 * The wallet pick-up against a running service, played by a wallet written from the OpenID4VCI 1.0
 * specification with `fetch` and `jose` alone, so a newcomer sees every request a wallet outside
 * makes: a department's offer, the issuer's and authorization server's metadata, the pre-authorised
 * code for an access token, a nonce, a proof of the wallet's key, the credential, and its check by
 * the typed client's verifier. It prints one line a step, claim names but no values.
 *
 *   npm start                                   (another terminal: the mock)
 *   npm run wallet:pickup -- [--url http://localhost:8080] [--id 123456789] [--type birth]
 *                            [--format dc+sd-jwt|mso_mdoc|jwt_vc_json] [--tx-code]
 *
 * Exits 0 when the credential is verified and bound to the wallet's key, 1 naming the step that failed.
 */
import { parseArgs } from 'node:util';
import { type JWK, SignJWT, calculateJwkThumbprint, exportJWK, generateKeyPair } from 'jose';
import { recordClaims, verifyCredential, verifyJwtVc, verifyMdoc } from '@lev-api/client';

const PRE_AUTHORIZED_GRANT = 'urn:ietf:params:oauth:grant-type:pre-authorized_code';

type Json = Record<string, any>;

class StepFailed extends Error {}

const { values: options } = parseArgs({
  options: {
    url: { type: 'string', default: 'http://localhost:8080' },
    id: { type: 'string', default: '123456789' },
    type: { type: 'string', default: 'birth' },
    format: { type: 'string', default: 'dc+sd-jwt' },
    'tx-code': { type: 'boolean', default: false },
  },
});
const base = options.url.replace(/\/+$/, '');

/** A step's line: its number, its name and what it got. */
let steps = 0;
const say = (name: string, line: string) => console.log(`${++steps} ${name.padEnd(10)} ${line}`);

/** A JSON request, whose failure names what was asked and what the server answered. */
async function call(what: string, url: string, init: RequestInit = {}): Promise<Json> {
  let response: Response;
  try {
    response = await fetch(url, init);
  } catch (error) {
    const cause = (error as Error).cause as { code?: string; message?: string } | undefined;
    const reason = cause?.code ?? cause?.message ?? (error as Error).message;
    throw new StepFailed(`${what}: cannot reach ${url} (${reason}); is the service running (npm start)?`);
  }
  const text = await response.text();
  if (!response.ok) throw new StepFailed(`${what}: HTTP ${response.status} ${text}`);
  try {
    return text === '' ? {} : (JSON.parse(text) as Json);
  } catch {
    throw new StepFailed(`${what}: the answer is not JSON`);
  }
}

/** A metadata document's URL (RFC 8414 section 3): the well-known name between the origin and the path. */
const wellKnown = (issuer: string, name: string) => {
  const url = new URL(issuer);
  return `${url.origin}/.well-known/${name}${url.pathname === '/' ? '' : url.pathname}`;
};

/** The did:key of a P-256 key, the holder a JWT VC names (multicodec p256-pub, compressed point, base58btc). */
function didKey(jwk: JWK): string {
  const x = Buffer.from(jwk.x as string, 'base64url');
  const y = Buffer.from(jwk.y as string, 'base64url');
  let n = BigInt(`0x${Buffer.concat([Buffer.from([0x80, 0x24, 0x02 | (y[y.length - 1] & 1)]), x]).toString('hex')}`);
  let digits = '';
  for (; n > 0n; n /= 58n)
    digits = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'[Number(n % 58n)] + digits;
  return `did:key:z${digits}`;
}

async function verify(format: string, credential: string, issuer: string) {
  const trust = { trustedIssuers: [issuer], allowHttp: issuer.startsWith('http://') };
  if (format === 'dc+sd-jwt') {
    // Freshly issued, not presented: key binding is the presentation's part.
    const verified = await verifyCredential(credential, { ...trust, requireKeyBinding: false });
    return {
      ...verified,
      claims: recordClaims(verified),
      holder: (verified.claims.cnf as { jwk?: JWK } | undefined)?.jwk,
    };
  }
  if (format === 'mso_mdoc') return verifyMdoc(credential, trust);
  if (format === 'jwt_vc_json') return verifyJwtVc(credential, trust);
  throw new StepFailed(`verify: no verifier for the format ${format}`);
}

async function pickUp() {
  const { type, id, format } = options;

  // 1. The department asks for an offer, as a caller with the credentials role and the dataset's.
  const offered = await call('offer', `${base}/v1/credentials/${type}/${id}/offer`, {
    method: 'POST',
    headers: {
      'x-auth-username': 'jo.bloggs',
      'x-auth-aud': 'my-service',
      'x-auth-roles': `credentials,${type}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify({ format, ...(options['tx-code'] ? { txCode: true } : {}) }),
  });
  const link = String(offered.offer);
  say('offer', `${link.slice(0, 60)}… (expires ${offered.expiresAt}${offered.txCode ? ', with a tx_code' : ''})`);

  // 2. The wallet opens the link: the offer by value, then the issuer's and authorization server's metadata.
  const encoded = new URL(link).searchParams.get('credential_offer');
  if (!encoded) throw new StepFailed('offer: the link holds no credential_offer');
  const offer = JSON.parse(encoded) as Json;
  const issuer = String(offer.credential_issuer);
  const [configurationId] = offer.credential_configuration_ids as string[];
  const grant = offer.grants?.[PRE_AUTHORIZED_GRANT];
  if (!grant?.['pre-authorized_code']) throw new StepFailed('offer: it holds no pre-authorised code');
  const metadata = await call('metadata', wellKnown(issuer, 'openid-credential-issuer'));
  if (metadata.credential_issuer !== issuer) throw new StepFailed(`metadata: it names ${metadata.credential_issuer}`);
  const configuration = metadata.credential_configurations_supported?.[configurationId];
  if (!configuration) throw new StepFailed(`metadata: no credential configuration ${configurationId}`);
  const authorizationServer = metadata.authorization_servers?.[0] ?? issuer;
  const server = await call('metadata', wellKnown(authorizationServer, 'oauth-authorization-server'));
  say('metadata', `issuer ${issuer}, configuration ${configurationId} (${configuration.format})`);

  // 3. The pre-authorised code (and the transaction code the holder was sent) for an access token.
  if (grant.tx_code && !offered.txCode) throw new StepFailed('token: the offer needs a tx_code and none was given');
  const token = await call('token', server.token_endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: PRE_AUTHORIZED_GRANT,
      'pre-authorized_code': grant['pre-authorized_code'],
      ...(grant.tx_code ? { tx_code: offered.txCode } : {}),
    }),
  });
  say('token', `${token.token_type} access token from ${server.token_endpoint}, ${token.expires_in} s`);

  // 4. A fresh nonce for the proof.
  const { c_nonce: nonce, c_nonce_expires_in: nonceTtl } = await call('nonce', metadata.nonce_endpoint, {
    method: 'POST',
  });
  say('nonce', `c_nonce from ${metadata.nonce_endpoint}, ${nonceTtl} s`);

  // 5. The wallet's own key, and a proof that it holds it: the nonce and the issuer signed with it.
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  const jwk = await exportJWK(publicKey);
  const proof = await new SignJWT({ nonce })
    .setProtectedHeader({ alg: 'ES256', typ: 'openid4vci-proof+jwt', jwk })
    .setAudience(issuer)
    .setIssuedAt()
    .sign(privateKey);
  say('proof', `openid4vci-proof+jwt, ES256 key ${await calculateJwkThumbprint(jwk)}`);

  // 6. The credential, bound to that key.
  const issued = await call('credential', metadata.credential_endpoint, {
    method: 'POST',
    headers: { authorization: `${token.token_type} ${token.access_token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ credential_configuration_id: configurationId, proofs: { jwt: [proof] } }),
  });
  const credential = issued.credentials?.[0]?.credential;
  if (typeof credential !== 'string') throw new StepFailed('credential: the answer holds no credential');
  say('credential', `${configuration.format}, ${credential.length} characters`);

  // 7. Its check, as a relying party makes it: signature, expiry, status, and the key it is bound to.
  let verified: Awaited<ReturnType<typeof verify>>;
  try {
    verified = await verify(configuration.format, credential, issuer);
  } catch (error) {
    throw error instanceof StepFailed ? error : new StepFailed(`verify: ${(error as Error).message}`);
  }
  const holder = verified.holder;
  const bound =
    typeof holder === 'string'
      ? holder.split('#')[0] === didKey(jwk)
      : holder !== undefined && holder.x === jwk.x && holder.y === jwk.y;
  if (!bound) throw new StepFailed("verify: the credential is not bound to the wallet's key");
  if (!verified.stands) throw new StepFailed('verify: the registration no longer stands (its status is revoked)');
  const names = [...new Set(Object.keys(verified.claims).map((name) => name.split('.')[0]))];
  say(
    'verified',
    `${verified.recordType} from ${verified.issuer}, stands, bound to the wallet's key, ` +
      `expires ${verified.expiresAt.toISOString().slice(0, 10)}; claims: ${names.join(', ')}`,
  );

  // The wallet tells the issuer it kept the credential.
  if (issued.notification_id && metadata.notification_endpoint) {
    await call('notification', metadata.notification_endpoint, {
      method: 'POST',
      headers: { authorization: `${token.token_type} ${token.access_token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ notification_id: issued.notification_id, event: 'credential_accepted' }),
    });
    say('accepted', `credential_accepted sent to ${metadata.notification_endpoint}`);
  }
}

try {
  await pickUp();
} catch (error) {
  console.error(error instanceof StepFailed ? `failed at ${error.message}` : `failed: ${(error as Error).message}`);
  process.exitCode = 1;
}
