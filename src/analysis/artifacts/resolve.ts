// URL values of a page resolved against its document base (docs/checks.md §4.4), each distinct value
// once. Most links are plain absolute http(s) URLs or root-relative paths, for which the WHATWG
// parser changes nothing but the fragment: those are resolved by hand, the rest by `new URL`
// (which took about a tenth of the artifacts' time on corpus A). test/analysis/resolve.test.ts
// holds the shortcut to `new URL` on generated and real values.

import { hostKey, isHttp, parseUrl, withoutFragment } from '../urls.js';
import type { PageUrl } from './types.js';

/** One shared string per common scheme rather than one per link. */
const SCHEMES = new Map(['http:', 'https:', 'mailto:', 'tel:', 'javascript:', 'data:', 'ftp:'].map((p) => [p, p]));

/**
 * A path and query the URL parser keeps as written: no character it would percent-encode or
 * read specially (`%`, `'`, `\`, brackets, spaces…), and no segment that starts with a dot
 * (`.` and `..` segments are removed).
 */
const PLAIN_PATH = /^(?:\/(?!\.)[A-Za-z0-9\-._~!$&()*+,;=:@]*)*(?:\?[A-Za-z0-9\-._~!$&()*+,;=:@/?]*)?$/;

/**
 * `http(s)://host` with a lower-case host of letters, digits and hyphens, no port or user info.
 * A punycode label (`xn--`) is checked by the parser, and a last label that is a number makes an
 * IPv4 address: both are left to it.
 */
const PLAIN_ORIGIN = /^(https?):\/\/((?:[a-z0-9-]+\.)*[a-z0-9-]+)(?=[/?#]|$)/;
const NUMERIC_LABEL = /(?:^|\.)(?:\d+|0x[0-9a-f]*)$/;

/** The value without its fragment, or null when what is left is not PLAIN_PATH after `from`. */
function plainRest(raw: string, from: number): string | null {
  const hash = raw.indexOf('#', from);
  const rest = hash === -1 ? raw.slice(from) : raw.slice(from, hash);
  return PLAIN_PATH.test(rest) ? rest : null;
}

export interface Resolver {
  /** The value resolved: as reported, scheme, host, internal. */
  resolve(raw: string): PageUrl;
  /** The resolved path, or null when the value does not resolve (an image's format). */
  pathname(raw: string): string | null;
}

/** `shortcut: false` asks the parser for every value (for tests to hold the shortcut to). */
export function resolverFor(finalUrl: string, baseHrefs: readonly string[], { shortcut: byHand = true } = {}): Resolver {
  const page = parseUrl(finalUrl);
  const pageHost = page ? hostKey(page.hostname) : null;
  // The document base: the first <base href> that resolves, else the page itself.
  let base: URL | null = page;
  for (const href of baseHrefs) {
    const resolved = page && parseUrl(href, page);
    if (resolved) {
      base = resolved;
      break;
    }
  }
  const baseHttp = base !== null && isHttp(base);
  const baseOrigin = baseHttp ? base!.origin : '';
  const baseScheme = baseHttp ? SCHEMES.get(base!.protocol)! : '';
  const baseHost = baseHttp ? hostKey(base!.hostname) : '';

  /** By hand, for the plain cases; null: ask the parser. */
  const shortcut = (raw: string): PageUrl | null => {
    if (raw.charCodeAt(0) === 0x2f /* / */) {
      // Root-relative (not `//host`): the base's origin, then the path as written.
      if (!baseHttp || raw.charCodeAt(1) === 0x2f) return null;
      const rest = plainRest(raw, 0);
      return rest === null
        ? null
        : { url: baseOrigin + rest, scheme: baseScheme, host: baseHost, internal: baseHost === pageHost };
    }
    const origin = PLAIN_ORIGIN.exec(raw);
    if (origin === null || origin[2].startsWith('xn--') || origin[2].includes('.xn--') || NUMERIC_LABEL.test(origin[2]))
      return null;
    const rest = plainRest(raw, origin[0].length);
    if (rest === null) return null;
    const host = hostKey(origin[2]);
    return {
      url: `${origin[0]}${rest.startsWith('/') ? '' : '/'}${rest}`,
      scheme: origin[1] === 'https' ? 'https:' : 'http:',
      host,
      internal: pageHost !== null && host === pageHost,
    };
  };

  const parsed = (raw: string): PageUrl => {
    const url = parseUrl(raw, base);
    const host = url ? hostKey(url.hostname) : '';
    return {
      url: url ? withoutFragment(url) : raw,
      scheme: url ? (SCHEMES.get(url.protocol) ?? url.protocol) : null,
      host,
      internal: url !== null && pageHost !== null && isHttp(url) && host === pageHost,
    };
  };

  const seen = new Map<string, PageUrl>();
  return {
    resolve(raw) {
      let resolved = seen.get(raw);
      if (resolved === undefined) {
        resolved = (byHand ? shortcut(raw) : null) ?? parsed(raw);
        seen.set(raw, resolved);
      }
      return resolved;
    },
    pathname: (raw) => parseUrl(raw, base)?.pathname ?? null,
  };
}
