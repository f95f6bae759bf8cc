/**
 * The public documents wallets and verifiers read to trust this issuer's wallet formats
 * (docs/wallets.md): the mdoc IACA certificates (`/.well-known/iacas`, the issuer metadata's
 * `mdoc_iacas_uri`, in the shape OpenID4VCI wallets read: `{"iacas": [{"certificate": base64 DER}]}`)
 * and the issuer's DID document (`/.well-known/did.json`, the keys that sign JWT VCs, as GOV.UK
 * Wallet resolves `did:web`). Both public, cacheable and readable from any page.
 */
import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import { DID_DOCUMENT_PATH, didDocument } from '../credentials/did.ts';
import type { IssuerKeys } from '../credentials/keys.ts';
import type { DocumentSigner } from '../credentials/mdoc-certificates.ts';
import { UNREADABLE, answer, documentationOnly } from './documentation.ts';

/** Where the IACAs are served, under the issuer: the metadata's mdoc_iacas_uri. */
export const IACAS_PATH = '/.well-known/iacas';

interface WalletDocumentOptions {
  readonly keys: IssuerKeys;
  /** The mdoc chain, made or checked at its first use. */
  readonly signer: () => Promise<DocumentSigner>;
  /** The issuer URL: the configured one, or (the mock) the address the process listens at. */
  readonly issuerUrl: () => string;
}

const CACHE = 'public, max-age=300';
const headers = {
  'cache-control': { description: 'public, max-age=300', type: 'string' },
  'access-control-allow-origin': { description: 'Any page may read it: *', type: 'string' },
};
const open = { 'access-control-allow-origin': '*' };

const iacasSchema = Type.Object({
  iacas: Type.Array(Type.Object({ certificate: Type.String({ description: 'The IACA certificate, DER in base64' }) }), {
    description:
      'The IACA root certificates: the one that issued the current document signer first, then earlier ' +
      'ones whose mdocs may still be valid',
  }),
});

const didSchema = Type.Object({
  '@context': Type.Array(Type.String()),
  id: Type.String({ description: "The issuer's did:web" }),
  verificationMethod: Type.Array(
    Type.Object({
      id: Type.String(),
      type: Type.String(),
      controller: Type.String(),
      publicKeyJwk: Type.Record(Type.String(), Type.Unknown()),
    }),
    {
      description:
        "The issuer's public keys, JsonWebKey2020: the current one first, then those that signed " +
        'credentials not yet expired',
    },
  ),
  assertionMethod: Type.Array(Type.String()),
});

export async function walletDocumentRoutes(app: FastifyInstance, { keys, signer, issuerUrl }: WalletDocumentOptions) {
  const iacas = async () => ({
    iacas: (await signer()).iacas.map((der) => ({ certificate: Buffer.from(der).toString('base64') })),
  });
  const publicDocument = { tags: ['credentials'], security: [] };

  app.get(
    IACAS_PATH,
    {
      schema: {
        ...publicDocument,
        operationId: 'credentialIacas',
        summary: "The mdoc IACA certificates (OpenID4VCI mdoc_iacas_uri): the roots of the issuer's mdoc signatures",
        description:
          "The IACA root certificates (ISO/IEC 18013-5 Annex B) a verifier trusts to check an mdoc's " +
          'document signer certificate (its x5chain), each DER in base64. Public.',
        response: { 200: answer('The IACA certificates', { headers, ...iacasSchema }), 400: UNREADABLE },
      },
      ...documentationOnly,
      config: { cacheControl: CACHE },
    },
    async (_request, reply) => reply.headers(open).send(await iacas()),
  );

  app.get(
    DID_DOCUMENT_PATH,
    {
      schema: {
        ...publicDocument,
        operationId: 'credentialDidDocument',
        summary: "The issuer's DID document (did:web): the keys that sign JWT VCs",
        description:
          "The W3C DID document of the issuer's did:web, each public key a JsonWebKey2020 verification " +
          "method named <did>#<kid>, as a JWT VC's kid names it. Public.",
        response: { 200: answer('The DID document', { headers, ...didSchema }), 400: UNREADABLE },
      },
      ...documentationOnly,
      config: { cacheControl: CACHE },
    },
    async (_request, reply) => reply.headers(open).send(didDocument(issuerUrl(), keys)),
  );
}
