// Whom a per-address limit counts. One IPv6 client usually holds a whole /64 (an ISP hands out at
// least that, and privacy extensions pick a new address in it every few hours or per
// connection), so counting full IPv6 addresses would let one client take 2^64 budgets. An
// IPv4-mapped IPv6 address (::ffff:a.b.c.d, what a dual-stack socket reports) is its IPv4 client.
import ipaddr from 'ipaddr.js';

/** `a.b.c.d` for an IPv4 client (mapped or not), `x:x:x:x::/64` for an IPv6 one; anything else as given. */
export function addressKey(address: string): string {
  if (!address.includes(':')) return address; // IPv4, the common case: no parsing
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address);
  } catch {
    return address;
  }
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const v6 = parsed as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString();
  const [a, b, c, d] = v6.parts;
  return `${[a, b, c, d].map((part) => part.toString(16)).join(':')}::/64`;
}
