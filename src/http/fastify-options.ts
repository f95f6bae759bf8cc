/**
 * The API's Fastify options: its server and logger (transport.ts), a router that lets any URL it
 * accepts through to validation, the answer to a request Fastify cannot read, and the validator's
 * formats and keywords.
 */
import type { FastifyReply, FastifyServerOptions } from 'fastify';
import { isIsoDate } from '../records/dates.ts';
import { securityHeaders } from './headers.ts';
import { EXPECTED } from './parameters.ts';
import { queryRulesKeyword } from './query-rules.ts';
import { parseQuery } from './query-string.ts';
import { MAX_URL_LENGTH, type Transport, serverOptions } from './transport.ts';

/** Raised before routing, so neither the hooks nor the error handler see it. */
const unreadableRequest =
  (tls: boolean): FastifyServerOptions['frameworkErrors'] =>
  (error, request, reply) => {
    const message =
      error.code === 'FST_ERR_BAD_URL'
        ? 'The URL could not be read: it holds a malformed percent-escape'
        : 'The request could not be read';
    (reply as FastifyReply)
      .code(400)
      .headers({
        ...securityHeaders(request.url, tls),
        'x-request-id': request.id,
        'request-id': request.id,
        'content-type': 'application/json',
      })
      .send({ code: 'BadRequest', message });
  };

export const fastifyOptions = (
  transport: Transport,
  tls: boolean,
  logger: FastifyServerOptions['loggerInstance'] | undefined,
  level: string,
) => ({
  ...serverOptions(transport, tls, logger, level),
  // Longer than any URL let through (MAX_URL_LENGTH), so an over-long id reaches
  // validation, which names the parameter, instead of the router's bare 414.
  routerOptions: { maxParamLength: MAX_URL_LENGTH, querystringParser: parseQuery },
  frameworkErrors: unreadableRequest(tls),
  ajv: {
    customOptions: { coerceTypes: false, removeAdditional: false },
    onCreate: (ajv) => {
      ajv.addFormat('date', { type: 'string', validate: isIsoDate });
      ajv.addKeyword(EXPECTED);
      ajv.addKeyword(queryRulesKeyword);
    },
  } satisfies FastifyServerOptions['ajv'],
});
