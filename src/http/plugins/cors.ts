/**
 * Cross-origin reads from the pages of CORS_ORIGINS: GET and HEAD, with the headers that identify a
 * caller or ask for a feed position, and the answer's headers besides the basic ones a page may read.
 */
import fastifyCors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { TRUNCATED_HEADER } from '../route-config.ts';

interface CorsOptions {
  readonly origins: readonly string[];
}

export const corsPlugin = fp(
  async function cors(app: FastifyInstance, { origins }: CorsOptions) {
    await app.register(fastifyCors, {
      origin: [...origins],
      methods: ['GET', 'HEAD'],
      allowedHeaders: [
        'Authorization',
        'X-Auth-Username',
        'X-Auth-Aud',
        'X-Auth-Audience',
        'X-Auth-Roles',
        'X-Auth-Groups',
        'X-Feed-Position',
      ],
      exposedHeaders: ['x-request-id', 'request-id', TRUNCATED_HEADER, 'retry-after'],
      maxAge: 600,
    });
  },
  { name: 'lev-cors' },
);
