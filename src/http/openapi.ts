/**
 * The OpenAPI 3.1 document, generated from the same view descriptions and
 * parameter schemas the routes use, so it cannot drift from what is served.
 */
import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { CompiledView } from '../render/view.ts';
import { schemaRef } from '../render/view.ts';
import { idParameters, searchParameters, searchQueryRule } from './parameters.ts';
import { TRUNCATED_HEADER } from './route-config.ts';
import {
  AUDIT_ENTRIES_PATH,
  CHECKPOINTS_PATH,
  RECORD_ACCESSES_PATH,
  USER_ACTIVITY_PATH,
  auditEntriesQuery,
  auditEntrySchema,
  checkpointSchema,
  checkpointsQuery,
  recordAccessesParams,
  recordAccessesQuery,
  userActivityQuery,
} from './audit-routes.ts';
import { compileVerification } from '../records/verification.ts';
import { credentialParams, credentialQuery, credentialQueryRule, issuerMetadataSchema, statusListParams, typeParams } from './credential-routes.ts';
import { CREDENTIAL_TYPE } from '../credentials/issue.ts';
import { STATUS_LIST_TYPE } from '../credentials/status-list.ts';
import { LIST_SIZE } from '../types/credentials.ts';
import { AUDIT_ROLE, CREDENTIALS_ROLE } from '../types/identity.ts';
import { feedPositionParameter } from './feed-position.ts';
import { capitalised, inWords, pluralOf } from '../records/wording.ts';
import { EVENTS_PATH, cloudEventSchema, eventsQuery, eventsQueryRule, eventsResponse } from './event-routes.ts';
import { DEAD_LETTERS_PATH, WEBHOOK_PATH, deadLettersResponse, webhookResponse } from './webhook-routes.ts';
import { SUBSCRIPTIONS_PATH, subscriptionStateSchema } from './subscription-routes.ts';
import { SUGGEST_ROLE, verifyRole } from '../auth/identify.ts';
import { MAX_SUGGESTIONS, suggestionParameters, suggestionPath, suggestionResponse } from './suggestion-routes.ts';
import { CANDIDATE_LIMIT, verificationParameters, verificationPath, verificationResponse } from './verification-routes.ts';

type JsonSchema = Record<string, unknown>;

const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: schemaRef('Error') } } },
});

/** A URL the service cannot read at all (a malformed percent-escape, in the path or the query) is refused before any route is chosen. */
const UNREADABLE = errorResponse('The URL could not be read: it holds a malformed percent-escape, or one that is not UTF-8');

const RECORD_ERRORS = {
  '400': errorResponse('A parameter is missing or malformed; the message names it and the expected form'),
  '401': errorResponse('The caller is not identified'),
  '403': errorResponse("The caller lacks the dataset's role, or its client certificate breaks the on-boarding rules"),
  '429': {
    ...errorResponse("The caller's client has made too many requests (RATE_LIMIT_PER_MINUTE, RATE_LIMIT_BURST)"),
    headers: { 'retry-after': { description: 'Seconds until a request is allowed again', schema: { type: 'integer', minimum: 1 } } },
  },
  '503': errorResponse('The record store is unavailable; retry later'),
};

function parametersOf(schema: { properties: Record<string, JsonSchema>; required?: readonly string[] }, place: 'query' | 'path') {
  return Object.entries(schema.properties).map(([name, { description, ...rest }]) => ({
    name,
    in: place,
    required: schema.required?.includes(name) ?? false,
    description,
    schema: rest,
  }));
}

const MOCK_IDENTITY = [
  ['X-Auth-Username', 'Username of the person or system calling (also accepted: x-original-username)'],
  ['X-Auth-Aud', 'Client (department service) calling (also accepted: x-original-client, X-Auth-Audience)'],
  ['X-Auth-Roles', "Comma-separated roles; 'full-details' shows restricted fields"],
  ['X-Auth-Groups', 'Comma-separated groups, recorded in the audit trail'],
] as const;

/** The headers without which a mock or proxy caller is a 401. */
const REQUIRED_IDENTITY = new Set<string>(['X-Auth-Username', 'X-Auth-Aud']);
const SCHEME_OF: Record<(typeof MOCK_IDENTITY)[number][0], string> = {
  'X-Auth-Username': 'usernameHeader',
  'X-Auth-Aud': 'clientHeader',
  'X-Auth-Roles': 'rolesHeader',
  'X-Auth-Groups': 'groupsHeader',
};

/**
 * @param identityHeaders whether callers name themselves with headers (AUTH_MODE mock and proxy):
 *   each operation then lists them, the username and client as required; with oidc it lists none.
 */
export function openApiDocument(views: readonly CompiledView[], version: string, { identityHeaders = true, credentials = false } = {}): JsonSchema {
  const paths: JsonSchema = {};
  const schemas: JsonSchema = {
    Error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: { type: 'string', description: 'Stable error code, e.g. BadRequest, NotFound, Unauthorized' },
        message: { type: 'string', description: 'What was wrong, for a person to read' },
      },
    },
  };
  const records = [...new Set(views.map((view) => view.record))];
  const types = records.map((record) => record.name);
  const identity = identityHeaders
    ? MOCK_IDENTITY.map(([name, description]) => ({ name, in: 'header', required: REQUIRED_IDENTITY.has(name), description, schema: { type: 'string' } }))
    : [];

  for (const view of views) {
    const ref = { $ref: schemaRef(view.schemaName) };
    const title = view.record.title.toLowerCase();
    const tags = [view.record.name, view.version];
    schemas[view.schemaName] = { title: `${view.record.title} (${view.version})`, ...view.responseSchema };
    const rule = searchQueryRule(view);
    const parts = view.query.forenameParts ?? [];
    paths[view.path] = {
      get: {
        tags,
        operationId: `search${view.schemaName}`,
        summary: `Search ${title}s`,
        description:
          `${view.record.search.description} Results are in ascending system-number order, at most MAX_RESULTS of them; when more matched, the ${TRUNCATED_HEADER} header is true.` +
          (rule
            ? ` Give the forenames whole, as '${view.query.forenames}', or word by word, as '${parts[0]}' (not empty) and optionally ${parts.slice(1).map((p) => `'${p}'`).join(', ')}, ` +
              `with a letter or digit among the words; never both ways. A search that gives neither or both is refused (400). ` +
              'No parameter of OpenAPI 3.1 can require one of two others, so this rule is also given as a JSON Schema of the whole query, in x-querystring-schema.'
            : ''),
        ...(rule ? { 'x-querystring-schema': rule } : {}),
        parameters: [...parametersOf(searchParameters(view), 'query'), feedPositionParameter, ...identity],
        responses: {
          '200': {
            description: 'The matching records (an empty array when none match)',
            headers: { [TRUNCATED_HEADER]: { description: 'Present and true when more records matched than were returned', schema: { type: 'string', enum: ['true'] } } },
            content: { 'application/json': { schema: { type: 'array', items: ref } } },
          },
          ...RECORD_ERRORS,
        },
      },
    };
    paths[`${view.path}/{${view.idParam}}`] = {
      get: {
        tags,
        operationId: `read${view.schemaName}`,
        summary: `Look up one ${title} by its system number`,
        parameters: [...parametersOf(idParameters(view), 'path'), feedPositionParameter, ...identity],
        responses: {
          '200': { description: 'The record', content: { 'application/json': { schema: ref } } },
          ...RECORD_ERRORS,
          '404': errorResponse('No record has that system number'),
        },
      },
    };
  }

  for (const record of new Set(views.filter((view) => view.version === 'v1').map((view) => view.record))) {
    const compiled = compileVerification(record);
    const title = record.title.toLowerCase();
    const names = record.verification.names;
    paths[verificationPath(record.name)] = {
      get: {
        tags: [record.name, 'verification'],
        operationId: `verify${capitalised(record.name)}`,
        summary: `Verify the details of a ${title} without reading it`,
        description:
          `Answers whether the details given match exactly one current ${title}, and nothing else of it. ` +
          (names.length > 1 ? `Both parties are named, in either order. ` : '') +
          'Names and places are compared after the searches\' normalisation (case, accents and apostrophes ignored, hyphens and other punctuation as spaces); ' +
          'surnames and places must be equal; forenames equal, or the registered forenames\' leading whole words equal to those given (Anne verifies Anne Marie, never Annette); ' +
          'dates equal; every optional detail given must match as well (a place matches any one of the forms registered). ' +
          `The answer is {"verified": false}, the same bytes, when no registration matches, when several match and the details given do not tell them apart (or more than ${CANDIDATE_LIMIT} share the names and date), ` +
          'when the one that matches is blocked or cancelled, or replaced by a re-registration (the current registration of a chain is the one verified). ' +
          `A parameter not listed is refused (400). Needs the '${verifyRole(record.name)}' role, or '${record.name}'. Every verification is audited (operation verify).`,
        parameters: [...parametersOf(verificationParameters(compiled), 'query'), feedPositionParameter, ...identity],
        responses: {
          '200': { description: 'The answer, and nothing more', content: { 'application/json': { schema: verificationResponse } } },
          ...RECORD_ERRORS,
          '403': errorResponse(`The caller lacks the '${verifyRole(record.name)}' role (or '${record.name}'), or its client certificate breaks the on-boarding rules`),
        },
      },
    };
  }

  for (const view of views.filter((v) => v.version === 'v1')) {
    const record = view.record;
    const title = record.title.toLowerCase();
    paths[suggestionPath(record.name)] = {
      get: {
        tags: [record.name, 'suggestions'],
        operationId: `suggest${view.schemaName}`,
        summary: `Close matches among ${title}s, for a person to judge`,
        description:
          `Finds the ${title}s that match the details closely, when they may be slightly wrong: a nickname, a spelling or a name alike in sound, part of a double name, names swapped, a married surname, the day and month exchanged, a date a few days, a digit or two out. ` +
          `The parameters, and those required, are the search's; 'limit' (1 to ${MAX_SUGGESTIONS}, default 5) caps the candidates. ` +
          "Each candidate has a score (the probability, 0 to 1, that it is the registration sought; the same query always gives the same order, by probability then system number), what each detail matched (a fixed vocabulary, docs/search.md) and the evidence it added, and the record as a lookup renders it for this caller (a blocked one only its id and blocked flag). " +
          `Candidates under SUGGEST_MIN_PROBABILITY are never returned; candidates are found through any two details right, each blocking pass bringing at most its cap of records (docs/search.md). ` +
          `Needs the '${SUGGEST_ROLE}' role as well as '${record.name}'. Every answer is audited (operation suggest, naming the registrations returned) and counts against the rate limit.`,
        parameters: [...parametersOf(suggestionParameters(view), 'query'), ...identity],
        responses: {
          '200': { description: 'The close matches, best first', content: { 'application/json': { schema: suggestionResponse(view, schemaRef(view.schemaName)) } } },
          ...RECORD_ERRORS,
          '403': errorResponse(`The caller lacks the '${SUGGEST_ROLE}' role or the '${record.name}' role, or its client certificate breaks the on-boarding rules`),
        },
      },
    };
  }

  // What every route of the audit trail may answer besides its 200.
  const auditErrors = {
    '400': RECORD_ERRORS['400'],
    '401': RECORD_ERRORS['401'],
    '403': errorResponse(`The caller lacks the '${AUDIT_ROLE}' role`),
    '503': errorResponse('The audit trail is unavailable; retry later'),
  };
  paths[USER_ACTIVITY_PATH] = {
    get: {
      tags: ['audit'],
      operationId: 'userActivity',
      summary: 'Accesses per user per day, from the audit trail',
      description: `Needs the '${AUDIT_ROLE}' role (in the mock, any identified caller may read it unless MOCK_ENFORCE_ROLES is set). Counts every lookup and search that returned data.`,
      parameters: [...parametersOf(userActivityQuery(types) as unknown as { properties: Record<string, JsonSchema> }, 'query'), ...identity],
      responses: {
        '200': {
          description: 'For each username, for each day (UTC, YYYY-MM-DD), the number of accesses',
          content: {
            'application/json': {
              schema: { type: 'object', additionalProperties: { type: 'object', additionalProperties: { type: 'integer', minimum: 1 } } },
            },
          },
        },
        ...auditErrors,
      },
    },
  };

  schemas.AuditEntry = { title: 'Audit entry', ...auditEntrySchema(types) };
  paths[AUDIT_ENTRIES_PATH] = {
    get: {
      tags: ['audit'],
      operationId: 'auditEntries',
      summary: "One user's accesses, from the audit trail",
      description:
        `The audit report's drill-down: the entries of one username (the whole of it, not a part) over the days asked, newest first, at most 'limit' of them; when more matched, the ${TRUNCATED_HEADER} header is true. ` +
        `Needs the '${AUDIT_ROLE}' role, as the report does. A parameter not listed is refused (400).`,
      parameters: [...parametersOf(auditEntriesQuery(types) as unknown as { properties: Record<string, JsonSchema>; required: string[] }, 'query'), ...identity],
      responses: {
        '200': {
          description: "The user's entries, newest first (an empty array when there are none)",
          headers: { [TRUNCATED_HEADER]: { description: 'Present and true when more entries matched than were returned', schema: { type: 'string', enum: ['true'] } } },
          content: { 'application/json': { schema: { type: 'array', items: { $ref: schemaRef('AuditEntry') } } } },
        },
        ...auditErrors,
      },
    },
  };

  paths[RECORD_ACCESSES_PATH] = {
    get: {
      tags: ['audit'],
      operationId: 'recordAccesses',
      summary: 'Who saw a registration, from the audit trail',
      description:
        'Every access that disclosed or decided on the registration (a lookup of it, a search that returned it, a verification that compared it) over the days asked, ' +
        `newest first, with its time, user, client and operation; at most 'limit', and when more matched the ${TRUNCATED_HEADER} header is true. ` +
        `Needs the '${AUDIT_ROLE}' role. Reading it is itself audited (operation audit-read).`,
      parameters: [
        ...parametersOf(recordAccessesParams(types) as unknown as { properties: Record<string, JsonSchema>; required: string[] }, 'path'),
        ...parametersOf(recordAccessesQuery as unknown as { properties: Record<string, JsonSchema> }, 'query'),
        ...identity,
      ],
      responses: {
        '200': {
          description: 'The accesses, newest first (an empty array when there are none)',
          headers: { [TRUNCATED_HEADER]: { description: 'Present and true when more entries matched than were returned', schema: { type: 'string', enum: ['true'] } } },
          content: { 'application/json': { schema: { type: 'array', items: { $ref: schemaRef('AuditEntry') } } } },
        },
        ...auditErrors,
      },
    },
  };

  schemas.AuditCheckpoint = { title: 'Audit checkpoint', ...checkpointSchema };
  paths[CHECKPOINTS_PATH] = {
    get: {
      tags: ['audit'],
      operationId: 'auditCheckpoints',
      summary: "The audit trail's signed checkpoints",
      description:
        "Checkpoints taken every AUDIT_CHECKPOINT_S: the trail's size and every writer's head, signed with Ed25519, newest first. " +
        "A witness keeps them elsewhere; 'lev-api audit verify --checkpoint FILE' then proves that nothing the trail held at a checkpoint has changed. " +
        `Needs the '${AUDIT_ROLE}' role. Reading them is itself audited (operation audit-read).`,
      parameters: [...parametersOf(checkpointsQuery as unknown as { properties: Record<string, JsonSchema> }, 'query'), ...identity],
      responses: {
        '200': { description: 'The checkpoints, newest first', content: { 'application/json': { schema: { type: 'array', items: { $ref: schemaRef('AuditCheckpoint') } } } } },
        ...auditErrors,
      },
    },
  };

  schemas.SubscriptionState = { title: "A subscription's state", ...subscriptionStateSchema };
  paths[SUBSCRIPTIONS_PATH] = {
    get: {
      tags: ['audit'],
      operationId: 'subscriptions',
      summary: 'Every subscription to the change feed: where its events go, its state, lag, failures and dead letters',
      description:
        "Each client's subscription, by client: its webhook (the URL without its query), or none when the client reads the feed; active, paused, or disabled by its receiver's 410 Gone; " +
        'how many events it is behind; the failed attempts at the event being delivered now, and its dead letters. Never a secret. ' +
        `Needs the '${AUDIT_ROLE}' role. Reading it is itself audited (operation audit-read).`,
      parameters: [...identity],
      responses: {
        '200': { description: 'The subscriptions (an empty array when there are none)', content: { 'application/json': { schema: { type: 'array', items: { $ref: schemaRef('SubscriptionState') } } } } },
        '400': UNREADABLE,
        '401': auditErrors['401'],
        '403': auditErrors['403'],
        '503': errorResponse('The subscriptions are unavailable; retry later'),
      },
    },
  };

  schemas.CloudEvent = { title: 'Change-feed event (CloudEvents 1.0)', ...cloudEventSchema };
  paths[EVENTS_PATH] = {
    get: {
      tags: ['events'],
      operationId: 'events',
      summary: "The change feed: the calling client's events, oldest first",
      description:
        'Registrations new (<type>.registered) and changed (<type>.updated, with a reason) as CloudEvents 1.0 objects, thin by default: no name, date or other personal data. ' +
        "Which events a client receives is its subscription (made by an operator; in the mock every identified caller receives every type), never a type whose dataset role it lacks; a subscription's fields are rendered as a lookup renders them for the caller. " +
        "Read on with the answer's 'next' as 'after'; 'wait' holds the request until an event is committed. Reading with 'after' records it as the client's acknowledged position. " +
        'Events are kept EVENTS_RETENTION_DAYS days: an older position is 410 CursorExpired, and since= starts again from a date. Every answer with events is audited (operation events) before it is sent. A parameter not listed is refused (400), and so are after and since together (x-querystring-schema).',
      'x-querystring-schema': eventsQueryRule,
      parameters: [...parametersOf(eventsQuery as unknown as { properties: Record<string, JsonSchema> }, 'query'), ...identity],
      responses: {
        '200': {
          description: "The events (an empty array when there are none yet) and where to read on from",
          content: { 'application/json': { schema: { ...eventsResponse, properties: { ...eventsResponse.properties, events: { ...eventsResponse.properties.events, items: { $ref: schemaRef('CloudEvent') } } } } } },
        },
        '400': RECORD_ERRORS['400'],
        '401': RECORD_ERRORS['401'],
        '403': errorResponse('The client has no subscription to the change feed, or its client certificate breaks the on-boarding rules'),
        '410': errorResponse("CursorExpired: 'after' is older than the events kept, or not of this feed (started again since); start again with 'since'"),
        '429': RECORD_ERRORS['429'],
        '503': errorResponse('The change feed or the audit trail is unavailable; retry later'),
      },
    },
  };

  paths[WEBHOOK_PATH] = {
    get: {
      tags: ['events'],
      operationId: 'webhook',
      summary: "The calling client's webhook: where its events are pushed, the state of delivery, and the public key of its v1a signatures",
      description:
        'Where an operator gave the subscription a webhook, the service POSTs each of its events there, signed as Standard Webhooks says (webhook-id, webhook-timestamp, webhook-signature). ' +
        'Never the whsec_ secret: it is shown once, to the operator. Where the subscription signs with Ed25519 too, publicKey is what its v1a signatures verify with.',
      parameters: [...identity],
      responses: {
        '200': { description: "The client's webhook", content: { 'application/json': { schema: webhookResponse } } },
        '400': UNREADABLE,
        '401': RECORD_ERRORS['401'],
        '404': errorResponse('The client has no webhook'),
        '429': RECORD_ERRORS['429'],
        '503': errorResponse('Webhook delivery state is unavailable; retry later'),
      },
    },
  };

  paths[DEAD_LETTERS_PATH] = {
    get: {
      tags: ['events'],
      operationId: 'deadLetters',
      summary: "The events webhook delivery gave up on for the calling client's webhook",
      description:
        "Where the client's subscription has a webhook: the events not taken after WEBHOOK_RETRY_HOURS of retries, oldest first (at most 1000), with the last status and why it failed (never the receiver's answer). " +
        "Each is in the change feed under its id while kept; an operator queues them again with 'lev-api subscriptions redeliver', and each is sent again with the same webhook-id.",
      parameters: [...identity],
      responses: {
        '200': { description: 'The dead letters (an empty array when there are none)', content: { 'application/json': { schema: deadLettersResponse } } },
        '400': UNREADABLE,
        '401': RECORD_ERRORS['401'],
        '429': RECORD_ERRORS['429'],
        '503': errorResponse('Webhook delivery state is unavailable; retry later'),
      },
    },
  };

  // The operations' own endpoints need no identity: `security: []` overrides the document's.
  if (credentials) {
    const types = records.map((record) => record.name);
    const open = { 'access-control-allow-origin': { description: 'Any page may read it: *', schema: { type: 'string' } } };
    const cached = (what: string) => ({ 'cache-control': { description: what, schema: { type: 'string' } }, ...open });
    paths['/v1/credentials/{type}/{id}'] = {
      get: {
        tags: ['credentials'],
        operationId: 'credential',
        summary: 'A registration as a digital certificate: an SD-JWT VC',
        description:
          `An SD-JWT VC (IETF SD-JWT VC, media type ${CREDENTIAL_TYPE}) of the registration, signed with the issuer's key (ES256 by default), valid CREDENTIAL_VALIDITY_DAYS. ` +
          'Every field the caller may see (as a lookup shows it) is a claim disclosed separately; links to other registrations and the blocked flag are left out, and a top-level field named as a registered claim (status) is carried as <type>Status. ' +
          "Its status claim is an entry of a token status list (GET /v1/credentials/status/{list}) that turns invalid when the registration is corrected, re-registered, blocked or cancelled. " +
          `Needs the '${CREDENTIALS_ROLE}' role besides the dataset's. Every issue is audited (operation credential) with the fields disclosed. A holderKey with format=qr is refused (400; x-querystring-schema): a printed certificate has no holder. docs/credentials.md explains presenting and verifying.`,
        parameters: [
          ...parametersOf(credentialParams(types) as unknown as { properties: Record<string, JsonSchema>; required: string[] }, 'path'),
          ...parametersOf(credentialQuery as unknown as { properties: Record<string, JsonSchema> }, 'query'),
          ...identity,
        ],
        responses: {
          '200': {
            description: 'The credential: the issuer-signed JWT and its disclosures, ~-separated; with format=qr and Accept: image/svg+xml, the QR code of the compact form',
            content: { [CREDENTIAL_TYPE]: { schema: { type: 'string' } }, 'image/svg+xml': { schema: { type: 'string' } } },
          },
          ...RECORD_ERRORS,
          '403': errorResponse(`The caller lacks the dataset's role or the '${CREDENTIALS_ROLE}' role`),
          '404': errorResponse('No record has that system number'),
          '409': errorResponse('Blocked, Cancelled or Replaced: no credential is issued for a blocked, cancelled or re-registered registration'),
        },
        'x-querystring-schema': credentialQueryRule,
      },
    };
    paths['/v1/credentials/types/{type}'] = {
      get: {
        tags: ['credentials'],
        operationId: 'credentialType',
        summary: "A credential type's metadata (SD-JWT VC type metadata): what its vct names",
        description: 'The type, its name and every claim a credential of it may carry, labelled; derived from the record description. Public.',
        security: [],
        parameters: parametersOf(typeParams(types) as unknown as { properties: Record<string, JsonSchema>; required: string[] }, 'path'),
        responses: { '200': { description: 'The type metadata', headers: cached('public, max-age=86400'), content: { 'application/json': { schema: { type: 'object' } } } }, '400': errorResponse('The type is not one of the record types') },
      },
    };
    paths['/v1/credentials/status/{list}'] = {
      get: {
        tags: ['credentials'],
        operationId: 'credentialStatusList',
        summary: 'A token status list (IETF draft-ietf-oauth-status-list): which credentials still stand',
        description:
          `A signed JWT (typ statuslist+jwt) of ${LIST_SIZE} one-bit entries, 1 where the credential is invalid; indexes are drawn at random, so it names no registration. ` +
          'It says how long it may be kept (ttl, CREDENTIAL_STATUS_TTL_S, and Cache-Control). Public.',
        security: [],
        parameters: parametersOf(statusListParams as unknown as { properties: Record<string, JsonSchema>; required: string[] }, 'path'),
        responses: {
          '200': { description: 'The status list token', headers: cached('public, max-age=CREDENTIAL_STATUS_TTL_S'), content: { [STATUS_LIST_TYPE]: { schema: { type: 'string' } } } },
          '400': errorResponse('The list is not a number'),
          '404': errorResponse('No status list has that number'),
          '503': errorResponse('The store is unavailable; retry later'),
        },
      },
    };
    paths['/.well-known/jwt-vc-issuer'] = {
      get: {
        tags: ['credentials'],
        operationId: 'credentialIssuer',
        summary: "The issuer's metadata (SD-JWT VC JWT VC Issuer Metadata): its public keys",
        description: 'The issuer URL and its public keys as a JWK set: the signing key first, then earlier ones whose credentials have yet to expire. Public.',
        security: [],
        responses: { '200': { description: 'The issuer metadata', headers: cached('public, max-age=300'), content: { 'application/json': { schema: issuerMetadataSchema } } }, '400': UNREADABLE },
      },
    };
  }

  // They take no parameter; a URL the service cannot read at all is refused (UNREADABLE), on these
  // paths as on every other.
  const plain = (description: string) => ({
    get: { tags: ['operations'], summary: description, security: [], responses: { '200': { description: 'OK' }, '400': UNREADABLE } },
  });
  paths['/healthz'] = plain('Liveness: the process is running');
  paths['/readiness'] = {
    get: { ...plain('Readiness: the record store answers').get, responses: { '200': { description: 'Ready' }, '400': UNREADABLE, '503': errorResponse('Not ready') } },
  };
  paths['/metrics'] = plain('Prometheus metrics, text format');
  paths['/openapi.json'] = plain('This document');
  paths['/docs'] = plain('This document in Swagger UI');

  return {
    openapi: '3.1.0',
    info: {
      title: 'Life-events verification API',
      version,
      description:
        `Verifies ${inWords(records.map(pluralOf), 'and')} registered in England and Wales. ` +
        'Fields the caller may not see are sent as null; fields with nothing recorded are left out. ' +
        'A blocked record shows only its id and its blocked flag.',
    },
    paths,
    components: {
      schemas,
      securitySchemes: {
        bearerToken: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description:
            "AUTH_MODE=oidc: an access token from the configured OpenID Connect issuer, for this service's audience; with client certificates it may have to be bound to the certificate (RFC 8705)",
        },
        // One scheme a header, so that Swagger UI's Authorize dialog can set each of them.
        ...Object.fromEntries(
          MOCK_IDENTITY.map(([name, description]) => [
            SCHEME_OF[name],
            { type: 'apiKey', in: 'header', name, description: `AUTH_MODE=mock (and proxy, from trusted addresses): ${description}` },
          ]),
        ),
      },
    },
    // A token, or the two identity headers a caller must send (roles and groups are optional).
    security: [{ bearerToken: [] }, { [SCHEME_OF['X-Auth-Username']]: [], [SCHEME_OF['X-Auth-Aud']]: [] }],
  };
}

export async function openApiRoutes(app: FastifyInstance, { document }: { document: JsonSchema }) {
  await app.register(swagger, { mode: 'static', specification: { document: document as never } });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  app.get('/openapi.json', { schema: { hide: true } }, async () => document);
}
