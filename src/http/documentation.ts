/**
 * What route schemas share for the OpenAPI document only: the error answers they list, and the
 * serializer of routes that answer with JSON they have already written. @fastify/swagger builds
 * the document from the registered routes (openapi.ts), so each route's description is its schema.
 */
import { CREDENTIALS_ROLE } from '../model/identity.ts';

/**
 * The body of every error answer; a shared schema (openapi.ts adds it), so the error serializers compiled
 * from it and the document's component are one.
 */
export const errorSchema = {
  $id: 'Error',
  type: 'object',
  required: ['code', 'message'],
  properties: {
    code: { type: 'string', description: 'Stable error code, e.g. BadRequest, NotFound, Unauthorized' },
    message: { type: 'string', description: 'What was wrong, for a person to read' },
  },
} as const;

/**
 * An answer as a route's `response` lists it: its description, and its body's schema. @fastify/swagger
 * reads the description of a `$ref` from `description` (it keeps nothing else beside a `$ref`), and
 * of any other schema from `x-response-description`, leaving the schema's own `description` to it.
 */
export function answer<S extends object>(description: string, schema: S) {
  return '$ref' in schema ? { description, ...schema } : { 'x-response-description': description, ...schema };
}

/** An error answer: the shared Error body, described. */
export const errorResponse = (description: string) => ({ description, $ref: `${errorSchema.$id}#` });

/**
 * A URL the service cannot read at all (a malformed percent-escape, in the path or the query) is refused
 * before any route is chosen.
 */
export const UNREADABLE = errorResponse(
  'The URL could not be read: it holds a malformed percent-escape, or one that is not UTF-8',
);

/** What a route that reads a dataset may answer besides its 200. */
export const RECORD_ERRORS = {
  400: errorResponse('A parameter is missing or malformed; the message names it and the expected form'),
  401: errorResponse('The caller is not identified'),
  403: errorResponse("The caller lacks the dataset's role, or its client certificate breaks the on-boarding rules"),
  429: {
    ...errorResponse("The caller's client has made too many requests (RATE_LIMIT_PER_MINUTE, RATE_LIMIT_BURST)"),
    headers: {
      'retry-after': { description: 'Seconds until a request is allowed again', type: 'integer', minimum: 1 },
    },
  },
  503: errorResponse('The record store is unavailable; retry later'),
} as const;

/** What a route issuing a registration's credential (directly or as a wallet's offer) refuses. */
export const CREDENTIAL_ERRORS = {
  ...RECORD_ERRORS,
  403: errorResponse(`The caller lacks the dataset's role or the '${CREDENTIALS_ROLE}' role`),
  404: errorResponse('No record has that system number'),
  409: errorResponse(
    'Blocked, Cancelled or Replaced: no credential is issued for a blocked, cancelled or ' +
      're-registered registration',
  ),
} as const;

/**
 * The schema of the service's own endpoints (health, metrics, this document): no parameter, no
 * caller (`security: []`), and a URL the service cannot read at all refused as on every other path.
 * The 200 is `type: 'null'` for the document only, which then gives it no body schema: what they
 * send is text, which Fastify does not serialise.
 */
export const operationsRoute = (summary: string) => ({
  tags: ['operations'],
  summary,
  security: [],
  response: { 200: { description: 'OK', type: 'null' }, 400: UNREADABLE },
});

/**
 * For routes that send JSON they have already written (records rendered once and cached): Fastify
 * sends a string as it is, so their response schemas only document the answer. No serializer is
 * compiled from them (the record schemas are large, and it would never run); an error object the
 * error handler sends is written as it is without a schema.
 */
export const documentationOnly = {
  serializerCompiler: () => (data: unknown) => JSON.stringify(data),
} as const;
