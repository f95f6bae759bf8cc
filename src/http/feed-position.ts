/**
 * `X-Feed-Position`: a change-feed event's id a consumer has read, sent with the lookup, search or
 * verification it makes because of it, to be answered from a database that holds that event (a
 * replica that has replayed it, or the primary).
 */
import type { FastifyRequest } from 'fastify';
import type { ReadOptions } from '../model/store.ts';
import { EXPECTED } from './parameters.ts';

/**
 * The `headers` schema of the operations that honour it: Ajv refuses a malformed one (400, naming
 * it), and the OpenAPI document lists it from this schema.
 */
export const feedPositionHeaders = {
  type: 'object',
  properties: {
    'X-Feed-Position': {
      type: 'string',
      // An id as the feed gives it: a decimal number, within what a JavaScript number holds exactly.
      pattern: '^[0-9]{1,15}$',
      description:
        "A change-feed event's id the caller has read: the answer comes from a database that holds that " +
        'event (a replica that has replayed it, or the primary), so a record the feed announced is found ' +
        'as the event says. Not a number: 400',
      [EXPECTED]: "a change-feed event's id (a number, given once)",
    },
  },
} as const;

/** The read options a request asks for, its header valid by feedPositionHeaders. */
export function readOptionsOf(request: FastifyRequest): ReadOptions | undefined {
  const value = request.headers['x-feed-position'] as string | undefined;
  return value === undefined ? undefined : { atLeast: Number(value) };
}
