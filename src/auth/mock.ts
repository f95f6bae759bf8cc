/**
 * AUTH_MODE=mock: the caller states who it is in headers, as with the
 * existing service's mock. Anyone can claim anything; never for real data.
 */
import { unauthorized } from '../errors.ts';
import { identityFromMockHeaders } from './identity-headers.ts';
import type { Identifier } from '../model/identity.ts';

export const mockIdentifier: Identifier = ({ headers }) => {
  const identity = identityFromMockHeaders(headers);
  if (!identity) throw unauthorized();
  return identity;
};
