/**
 * `X-Feed-Position`: a change-feed event's id a consumer has read, sent with the lookup, search or
 * verification it makes because of it, to be answered from a database that holds that event (a
 * replica that has replayed it, or the primary).
 */
import type { FastifyRequest } from 'fastify';
import { badRequest } from '../errors.ts';
import type { ReadOptions } from '../model/store.ts';

const FEED_POSITION_HEADER = 'x-feed-position';
const POSITION_PATTERN = '^[0-9]{1,15}$';

/** The header as the OpenAPI document describes it, on the operations that honour it. */
export const feedPositionParameter = {
  name: 'X-Feed-Position',
  in: 'header',
  required: false,
  description:
    "A change-feed event's id the caller has read: the answer comes from a database that holds that event (a replica that has replayed it, or the primary), so a record the feed announced is found as the event says. Not a number: 400",
  schema: { type: 'string', pattern: POSITION_PATTERN },
} as const;

/** The read options a request asks for; a malformed header is a 400 naming it. */
export function readOptionsOf(request: FastifyRequest): ReadOptions | undefined {
  const value = request.headers[FEED_POSITION_HEADER];
  if (value === undefined) return undefined;
  // An id as the feed gives it: a decimal number, within what a JavaScript number holds exactly.
  if (typeof value !== 'string' || !new RegExp(POSITION_PATTERN).test(value)) {
    throw badRequest("Invalid header 'X-Feed-Position': it must be a change-feed event's id (a number, given once)");
  }
  return { atLeast: Number(value) };
}
