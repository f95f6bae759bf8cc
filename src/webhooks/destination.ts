/**
 * Where a webhook may be sent, checked at every delivery: `https` only (plain `http` only to a
 * loopback address written in the URL, when WEBHOOK_ALLOW_HTTP=loopback), and every address the
 * host resolves to outside the private, loopback, link-local and other special ranges unless
 * WEBHOOK_ALLOWED_NETWORKS lists it. The check is made in the connection's own DNS lookup, so the
 * address checked is the address connected to (a name cannot resolve to a public address for the
 * check and a private one for the connection).
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { LevError } from '../errors.ts';

export class RefusedDestination extends LevError {
  constructor(message: string) {
    super(message, { code: 'WebhookDestinationRefused', status: 400, exitCode: 2 });
  }
}

const SPECIAL: readonly [string, number, 'ipv4' | 'ipv6', string][] = [
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

export interface DestinationPolicy {
  /** `http://` URLs to a loopback address are allowed (tests, the mock). */
  readonly allowHttpLoopback: boolean;
  /** Networks (CIDR) allowed though special: an internal receiver's range. */
  readonly allowedNetworks: readonly string[];
  /** The resolver (tests give one that answers a chosen address for a chosen name). */
  readonly resolve?: (host: string) => Promise<{ address: string; family: number }[]>;
}

const family = (address: string) => (isIP(address) === 6 ? 'ipv6' : 'ipv4');

/** A BlockList of CIDRs; throws naming a bad one (config.ts checks them with it). */
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
function mappedIpv4(address: string): string | undefined {
  const match = /^(?:0{0,4}:){0,4}:?:ffff:(.+)$/i.exec(address);
  if (!match) return undefined;
  if (isIP(match[1]) === 4) return match[1];
  const groups = /^([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(match[1]);
  if (!groups) return undefined;
  const high = parseInt(groups[1], 16);
  const low = parseInt(groups[2], 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

export interface Destination {
  readonly url: URL;
  /** What an address of the URL's host may not be, or undefined when it may be connected to. */
  problem(address: string): string | undefined;
  /** Resolves the host and checks every address; the addresses when all may be connected to. */
  resolve(): Promise<{ address: string; family: number }[]>;
}

export function destinationPolicy(policy: DestinationPolicy) {
  const allowed = networkList(policy.allowedNetworks);
  const resolver = policy.resolve ?? ((host: string) => dnsLookup(host, { all: true, verbatim: true }));

  /** Why a URL cannot be a webhook's (its form, before any address is known); undefined when it can. */
  function urlProblem(text: string): string | undefined {
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
      if (!policy.allowHttpLoopback) return 'only https URLs (plain http only to a loopback address, with WEBHOOK_ALLOW_HTTP=loopback)';
      if (!LOOPBACK_NAMES.has(url.hostname) && !(isIP(url.hostname) === 4 && url.hostname.startsWith('127.'))) {
        return `plain http only to a loopback address written in the URL (127.0.0.1, [::1], localhost), not ${url.hostname}`;
      }
      return undefined;
    }
    return `only https URLs, not ${url.protocol.slice(0, -1)}`;
  }

  function destination(text: string): Destination {
    const problem = urlProblem(text);
    if (problem) throw new RefusedDestination(problem);
    const url = new URL(text);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const plainLoopback = url.protocol === 'http:';
    const addressProblem = (address: string) => {
      const kind = family(address);
      const mapped = kind === 'ipv6' ? mappedIpv4(address) : undefined;
      if (mapped) return addressProblem(mapped);
      if (allowed.check(address, kind)) return undefined;
      const special = SPECIAL.find(([network, bits, netFamily]) => {
        if (netFamily !== kind) return false;
        const one = new BlockList();
        one.addSubnet(network, bits, netFamily);
        return one.check(address, kind);
      });
      if (!special) return undefined;
      if (special[3] === 'loopback' && plainLoopback) return undefined;
      return `${address} is a ${special[3]} address (allow its network with WEBHOOK_ALLOWED_NETWORKS if the receiver really is there)`;
    };
    return {
      url,
      problem: addressProblem,
      async resolve() {
        const addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await resolver(host);
        if (addresses.length === 0) throw new RefusedDestination(`${host} resolves to no address`);
        for (const { address } of addresses) {
          const problem = addressProblem(address);
          if (problem) throw new RefusedDestination(host === address ? `refused: ${problem}` : `refused: ${host} resolves to ${problem}`);
        }
        return addresses;
      },
    };
  }

  return { urlProblem, destination };
}

export type DestinationChecker = ReturnType<typeof destinationPolicy>;
