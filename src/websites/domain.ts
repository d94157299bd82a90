// A website's domain: a host name, IDN as punycode, lower-case, no scheme, path or port.
import { isIP } from 'node:net';

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/** `https://www.Example.com:8080/x` → `www.example.com`; null when it is not a host name. */
export function normalizeDomain(input: string): string | null {
  const text = input.trim();
  if (text === '' || text.length > 2048 || /\s/.test(text)) return null;
  const hasScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text);
  if (hasScheme && !/^https?:\/\//i.test(text)) return null;
  let host: string;
  try {
    host = new URL(hasScheme ? text : `http://${text}`).hostname; // WHATWG: IDN → punycode, lower-case
  } catch {
    return null;
  }
  host = host.replace(/\.$/, '');
  if (host.length === 0 || host.length > 253 || host.startsWith('[') || isIP(host)) return null;
  const labels = host.split('.');
  if (labels.length < 2 || !labels.every((l) => LABEL.test(l))) return null;
  if (/^[0-9]+$/.test(labels[labels.length - 1])) return null; // a TLD is never all digits
  return host;
}
