/**
 * The rules of where a webhook may point, with no I/O, so the configuration checks its settings by
 * the same rules as delivery (src/webhooks/destination.ts) applies: the special ranges refused
 * unless allowed, CIDR lists, and a URL's form.
 */
import { BlockList, isIP } from 'node:net';

export const SPECIAL: readonly [string, number, 'ipv4' | 'ipv6', string][] = [
  ['0.0.0.0', 8, 'ipv4', 'this network'],
  ['10.0.0.0', 8, 'ipv4', 'private'],
  ['100.64.0.0', 10, 'ipv4', 'shared (carrier-grade NAT)'],
  ['127.0.0.0', 8, 'ipv4', 'loopback'],
  ['169.254.0.0', 16, 'ipv4', 'link-local'],
  ['172.16.0.0', 12, 'ipv4', 'private'],
  ['192.0.0.0', 24, 'ipv4', 'IETF protocol assignments'],
  ['192.168.0.0', 16, 'ipv4', 'private'],
  ['198.18.0.0', 15, 'ipv4', 'benchmarking'],
  ['224.0.0.0', 4, 'ipv4', 'multicast'],
  ['240.0.0.0', 4, 'ipv4', 'reserved'],
  ['::', 128, 'ipv6', 'unspecified'],
  ['::1', 128, 'ipv6', 'loopback'],
  ['fc00::', 7, 'ipv6', 'private (unique local)'],
  ['fe80::', 10, 'ipv6', 'link-local'],
  ['ff00::', 8, 'ipv6', 'multicast'],
];

export const family = (address: string) => (isIP(address) === 6 ? 'ipv6' : 'ipv4');

/** A BlockList of CIDRs; throws naming a bad one (src/config/events.ts checks the webhook settings with it). */
export function networkList(cidrs: readonly string[]): BlockList {
  const list = new BlockList();
  for (const cidr of cidrs) {
    const [address, bits] = cidr.split('/');
    const prefix = Number(bits);
    const kind = isIP(address);
    if (!kind || bits === undefined || !/^[0-9]{1,3}$/.test(bits) || prefix > (kind === 4 ? 32 : 128)) {
      throw new Error(`${JSON.stringify(cidr)} is no network: write an address and a prefix length, e.g. 10.20.0.0/16`);
    }
    list.addSubnet(address, prefix, family(address));
  }
  return list;
}

/** The IPv4 address an IPv4-mapped IPv6 address stands for (`::ffff:10.0.0.1`, or as URLs write it, `::ffff:a00:1`). */
export function mappedIpv4(address: string): string | undefined {
  const match = /^(?:0{0,4}:){0,4}:?:ffff:(.+)$/i.exec(address);
  if (!match) return undefined;
  if (isIP(match[1]) === 4) return match[1];
  const groups = /^([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(match[1]);
  if (!groups) return undefined;
  const high = parseInt(groups[1], 16);
  const low = parseInt(groups[2], 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

export const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Why a URL cannot be a webhook's (its form, before any address is known); undefined when it can. */
export function webhookUrlProblem(text: string, allowHttpLoopback: boolean): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return `${JSON.stringify(text)} is no URL`;
  }
  if (url.username || url.password) return 'a webhook URL carries no user name or password (the signature proves the sender)';
  if (url.hash) return 'a webhook URL has no #fragment';
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:') {
    if (!allowHttpLoopback) return 'only https URLs (plain http only to a loopback address, with WEBHOOK_ALLOW_HTTP=loopback)';
    if (!LOOPBACK_NAMES.has(url.hostname) && !(isIP(url.hostname) === 4 && url.hostname.startsWith('127.'))) {
      return `plain http only to a loopback address written in the URL (127.0.0.1, [::1], localhost), not ${url.hostname}`;
    }
    return undefined;
  }
  return `only https URLs, not ${url.protocol.slice(0, -1)}`;
}

