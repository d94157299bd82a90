// The SSRF guard: decides whether an address may be connected to, and resolves host names
// into the one address the connector will actually use (so there is no DNS-rebinding gap:
// the address checked is the address connected to).
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { FetchError } from '../errors.js';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export interface AddressPolicy {
  allowPrivateAddresses: boolean;
  /** Test-only: addresses to treat as public (models an allowed host on loopback). */
  treatAsPublic?: (address: string) => boolean;
}

/** IANA's global unicast block; everything else in IPv6 is special-purpose or unassigned. */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');
const NAT64_WELL_KNOWN = ipaddr.parseCIDR('64:ff9b::/96');

function ipv4FromParts(high: number, low: number): ipaddr.IPv4 {
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}

/**
 * The IPv4 address an IPv6 address really reaches, when it embeds one; `null` when it embeds
 * none; `'refuse'` for tunnelling forms whose real target cannot be checked (Teredo, NAT64
 * local-use prefixes).
 */
function embeddedIPv4(ip: ipaddr.IPv6): ipaddr.IPv4 | null | 'refuse' {
  const p = ip.parts;
  switch (ip.range()) {
    case 'ipv4Mapped':
    case 'rfc6145':
      return ipv4FromParts(p[6], p[7]);
    case 'rfc6052':
      return ip.match(NAT64_WELL_KNOWN) ? ipv4FromParts(p[6], p[7]) : 'refuse';
    case '6to4':
      return ipv4FromParts(p[1], p[2]);
    case 'teredo':
      return 'refuse';
    default:
      return null;
  }
}

/**
 * True for globally routable unicast addresses only: loopback, private, link-local, CGNAT,
 * multicast, broadcast, unspecified, documentation and other reserved ranges are refused, and
 * IPv6 forms that embed an IPv4 address are judged by that address. Input must be a literal
 * address in canonical form (hostnames and odd IPv4 spellings are not addresses here).
 */
export function isPublicAddress(address: string): boolean {
  const bare = address.replace(/^\[(.*)\]$/, '$1');
  if (isIP(bare) === 0) return false;
  const ip = ipaddr.parse(bare);
  if (ip.kind() === 'ipv4') return ip.range() === 'unicast';
  const v6 = ip as ipaddr.IPv6;
  const embedded = embeddedIPv4(v6);
  if (embedded === 'refuse') return false;
  if (embedded !== null) return embedded.range() === 'unicast';
  return v6.range() === 'unicast' && v6.match(GLOBAL_UNICAST_V6);
}

export function isAllowedAddress(address: string, policy: AddressPolicy): boolean {
  return policy.allowPrivateAddresses || policy.treatAsPublic?.(address) === true || isPublicAddress(address);
}

export const systemResolver: Resolver = async (hostname) => {
  const answers = await lookup(hostname, { all: true, verbatim: true });
  return answers.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));
};

/**
 * The address to connect to for `hostname` (a URL hostname, IPv6 in brackets or not).
 * Refused when the literal, or ANY address the resolver answers, is not allowed: one private
 * answer among public ones is enough to refuse, since the next lookup may prefer it.
 */
export async function resolveAllowedAddress(
  hostname: string,
  resolver: Resolver,
  policy: AddressPolicy,
): Promise<ResolvedAddress> {
  const bare = hostname.replace(/^\[(.*)\]$/, '$1');
  const literalFamily = isIP(bare);
  if (literalFamily !== 0) {
    if (!isAllowedAddress(bare, policy)) throw new FetchError('blocked_address');
    return { address: bare, family: literalFamily === 6 ? 6 : 4 };
  }
  // RFC 6761: these names are loopback whatever a resolver says (and some resolvers say nothing).
  const name = bare.toLowerCase().replace(/\.$/, '');
  if (!policy.allowPrivateAddresses && (name === 'localhost' || name.endsWith('.localhost'))) {
    throw new FetchError('blocked_address');
  }
  let answers: ResolvedAddress[];
  try {
    answers = await resolver(bare);
  } catch (cause) {
    throw new FetchError('dns', { cause });
  }
  if (answers.length === 0) throw new FetchError('dns');
  if (!answers.every((a) => isAllowedAddress(a.address, policy))) throw new FetchError('blocked_address');
  return answers[0];
}
