/**
 * The files and keys settings name: read when the configuration is loaded, so that a bad file is
 * a configuration problem at start rather than a failure at the first connection.
 */
import { type KeyObject, X509Certificate, createPrivateKey } from 'node:crypto';
import { readFileSync } from 'node:fs';

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** Reads a file a setting names; undefined (and a problem) when it cannot be read. */
export function readSetting(key: string, path: string, problems: string[]): Buffer | undefined {
  try {
    return readFileSync(path);
  } catch (error) {
    problems.push(
      `${key}=${JSON.stringify(path)}: the file cannot be read ` +
        `(${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    );
    return undefined;
  }
}

/** The PEM certificates in a file, each parsed; a problem when there is none or one does not parse. */
export function certificatesIn(key: string, path: string, pem: Buffer, problems: string[]): X509Certificate[] {
  const blocks = pem.toString('latin1').match(PEM_CERTIFICATE) ?? [];
  if (!blocks.length)
    problems.push(`${key}=${JSON.stringify(path)}: the file holds no PEM certificate (-----BEGIN CERTIFICATE-----)`);
  const certificates: X509Certificate[] = [];
  for (const [index, block] of blocks.entries()) {
    try {
      certificates.push(new X509Certificate(block));
    } catch {
      problems.push(`${key}=${JSON.stringify(path)}: certificate ${index + 1} of the file cannot be read`);
    }
  }
  return certificates;
}

/** A file of CA certificates as text, its first certificate parsed; undefined (and a problem) when it is not one. */
export function caFileText(key: string, path: string, problems: string[]): string | undefined {
  try {
    const ca = readFileSync(path, 'utf8');
    new X509Certificate(ca);
    return ca;
  } catch (error) {
    problems.push(`${key}=${JSON.stringify(path)}: not a readable PEM certificate file (${(error as Error).message})`);
    return undefined;
  }
}

/** An Ed25519 private key from PKCS#8: PEM, or its DER in base64 (one line, for an environment variable). */
export function parseSigningKey(text: string): KeyObject {
  const key = text.includes('-----BEGIN')
    ? createPrivateKey(text)
    : createPrivateKey({ key: Buffer.from(text, 'base64'), format: 'der', type: 'pkcs8' });
  if (key.asymmetricKeyType !== 'ed25519') throw new Error(`it is an ${key.asymmetricKeyType} key, not Ed25519`);
  return key;
}
