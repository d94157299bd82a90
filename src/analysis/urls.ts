// URL resolution and classification (docs/checks.md §4.4).

/**
 * The longest URL the service analyses and stores as a report's url: it bounds a submitted
 * address and every redirect target. Here so that analyze.ts and the fetch session can both
 * import it without importing each other.
 */
export const MAX_URL_LENGTH = 2048;

/** Parses `raw` against `base`; null when it does not parse. */
export function parseUrl(raw: string, base?: URL | string | null): URL | null {
  try {
    return base == null ? new URL(raw) : new URL(raw, base);
  } catch {
    return null;
  }
}

/** The URL as reported: absolute and without its fragment. */
export function withoutFragment(url: URL): string {
  // A serialised URL has no '#' other than the one opening the fragment.
  const hash = url.href.indexOf('#');
  return hash === -1 ? url.href : url.href.slice(0, hash);
}

/** Host compared for internal links: lower-cased, one leading `www.` removed. */
export function hostKey(hostname: string): string {
  const h = hostname.toLowerCase();
  return h.startsWith('www.') ? h.slice(4) : h;
}

export function isHttp(url: URL): boolean {
  return url.protocol === 'http:' || url.protocol === 'https:';
}

/** The scheme, host and port of a URL, e.g. `http://127.0.0.1:8080`. */
export function originOf(url: string): string {
  const parsed = parseUrl(url);
  return parsed ? parsed.origin : url;
}

/**
 * The URL part of the first srcset candidate, as the HTML srcset parser reads it: leading
 * whitespace and commas skipped, then a run of non-whitespace with trailing commas removed.
 */
export function firstSrcsetUrl(srcset: string): string {
  const m = /^[\s,]*(\S+)/.exec(srcset);
  return m ? m[1].replace(/,+$/, '') : '';
}
