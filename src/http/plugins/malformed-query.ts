/**
 * A query parameter that could not be decoded (query-string.ts) is named in a 400, after the 401
 * and 403 of the request plugins registered before this one.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { refuseMalformedQuery } from '../query-string.ts';

export const malformedQueryPlugin = fp(
  async function malformedQuery(app: FastifyInstance) {
    app.addHook('preValidation', refuseMalformedQuery);
  },
  { name: 'lev-malformed-query' },
);
