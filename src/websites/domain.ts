// A website's domain: a host name (IDN as punycode, lower-case) or an IP literal (IPv6 without
// brackets, compressed), with no scheme, path or port: what a browser's URL parser makes of it.
import { isIP } from 'node:net';

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/**
 * `https://www.Example.com:8080/x` → `www.example.com`, `[::1]` or `::1` → `::1`,
 * `http://127.0.0.1:8080/` → `127.0.0.1`; null when it is neither a host name nor an IP literal.
 */
export function normalizeDomain(input: string): string | null {
  const text = input.trim();
  if (text === '' || text.length > 2048 || /\s/.test(text)) return null;
  const hasScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text);
  if (hasScheme && !/^https?:\/\//i.test(text)) return null;
  // A bare IPv6 address has colons a URL would read as a port: bracket it first.
  const authority = hasScheme ? text : isIP(text) === 6 ? `http://[${text}]` : `http://${text}`;
  let host: string;
  try {
    host = new URL(authority).hostname; // WHATWG: IDN → punycode, lower-case, IPv4 and IPv6 normalised
  } catch {
    return null;
  }
  if (host.startsWith('[')) {
    const v6 = host.slice(1, -1);
    return isIP(v6) === 6 ? v6 : null;
  }
  if (isIP(host) === 4) return host;
  host = host.replace(/\.$/, '');
  if (host.length === 0 || host.length > 253) return null;
  const labels = host.split('.');
  if (labels.length < 2 || !labels.every((l) => LABEL.test(l))) return null;
  if (/^[0-9]+$/.test(labels[labels.length - 1])) return null; // a TLD is never all digits
  return host;
}
