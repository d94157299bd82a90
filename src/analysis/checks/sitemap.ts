import { mediaType } from '../headers.js';
import { robotsSitemapUrls } from '../probes.js';
import type { PageSnapshot } from '../types.js';
import { defineCheck, fail } from './check.js';

function isXml(contentType: string | null, bodyStart: string): boolean {
  const type = mediaType(contentType);
  if (type === 'application/xml' || type === 'text/xml' || type.endsWith('+xml')) return true;
  return /^\uFEFF?\s*<(\?xml|urlset|sitemapindex)/.test(bodyStart);
}

function sitemapsOf(snapshot: PageSnapshot): string[] {
  const robots = snapshot.robots;
  if (!('error' in robots) && robots.status >= 200 && robots.status < 300) {
    const listed = robotsSitemapUrls(robots.body, robots.url);
    if (listed.length > 0) return listed;
  }
  const probe = snapshot.sitemapProbe;
  if (probe !== null && !('error' in probe) && probe.status === 200 && isXml(probe.contentType, probe.bodyStart)) {
    return [probe.url];
  }
  return [];
}

/** Sitemap: lines in robots.txt, else an XML /sitemap.xml (§5.3). */
export const sitemap = defineCheck('sitemap', 'low', ({ snapshot }) => {
  const value = sitemapsOf(snapshot);
  return value.length > 0 ? { value } : { value, failure: fail('failed') };
});
