/**
 * The query string, read strictly. Fastify's parser (fast-querystring) keeps
 * a value whose percent-escapes are malformed or not UTF-8 (`%FF`, a lone
 * surrogate's `%ED%A0%80`, the overlong `%C0%80`, a bare `%`) as the raw
 * text, so `surname=Smith%FF` searched for a name nobody sent. Here such a
 * parameter is set aside, and the request is refused with a 400 naming it,
 * as a malformed escape in the path already is.
 *
 * Otherwise it reads as fast-querystring does: pairs split on `&` and the
 * first `=`, `+` is a space, a name given twice has an array of values (which
 * the schemas refuse, naming it), and the object has no prototype.
 */
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { badRequest } from '../errors.ts';

/** Where the parsed query keeps the names of the parameters it could not decode. */
export const MALFORMED = Symbol('malformed query parameters');

type ParsedQuery = Record<string, string | string[]> & { [MALFORMED]?: string[] };

// A name that cannot be decoded is quoted as sent, cut short: it may be most of an 8 KiB URL.
const QUOTED_NAME_LENGTH = 100;

/** The text decoded, or undefined when an escape is malformed or its bytes are not UTF-8. */
function decode(text: string): string | undefined {
  const spaced = text.includes('+') ? text.replaceAll('+', ' ') : text;
  if (!spaced.includes('%')) return spaced;
  try {
    return decodeURIComponent(spaced);
  } catch {
    return undefined;
  }
}

/** Fastify's `querystringParser`. */
export function parseQuery(text: string): ParsedQuery {
  const query: ParsedQuery = Object.create(null);
  for (const pair of text.split('&')) {
    if (!pair) continue;
    const equals = pair.indexOf('=');
    const sentName = equals < 0 ? pair : pair.slice(0, equals);
    const name = decode(sentName);
    const value = decode(equals < 0 ? '' : pair.slice(equals + 1));
    if (name === undefined || value === undefined) {
      const quoted =
        name ?? (sentName.length > QUOTED_NAME_LENGTH ? `${sentName.slice(0, QUOTED_NAME_LENGTH)}...` : sentName);
      (query[MALFORMED] ??= []).push(quoted);
      continue;
    }
    const earlier = query[name];
    if (earlier === undefined) query[name] = value;
    else if (Array.isArray(earlier)) earlier.push(value);
    else query[name] = [earlier, value];
  }
  return query;
}

/** A `preValidation` hook: after the caller is identified, before the parameters are checked. */
export function refuseMalformedQuery(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) {
  const [first] = (request.query as ParsedQuery | null)?.[MALFORMED] ?? [];
  if (first === undefined) return done();
  done(
    badRequest(
      `The query parameter '${first}' could not be read: it holds a malformed percent-escape, or one that is not UTF-8`,
    ),
  );
}
