/**
 * Who is calling. In mock mode the caller states it in headers, as the
 * existing service's mock accepted them; real modes (tokens, trusted
 * proxies) produce the same Identity.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Identity } from '../model/identity.ts';

const header = (headers: IncomingHttpHeaders, ...names: string[]): string | undefined => {
  for (const name of names) {
    const value = headers[name];
    const text = Array.isArray(value) ? value.join(',') : value;
    if (text?.trim()) return text;
  }
  return undefined;
};

const commaList = (value: string | undefined): string[] =>
  (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

// The gateway in front of the existing service listed its own audience, `lev-api`, among the client's.
const SERVICE_AUDIENCE = 'lev-api';

/** Reads the mock identity headers; undefined when the username or the client is missing. */
export function identityFromMockHeaders(headers: IncomingHttpHeaders): Identity | undefined {
  const username = header(headers, 'x-original-username', 'x-auth-username')?.trim();
  const client = commaList(header(headers, 'x-original-client', 'x-auth-aud', 'x-auth-audience')).find(
    (audience) => audience !== SERVICE_AUDIENCE,
  );
  if (!username || !client) return undefined;
  return {
    username,
    client,
    roles: commaList(header(headers, 'x-auth-roles')),
    groups: commaList(header(headers, 'x-auth-groups')),
  };
}
