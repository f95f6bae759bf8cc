/**
 * `mso_mdoc` (OpenID4VCI 1.0 appendix A.2): a registration as an ISO/IEC 18013-5 `IssuerSigned`,
 * base64url of its CBOR. The doctype of a record type is `uk.gov.gro.<type>.1`, and its one
 * namespace has the same name (as the mDL's `org.iso.18013.5.1` does). Each claim a credential of
 * the type may carry is a data element of its own, a group's fields each under the dot path of its
 * claim (`child.dateOfBirth`): a verifier asks for and is shown exactly the fields it needs, as an
 * SD-JWT VC discloses each claim separately; a list (aliases) is one element, an array. Each
 * element is an `IssuerSignedItem` with 32 random bytes of salt and a digest ID drawn at random,
 * the Mobile Security Object holds their SHA-256 digests, the validity, the holder's key (the
 * device key, as a COSE_Key) and the credential's entry of the token status list (`status`, as
 * draft-ietf-oauth-status-list defines it for mdoc), and the document signer signs it as a
 * COSE_Sign1 (ES256) with its certificate in the unprotected header (x5chain). Built with
 * `@owf/mdoc` (docs/wallets.md, "mdoc", says why); `@auth0/mdl` verifies it in the tests.
 */
import { X509Certificate, randomInt } from 'node:crypto';
import type { TSchema } from '@sinclair/typebox';
import type { RecordDescription } from '../../records/define.ts';
import { claimFields, valueAt } from '../claims.ts';
import type { DocumentSigner } from '../mdoc-certificates.ts';
import { statusListPath } from '../status-list.ts';
import type { CredentialFormat, FormatIssueInput } from './format.ts';
import { issuingContext } from './mdoc-context.ts';

/** The doctype, and the namespace, of a record type's mdoc. */
export const mdocDoctype = (type: string) => `uk.gov.gro.${type}.1`;

/** COSE's identifier of ES256 (RFC 9053), as the metadata lists signing algorithms for mdoc. */
const COSE_ES256 = -7;
const LOCALE = 'en-GB';
const SALT_BYTES = 32;

interface Element {
  /** The claim's path in the claims object (compileClaims' names). */
  readonly path: readonly string[];
  /** The data element identifier: the path joined with dots. */
  readonly id: string;
  readonly label: string;
  /** A date leaf: carried as a CBOR full-date (tag 1004), as ISO 18013-5 carries dates. */
  readonly date: boolean;
}

const isDate = (schema: TSchema) => (schema as { format?: string }).format === 'date';

/** The data elements a record type's mdoc may carry, worked out once from its description. */
export const mdocElements = (description: RecordDescription): Element[] =>
  claimFields(description.name, description.fields, description.blockedFlag).map(({ path, label, leaf }) => ({
    path,
    id: path.join('.'),
    label,
    date: leaf !== undefined && isDate(leaf),
  }));

/** 0..n-1 in a random order: unique digest IDs that say nothing of an element's place in the record. */
function shuffledIds(n: number): number[] {
  const ids = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [ids[i], ids[j]] = [ids[j], ids[i]];
  }
  return ids;
}

export interface MsoMdocDependencies {
  /**
   * The document signer's key and certificate, and the IACAs, made or checked at their first use
   * (mdoc-certificates.ts, documentSignerWhenNeeded: the app's `mdocSigner`).
   */
  readonly signer: () => Promise<DocumentSigner>;
  /** Seconds an mdoc is valid from its issue (CREDENTIAL_VALIDITY_DAYS), never past the DS certificate. */
  readonly validityS: number;
  readonly now?: () => number;
}

export function msoMdocFormat({ signer, validityS, now = Date.now }: MsoMdocDependencies): CredentialFormat {
  const elementsOf = new Map<RecordDescription, Element[]>();
  const elements = (description: RecordDescription) => {
    let found = elementsOf.get(description);
    if (!found) elementsOf.set(description, (found = mdocElements(description)));
    return found;
  };
  // The library (and its CBOR and schema code) and the chain, loaded and made at the first issue.
  let prepared:
    | Promise<{
        mdoc: typeof import('@owf/mdoc');
        chain: DocumentSigner;
        signingKey: import('@owf/mdoc').CoseKey;
        dsNotAfter: number;
      }>
    | undefined;
  const prepare = () =>
    (prepared ??= Promise.all([import('@owf/mdoc'), signer()]).then(([mdoc, chain]) => ({
      mdoc,
      chain,
      signingKey: mdoc.CoseKey.fromJwk(chain.privateKey.export({ format: 'jwk' }) as Record<string, unknown>),
      // An mdoc valid past its signer's certificate would fail every verifier from that day.
      dsNotAfter: new Date(new X509Certificate(chain.certificate).validTo).getTime(),
    })));

  return {
    format: 'mso_mdoc',
    // The MSO's device key, a COSE_Key made from the proof's JWK (ISO 18013-5, 9.1.2.4).
    bindingMethods: ['cose_key'],
    configurationId: (type) => `${type}_mso_mdoc`,
    configuration(description) {
      const doctype = mdocDoctype(description.name);
      return {
        doctype,
        credential_signing_alg_values_supported: [COSE_ES256],
        credential_metadata: {
          display: [{ name: description.title, locale: LOCALE }],
          claims: elements(description).map((element) => ({
            path: [doctype, element.id],
            display: [{ name: element.label, locale: LOCALE }],
          })),
        },
      };
    },
    async issue({ issuer, description, claims, status, holderKey }: FormatIssueInput) {
      const { mdoc, chain, signingKey, dsNotAfter } = await prepare();
      const {
        DateOnly,
        DeviceKey,
        DeviceKeyInfo,
        Header,
        IssuerAuth,
        IssuerNamespaces,
        IssuerSigned,
        IssuerSignedItem,
        MobileSecurityObject,
      } = mdoc;
      const { ProtectedHeaders, SignatureAlgorithm, UnprotectedHeaders, ValidityInfo, ValueDigests } = mdoc;
      const doctype = mdocDoctype(description.name);
      const present = elements(description)
        .map((element) => ({ element, value: valueAt(claims, element.path) }))
        .filter(({ value }) => value !== undefined && value !== null);
      const ids = shuffledIds(present.length);
      const items = present.map(({ element, value }, i) =>
        IssuerSignedItem.fromOptions({
          digestId: ids[i],
          random: issuingContext.crypto.random(SALT_BYTES),
          elementIdentifier: element.id,
          elementValue: element.date && typeof value === 'string' ? new DateOnly(value) : value,
        }),
      );
      const digests = new Map<number, Uint8Array>();
      for (const item of items) {
        digests.set(
          item.digestId,
          await issuingContext.crypto.digest({ digestAlgorithm: 'SHA-256', bytes: item.encode({ asDataItem: true }) }),
        );
      }
      const signed = new Date(Math.floor(now() / 1000) * 1000);
      const validUntil = new Date(Math.min(signed.getTime() + validityS * 1000, dsNotAfter));
      const created = MobileSecurityObject.create({
        docType: doctype,
        digestAlgorithm: 'SHA-256',
        valueDigests: ValueDigests.create({ digests: new Map([[doctype, digests]]) }),
        validityInfo: ValidityInfo.create({ signed, validFrom: signed, validUntil }),
        deviceKeyInfo: DeviceKeyInfo.create({ deviceKey: DeviceKey.fromJwk(holderKey as Record<string, unknown>) }),
      });
      // The status list reference, which the library's model does not name: its maps keep members of their own.
      const encoded = new Map(created.encodedStructure as Map<unknown, unknown>);
      encoded.set(
        'status',
        new Map([
          [
            'status_list',
            new Map<string, unknown>([
              ['idx', status.idx],
              ['uri', `${issuer}${statusListPath(status.list)}`],
            ]),
          ],
        ]),
      );
      const issuerAuth = await IssuerAuth.create(
        {
          payload: MobileSecurityObject.fromEncodedStructure(encoded as typeof created.encodedStructure),
          protectedHeaders: ProtectedHeaders.create({
            protectedHeaders: new Map([[Header.Algorithm, SignatureAlgorithm.ES256]]),
          }),
          unprotectedHeaders: UnprotectedHeaders.create({
            unprotectedHeaders: new Map([[Header.X5Chain, chain.certificate]]),
          }),
          signingKey,
          algorithm: SignatureAlgorithm.ES256,
        },
        issuingContext,
      );
      return IssuerSigned.create({
        issuerNamespaces: IssuerNamespaces.create({ issuerNamespaces: new Map([[doctype, items]]) }),
        issuerAuth,
      }).encodedForOid4Vci;
    },
  };
}
