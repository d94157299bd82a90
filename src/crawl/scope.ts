// Which URLs a crawl may visit, spelled one way each: absolute http(s), no fragment, no
// credentials, scheme and host lower-cased and default ports dropped (the WHATWG parser does
// both), on the start page's host or its `www.` twin.
import { MAX_URL_LENGTH } from '../analysis/urls.js';

/** The host without one leading `www.`: the start host and its twin share it. */
export function siteHostOf(url: string): string {
  return new URL(url).hostname.toLowerCase().replace(/^www\./, '');
}

/** `href` resolved against `base` and normalised; null when it is not a URL a crawl fetches. */
export function crawlUrl(href: string, base?: string): string | null {
  let url: URL;
  try {
    url = new URL(href, base);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.username !== '' || url.password !== '' || url.hostname === '') return null;
  url.hash = '';
  return url.href.length > MAX_URL_LENGTH ? null : url.href;
}

/** On the site's host or its www. twin (any port: the start URL's origin decides nothing more). */
export function inScope(url: string, siteHost: string): boolean {
  const host = new URL(url).hostname.toLowerCase();
  return host === siteHost || host === `www.${siteHost}`;
}
