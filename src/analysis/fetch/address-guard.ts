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

/**
 * ALLOW_PRIVATE_ADDRESSES: `false` (only public addresses), `true` (any address), or a list of
 * addresses and CIDR ranges (`127.0.0.2/32`, `10.1.0.0/16`, `fd00::/8`): only those non-public
 * addresses become reachable.
 */
export type PrivateAddressAllowance = boolean | readonly string[];

export interface AddressPolicy {
  allowPrivateAddresses: PrivateAddressAllowance;
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

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** An IPv4-mapped IPv6 address (`::ffff:a.b.c.d`) is the IPv4 address it reaches. */
function unmapped(ip: ipaddr.IPv4 | ipaddr.IPv6): ipaddr.IPv4 | ipaddr.IPv6 {
  return ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress() ? (ip as ipaddr.IPv6).toIPv4Address() : ip;
}

/**
 * One entry of an ALLOW_PRIVATE_ADDRESSES list: an address (a range of one) or a CIDR range,
 * in canonical notation only (no `127.1` or hex spellings) and without host bits set past the
 * prefix, so what is written is exactly what is opened. Throws with what is wrong.
 */
export function parseAddressRange(entry: string): Range {
  const [address, prefix, extra] = entry.split('/');
  if (extra !== undefined || isIP(address) === 0) throw new Error(`"${entry}" is not an address or a CIDR range`);
  const ip = ipaddr.parse(address);
  const bits = ip.kind() === 'ipv4' ? 32 : 128;
  if (prefix !== undefined && (!/^\d{1,3}$/.test(prefix) || Number(prefix) > bits)) {
    throw new Error(`"${entry}" has an invalid prefix length (0 to ${bits})`);
  }
  const length = prefix === undefined ? bits : Number(prefix);
  if (prefix !== undefined) {
    const network = ip.kind() === 'ipv4' ? ipaddr.IPv4.networkAddressFromCIDR(entry) : ipaddr.IPv6.networkAddressFromCIDR(entry);
    if (network.toString() !== ip.toString()) {
      throw new Error(`"${entry}" has host bits set (the range is ${network.toString()}/${length})`);
    }
  }
  // `::ffff:10.0.0.0/104` is the IPv4 range 10.0.0.0/8.
  if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress() && length >= 96) {
    return [(ip as ipaddr.IPv6).toIPv4Address(), length - 96];
  }
  return [ip, length];
}

/**
 * ALLOW_PRIVATE_ADDRESSES as written: `true`/`false` (and 1/0, yes/no, on/off), or a
 * comma-separated list of addresses and CIDR ranges. Throws with what was expected.
 */
export function parsePrivateAddressAllowance(raw: string): PrivateAddressAllowance {
  const value = raw.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(value)) return true;
  if (['0', 'false', 'no', 'off'].includes(value)) return false;
  const entries = value.split(',').map((e) => e.trim());
  if (entries.some((e) => e === '')) throw new Error('true, false, or a comma-separated list of addresses and CIDR ranges');
  for (const entry of entries) {
    try {
      parseAddressRange(entry);
    } catch (error) {
      throw new Error(`true, false, or a comma-separated list of addresses and CIDR ranges: ${(error as Error).message}`);
    }
  }
  return Object.freeze(entries);
}

// A policy's list is parsed once (the lists are configuration, made once per process).
const parsedLists = new WeakMap<readonly string[], Range[]>();

function rangesOf(list: readonly string[]): Range[] {
  let ranges = parsedLists.get(list);
  if (ranges === undefined) {
    ranges = list.map(parseAddressRange);
    parsedLists.set(list, ranges);
  }
  return ranges;
}

/** True when `address` (a literal, brackets allowed) lies in one of the list's ranges. */
export function inAddressList(address: string, list: readonly string[]): boolean {
  const bare = address.replace(/^\[(.*)\]$/, '$1');
  if (isIP(bare) === 0) return false;
  const ip = unmapped(ipaddr.parse(bare));
  return rangesOf(list).some(([network, length]) => network.kind() === ip.kind() && ip.match(network, length));
}

export function isAllowedAddress(address: string, policy: AddressPolicy): boolean {
  const allowance = policy.allowPrivateAddresses;
  if (allowance === true || policy.treatAsPublic?.(address) === true || isPublicAddress(address)) return true;
  return allowance !== false && inAddressList(address, allowance);
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
  // RFC 6761: these names are loopback whatever a resolver says (and some resolvers say nothing),
  // so only a guard that allows every address lets them through; a list names addresses.
  const name = bare.toLowerCase().replace(/\.$/, '');
  if (policy.allowPrivateAddresses !== true && (name === 'localhost' || name.endsWith('.localhost'))) {
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
