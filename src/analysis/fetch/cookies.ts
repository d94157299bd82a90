// Cookies for one redirect chain: many sites set a cookie on the first hop and redirect until
// it comes back. Kept in memory for that chain only (RFC 6265 matching, simplified: no public
// suffix list, which matters little when the jar lives for a few hops).
import { isIP } from 'node:net';
import { parseCookie } from 'undici';

interface StoredCookie {
  name: string;
  value: string;
  /** Lower-cased; with `hostOnly` the cookie goes back to exactly this host. */
  domain: string;
  hostOnly: boolean;
  path: string;
  secure: boolean;
}

function defaultPath(url: URL): string {
  const path = url.pathname;
  const slash = path.lastIndexOf('/');
  return slash <= 0 ? '/' : path.slice(0, slash);
}

function domainMatches(host: string, domain: string): boolean {
  return host === domain || (host.endsWith(`.${domain}`) && isIP(host) === 0);
}

function pathMatches(requestPath: string, cookiePath: string): boolean {
  if (requestPath === cookiePath) return true;
  if (!requestPath.startsWith(cookiePath)) return false;
  return cookiePath.endsWith('/') || requestPath[cookiePath.length] === '/';
}

function isExpired(cookie: { maxAge?: number; expires?: Date | number }, now: number): boolean {
  if (cookie.maxAge !== undefined) return cookie.maxAge <= 0;
  if (cookie.expires !== undefined) return new Date(cookie.expires).getTime() <= now;
  return false;
}

export class CookieJar {
  private cookies: StoredCookie[] = [];

  /** Stores the `Set-Cookie` values of a response to `url`. */
  store(url: URL, setCookie: string | string[] | undefined): void {
    if (setCookie === undefined) return;
    const host = url.hostname.toLowerCase();
    for (const line of Array.isArray(setCookie) ? setCookie : [setCookie]) {
      const parsed = parseCookie(line);
      if (parsed === null || parsed.name === '') continue;
      const domain = parsed.domain?.replace(/^\./, '').toLowerCase();
      if (domain !== undefined && domain !== '' && !domainMatches(host, domain)) continue;
      const cookie: StoredCookie = {
        name: parsed.name,
        value: parsed.value,
        domain: domain || host,
        hostOnly: !domain,
        path: parsed.path?.startsWith('/') ? parsed.path : defaultPath(url),
        secure: parsed.secure === true,
      };
      this.cookies = this.cookies.filter(
        (c) => !(c.name === cookie.name && c.domain === cookie.domain && c.path === cookie.path),
      );
      if (!isExpired(parsed, Date.now())) this.cookies.push(cookie);
    }
  }

  /** The `Cookie` header for a request to `url`, or undefined when no cookie applies. */
  header(url: URL): string | undefined {
    const host = url.hostname.toLowerCase();
    const matching = this.cookies
      .filter((c) => (c.hostOnly ? host === c.domain : domainMatches(host, c.domain)))
      .filter((c) => pathMatches(url.pathname, c.path))
      .filter((c) => !c.secure || url.protocol === 'https:')
      // RFC 6265 §5.4: longer paths first.
      .sort((a, b) => b.path.length - a.path.length);
    return matching.length === 0 ? undefined : matching.map((c) => `${c.name}=${c.value}`).join('; ');
  }
}
