/**
 * Turns every failure into `{"code", "message"}` with the right status, and
 * unknown paths and methods into the published interface's 404 and 405.
 * Nothing a caller sends is logged: messages may quote parameters back to the
 * caller, but log lines carry only the error's kind.
 */
import { METHODS } from 'node:http';
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import FindMyWay from 'find-my-way';
import { ApiError, LevError, badRequest, methodNotAllowed, routeNotFound } from '../errors.ts';
import { EXPECTED } from './parameters.ts';
import { QUERY_RULES } from './query-rules.ts';
import { MAX_URL_LENGTH } from './transport.ts';

interface ValidationError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message?: string;
}

const PART_NAMES: Record<string, string> = {
  querystring: 'query parameter',
  params: 'path parameter',
  headers: 'header',
};

type PartSchema = { properties?: Record<string, Record<string, string>> };

function describeValidation(request: FastifyRequest, error: FastifyError): ApiError {
  const [first] = (error.validation ?? []) as ValidationError[];
  // A rule across the query's parameters carries its own message (query-rules.ts).
  if (first?.keyword === QUERY_RULES && first.message) return badRequest(first.message);
  const part = error.validationContext ?? 'querystring';
  const kind = PART_NAMES[part] ?? part;
  const schema = (request.routeOptions.schema as Record<string, PartSchema> | undefined)?.[part];
  const given =
    first?.keyword === 'required'
      ? String(first.params.missingProperty)
      : first?.keyword === 'additionalProperties'
        ? String(first.params.additionalProperty)
        : (first?.instancePath ?? '').slice(1);
  // Headers are validated by their names in lower case; the message names one as the schema writes it.
  const name =
    part === 'headers'
      ? (Object.keys(schema?.properties ?? {}).find((key) => key.toLowerCase() === given) ?? given)
      : given;
  const expected = schema?.properties?.[name]?.[EXPECTED];
  const expectation = expected ? `: expected ${expected}` : '';
  if (!first || !name) return badRequest(`Invalid ${kind}`);
  if (first.keyword === 'required') return badRequest(`Missing ${kind} '${name}'${expectation}`);
  if (first.keyword === 'additionalProperties') {
    return badRequest(`Unknown ${kind} '${name}': this path takes ${Object.keys(schema?.properties ?? {}).join(', ')}`);
  }
  // A repeated parameter arrives as a list: for a text parameter that is the only way to fail its type, for a
  // number one way.
  const values = (part === 'querystring' ? request.query : part === 'params' ? request.params : undefined) as
    | Record<string, unknown>
    | undefined;
  const repeated = first.keyword === 'type' && (first.params.type === 'string' || Array.isArray(values?.[name]));
  if (repeated) return badRequest(`The ${kind} '${name}' was given more than once; give it once`);
  return badRequest(`Invalid ${kind} '${name}'${expectation}`);
}

const pathOf = (request: FastifyRequest) => request.url.split('?')[0];

/**
 * Installs the handlers on the root instance. Returns a function to call once every route is
 * registered: from then on, a known path asked with a method it lacks is a 405.
 */
export function installErrorHandling(app: FastifyInstance, { cors = false } = {}): () => void {
  // Every method Node's parser reads (WebDAV's, TRACE...) is routed, so that on a known path it is
  // a 405 like POST, not a 404. Bodyless: no body is read for a request that is refused anyway.
  // CONNECT never reaches a request handler: the transport answers it (405).
  for (const method of METHODS) {
    if (method !== 'CONNECT' && !app.supportedMethods.includes(method)) app.addHttpMethod(method);
  }
  // The known paths, each with the methods it allows, matched as Fastify's router matches them. A
  // request routed nowhere is looked up here: a known path asked with another method is a 405.
  // One lookup at a 404, rather than a route for every other method of every path: those were 1,854
  // entries in Fastify's router for the mock's 58 paths, nearly a tenth of its start.
  const knownPaths = FindMyWay({ maxParamLength: MAX_URL_LENGTH, querystringParser: () => ({}) });
  const allowedAt = (request: FastifyRequest): string | undefined => {
    // With CORS on, OPTIONS is the browser's preflight, answered by the CORS plugin.
    if (!request.is404 || (cors && request.method === 'OPTIONS')) return undefined;
    let allowed: readonly string[] | undefined;
    try {
      allowed = (knownPaths.find('GET', request.url)?.store as { allowed: string[] } | undefined)?.allowed;
    } catch {
      // A path find-my-way cannot read is no known path.
      return undefined;
    }
    // A route that found nothing for its own method (reply.callNotFound) is a 404.
    return allowed && !allowed.includes(request.method) ? allowed.join(', ') : undefined;
  };
  app.setErrorHandler((error: FastifyError, request, reply) => {
    let answer: LevError;
    // A method the path lacks is a 405 even when its body could not be read first (a POST of an
    // unknown type, a QUERY without a Content-Type): the method is what is wrong. Looked up only for
    // such a fault: the 405 the not-found handler throws is a named error already.
    const allowed = error instanceof LevError ? undefined : allowedAt(request);
    if (allowed) answer = methodNotAllowed(request.method, allowed);
    // A named error that says how to answer is the answer; one that does not (status 500) is a fault like any other.
    else if (error instanceof LevError && error.status !== 500) answer = error;
    else if (error.validation) answer = describeValidation(request, error);
    else if (!(error instanceof LevError) && error.statusCode && error.statusCode >= 400 && error.statusCode < 500)
      answer = new ApiError(error.statusCode, 'BadRequest', 'The request could not be read');
    else answer = new ApiError(500, 'Internal', `Unexpected error; quote request id ${request.id}`);
    if (answer.status >= 500) {
      const cause = (answer.cause ?? error) as { code?: string; name?: string };
      const level = answer instanceof ApiError && answer.limit ? 'warn' : 'error';
      request.log[level]({ err: { type: cause.name, code: cause.code } }, answer.code);
    } else if (answer.status === 401 && answer.cause) {
      // Which check a token failed, for the operator (the caller is not told): the check's name, never a value.
      const cause = answer.cause as { code?: string; name?: string; claim?: string };
      request.log.info({ err: { type: cause.name, code: cause.code, claim: cause.claim } }, answer.code);
    }
    reply.code(answer.status).headers(answer.headers).send({ code: answer.code, message: answer.message });
  });

  app.setNotFoundHandler((request, reply) => {
    const allowed = allowedAt(request);
    if (allowed) throw methodNotAllowed(request.method, allowed);
    reply.code(404).send({ code: 'ResourceNotFound', message: routeNotFound(pathOf(request)).message });
  });

  // A known path asked with another method is a 405 naming the methods it has.
  const known = new Map<string, Set<string>>();
  app.addHook('onRoute', (route) => {
    // Swagger UI's own files under /docs/ are not operations; /docs itself is.
    if (route.url.startsWith('/docs/')) return;
    const methods = known.get(route.url) ?? new Set<string>();
    for (const method of [route.method].flat()) methods.add(method);
    known.set(route.url, methods);
  });
  return () => {
    for (const [url, methods] of known) {
      if (!methods.has('GET')) continue;
      const allowed = ['GET', 'HEAD', ...[...methods].filter((method) => method !== 'GET' && method !== 'HEAD')];
      knownPaths.on('GET', url, () => {}, { allowed });
    }
    known.clear();
  };
}
