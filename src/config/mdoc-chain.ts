/**
 * The check of a configured mdoc chain (docs/wallets.md, "Keys and certificates"), made when the
 * configuration is read, so that a key and certificate that do not belong together, or a document
 * signer no given IACA issued, is a configuration problem at start rather than mdocs no verifier takes.
 */
import { type KeyObject, X509Certificate, createPublicKey } from 'node:crypto';

/** The extended key usage of an mdoc document signer (ISO/IEC 18013-5, B.1.4). */
export const MDOC_DS_EKU = '1.0.18013.5.1.2';

/**
 * Throws naming what is wrong: the key is not P-256, the certificate not the key's, no IACA issued it, or it
 * is no DS certificate.
 */
export function checkDocumentSigner(
  privateKey: KeyObject,
  certificate: Uint8Array,
  iacas: readonly Uint8Array[],
): void {
  if (privateKey.asymmetricKeyType !== 'ec' || privateKey.asymmetricKeyDetails?.namedCurve !== 'prime256v1')
    throw new Error('the document signer key is not a P-256 key');
  const ds = new X509Certificate(certificate);
  const mine = createPublicKey(privateKey).export({ format: 'der', type: 'spki' });
  if (!ds.publicKey.export({ format: 'der', type: 'spki' }).equals(mine))
    throw new Error("the document signer certificate is not the key's");
  if (
    !iacas.some((iaca) => ds.checkIssued(new X509Certificate(iaca)) && ds.verify(new X509Certificate(iaca).publicKey))
  ) {
    throw new Error('no IACA certificate given issued the document signer certificate');
  }
  if (!(ds.keyUsage ?? []).includes(MDOC_DS_EKU))
    throw new Error(`the document signer certificate lacks the mdoc extended key usage ${MDOC_DS_EKU}`);
}
