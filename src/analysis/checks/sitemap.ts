import { Type } from '@sinclair/typebox';
import { mediaType } from '../headers.js';
import { robotsSitemapUrls } from '../probes.js';
import type { PageSnapshot } from '../types.js';
import { oneLine, plural } from '../wording.js';
import { defineCheck, fail } from './define-check.js';
import { countOf } from './shapes.js';

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
export const sitemap = defineCheck({
  name: 'sitemap',
  position: 270,
  importance: 'low',
  title: 'Sitemap',
  why: 'A sitemap helps search engines find every page of the site.',
  fix: 'Publish an XML sitemap and list it in robots.txt with a "Sitemap:" line.',
  /** The sitemaps' URLs. */
  value: Type.Array(Type.String()),
  errors: { failed: Type.Null() },

  run({ snapshot }) {
    const value = sitemapsOf(snapshot);
    return value.length > 0 ? { value } : { value, failure: fail('failed', null) };
  },

  describe({ passed, value, failure, cuts }) {
    if (failure?.key === 'failed') return 'No sitemap listed in robots.txt or found at /sitemap.xml.';
    if (!passed || value === undefined) return null;
    const count = countOf(value, cuts.value());
    if (count === 0) return null;
    if (count === 1 && value[0].length <= 100) return `Sitemap found at ${oneLine(value[0], 100)}.`;
    return `${plural(count, 'sitemap')} found.`;
  },

  view: { value: { kind: 'list', caption: null, noun: 'sitemaps', item: { kind: 'url' }, skipIfDescribed: true }, error: null },
});
