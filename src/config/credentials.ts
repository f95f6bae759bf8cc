/**
 * The settings of digital certificates (docs/credentials.md): where the issuer is reached, the keys
 * that sign, how long a credential is valid and how long a status list may be cached. Read and
 * checked here, with the rest of the configuration, and passed in; nothing else reads them.
 */
import { type KeyObject, X509Certificate, createPrivateKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Type } from '@sinclair/typebox';
import { checkDocumentSigner } from './mdoc-chain.ts';
import { readSetting } from './pem.ts';
import type { EnvValues } from './read-env.ts';
import { opaque, type Settled } from './shape.ts';

export const Credentials = {
  CREDENTIAL_ISSUER_URL: Type.Optional(
    Type.String({
      pattern: '^https?://[^\\s?#]+[^/\\s?#]$',
      description:
        'The issuer of digital certificates, as relying parties reach it (https://, no trailing slash): ' +
        'credentials name it as `iss`, and their type and status list under it. Outside AUTH_MODE=mock it ' +
        'must be HTTPS, and without it no credential is issued; the mock uses the address it listens at (a ' +
        'wildcard address as localhost)',
    }),
  ),
  CREDENTIAL_SIGNING_KEY: Type.Optional(
    Type.String({
      minLength: 1,
      description:
        'Private key that signs digital certificates and status lists: P-256 (ES256) or Ed25519 (EdDSA), ' +
        'PKCS#8, PEM or its DER in base64. Without it or CREDENTIAL_KEY_FILE each process makes one at ' +
        'start, which verifiers only know from /.well-known/jwt-vc-issuer',
    }),
  ),
  CREDENTIAL_KEY_FILE: Type.Optional(
    Type.String({
      minLength: 1,
      description:
        "File of the issuer's keys (a JWK set of private keys, newest first) as 'lev-api credentials " +
        "rotate-key' writes it: the first signs, the rest are published so that credentials they signed " +
        'verify until they expire',
    }),
  ),
  CREDENTIAL_IACA_CERTIFICATES: Type.Optional(
    Type.String({
      minLength: 1,
      description:
        'The mdoc IACA root certificates published at /.well-known/iacas (PEM, or a file of them), the one ' +
        'that issued CREDENTIAL_DOCUMENT_SIGNER among them, earlier ones kept while mdocs their signers ' +
        "signed are valid; as 'lev-api credentials iaca' writes them. Given with " +
        'CREDENTIAL_DOCUMENT_SIGNER; without both, each process makes an IACA and a document signer at ' +
        'start',
    }),
  ),
  CREDENTIAL_DOCUMENT_SIGNER: Type.Optional(
    Type.String({
      minLength: 1,
      description:
        'The mdoc document signer: its P-256 private key (PKCS#8) and its certificate, which an IACA of ' +
        "CREDENTIAL_IACA_CERTIFICATES issued (PEM, or a file of both), as 'lev-api credentials " +
        "document-signer' writes them",
    }),
  ),
  CREDENTIAL_VALIDITY_DAYS: Type.Integer({
    minimum: 1,
    maximum: 3650,
    default: 365,
    description: 'Days a digital certificate is valid from its issue (its `exp`)',
  }),
  CREDENTIAL_STATUS_TTL_S: Type.Integer({
    minimum: 1,
    maximum: 86_400,
    default: 60,
    description:
      'Seconds a relying party may keep a status list before fetching it again (its `ttl`, and the ' +
      "answer's Cache-Control max-age)",
  }),
};

type CredentialValues = EnvValues<typeof Credentials> & { AUTH_MODE?: string };

export const CredentialsConfig = Type.Object({
  /** The issuer URL; absent in the mock (the address called), and then issuing is off outside it. */
  issuer: Type.Optional(Type.String()),
  /** The configured private keys, newest (signing) first; absent when the process makes one. */
  keys: Type.Optional(Type.Array(opaque<KeyObject>())),
  validityS: Type.Number(),
  statusTtlS: Type.Number(),
  /** The configured mdoc document signer and the IACAs; absent when the process makes them. */
  mdoc: Type.Optional(
    Type.Object({
      privateKey: opaque<KeyObject>(),
      certificate: opaque<Buffer>(),
      iacas: Type.Array(opaque<Buffer>()),
    }),
  ),
  /** Whether credentials are issued: always in the mock, elsewhere only with an issuer URL. */
  enabled: Type.Boolean(),
});
export type CredentialsConfig = Settled<typeof CredentialsConfig>;

/** The issuer algorithms: ES256 (P-256), what wallets support most widely, or EdDSA (Ed25519). */
export function issuerAlgorithm(key: KeyObject): 'ES256' | 'EdDSA' {
  if (key.asymmetricKeyType === 'ed25519') return 'EdDSA';
  if (key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1') return 'ES256';
  const curve = key.asymmetricKeyDetails?.namedCurve;
  throw new Error(
    `it is an ${key.asymmetricKeyType}${curve ? ` (${curve})` : ''} key, not P-256 (ES256) or Ed25519 (EdDSA)`,
  );
}

/** A private key from PEM or base64 DER (PKCS#8), checked to be one an issuer signs with. */
function parseIssuerKey(text: string): KeyObject {
  const key = text.includes('-----BEGIN')
    ? createPrivateKey(text)
    : createPrivateKey({ key: Buffer.from(text, 'base64'), format: 'der', type: 'pkcs8' });
  issuerAlgorithm(key);
  return key;
}

/** The private keys of a key file (a JWK set), newest first. */
export function readIssuerKeyFile(text: string): KeyObject[] {
  const parsed = JSON.parse(text) as { keys?: unknown };
  if (!Array.isArray(parsed.keys) || parsed.keys.length === 0)
    throw new Error('it holds no "keys" list of private JWKs');
  return parsed.keys.map((jwk, i) => {
    try {
      const key = createPrivateKey({ key: jwk as import('node:crypto').JsonWebKey, format: 'jwk' });
      issuerAlgorithm(key);
      return key;
    } catch (error) {
      throw new Error(`key ${i + 1}: ${(error as Error).message}`);
    }
  });
}

/** A setting's PEM: the value itself when it is PEM, else the file it names. */
const pemOf = (key: string, value: string, problems: string[]): string | undefined =>
  value.includes('-----BEGIN') ? value : readSetting(key, value, problems)?.toString('utf8');

const PEM_BLOCK = /-----BEGIN ([A-Z ]+)-----[\s\S]+?-----END \1-----/g;

/**
 * The mdoc document signer and IACAs, both or neither; read and parsed here, checked as a chain when the app
 * starts.
 */
function mdocOf(value: CredentialValues, problems: string[]): CredentialsConfig['mdoc'] {
  const { CREDENTIAL_IACA_CERTIFICATES: iacaSetting, CREDENTIAL_DOCUMENT_SIGNER: signerSetting } = value;
  if (!iacaSetting && !signerSetting) return undefined;
  if (!iacaSetting || !signerSetting) {
    problems.push(
      'CREDENTIAL_IACA_CERTIFICATES and CREDENTIAL_DOCUMENT_SIGNER go together: give both, or neither ' +
        '(each process then makes its own)',
    );
    return undefined;
  }
  const iacaPem = pemOf('CREDENTIAL_IACA_CERTIFICATES', iacaSetting, problems);
  const signerPem = pemOf('CREDENTIAL_DOCUMENT_SIGNER', signerSetting, problems);
  if (iacaPem === undefined || signerPem === undefined) return undefined;
  const iacas = (iacaPem.match(PEM_BLOCK) ?? []).filter((block) => block.includes('CERTIFICATE'));
  const blocks = signerPem.match(PEM_BLOCK) ?? [];
  const keyBlock = blocks.find((block) => block.includes('PRIVATE KEY'));
  const certificateBlock = blocks.find((block) => block.includes('CERTIFICATE'));
  try {
    if (!iacas.length) throw new Error('CREDENTIAL_IACA_CERTIFICATES holds no PEM certificate');
    if (!keyBlock || !certificateBlock)
      throw new Error('CREDENTIAL_DOCUMENT_SIGNER must hold a PEM private key and a PEM certificate');
    const privateKey = createPrivateKey(keyBlock);
    const der = (pem: string) => new X509Certificate(pem).raw;
    const mdoc = { privateKey, certificate: der(certificateBlock), iacas: iacas.map(der) };
    checkDocumentSigner(mdoc.privateKey, mdoc.certificate, mdoc.iacas);
    return mdoc;
  } catch (error) {
    problems.push(`mdoc document signer: ${(error as Error).message}`);
    return undefined;
  }
}

/** The credential settings; a plain-HTTP issuer outside the mock, or a key that is not an issuer's, is a problem. */
export function credentialsOf(value: CredentialValues, problems: string[]): CredentialsConfig {
  const mock = (value.AUTH_MODE ?? 'mock') === 'mock';
  const issuer = value.CREDENTIAL_ISSUER_URL;
  if (issuer && !mock && !issuer.startsWith('https://')) {
    problems.push(
      `CREDENTIAL_ISSUER_URL=${JSON.stringify(issuer)}: relying parties fetch keys and status lists from ` +
        'it, so outside AUTH_MODE=mock it must be https://',
    );
  }
  if (value.CREDENTIAL_SIGNING_KEY && value.CREDENTIAL_KEY_FILE)
    problems.push('CREDENTIAL_SIGNING_KEY and CREDENTIAL_KEY_FILE are both set: give the key one way');
  let keys: KeyObject[] | undefined;
  if (value.CREDENTIAL_SIGNING_KEY) {
    try {
      keys = [parseIssuerKey(value.CREDENTIAL_SIGNING_KEY)];
    } catch (error) {
      problems.push(
        'CREDENTIAL_SIGNING_KEY: not a P-256 or Ed25519 private key in PKCS#8 (PEM, or DER in base64): ' +
          `${(error as Error).message}`,
      );
    }
  } else if (value.CREDENTIAL_KEY_FILE) {
    try {
      keys = readIssuerKeyFile(readFileSync(value.CREDENTIAL_KEY_FILE, 'utf8'));
    } catch (error) {
      const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      problems.push(
        `CREDENTIAL_KEY_FILE=${JSON.stringify(value.CREDENTIAL_KEY_FILE)}: not a readable key file (${reason})`,
      );
    }
  }
  const mdoc = mdocOf(value, problems);
  return {
    ...(issuer ? { issuer } : {}),
    ...(keys ? { keys } : {}),
    ...(mdoc ? { mdoc } : {}),
    validityS: value.CREDENTIAL_VALIDITY_DAYS * 86_400,
    statusTtlS: value.CREDENTIAL_STATUS_TTL_S,
    enabled: mock || Boolean(issuer),
  };
}
