/**
 * Where a webhook may be sent, checked at every delivery: `https` only (plain `http` only to a
 * loopback address written in the URL, when WEBHOOK_ALLOW_HTTP=loopback), and every address the
 * host resolves to outside the private, loopback, link-local and other special ranges unless
 * WEBHOOK_ALLOWED_NETWORKS lists it. The check is made in the connection's own DNS lookup, so the
 * address checked is the address connected to (a name cannot resolve to a public address for the
 * check and a private one for the connection).
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { addressProblem, networkList, parseAddress, webhookUrlProblem } from '../webhook-addresses.ts';
import { addressFailure } from './failures.ts';
import { LevError } from '../errors.ts';

export class RefusedDestination extends LevError {
  constructor(problem: string) {
    super(addressFailure(problem), { code: 'WebhookDestinationRefused', status: 400, exitCode: 2 });
  }
}

interface DestinationPolicy {
  /** `http://` URLs to a loopback address are allowed (tests, the mock). */
  readonly allowHttpLoopback: boolean;
  /** Networks (CIDR) allowed though special: an internal receiver's range. */
  readonly allowedNetworks: readonly string[];
  /** The resolver (tests give one that answers a chosen address for a chosen name). */
  readonly resolve?: (host: string) => Promise<{ address: string; family: number }[]>;
}

interface Destination {
  readonly url: URL;
  /** What an address of the URL's host may not be, or undefined when it may be connected to. */
  problem(address: string): string | undefined;
  /** Resolves the host and checks every address; the addresses when all may be connected to. */
  resolve(): Promise<{ address: string; family: number }[]>;
}

export function destinationPolicy(policy: DestinationPolicy) {
  const allowed = networkList(policy.allowedNetworks);
  const resolver = policy.resolve ?? ((host: string) => dnsLookup(host, { all: true, verbatim: true }));

  const urlProblem = (text: string) => webhookUrlProblem(text, policy.allowHttpLoopback);

  function destination(text: string): Destination {
    const problem = urlProblem(text);
    if (problem) throw new RefusedDestination(problem);
    const url = new URL(text);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const plainLoopback = url.protocol === 'http:';
    const problemOf = (address: string) => addressProblem(address, allowed, plainLoopback);
    return {
      url,
      problem: problemOf,
      async resolve() {
        const literal = parseAddress(host);
        const addresses = literal
          ? [{ address: host, family: literal.kind() === 'ipv4' ? 4 : 6 }]
          : await resolver(host);
        if (addresses.length === 0) throw new RefusedDestination(`${host} resolves to no address`);
        for (const { address } of addresses) {
          const problem = problemOf(address);
          if (problem) throw new RefusedDestination(host === address ? problem : `${host} resolves to ${problem}`);
        }
        return addresses;
      },
    };
  }

  return { urlProblem, destination };
}

export type DestinationChecker = ReturnType<typeof destinationPolicy>;
