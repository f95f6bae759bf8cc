/**
 * Digital certificates (docs/credentials.md): a registration issued as an SD-JWT VC to a caller
 * with the `credentials` role as well as the dataset's, the issuer's keys and each type's metadata,
 * and the token status lists that say whether a credential still stands. The keys, the type
 * metadata and the status lists are public: a relying party outside government reads them.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { whenNeeded } from '../when-needed.ts';
import { compileClaims } from '../credentials/claims.ts';
import { certificateClaims } from '../credentials/paper.ts';
import { type CredentialIssuer, CREDENTIAL_TYPE } from '../credentials/issue.ts';
import { issueRefusal } from '../credentials/issuable.ts';
import type { IssuerKeys } from '../credentials/keys.ts';
import { STATUS_LIST_TYPE } from '../credentials/status-list.ts';
import { STATUS_LIST_CWT_TYPE } from '../credentials/status-list-cwt.ts';
import { typeMetadata } from '../credentials/type-metadata.ts';
import { ApiError, badRequest, notFound } from '../errors.ts';
import type { CompiledView } from '../render/view.ts';
import type { CredentialStatuses } from '../model/credentials.ts';
import { CREDENTIALS_ROLE } from '../model/identity.ts';
import type { RecordReader } from '../model/store.ts';
import { EXPECTED, systemNumberParameter } from './parameters.ts';
import { QUERY_RULES, type QueryRule } from './query-rules.ts';
import { audienceOf, storeUnavailable } from './route-config.ts';
import { refsOf } from './plugins/audit.ts';
import { STATUS_LIST_ROUTE, type StatusLists } from './status-lists.ts';
import { LIST_SIZE } from '../model/credentials.ts';
import { CREDENTIAL_ERRORS, UNREADABLE, answer, documentationOnly, errorResponse } from './documentation.ts';
import { canonicalSystemNumber } from '../records/system-number.ts';

const SVG_TYPE = 'image/svg+xml';
/**
 * The holder key's parser, loaded by the first credential asked with a key: its Ed25519 check brings
 * @noble/curves, some 20 ms of a start that most processes would pay for nothing.
 */
const holderKeys = () => import('../credentials/holder-key.ts');
/** The QR code encoder, loaded by the first printed certificate: most processes never draw one. */
const qrCode = whenNeeded<typeof import('qrcode')>('qrcode');

/**
 * How a printed certificate's QR code is made: error correction M, which survives a crease or a
 * smudge, and every character in byte mode, so that its size is the token's length alone.
 */
const QR_CODE = { errorCorrectionLevel: 'M' } as const;
const qrSegments = (token: string) => [{ data: Buffer.from(token), mode: 'byte' as const }];
/**
 * The widest status entry a credential may carry (a list's number has at most 9 digits): what fits with it
 * fits with any.
 */
const WIDEST_STATUS = { list: 999_999_999, idx: LIST_SIZE - 1 };

/** Refuses (422) a printed certificate whose token no QR code can hold: names of hundreds of characters do that. */
function assertFitsQrCode(token: string) {
  try {
    qrCode().create(qrSegments(token), QR_CODE);
  } catch (error) {
    if (!/too big/i.test((error as Error).message)) throw error;
    throw new ApiError(
      422,
      'TooLargeForQrCode',
      `The certificate's claims make a token of ${token.length} characters, more than a QR code holds: ` +
        'no QR code is issued for this registration; ask for the credential without format=qr',
    );
  }
}

const ISSUER_METADATA_PATH = '/.well-known/jwt-vc-issuer';
const CREDENTIAL_PATH = '/v1/credentials/:type/:id';
const TYPE_METADATA_PATH = '/v1/credentials/types/:type';

// A plain enum, not a union of literals: the document's readers (and its conformance test) take an
// enum as the list of values, where an anyOf of constants reads as a riddle.
const credentialTypeParameter = (types: readonly string[]) =>
  Type.Unsafe<string>({
    type: 'string',
    enum: [...types],
    description: 'The record type',
    [EXPECTED]: `one of ${types.join(', ')}`,
  });

const credentialParams = (types: readonly string[]) =>
  Type.Object(
    {
      type: credentialTypeParameter(types),
      id: Type.Unsafe<string>(systemNumberParameter('The system number of the registration')),
    },
    { additionalProperties: false },
  );

const credentialQuery = Type.Object(
  {
    holderKey: Type.Optional(
      Type.String({
        pattern: '^[A-Za-z0-9_-]+$',
        maxLength: 2000,
        description:
          "The holder's public key (a JWK of an EC P-256 or OKP Ed25519 key, as JSON in base64url): the " +
          'credential names it (`cnf`), and only its holder can present the credential with key binding',
        [EXPECTED]: 'a public JWK (EC P-256 or OKP Ed25519) as JSON in base64url',
      }),
    ),
    format: Type.Optional(
      Type.Unsafe<'sd-jwt' | 'qr'>({
        type: 'string',
        enum: ['sd-jwt', 'qr'],
        description:
          "sd-jwt (the default): the SD-JWT VC, every claim disclosable. qr: what a printed certificate's " +
          'QR code holds, the claims the certificate shows (system number, names, dates) signed in the ' +
          'clear, small enough for a QR code; with Accept: image/svg+xml, the QR code itself',
        [EXPECTED]: 'sd-jwt or qr',
      }),
    ),
  },
  {
    additionalProperties: false,
    // What no parameter's own schema can say (query-rules.ts): a printed certificate has no holder.
    [QUERY_RULES]: [
      {
        schema: {
          type: 'object',
          not: { type: 'object', required: ['format', 'holderKey'], properties: { format: { const: 'qr' } } },
        },
        message: "Invalid query parameter 'holderKey': a printed certificate (format=qr) has no holder to bind",
        // Any holderKey: the rule refuses it before it is read as a key.
        example: { format: 'qr', holderKey: 'eyJrdHkiOiJFQyJ9' },
      },
    ] satisfies QueryRule[],
  },
);

const typeParams = (types: readonly string[]) =>
  Type.Object({ type: credentialTypeParameter(types) }, { additionalProperties: false });
const statusListParams = Type.Object(
  {
    list: Type.String({
      pattern: '^[1-9][0-9]{0,8}$',
      description: 'The number of the status list',
      [EXPECTED]: 'a whole number from 1, at most 9 digits',
    }),
  },
  { additionalProperties: false },
);

const issuerMetadataSchema = Type.Object({
  issuer: Type.String({ description: 'The issuer URL, as credentials name it in iss' }),
  jwks: Type.Object({
    keys: Type.Array(Type.Record(Type.String(), Type.Unknown()), {
      description: 'The public keys: the current one first, then those that signed credentials not yet expired',
    }),
  }),
});

interface CredentialRoutesOptions {
  readonly views: readonly CompiledView[];
  readonly store: RecordReader;
  readonly statuses: CredentialStatuses;
  /** The status lists as signed and cached (status-lists.ts), which the transport may answer early. */
  readonly lists: StatusLists;
  readonly keys: IssuerKeys;
  readonly issuer: CredentialIssuer;
  /** The issuer URL: the configured one, or (the mock) the address the process listens at. */
  readonly issuerUrl: () => string;
  /** A status list in its CWT form, for mdoc verifiers that ask for it (status-lists.ts, cwtStatusList). */
  readonly cwt?: (list: number, issuer: string) => Promise<Uint8Array | undefined>;
}

const conflict = (code: string, message: string) => new ApiError(409, code, message);

export async function credentialRoutes(app: FastifyInstance, options: CredentialRoutesOptions) {
  const { store, statuses, lists, keys, issuer, issuerUrl } = options;
  const views = new Map(options.views.filter((view) => view.version === 'v1').map((view) => [view.record.name, view]));
  const types = [...views.keys()];
  const claimsOf = new Map(
    [...views].map(([type, view]) => [type, compileClaims(type, view.fields, view.record.blockedFlag)]),
  );
  const issuerOf = (_request: FastifyRequest) => issuerUrl();
  // Public documents a wallet or a relying party's page may fetch from anywhere.
  const open = { 'access-control-allow-origin': '*' };
  // How the document describes those headers; `security: []`: they need no caller.
  const cached = (what: string) => ({
    'cache-control': { description: what, type: 'string' },
    'access-control-allow-origin': { description: 'Any page may read it: *', type: 'string' },
  });
  const publicDocument = { tags: ['credentials'], security: [] };

  app.get(
    ISSUER_METADATA_PATH,
    {
      schema: {
        ...publicDocument,
        operationId: 'credentialIssuer',
        summary: "The issuer's metadata (SD-JWT VC JWT VC Issuer Metadata): its public keys",
        description:
          'The issuer URL and its public keys as a JWK set: the signing key first, then earlier ones whose ' +
          'credentials have yet to expire. Public.',
        response: {
          200: answer('The issuer metadata', { headers: cached('public, max-age=300'), ...issuerMetadataSchema }),
          400: UNREADABLE,
        },
      },
      ...documentationOnly,
      config: { cacheControl: 'public, max-age=300' },
    },
    async (request, reply) =>
      reply.headers(open).send({ issuer: issuerOf(request), jwks: { keys: keys.all.map((key) => key.publicJwk) } }),
  );

  // Handlers typed by their TypeBox schemas.
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();

  typed.get(
    TYPE_METADATA_PATH,
    {
      schema: {
        ...publicDocument,
        operationId: 'credentialType',
        summary: "A credential type's metadata (SD-JWT VC type metadata): what its vct names",
        description:
          'The type, its name and every claim a credential of it may carry, labelled; derived from the ' +
          'record description. Public.',
        params: typeParams(types),
        response: {
          200: answer('The type metadata', { headers: cached('public, max-age=86400'), type: 'object' }),
          400: errorResponse('The type is not one of the record types'),
        },
      },
      ...documentationOnly,
      config: { cacheControl: 'public, max-age=86400' },
    },
    async (request, reply) =>
      reply
        .headers(open)
        .send(typeMetadata((views.get(request.params.type) as CompiledView).record, issuerOf(request))),
  );

  typed.get(
    STATUS_LIST_ROUTE,
    {
      schema: {
        ...publicDocument,
        operationId: 'credentialStatusList',
        summary: 'A token status list (IETF draft-ietf-oauth-status-list): which credentials still stand',
        description:
          `A signed JWT (typ statuslist+jwt) of ${LIST_SIZE} one-bit entries, 1 where the credential is ` +
          'invalid; indexes are drawn at random, so it names no registration. ' +
          'It says how long it may be kept (ttl, CREDENTIAL_STATUS_TTL_S, and Cache-Control). Public.',
        params: statusListParams,
        response: {
          200: {
            description:
              `The status list token: a JWT, or with Accept: ${STATUS_LIST_CWT_TYPE} the CWT form mdoc ` +
              'verifiers read, signed by the mdoc document signer',
            headers: cached('public, max-age=CREDENTIAL_STATUS_TTL_S'),
            content: {
              [STATUS_LIST_TYPE]: { schema: { type: 'string' } },
              [STATUS_LIST_CWT_TYPE]: { schema: { type: 'string', format: 'binary' } },
            },
          },
          400: errorResponse('The list is not a number'),
          404: errorResponse('No status list has that number'),
          503: errorResponse('The store is unavailable; retry later'),
        },
      },
      ...documentationOnly,
      config: { cacheControl: lists.headers['cache-control'] },
    },
    async (request, reply) => {
      if (options.cwt && request.headers.accept?.includes(STATUS_LIST_CWT_TYPE)) {
        const cwt = await options.cwt(Number(request.params.list), issuerOf(request));
        if (cwt === undefined) throw notFound('No status list has that number');
        return reply.headers({ ...lists.headers, 'content-type': STATUS_LIST_CWT_TYPE }).send(Buffer.from(cwt));
      }
      const token = await lists.token(Number(request.params.list), issuerOf(request));
      if (token === undefined) throw notFound('No status list has that number');
      return reply.headers(lists.headers).send(token);
    },
  );

  typed.get(
    CREDENTIAL_PATH,
    {
      schema: {
        tags: ['credentials'],
        operationId: 'credential',
        summary: 'A registration as a digital certificate: an SD-JWT VC',
        description:
          `An SD-JWT VC (IETF SD-JWT VC, media type ${CREDENTIAL_TYPE}) of the registration, signed with ` +
          "the issuer's key (ES256 by default), valid CREDENTIAL_VALIDITY_DAYS. " +
          'Every field the caller may see (as a lookup shows it) is a claim disclosed separately; links to ' +
          'other registrations and the blocked flag are left out, and a top-level field named as a ' +
          'registered claim (status) is carried as <type>Status. ' +
          'Its status claim is an entry of a token status list (GET /v1/credentials/status/{list}) that ' +
          'turns invalid when the registration is corrected, re-registered, blocked or cancelled. ' +
          `Needs the '${CREDENTIALS_ROLE}' role besides the dataset's. Every issue is audited (operation ` +
          'credential) with the fields disclosed. Asked with format=qr for a registration whose ' +
          'certificate claims no QR code can hold, it is refused (422), before anything is issued or ' +
          'audited. docs/credentials.md explains presenting and verifying.',
        params: credentialParams(types),
        querystring: credentialQuery,
        response: {
          200: {
            description:
              'The credential: the issuer-signed JWT and its disclosures, ~-separated; with format=qr and ' +
              'Accept: image/svg+xml, the QR code of the compact form',
            content: { [CREDENTIAL_TYPE]: { schema: { type: 'string' } }, [SVG_TYPE]: { schema: { type: 'string' } } },
          },
          ...CREDENTIAL_ERRORS,
          422: errorResponse(
            'TooLargeForQrCode: with format=qr, the certificate claims are more than a QR code holds ' +
              '(names of hundreds of characters); nothing is issued or audited',
          ),
        },
      },
      ...documentationOnly,
      config: { requiresIdentity: true },
    },
    async (request, reply) => {
      const { type } = request.params;
      const view = views.get(type) as CompiledView;
      request.authoriseDataset(type);
      request.authorise(CREDENTIALS_ROLE, 'Digital certificates need');
      const paper = request.query.format === 'qr';
      let holderKey;
      if (request.query.holderKey !== undefined) {
        const parsed = (await holderKeys()).parseHolderKey(request.query.holderKey);
        if ('problem' in parsed) throw badRequest(`Invalid query parameter 'holderKey': ${parsed.problem}`);
        holderKey = parsed.jwk;
      }
      const id = canonicalSystemNumber(request.params.id);
      const stored = await storeUnavailable(() => store.lookupJson(type, id));
      if (stored === undefined) throw notFound();
      const record = JSON.parse(stored) as Record<string, unknown>;
      // What a credential would say could not be relied on: the answer names why, and nothing more.
      const refused = issueRefusal(record, view.record);
      if (refused) throw conflict(refused.code, refused.message);
      const all = (claimsOf.get(type) as ReturnType<typeof compileClaims>)(view.render(record, audienceOf(request)));
      const { claims, fields } = paper ? certificateClaims(view.record, all.claims) : all;
      // Checked before anything is written, with the widest status entry: a refusal allocates no
      // status and audits nothing, and the QR code of the credential issued below cannot fail.
      if (paper)
        assertFitsQrCode(
          issuer.issue({ issuer: issuerOf(request), type, claims, status: WIDEST_STATUS, inTheClear: true }),
        );
      const status = await storeUnavailable(() => statuses.allocate(type, Number(id)));
      await request.audited(1, refsOf(type, [Number(id)]), { dataset: type, operation: 'credential' }, { fields });
      const credential = issuer.issue({
        issuer: issuerOf(request),
        type,
        claims,
        status,
        holderKey,
        inTheClear: paper,
      });
      if (paper && request.headers.accept?.includes(SVG_TYPE)) {
        return reply
          .type(SVG_TYPE)
          .send(await qrCode().toString(qrSegments(credential), { ...QR_CODE, type: 'svg', margin: 2 }));
      }
      return reply.type(CREDENTIAL_TYPE).send(credential);
    },
  );
}
