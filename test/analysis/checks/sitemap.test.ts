import type { SitemapProbe } from '../../../src/analysis/types.js';
import { table } from './helpers.js';

const low = 'low' as const;
const html = '<p>x</p>';
const robotsUrl = 'http://example.test:8080/robots.txt';
const withRobots = (body: string, sitemapProbe: SitemapProbe = null) => ({
  html,
  finalUrl: 'http://example.test:8080/page',
  robots: { url: robotsUrl, status: 200, body },
  sitemapProbe,
});
const probe = (status: number, contentType: string | null, bodyStart = '') => ({
  url: 'http://example.test:8080/sitemap.xml',
  status,
  contentType,
  bodyStart,
});
const none = { passed: false, importance: low, value: [], errors: { failed: null } };
const found = (...urls: string[]) => ({ passed: true, importance: low, value: urls });

table('sitemap', [
  {
    name: 'Sitemap: lines anywhere, resolved against robots.txt, deduplicated',
    input: withRobots(
      'sitemap: /a.xml\nUser-agent: *\nDisallow: /x\nSITEMAP: http://example.test:8080/a.xml\nSitemap: https://cdn.example/b.xml#f',
    ),
    expected: found('http://example.test:8080/a.xml', 'https://cdn.example/b.xml'),
  },
  { name: 'no Sitemap: line and no probe: failed', input: withRobots('User-agent: *\nDisallow:'), expected: none },
  { name: 'robots.txt 404 and no probe: failed', input: html, expected: none },
  {
    name: '/sitemap.xml with an XML type',
    input: withRobots('', probe(200, 'application/xml; charset=utf-8')),
    expected: found('http://example.test:8080/sitemap.xml'),
  },
  {
    name: '/sitemap.xml as text/xml',
    input: withRobots('', probe(200, 'text/xml')),
    expected: found('http://example.test:8080/sitemap.xml'),
  },
  {
    name: '/sitemap.xml recognised by its body',
    input: withRobots('', probe(200, 'text/plain', '\n  <?xml version="1.0"?><urlset>')),
    expected: found('http://example.test:8080/sitemap.xml'),
  },
  {
    name: 'a <sitemapindex> body',
    input: withRobots('', probe(200, null, '<sitemapindex xmlns="x">')),
    expected: found('http://example.test:8080/sitemap.xml'),
  },
  { name: 'an HTML answer is no sitemap', input: withRobots('', probe(200, 'text/html', '<!DOCTYPE html>')), expected: none },
  { name: 'a 404 is no sitemap', input: withRobots('', probe(404, 'application/xml', '<?xml')), expected: none },
  { name: 'a failed probe is no sitemap', input: withRobots('', { error: 'timeout' }), expected: none },
  {
    name: 'robots.txt unreachable, probe found',
    input: { html, robots: { error: 'network' as const }, sitemapProbe: probe(200, 'application/xml') },
    expected: found('http://example.test:8080/sitemap.xml'),
  },
]);
