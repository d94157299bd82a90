// What a crawled page refers to that the crawl checks (docs/external-links.md): its links to other
// hosts, every image (its own host included) and its hreflang targets on other hosts. A URL the
// page names twice is one target; spelled as the crawl spells URLs (scope.ts).
import type { PageOutline } from '../../analysis/outline.js';
import type { LinkTarget } from '../../db/crawl-links-repository.js';
import { crawlUrl, inScope } from '../scope.js';

export function pageTargets(outline: Pick<PageOutline, 'links' | 'images' | 'hreflang'>, siteHost: string): LinkTarget[] {
  const targets: LinkTarget[] = [];
  const seen = new Set<string>();
  const add = (href: string, kind: LinkTarget['kind'], otherHostOnly: boolean) => {
    const url = crawlUrl(href);
    if (url === null || (otherHostOnly && inScope(url, siteHost))) return;
    const key = `${kind} ${url}`;
    if (seen.has(key)) return;
    seen.add(key);
    targets.push({ url, kind });
  };
  for (const href of outline.links) add(href, 'link', true);
  for (const href of outline.images) add(href, 'image', false);
  for (const href of outline.hreflang) add(href, 'hreflang', true);
  return targets;
}
