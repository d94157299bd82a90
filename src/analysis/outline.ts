// What a site crawl needs of a parsed page beyond its checks: where its links lead and what it
// names as canonical. Computed beside the icon decision, in the thread that parsed the page.
import type { Artifacts } from './artifacts/index.js';
import { crawlFacts, type CrawlFacts } from './crawl-facts.js';

export interface PageOutline {
  /** Distinct http(s) `<a href>` targets, absolute, without fragments, in document order (capped). */
  links: string[];
  /** The first `<link rel=canonical>` href, resolved against the page; null when none resolves. */
  canonical: string | null;
  /** What the crawl's issue catalogue needs of the page; null when the page could not be outlined. */
  crawl: CrawlFacts | null;
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
  return { links: [...links], canonical, crawl: crawlFacts(artifacts) };
}
