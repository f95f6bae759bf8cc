/**
 * The rules of where a webhook may point, with no I/O, so the configuration checks its settings by
 * the same rules as delivery (src/webhooks/destination.ts) applies: the special-purpose ranges
 * refused unless allowed, CIDR lists, and a URL's form.
 *
 * Addresses are classified by ipaddr.js (docs/events.md, "Where webhooks may go", says why that
 * library), which knows the IANA special-purpose registries of both families. An IPv6 address that
 * carries an IPv4 address (IPv4-mapped and IPv4-compatible, the IPv4-translated form, NAT64's
 * 64:ff9b::/96, 6to4) is judged by the IPv4 address it carries: each of those reaches that IPv4
 * address through some translator, so `[::7f00:1]` is as much a loopback address as 127.0.0.1.
 */
import ipaddr from 'ipaddr.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** The longest webhook URL taken: longer ones are refused, not stored. */
export const MAX_WEBHOOK_URL_LENGTH = 2048;

/** ipaddr.js's name of each special range, as a refusal says it ("127.0.0.1 is a loopback address"). */
const RANGE_WORDS: Record<string, string> = {
  unspecified: 'this-network (unspecified)',
  broadcast: 'broadcast',
  multicast: 'multicast',
  linkLocal: 'link-local',
  loopback: 'loopback',
  carrierGradeNat: 'shared (carrier-grade NAT)',
  private: 'private',
  reserved: 'reserved (documentation, benchmarking or IETF use)',
  benchmarking: 'benchmarking',
  as112: 'AS112 (DNS sink)',
  as112v6: 'AS112 (DNS sink)',
  amt: 'AMT relay',
  uniqueLocal: 'private (unique local)',
  deprecatedSiteLocal: 'site-local',
  discard: 'discard-only',
  rfc6052: 'local-use NAT64',
  teredo: 'Teredo tunnel',
  deprecatedOrchid: 'ORCHID',
  orchid2: 'ORCHID',
  droneRemoteIdProtocolEntityTags: 'drone remote ID',
  segmentRouting: 'segment routing (SRv6)',
};

/** IANA's global unicast space: an IPv6 address outside it (and carrying no IPv4 address) is special. */
const GLOBAL_UNICAST = ipaddr.IPv6.parseCIDR('2000::/3');
const NAT64 = ipaddr.IPv6.parseCIDR('64:ff9b::/96');

const ipv4Of = (high: number, low: number) => new ipaddr.IPv4([high >> 8, high & 255, low >> 8, low & 255]);

/**
 * The IPv4 address an IPv6 address carries, in every form that carries one: IPv4-mapped
 * (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d, deprecated but still routed by some stacks),
 * IPv4-translated (::ffff:0:a.b.c.d), NAT64 (64:ff9b::a.b.c.d) and 6to4 (2002:aabb:ccdd::).
 */
function embeddedIpv4(address: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const p = address.parts;
  const range = address.range();
  if (range === 'ipv4Mapped' || range === 'rfc6145' || address.match(NAT64)) return ipv4Of(p[6], p[7]);
  if (range === '6to4') return ipv4Of(p[1], p[2]);
  // ::/96 less :: and ::1, which are the IPv6 unspecified and loopback addresses themselves.
  if (p.slice(0, 6).every((part) => part === 0) && (p[6] !== 0 || p[7] > 1)) return ipv4Of(p[6], p[7]);
  return undefined;
}

/**
 * A list of networks (CIDR) an address may be checked against; throws naming a bad one (src/config/events.ts
 * checks the webhook settings with it).
 */
interface NetworkList {
  check(address: Address): boolean;
}

export function networkList(cidrs: readonly string[]): NetworkList {
  const networks = cidrs.map((cidr) => {
    const text = cidr.trim();
    if (!/^[0-9a-fA-F.:]+\/[0-9]{1,3}$/.test(text) || !ipaddr.isValidCIDR(text)) {
      throw new Error(`${JSON.stringify(cidr)} is no network: write an address and a prefix length, e.g. 10.20.0.0/16`);
    }
    return ipaddr.parseCIDR(text);
  });
  return {
    check: (address) =>
      networks.some(([network, bits]) => network.kind() === address.kind() && address.match(network, bits)),
  };
}

/** A literal IP address (IPv4 in its four-part decimal form only, as a resolver answers), or undefined. */
export function parseAddress(text: string): Address | undefined {
  const bare = text.replace(/^\[|\]$/g, '');
  if (ipaddr.IPv4.isValidFourPartDecimal(bare)) return ipaddr.IPv4.parse(bare);
  if (ipaddr.IPv6.isValid(bare)) return ipaddr.IPv6.parse(bare);
  return undefined;
}

/**
 * Why a connection to `text` (an address) is not allowed, or undefined when it is: the special
 * range it is in, unless `allowed` lists its network; `loopbackAllowed` lets a loopback address
 * through (plain http to a loopback address written in the URL).
 */
export function addressProblem(text: string, allowed: NetworkList, loopbackAllowed = false): string | undefined {
  const address = parseAddress(text);
  if (!address) return `${text} is no IP address`;
  if (allowed.check(address)) return undefined;
  if (address.kind() === 'ipv6') {
    const carried = embeddedIpv4(address as ipaddr.IPv6);
    if (carried) {
      const problem = addressProblem(carried.toString(), allowed, loopbackAllowed);
      return problem && `${text} carries the IPv4 address ${carried}, and ${problem}`;
    }
  }
  const range = address.range();
  if (range === 'loopback' && loopbackAllowed) return undefined;
  const special = range !== 'unicast' || (address.kind() === 'ipv6' && !address.match(GLOBAL_UNICAST));
  if (!special) return undefined;
  const words = RANGE_WORDS[range] ?? (range === 'unicast' ? 'non-global (outside 2000::/3)' : range);
  return (
    `${text} is a ${words} address (allow its network with WEBHOOK_ALLOWED_NETWORKS if the receiver really ` +
    `is there)`
  );
}

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Why a URL cannot be a webhook's (its form, before any address is known); undefined when it can.
 * The WHATWG parser drops a tab, CR or LF anywhere and spaces and controls at either end, and
 * escapes a space within: a URL holding one is refused rather than stored as other than typed.
 */
export function webhookUrlProblem(text: string, allowHttpLoopback: boolean): string | undefined {
  if (text.length > MAX_WEBHOOK_URL_LENGTH)
    return `a webhook URL is at most ${MAX_WEBHOOK_URL_LENGTH} characters, not ${text.length}`;
  if (/[\s\p{Cc}]/u.test(text))
    return (
      `${JSON.stringify(text)} holds a space or a control character: a webhook URL holds neither (write a ` +
      `space as %20)`
    );
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return `${JSON.stringify(text)} is no URL`;
  }
  if (url.username || url.password)
    return 'a webhook URL carries no user name or password (the signature proves the sender)';
  if (url.hash) return 'a webhook URL has no #fragment';
  if (url.port === '0')
    return "a webhook URL names no port 0, which no receiver listens at: name its port, or none for the scheme's own";
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:') {
    if (!allowHttpLoopback)
      return 'only https URLs (plain http only to a loopback address, with WEBHOOK_ALLOW_HTTP=loopback)';
    const literal = parseAddress(url.hostname);
    if (!LOOPBACK_NAMES.has(url.hostname) && !(literal?.kind() === 'ipv4' && literal.range() === 'loopback')) {
      return (
        `plain http only to a loopback address written in the URL (127.0.0.1, [::1], localhost), ` +
        `not ${url.hostname}`
      );
    }
    return undefined;
  }
  return `only https URLs, not ${url.protocol.slice(0, -1)}`;
}

/** The URL a webhook is stored and shown as: the WHATWG parser's form of one webhookUrlProblem takes. */
export const normalisedWebhookUrl = (text: string) => new URL(text).href;
