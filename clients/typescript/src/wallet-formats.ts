/**
 * Verifying the service's wallet formats offline, as verifyCredential does an SD-JWT VC: an mdoc
 * (`mso_mdoc`, base64url of an ISO 18013-5 IssuerSigned) with `@owf/mdoc` against the IACAs the
 * issuer publishes at /.well-known/iacas, and a W3C JWT VC (`jwt_vc_json`) against the issuer's
 * did:web document; each then asked of the token status list it points into. Only issuers the caller
 * trusts are believed, over HTTPS unless it allows plain HTTP (the mock). The holder's key each names
 * is given back: proving possession of it is the presentation's part, not the credential's.
 */
import { X509Certificate, createHash, createPublicKey, randomBytes, verify, type JsonWebKey } from 'node:crypto';
import type { IssuerSigned, MdocContext } from '@owf/mdoc';

// Imported by the first mdoc verified: a client that checks none (the pages' own) never loads it.
let mdocLibrary: Promise<typeof import('@owf/mdoc')> | undefined;
const owfMdoc = () => (mdocLibrary ??= import('@owf/mdoc'));
import { getListFromStatusListJWT } from '@sd-jwt/jwt-status-list';
import { CredentialVerificationError } from './credentials.ts';

export interface VerifyWalletCredentialOptions {
  /** The issuer URLs believed, e.g. https://lev-api.example.gov.uk. */
  readonly trustedIssuers: readonly string[];
  /** Whether an http:// issuer may be believed: only for the mock. */
  readonly allowHttp?: boolean;
  /** The time to verify at (default now). */
  readonly now?: Date;
  readonly fetch?: typeof fetch;
}

export interface VerifiedWalletCredential {
  readonly format: 'mso_mdoc' | 'jwt_vc_json';
  readonly issuer: string;
  readonly recordType: string;
  /** The record's claims: for an mdoc its data elements by identifier, for a JWT VC the credential subject. */
  readonly claims: Record<string, unknown>;
  /** The key the credential is bound to (the mdoc's device key, the JWT VC's did:key subject). */
  readonly holder: JsonWebKey | string;
  readonly issuedAt: Date;
  readonly expiresAt: Date;
  /** Whether the registration still stands as the credential says: its status list entry is 0. */
  readonly stands: boolean;
}

const fail = (message: string): never => {
  throw new CredentialVerificationError(message);
};

const trustedIssuer = (url: string, options: VerifyWalletCredentialOptions): string => {
  const issuer =
    options.trustedIssuers.find((trusted) => url === trusted || url.startsWith(`${trusted}/`)) ??
    fail(`${url} is not under an issuer trusted here`);
  if (!issuer.startsWith('https://') && !(options.allowHttp && issuer.startsWith('http://')))
    fail(`its issuer ${issuer} is not an HTTPS URL`);
  return issuer;
};

async function fetchJson<T>(url: string, fetchFn: typeof fetch, what: string): Promise<T> {
  const response = await fetchFn(url);
  if (!response.ok) fail(`${what} could not be fetched (HTTP ${response.status})`);
  return (await response.json()) as T;
}

const verifyJws = (jwk: JsonWebKey, data: string, signature: string) =>
  verify(
    jwk.kty === 'OKP' ? null : 'sha256',
    Buffer.from(data),
    { key: createPublicKey({ key: jwk, format: 'jwk' }), dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  );
const jsonPart = (jwt: string, part: 0 | 1): Record<string, unknown> =>
  JSON.parse(Buffer.from(jwt.split('.')[part] ?? '', 'base64url').toString('utf8'));

/**
 * The entry of a token status list (its JWT form, signed by a key the issuer publishes): 0 where the
 * credential stands.
 */
async function statusOf(issuer: string, reference: unknown, fetchFn: typeof fetch): Promise<number> {
  const { idx, uri } = ((reference as { status_list?: { idx?: unknown; uri?: unknown } } | undefined)?.status_list ??
    {}) as { idx?: unknown; uri?: unknown };
  if (typeof idx !== 'number' || typeof uri !== 'string') return fail('it carries no status list entry');
  if (!uri.startsWith(`${issuer}/`)) fail(`its status list ${uri} is not the issuer's`);
  const response = await fetchFn(uri, { headers: { accept: 'application/statuslist+jwt' } });
  if (!response.ok) fail(`its status list could not be fetched (HTTP ${response.status})`);
  const token = (await response.text()).trim();
  const { jwks } = await fetchJson<{ jwks?: { keys?: (JsonWebKey & { kid?: string })[] } }>(
    `${issuer}/.well-known/jwt-vc-issuer`,
    fetchFn,
    "the issuer's keys",
  );
  const key =
    jwks?.keys?.find((k) => k.kid === jsonPart(token, 0).kid) ??
    fail('its status list is signed with a key the issuer does not publish');
  const [header, payload, signature] = token.split('.');
  if (!verifyJws(key, `${header}.${payload}`, signature ?? '')) fail('its status list is not signed by the issuer');
  return getListFromStatusListJWT(token).getStatus(idx);
}

/** What `@owf/mdoc` needs to verify, from node:crypto: the chain to the trusted IACAs, signatures, digests. */
const verifyingContext = ({ CoseKey }: typeof import('@owf/mdoc')): Pick<MdocContext, 'cose' | 'x509' | 'crypto'> => ({
  crypto: {
    random: (length) => randomBytes(length),
    digest: ({ digestAlgorithm, bytes }) =>
      createHash(digestAlgorithm.replace('-', '').toLowerCase()).update(bytes).digest(),
    calculateEphemeralMacKey: () => fail('a MAC key is not used in verifying an IssuerSigned'),
  },
  cose: {
    sign1: {
      sign: () => fail('signing is not verifying'),
      verify: ({ key, sign1 }) =>
        verify(
          'sha256',
          sign1.toBeSigned,
          { key: createPublicKey({ key: key.jwk as JsonWebKey, format: 'jwk' }), dsaEncoding: 'ieee-p1363' },
          sign1.signature,
        ),
    },
    mac0: { sign: () => fail('no MAC'), verify: () => fail('no MAC') },
  },
  x509: {
    getIssuerNameField: ({ certificate, field }) =>
      new X509Certificate(certificate).issuer
        .split('\n')
        .filter((line) => line.startsWith(`${field}=`))
        .map((line) => line.slice(field.length + 1)),
    getPublicKey: ({ certificate }) =>
      CoseKey.fromJwk(new X509Certificate(certificate).publicKey.export({ format: 'jwk' }) as Record<string, unknown>),
    verifyCertificateChain: ({ trustedCertificates, x5chain, now = new Date() }) => {
      const chain = x5chain.map((der) => new X509Certificate(der));
      const roots = trustedCertificates.map((der) => new X509Certificate(der));
      const inForce = (certificate: X509Certificate) =>
        new Date(certificate.validFrom) <= now && now <= new Date(certificate.validTo);
      chain.forEach((certificate, i) => {
        if (!inForce(certificate)) fail(`certificate ${i + 1} of the chain is not in force`);
        const next = chain[i + 1];
        if (next && !(certificate.checkIssued(next) && certificate.verify(next.publicKey)))
          fail(`certificate ${i + 1} of the chain is not issued by the next`);
      });
      const last = chain[chain.length - 1] ?? fail('the mdoc names no certificate');
      const root = roots.find(
        (candidate) => last.checkIssued(candidate) && last.verify(candidate.publicKey) && inForce(candidate),
      );
      if (!root) fail("its document signer's chain leads to no IACA the issuer publishes");
    },
    getCertificateData: ({ certificate }) => {
      const parsed = new X509Certificate(certificate);
      return {
        issuerName: parsed.issuer,
        subjectName: parsed.subject,
        serialNumber: parsed.serialNumber,
        thumbprint: parsed.fingerprint256,
        notBefore: new Date(parsed.validFrom),
        notAfter: new Date(parsed.validTo),
        pem: parsed.toString(),
      };
    },
  },
});

/**
 * Verifies an mdoc as the service issues it (OpenID4VCI's credential string); throws
 * CredentialVerificationError when it is not genuine.
 */
export async function verifyMdoc(
  credential: string,
  options: VerifyWalletCredentialOptions,
): Promise<VerifiedWalletCredential> {
  const fetchFn = options.fetch ?? fetch;
  const mdoc = await owfMdoc();
  let issuerSigned: IssuerSigned;
  try {
    issuerSigned = mdoc.IssuerSigned.fromEncodedForOid4Vci(credential.trim());
  } catch {
    return fail('it is not an mdoc (base64url of an ISO 18013-5 IssuerSigned)');
  }
  const mso = issuerSigned.issuerAuth.mobileSecurityObject;
  const status = (mso.decodedStructure as unknown as { get(key: string): unknown }).get('status');
  const statusList =
    status instanceof Map
      ? Object.fromEntries([...status].map(([k, v]) => [k, v instanceof Map ? Object.fromEntries(v) : v]))
      : status;
  const uri = (statusList as { status_list?: { uri?: unknown } } | undefined)?.status_list?.uri;
  const issuer = trustedIssuer(typeof uri === 'string' ? uri : fail('it carries no status list entry'), options);
  const { iacas } = await fetchJson<{ iacas?: { certificate?: string }[] }>(
    `${issuer}/.well-known/iacas`,
    fetchFn,
    "the issuer's IACAs",
  );
  const trustedCertificates = (iacas ?? []).map(
    ({ certificate }) => new Uint8Array(Buffer.from(certificate ?? '', 'base64')),
  );
  const failed: string[] = [];
  try {
    await issuerSigned.verify(
      {
        trustedCertificates,
        now: options.now ?? new Date(),
        verificationCallback: (check) => void (check.status === 'FAILED' && failed.push(check.reason ?? check.check)),
      },
      verifyingContext(mdoc),
    );
  } catch (error) {
    if (error instanceof CredentialVerificationError) throw error;
    failed.push((error as Error).message);
  }
  if (failed.length) fail(`it is not genuine: ${failed.join('; ')}`);
  const namespace = mso.docType;
  const claims = Object.fromEntries(
    (issuerSigned.getIssuerNamespace(namespace) ?? []).map((item) => [item.elementIdentifier, item.elementValue]),
  );
  const recordType =
    /^uk\.gov\.gro\.([a-z][a-z0-9-]*)\.1$/.exec(namespace)?.[1] ??
    fail(`its doctype ${namespace} is not one of the service's`);
  return {
    format: 'mso_mdoc',
    issuer,
    recordType,
    claims,
    holder: mso.deviceKeyInfo.deviceKey.jwk as JsonWebKey,
    issuedAt: mso.validityInfo.signed,
    expiresAt: mso.validityInfo.validUntil,
    stands: (await statusOf(issuer, statusList, fetchFn)) === 0,
  };
}

/** The issuer URL a did:web names, and where its document is (did:web method, section 3.2). */
function didWebDocument(did: string, options: VerifyWalletCredentialOptions): { issuer: string; url: string } {
  const [method, kind, host, ...path] = did.split(':');
  if (method !== 'did' || kind !== 'web' || !host) return fail(`its issuer ${did} is not a did:web`);
  const base = `${decodeURIComponent(host)}${path.length ? `/${path.map(decodeURIComponent).join('/')}` : ''}`;
  const issuer =
    options.trustedIssuers.find((trusted) => trusted.replace(/^https?:\/\//, '') === base) ??
    fail(`its issuer ${did} is not one trusted here`);
  trustedIssuer(issuer, options);
  return { issuer, url: path.length ? `${issuer}/did.json` : `${issuer}/.well-known/did.json` };
}

/**
 * Verifies a W3C JWT VC as the service issues it (jwt_vc_json); throws CredentialVerificationError when it is
 * not genuine.
 */
export async function verifyJwtVc(
  credential: string,
  options: VerifyWalletCredentialOptions,
): Promise<VerifiedWalletCredential> {
  const fetchFn = options.fetch ?? fetch;
  const jwt = credential.trim();
  if (!/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(jwt)) fail('it is not a JWT');
  let header: Record<string, unknown>;
  let payload: Record<string, unknown>;
  try {
    header = jsonPart(jwt, 0);
    payload = jsonPart(jwt, 1);
  } catch {
    return fail('its JWT cannot be read');
  }
  if (header.typ !== 'vc+jwt') fail(`its typ is ${JSON.stringify(header.typ)}, not vc+jwt`);
  if (header.alg !== 'ES256' && header.alg !== 'EdDSA')
    fail(`its algorithm ${JSON.stringify(header.alg)} is not ES256 or EdDSA`);
  const kid = typeof header.kid === 'string' ? header.kid : fail('its header names no key');
  const did = kid.split('#')[0];
  if (payload.iss !== did || payload.issuer !== did) fail('its issuer is not the DID its key belongs to');
  const { issuer, url } = didWebDocument(did, options);
  const document = await fetchJson<{
    id?: string;
    verificationMethod?: { id: string; publicKeyJwk: JsonWebKey }[];
    assertionMethod?: string[];
  }>(url, fetchFn, "the issuer's DID document");
  if (document.id !== did) fail(`the DID document is ${JSON.stringify(document.id)}, not ${did}`);
  const method = document.verificationMethod?.find((m) => m.id === kid);
  if (!method || !document.assertionMethod?.includes(kid))
    fail('it is signed with a key the issuer does not publish for issuing');
  const [h, p, signature] = jwt.split('.');
  if (!verifyJws((method as { publicKeyJwk: JsonWebKey }).publicKeyJwk, `${h}.${p}`, signature))
    fail("its signature is not the issuer's");
  const now = (options.now ?? new Date()).getTime() / 1000;
  if (typeof payload.exp !== 'number' || payload.exp <= now) fail('it has expired');
  if (typeof payload.nbf === 'number' && payload.nbf > now + 30) fail('it is not yet valid');
  const types = Array.isArray(payload.type) ? (payload.type as string[]) : [];
  const recordType =
    types.map((type) => /^([A-Z][A-Za-z0-9]*)RegistrationCredential$/.exec(type)?.[1]).find(Boolean) ??
    fail('it is not a registration credential');
  const { id: holder, ...claims } = (payload.credentialSubject ?? {}) as Record<string, unknown>;
  return {
    format: 'jwt_vc_json',
    issuer,
    recordType: recordType.toLowerCase(),
    claims,
    holder: typeof holder === 'string' ? holder : fail('it names no holder'),
    issuedAt: new Date(Number(payload.iat) * 1000),
    expiresAt: new Date((payload.exp as number) * 1000),
    stands: (await statusOf(issuer, payload.status, fetchFn)) === 0,
  };
}
