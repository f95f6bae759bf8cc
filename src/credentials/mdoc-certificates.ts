/**
 * The mdoc trust chain (ISO/IEC 18013-5 Annex B): an IACA root certificate, self-signed, which the
 * service publishes at /.well-known/iacas and verifiers trust; and a document-signer (DS)
 * certificate the IACA issues, whose key signs every mdoc's Mobile Security Object. Both are made
 * with `@peculiar/x509` over Node's WebCrypto, with the profile's extensions: the IACA a CA of path
 * length 0 that signs certificates and CRLs and names its issuer (issuerAltName); the DS a leaf
 * for digital signatures of the mdoc extended key usage (1.0.18013.5.1.2). Without configured ones
 * (the mock) the process makes both at start, as it does the issuer key.
 */
import {
  type KeyObject,
  X509Certificate as NodeCertificate,
  createPublicKey,
  generateKeyPairSync,
  webcrypto,
} from 'node:crypto';
import { whenNeeded } from '../when-needed.ts';
import { MDOC_DS_EKU, checkDocumentSigner } from '../config/mdoc-chain.ts';

// Loaded when a chain is first made: the mock makes its own only when a wallet format first needs it.
const peculiar = whenNeeded<typeof import('@peculiar/x509')>('@peculiar/x509');

const ECDSA = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const crypto = webcrypto as unknown as Crypto;

/** The document signer as an mdoc is signed with it. */
export interface DocumentSigner {
  readonly privateKey: KeyObject;
  /** The DS certificate, DER: the mdoc's x5chain. */
  readonly certificate: Uint8Array;
  /** Every published IACA certificate, DER, the one that issued the DS first. */
  readonly iacas: readonly Uint8Array[];
  /** Whether the process made the chain itself at start (nothing configured). */
  readonly madeAtStart: boolean;
}

export interface CertificateNames {
  /** The organisation named in the subject (O). */
  readonly organisation?: string;
  /** Where the issuer is reached: the IACA's issuerAltName (a URI). */
  readonly issuerUrl?: string;
}

const DEFAULT_ORGANISATION = 'General Register Office';

async function cryptoKeys(privateKey: KeyObject): Promise<CryptoKeyPair> {
  const der = privateKey.export({ format: 'der', type: 'pkcs8' });
  const spki = createPublicKey(privateKey).export({ format: 'der', type: 'spki' });
  return {
    privateKey: await crypto.subtle.importKey('pkcs8', der, ECDSA, false, ['sign']),
    publicKey: await crypto.subtle.importKey('spki', spki, ECDSA, true, ['verify']),
  };
}

/** A new P-256 key: the only curve both IACA and DS use here (ES256, what wallets verify most widely). */
export const newMdocKey = (): KeyObject => generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;

/** A random positive serial number of 16 bytes (RFC 5280 allows 20; the top bit cleared keeps it positive). */
function serialNumber(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[0] &= 0x7f;
  bytes[0] |= 0x01;
  return Buffer.from(bytes).toString('hex');
}

const DAY_MS = 86_400_000;
const escapeDn = (value: string) => value.replace(/([,+"\\<>;=])/g, '\\$1');

/** A self-signed IACA certificate for the key, valid `days` from now. */
export async function makeIaca(
  key: KeyObject,
  days: number,
  names: CertificateNames = {},
  now = new Date(),
): Promise<Uint8Array> {
  const x509 = peculiar();
  const keys = await cryptoKeys(key);
  const organisation = escapeDn(names.organisation ?? DEFAULT_ORGANISATION);
  const certificate = await x509.X509CertificateGenerator.createSelfSigned(
    {
      serialNumber: serialNumber(),
      name: `C=GB, O=${organisation}, CN=${organisation} IACA`,
      notBefore: now,
      notAfter: new Date(now.getTime() + days * DAY_MS),
      signingAlgorithm: ECDSA,
      keys,
      extensions: [
        new x509.BasicConstraintsExtension(true, 0, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
        await x509.SubjectKeyIdentifierExtension.create(keys.publicKey, false, crypto),
        ...(names.issuerUrl
          ? [new x509.IssuerAlternativeNameExtension([{ type: 'url', value: names.issuerUrl }], false)]
          : []),
      ],
    },
    crypto,
  );
  return new Uint8Array(certificate.rawData);
}

/**
 * A DS certificate for `dsKey`, issued by the IACA (its key and certificate), valid `days` from now and never
 * past the IACA.
 */
export async function makeDocumentSigner(
  dsKey: KeyObject,
  iaca: { readonly key: KeyObject; readonly certificate: Uint8Array },
  days: number,
  names: CertificateNames = {},
  now = new Date(),
): Promise<Uint8Array> {
  const x509 = peculiar();
  const issuer = new x509.X509Certificate(Uint8Array.from(iaca.certificate));
  const ds = await cryptoKeys(dsKey);
  const signer = await cryptoKeys(iaca.key);
  const organisation = escapeDn(names.organisation ?? DEFAULT_ORGANISATION);
  const notAfter = new Date(Math.min(now.getTime() + days * DAY_MS, issuer.notAfter.getTime()));
  const certificate = await x509.X509CertificateGenerator.create(
    {
      serialNumber: serialNumber(),
      subject: `C=GB, O=${organisation}, CN=${organisation} Document Signer`,
      issuer: issuer.subjectName,
      notBefore: now,
      notAfter,
      signingAlgorithm: ECDSA,
      publicKey: ds.publicKey,
      signingKey: signer.privateKey,
      extensions: [
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
        new x509.ExtendedKeyUsageExtension([MDOC_DS_EKU], true),
        await x509.AuthorityKeyIdentifierExtension.create(signer.publicKey, false, crypto),
        await x509.SubjectKeyIdentifierExtension.create(ds.publicKey, false, crypto),
        ...(names.issuerUrl
          ? [new x509.IssuerAlternativeNameExtension([{ type: 'url', value: names.issuerUrl }], false)]
          : []),
      ],
    },
    crypto,
  );
  return new Uint8Array(certificate.rawData);
}

/** A chain made (or checked) once, at its first use: `documentSigner` deferred, as the formats and routes take it. */
export function documentSignerWhenNeeded(...args: Parameters<typeof documentSigner>): () => Promise<DocumentSigner> {
  let made: Promise<DocumentSigner> | undefined;
  return () => (made ??= documentSigner(...args));
}

/** The configured chain, checked; or, when none is, one made now (an IACA of 10 years, a DS of 1). */
export async function documentSigner(
  configured:
    | { readonly privateKey: KeyObject; readonly certificate: Uint8Array; readonly iacas: readonly Uint8Array[] }
    | undefined,
  names: CertificateNames = {},
): Promise<DocumentSigner> {
  if (configured) {
    checkDocumentSigner(configured.privateKey, configured.certificate, configured.iacas);
    // The IACA that issued the DS first: a verifier given only the first finds the chain.
    const ds = new NodeCertificate(configured.certificate);
    const iacas = [...configured.iacas].sort(
      (a, b) => Number(ds.checkIssued(new NodeCertificate(b))) - Number(ds.checkIssued(new NodeCertificate(a))),
    );
    return { ...configured, iacas, madeAtStart: false };
  }
  const iacaKey = newMdocKey();
  const iaca = await makeIaca(iacaKey, 3650, names);
  const privateKey = newMdocKey();
  const certificate = await makeDocumentSigner(privateKey, { key: iacaKey, certificate: iaca }, 365, names);
  return { privateKey, certificate, iacas: [iaca], madeAtStart: true };
}

/** A DER certificate as PEM. */
export const certificatePem = (der: Uint8Array) =>
  '-----BEGIN CERTIFICATE-----\n' +
  `${Buffer.from(der).toString('base64').replace(/.{64}/g, '$&\n').replace(/\n$/, '')}\n-----END CERTIFICATE-----\n`;
