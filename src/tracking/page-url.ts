// What is stored of a page's address and its referrer (docs/analytics.md): the website's
// exclude_params and the utm/ref parameters removed, source and campaign read first.
import { storableText } from '../model/text.js';
import { parseUrl } from './event-input.js';

const CAMPAIGN_PARAMS = ['utm_source', 'utm_medium', 'utm_campaign', 'utm_term', 'utm_content', 'ref'];
const MAX_VALUE = 255;

export interface CleanedPage {
  /** Path and the remaining query; no fragment, unless the page uses hash routing. */
  page: string;
  /** utm_source, else ref, else the referrer's host (none when it is the site itself). */
  source: string | null;
  campaign: string | null;
  /** The referrer's host, lower-cased; none for the site itself (www. or not) or no referrer. */
  referrer: string | null;
}

/**
 * `excluded`: the website's exclude_params, one name per line (null: none). `hashRouting`
 * (Plausible's `h`): the fragment names the page (`/#/pricing`), so it is kept.
 */
export function cleanPage(url: URL, referrer: string | null, excluded: string | null, hashRouting = false): CleanedPage {
  let page = url.pathname || '/';
  let utmSource: string | null = null;
  let ref: string | null = null;
  let campaign: string | null = null;
  // Most pages have no query: nothing to read or remove.
  if (url.search !== '') {
    const removed = removedParams(excluded);
    const query = url.searchParams;
    utmSource = clip(query.get('utm_source'));
    ref = clip(query.get('ref'));
    campaign = clip(query.get('utm_campaign'));
    const kept = new URLSearchParams();
    for (const [name, value] of query) if (!removed.has(name)) kept.append(name, value);
    const search = kept.toString();
    if (search) page += `?${search}`;
  }
  if (hashRouting && url.hash.length > 1) page += url.hash;

  const referrerHost = hostOf(referrer);
  const sameSite = referrerHost !== null && bareHost(referrerHost) === bareHost(url.hostname.toLowerCase());
  const referrerValue = referrerHost === null || sameSite ? null : referrerHost.slice(0, MAX_VALUE);
  return { page, source: utmSource ?? ref ?? referrerValue, campaign, referrer: referrerValue };
}

/** The parameters removed from a website's pages, by its exclude_params (few distinct lists: kept). */
const removedSets = new Map<string | null, ReadonlySet<string>>();

function removedParams(excluded: string | null): ReadonlySet<string> {
  let removed = removedSets.get(excluded);
  if (removed === undefined) {
    removed = new Set([...(excluded ? excluded.split('\n') : []), ...CAMPAIGN_PARAMS]);
    if (removedSets.size >= 1000) removedSets.clear();
    removedSets.set(excluded, removed);
  }
  return removed;
}

function hostOf(referrer: string | null): string | null {
  if (!referrer) return null;
  const url = parseUrl(referrer);
  if (url === null) return null;
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  return url.hostname.toLowerCase() || null;
}

function bareHost(host: string): string {
  return host.startsWith('www.') ? host.slice(4) : host;
}

/** A decoded query value as stored: NULs (`%00`) removed, trimmed, cut; empty is none. */
function clip(value: string | null): string | null {
  const trimmed = value == null ? undefined : storableText(value).trim();
  return trimmed ? trimmed.slice(0, MAX_VALUE) : null;
}

/**
 * Whether a page's host belongs to the website: its domain or a subdomain of it, where a
 * domain `www.example.com` also matches `example.com` (and its subdomains).
 */
export function hostMatchesDomain(host: string, domain: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  const d = domain.toLowerCase();
  const matches = (base: string) => h === base || h.endsWith(`.${base}`);
  return matches(d) || (d.startsWith('www.') && matches(d.slice(4)));
}
