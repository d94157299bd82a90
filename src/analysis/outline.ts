// What a site crawl needs of a parsed page beyond its checks: where its links lead and what it
// names as canonical. Computed beside the icon decision, in the thread that parsed the page.
import type { Artifacts } from './artifacts/index.js';
import { crawlFacts, type CrawlFacts } from './crawl-facts.js';
import { pageView, type PageView } from './render-diff.js';

export interface PageOutline {
  /** Distinct http(s) `<a href>` targets, absolute, without fragments, in document order (capped). */
  links: string[];
  /** The first `<link rel=canonical>` href, resolved against the page; null when none resolves. */
  canonical: string | null;
  /** Distinct http(s) `<img src>` URLs, absolute, without fragments, in document order (capped): each is checked. */
  images: string[];
  /** Distinct http(s) hreflang alternates of the head (`<link rel=alternate hreflang href>`), resolved against the page. */
  hreflang: string[];
  /** What the crawl's issue catalogue needs of the page; null when the page could not be outlined. */
  crawl: CrawlFacts | null;
  /** Title, description, h1, noindex and words: what a rendered crawl compares between raw HTML and DOM; null when not outlined. */
  view: PageView | null;
}

/** A crawl follows this many distinct links of one page at most (a 100,000-link page stays bounded). */
export const MAX_OUTLINE_LINKS = 5000;

export function pageOutline(artifacts: Artifacts): PageOutline {
  const links = new Set<string>();
  for (const anchor of artifacts.links) {
    if (links.size >= MAX_OUTLINE_LINKS) break;
    const { scheme, url } = anchor.resolved;
    if (scheme === 'http:' || scheme === 'https:') links.add(url);
  }
  let canonical: string | null = null;
  for (const link of artifacts.head.links) {
    if (!link.rel.includes('canonical') || link.href === null || link.href.trim() === '') continue;
    try {
      const url = new URL(link.href.trim(), artifacts.url);
      url.hash = '';
      canonical = url.href;
    } catch {
      // an unresolvable canonical names nothing
    }
    break;
  }
  const images = new Set<string>();
  for (const image of artifacts.images) {
    if (images.size >= MAX_OUTLINE_LINKS) break;
    const src = image.src;
    if (src !== null && (src.scheme === 'http:' || src.scheme === 'https:')) images.add(src.url);
  }
  const hreflang = new Set<string>();
  for (const link of artifacts.head.links) {
    if (hreflang.size >= MAX_OUTLINE_LINKS) break;
    if (link.hreflang === null || !link.rel.includes('alternate') || link.href === null || link.href.trim() === '') continue;
    const url = resolved(link.href, artifacts.url);
    if (url !== null && (url.startsWith('http:') || url.startsWith('https:'))) hreflang.add(url);
  }
  return {
    links: [...links],
    canonical,
    images: [...images],
    hreflang: [...hreflang],
    crawl: crawlFacts(artifacts),
    view: pageView(artifacts),
  };
}

/** `href` (trimmed) resolved against `base`, without its fragment; null when it does not resolve. */
function resolved(href: string, base: string): string | null {
  try {
    const url = new URL(href.trim(), base);
    url.hash = '';
    return url.href;
  } catch {
    return null;
  }
}
