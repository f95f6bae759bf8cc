/**
 * AUTH_MODE=proxy: an authenticating proxy in front (as the existing
 * service's gateway was) checks the caller and states who it is in the mock's
 * identity headers. Those headers are believed only when the connection comes
 * straight from one of TRUSTED_PROXIES; from any other address the answer is
 * 401, whatever the headers say. Forwarding headers (X-Forwarded-For) are not
 * read: the peer address of the TCP connection is what counts.
 */
import { BlockList, isIP } from 'node:net';
import { unauthorized } from '../errors.ts';
import { identityFromMockHeaders } from './identity-headers.ts';
import { bearerChallenge } from './challenge.ts';
import type { Identifier } from '../model/identity.ts';

/** The trusted addresses and ranges (entries already checked by loadConfig). */
export function trustedList(entries: readonly string[]): BlockList {
  const list = new BlockList();
  for (const entry of entries) {
    const [address, prefix] = entry.split('/');
    const type = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(prefix), type);
  }
  return list;
}

/** Whether the peer address is trusted; an IPv4-mapped IPv6 address (::ffff:a.b.c.d) matches its IPv4 entries. */
export function isTrusted(list: BlockList, address: string | undefined): boolean {
  const family = address ? isIP(address) : 0;
  if (!address || !family) return false;
  return list.check(address, family === 6 ? 'ipv6' : 'ipv4');
}

export function proxyIdentifier(entries: readonly string[]): Identifier {
  const list = trustedList(entries);
  return ({ headers, socket }) => {
    if (!isTrusted(list, socket.remoteAddress)) {
      throw unauthorized('Call the service through its authenticating proxy', bearerChallenge());
    }
    const identity = identityFromMockHeaders(headers);
    if (!identity) throw unauthorized(undefined, bearerChallenge());
    return identity;
  };
}
