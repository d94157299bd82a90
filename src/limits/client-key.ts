// The key a client address counts under in the abuse limits: an IPv4 address as it is (an
// IPv4-mapped IPv6 one too), an IPv6 address by its /64, the block one subscriber usually holds,
// so hopping between the addresses of one's own /64 buys no extra budget.
import ipaddr from 'ipaddr.js';

export function clientKey(address: string): string {
  if (!ipaddr.isValid(address)) return address; // not an address (a unix socket, a test's inject): as it is
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16));
  return `${parts.join(':')}::/64`;
}
