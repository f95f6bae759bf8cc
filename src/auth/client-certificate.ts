/**
 * Client certificates (mutual TLS, TLS_CLIENT_CA). The TLS handshake itself
 * refuses a connection without a certificate, or with one not issued by a CA
 * of the bundle (or expired). A certificate that passes it must still keep the
 * on-boarding rules, checked here on the presented (leaf) certificate:
 *
 * - its validity period (notAfter - notBefore) is at most two years: 731 days,
 *   730 and the day a leap year adds;
 * - its key is RSA of at least 2048 bits, or elliptic-curve of at least 256
 *   (P-256, P-384, P-521, Ed25519, Ed448);
 * - it is signed with SHA-256 or stronger: a signature algorithm of the list
 *   below, never SHA-1, MD5 or SHA-224 (the algorithm is read from the
 *   certificate's DER: Node's X509Certificate does not give it).
 *
 * Each connection's certificate is looked at once (`presentedCertificate`,
 * cached per socket); its SHA-256 thumbprint is what a certificate-bound
 * token's `cnf["x5t#S256"]` must equal (RFC 8705).
 */
import { type X509Certificate, createHash } from 'node:crypto';
import type { TLSSocket } from 'node:tls';
import type { Certificate } from '@peculiar/asn1-x509';
import { whenNeeded } from '../when-needed.ts';

// Only a process that asks for client certificates reads them.
const asn1Rsa = whenNeeded<typeof import('@peculiar/asn1-rsa')>('@peculiar/asn1-rsa');
const asn1Schema = whenNeeded<typeof import('@peculiar/asn1-schema')>('@peculiar/asn1-schema');
const asn1X509 = whenNeeded<typeof import('@peculiar/asn1-x509')>('@peculiar/asn1-x509');

export const MAX_VALIDITY_DAYS = 731;
const MIN_RSA_BITS = 2048;
const MIN_EC_BITS = 256;

const DAY_MS = 86_400_000;

/** Signature algorithms accepted, by OID: SHA-256 or stronger. */
const STRONG_SIGNATURES = new Map([
  ['1.2.840.113549.1.1.11', 'sha256WithRSAEncryption'],
  ['1.2.840.113549.1.1.12', 'sha384WithRSAEncryption'],
  ['1.2.840.113549.1.1.13', 'sha512WithRSAEncryption'],
  ['1.2.840.10045.4.3.2', 'ecdsa-with-SHA256'],
  ['1.2.840.10045.4.3.3', 'ecdsa-with-SHA384'],
  ['1.2.840.10045.4.3.4', 'ecdsa-with-SHA512'],
  ['2.16.840.1.101.3.4.3.10', 'ecdsa-with-SHA3-256'],
  ['2.16.840.1.101.3.4.3.11', 'ecdsa-with-SHA3-384'],
  ['2.16.840.1.101.3.4.3.12', 'ecdsa-with-SHA3-512'],
  ['2.16.840.1.101.3.4.3.14', 'RSA-with-SHA3-256'],
  ['2.16.840.1.101.3.4.3.15', 'RSA-with-SHA3-384'],
  ['2.16.840.1.101.3.4.3.16', 'RSA-with-SHA3-512'],
  ['1.3.101.112', 'Ed25519'],
  ['1.3.101.113', 'Ed448'],
]);

const RSASSA_PSS = '1.2.840.113549.1.1.10';

/** Hashes accepted inside RSASSA-PSS parameters (whose default, when absent, is SHA-1). */
const STRONG_PSS_HASHES = new Map([
  ['2.16.840.1.101.3.4.2.1', 'SHA-256'],
  ['2.16.840.1.101.3.4.2.2', 'SHA-384'],
  ['2.16.840.1.101.3.4.2.3', 'SHA-512'],
  ['2.16.840.1.101.3.4.2.8', 'SHA3-256'],
  ['2.16.840.1.101.3.4.2.9', 'SHA3-384'],
  ['2.16.840.1.101.3.4.2.10', 'SHA3-512'],
]);

/** Names of weak algorithms, only to say plainly which one a refused certificate used. */
const WEAK_NAMES = new Map([
  ['1.2.840.113549.1.1.2', 'md2WithRSAEncryption'],
  ['1.2.840.113549.1.1.4', 'md5WithRSAEncryption'],
  ['1.2.840.113549.1.1.5', 'sha1WithRSAEncryption'],
  ['1.3.14.3.2.29', 'sha1WithRSASignature'],
  ['1.2.840.113549.1.1.14', 'sha224WithRSAEncryption'],
  ['1.2.840.10045.4.1', 'ecdsa-with-SHA1'],
  ['1.2.840.10045.4.3.1', 'ecdsa-with-SHA224'],
  ['1.2.840.10040.4.3', 'dsa-with-sha1'],
  ['1.3.14.3.2.26', 'SHA-1'],
  ['2.16.840.1.101.3.4.2.4', 'SHA-224'],
  ['1.2.840.113549.2.5', 'MD5'],
]);

type CertificateRule = 'validity-period' | 'key-size' | 'key-type' | 'signature-algorithm';

interface CertificateProblem {
  readonly rule: CertificateRule;
  /** What is wrong, for the log and the caller: no names, only sizes, periods and algorithms. */
  readonly detail: string;
}

interface PresentedCertificate {
  /** base64url SHA-256 of the DER: what a bound token's `cnf["x5t#S256"]` holds (RFC 8705 section 3.1). */
  readonly thumbprint: string;
  /** SHA-256 fingerprint, colon-separated hex as `openssl x509 -fingerprint -sha256` prints it: for the log. */
  readonly fingerprint: string;
  /** The first on-boarding rule the certificate breaks; undefined when it keeps them all. */
  readonly problem?: CertificateProblem;
}

/** The bits of an elliptic curve, from its name (prime256v1, secp384r1, secp521r1, brainpoolP512r1...). */
const curveBits = (name: string | undefined) => Number(/\d{3}/.exec(name ?? '')?.[0] ?? 0);

function keyProblem(certificate: X509Certificate): CertificateProblem | undefined {
  const key = certificate.publicKey;
  const details = key.asymmetricKeyDetails ?? {};
  switch (key.asymmetricKeyType) {
    case 'rsa':
    case 'rsa-pss': {
      const bits = details.modulusLength ?? 0;
      return bits >= MIN_RSA_BITS
        ? undefined
        : { rule: 'key-size', detail: `its RSA key has ${bits} bits; at least ${MIN_RSA_BITS} are needed` };
    }
    case 'ec': {
      const bits = curveBits(details.namedCurve);
      return bits >= MIN_EC_BITS
        ? undefined
        : {
            rule: 'key-size',
            detail:
              `its EC key (${details.namedCurve ?? 'unnamed curve'}) has ${bits || 'an unknown number of'} ` +
              `bits; at least ${MIN_EC_BITS} are needed`,
          };
    }
    case 'ed25519':
    case 'ed448':
      return undefined;
    default:
      return {
        rule: 'key-type',
        detail: `its key is of type ${key.asymmetricKeyType ?? 'unknown'}; RSA or EC keys are accepted`,
      };
  }
}

function signatureProblem(parsed: Certificate): CertificateProblem | undefined {
  const { algorithm, parameters } = parsed.signatureAlgorithm;
  const refuse = (name: string) => ({
    rule: 'signature-algorithm' as const,
    detail: `it is signed with ${name}; SHA-256 or stronger is needed`,
  });
  if (STRONG_SIGNATURES.has(algorithm)) return undefined;
  if (algorithm === RSASSA_PSS) {
    let hash = '1.3.14.3.2.26'; // RFC 4055: SHA-1 when the parameters do not say
    try {
      if (parameters)
        hash = asn1Schema().AsnConvert.parse(parameters, asn1Rsa().RsaSaPssParams).hashAlgorithm.algorithm;
    } catch {
      return refuse('RSASSA-PSS with unreadable parameters');
    }
    return STRONG_PSS_HASHES.has(hash) ? undefined : refuse(`RSASSA-PSS with ${WEAK_NAMES.get(hash) ?? hash}`);
  }
  return refuse(WEAK_NAMES.get(algorithm) ?? `an algorithm not accepted (${algorithm})`);
}

function validityProblem(parsed: Certificate): CertificateProblem | undefined {
  const { notBefore, notAfter } = parsed.tbsCertificate.validity;
  const days = (notAfter.getTime().getTime() - notBefore.getTime().getTime()) / DAY_MS;
  if (days <= MAX_VALIDITY_DAYS) return undefined;
  return {
    rule: 'validity-period',
    detail: `it is valid for ${Math.floor(days)} days; at most ${MAX_VALIDITY_DAYS} (two years) are accepted`,
  };
}

/** The first on-boarding rule the certificate breaks, or undefined. */
export function certificateProblem(certificate: X509Certificate): CertificateProblem | undefined {
  let parsed: Certificate;
  try {
    parsed = asn1Schema().AsnConvert.parse(certificate.raw, asn1X509().Certificate);
  } catch {
    return { rule: 'signature-algorithm', detail: 'its signature algorithm cannot be read' };
  }
  return validityProblem(parsed) ?? keyProblem(certificate) ?? signatureProblem(parsed);
}

/** base64url SHA-256 of the certificate's DER (RFC 8705 `x5t#S256`). */
export const certificateThumbprint = (certificate: X509Certificate) =>
  createHash('sha256').update(certificate.raw).digest('base64url');

function inspectCertificate(certificate: X509Certificate): PresentedCertificate {
  return {
    thumbprint: certificateThumbprint(certificate),
    fingerprint: certificate.fingerprint256,
    problem: certificateProblem(certificate),
  };
}

const seen = new WeakMap<object, PresentedCertificate | null>();

/**
 * The client certificate presented on a connection, inspected once per connection;
 * undefined on plain HTTP, or over TLS without client certificates.
 */
export function presentedCertificate(socket: object): PresentedCertificate | undefined {
  const known = seen.get(socket);
  if (known !== undefined) return known ?? undefined;
  let peer: X509Certificate | undefined;
  try {
    peer = (socket as Partial<TLSSocket>).getPeerX509Certificate?.();
  } catch {
    peer = undefined;
  }
  const presented = peer ? inspectCertificate(peer) : undefined;
  seen.set(socket, presented ?? null);
  return presented;
}
