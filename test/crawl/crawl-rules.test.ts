// What a crawl fetches (docs/site-audits.md): robots.txt (our groups merged over `*`, once per
// crawl, with the 404 probe), the reports' User-Agent, sitemaps (robots.txt's, else
// /sitemap.xml; indexes, gzip; none from another host; none with sitemap=0), the scope (the
// start host only; http(s) only; fragments stripped; one spelling per URL) and max_pages.
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import { testApp, type TestApp } from '../helpers/app.js';
import { type CrawlSite, htmlPage, startCrawlSite } from '../helpers/crawl-site.js';
import {
  allIssues,
  allPages,
  firstTenIssues,
  byUrl,
  crawlSite,
  probePaths,
  robotsTxt,
  sitemapIndex,
  urlset,
} from './crawl-harness.js';

describe('what a crawl fetches', () => {
  let t: TestApp;
  let key: string;
  /** Another host (127.0.0.2): the crawl of a 127.0.0.1 site must never reach it. */
  let elsewhere: CrawlSite;
  const sites: CrawlSite[] = [];
  const newSite = async () => {
    const site = await startCrawlSite({});
    sites.push(site);
    return site;
  };

  before(async () => {
    t = await testApp({ ALLOW_PRIVATE_ADDRESSES: 'true', ANALYSIS_WORKERS: '0' });
    ({ key } = await t.account());
    elsewhere = await startCrawlSite({ '/': htmlPage({ title: 'Elsewhere' }) }, { host: '127.0.0.2' });
  });
  after(async () => {
    await t.close();
    for (const site of sites) await site.close();
    await elsewhere.close();
  });

  test('robots.txt: the Rankscope and RankscopeBot groups, merged, over `*`; disallowed paths never requested, their rows skipped', async () => {
    const site = await newSite();
    site.set({
      '/robots.txt': robotsTxt(
        [
          'User-agent: *',
          'Disallow: /', // not ours: groups name us
          '',
          'User-agent: RankscopeBot',
          'Disallow: /secret',
          '',
          'User-agent: Rankscope',
          'Disallow: /hidden',
          '',
        ].join('\n'),
      ),
      '/': htmlPage({ title: 'Home', links: ['/open', '/secret', '/hidden/page', '/also-open'] }),
      '/open': htmlPage({ title: 'Open', links: ['/', '/secret'] }),
      '/also-open': htmlPage({ title: 'Also open' }),
      '/secret': htmlPage({ title: 'Secret' }),
      '/hidden/page': htmlPage({ title: 'Hidden' }),
    });
    const crawl = await crawlSite(t, key, { url: `${site.origin}/`, sitemap: '0' });
    assert.equal(crawl.status, 'finished');
    assert.equal(site.count('/secret'), 0, 'RankscopeBot’s Disallow obeyed');
    assert.equal(site.count('/hidden/page'), 0, 'Rankscope’s Disallow obeyed too (merged)');
    for (const path of ['/', '/open', '/also-open']) assert.equal(site.count(path), 1, `${path}: fetched once (not the * group)`);
    const rows = byUrl(await allPages(t, key, crawl.id));
    assert.deepEqual(rows.get(`${site.origin}/secret`), {
      url: `${site.origin}/secret`,
      status_code: null,
      depth: 1,
      report_id: null,
      result: null,
      in_sitemap: false,
      indexable: false,
      error: 'Disallowed by robots.txt (Disallow: /secret).',
    });
    assert.equal(rows.get(`${site.origin}/hidden/page`)?.error, 'Disallowed by robots.txt (Disallow: /hidden).');
    assert.equal(crawl.pages_found, 5);
    assert.equal(crawl.pages_done, 3);
    assert.equal(crawl.pages_failed, 0, 'a disallowed page is skipped, not failed');

    // Shared per crawl, not per page: robots.txt and the 404 probe once each, whatever the pages.
    assert.equal(site.count('/robots.txt'), 1);
    assert.equal(probePaths(site.requests.map((r) => r.path)).length, 1);
    assert.ok(site.count('/favicon.ico') <= 1);
    // Every request carries the reports' User-Agent.
    assert.ok(site.requests.length >= 6);
    for (const request of site.requests) assert.match(request.userAgent, /RankscopeBot/, request.path);
    assert.ok(
      site.requests.every((r) => r.userAgent === t.config.analysis.request.userAgent),
      'the same User-Agent as reports',
    );
  });

  test('robots.txt’s Sitemap: lines, an index and a gzipped child; sitemaps and URLs on another host ignored; /sitemap.xml then unread', async () => {
    const site = await newSite();
    const o = site.origin;
    const other = elsewhere.origin;
    site.set({
      '/robots.txt': robotsTxt(`User-agent: *\nAllow: /\nSitemap: ${o}/maps/index.xml\nSitemap: ${other}/robots-map.xml\n`),
      '/': htmlPage({ title: 'Home', links: ['/linked'] }),
      '/linked': htmlPage({ title: 'Linked' }),
      '/from-gzip': htmlPage({ title: 'Only in the gzipped sitemap' }),
      '/from-plain': htmlPage({ title: 'Only in the plain child sitemap' }),
      '/from-fallback': htmlPage({ title: 'Only in /sitemap.xml' }),
      '/maps/index.xml': sitemapIndex([`${o}/maps/pages.xml.gz`, `${o}/maps/plain.xml`, `${other}/other-map.xml`]),
      '/maps/pages.xml.gz': {
        type: 'application/gzip',
        body: gzipSync(urlset([`${o}/`, `${o}/linked`, `${o}/from-gzip`, `${other}/listed-elsewhere`]).body),
      },
      '/maps/plain.xml': urlset([`${o}/from-plain`]),
      '/sitemap.xml': urlset([`${o}/from-fallback`]),
    });
    const crawl = await crawlSite(t, key, { url: `${o}/` });
    assert.equal(crawl.status, 'finished');
    const rows = await allPages(t, key, crawl.id);
    assert.deepEqual(
      rows.map((r) => [r.url, r.in_sitemap, r.depth, r.status_code]),
      [
        [`${o}/`, true, 0, 200],
        [`${o}/linked`, true, 1, 200],
        [`${o}/from-gzip`, true, null, 200],
        [`${o}/from-plain`, true, null, 200],
      ],
    );
    for (const path of ['/maps/index.xml', '/maps/pages.xml.gz', '/maps/plain.xml']) assert.equal(site.count(path), 1, path);
    assert.equal(site.count('/sitemap.xml'), 0, 'robots.txt lists sitemaps: /sitemap.xml is neither probed nor read');
    assert.deepEqual(elsewhere.requests, [], 'nothing on another host: neither its sitemaps nor the URLs listed there');
    const orphans = (await allIssues(t, key, crawl.id)).filter((i) => i.type === 'orphan_page').map((i) => i.url);
    assert.deepEqual(orphans, [`${o}/from-gzip`, `${o}/from-plain`]);
  });

  test('/sitemap.xml when robots.txt lists none; sitemap=0 reads none', async () => {
    const site = await newSite();
    const o = site.origin;
    site.set({
      '/': htmlPage({ title: 'Home', links: ['/linked', '/unlisted'] }),
      '/linked': htmlPage({ title: 'Linked' }),
      '/unlisted': htmlPage({ title: 'Unlisted' }),
      '/from-fallback': htmlPage({ title: 'Only in /sitemap.xml' }),
      '/sitemap.xml': urlset([`${o}/`, `${o}/linked`, `${o}/from-fallback`]),
    });
    const seeded = await crawlSite(t, key, { url: `${o}/` });
    const rows = byUrl(await allPages(t, key, seeded.id));
    assert.deepEqual(
      [...rows.values()].map((r) => [r.url, r.in_sitemap]),
      [
        [`${o}/`, true],
        [`${o}/linked`, true],
        [`${o}/unlisted`, false],
        [`${o}/from-fallback`, true],
      ],
    );
    assert.deepEqual(
      (await firstTenIssues(t, key, seeded.id)).map((i) => [i.type, i.url]),
      [
        ['orphan_page', `${o}/from-fallback`],
        ['missing_from_sitemap', `${o}/unlisted`],
      ],
    );

    const fetchesBefore = site.count('/sitemap.xml');
    const unseeded = await crawlSite(t, key, { url: `${o}/`, sitemap: '0' });
    const plain = await allPages(t, key, unseeded.id);
    assert.deepEqual(
      plain.map((r) => [r.url, r.in_sitemap]),
      [
        [`${o}/`, false],
        [`${o}/linked`, false],
        [`${o}/unlisted`, false],
      ],
      'no URL of the sitemap becomes a row, none counts as listed',
    );
    assert.ok(site.count('/sitemap.xml') - fetchesBefore <= 1, 'at most the analysis’s own /sitemap.xml probe');
    assert.deepEqual(await firstTenIssues(t, key, unseeded.id), [], 'no sitemap read: nothing is missing from one');
  });

  test('a site without /sitemap.xml: the probe’s 404 is the only request for it; nothing is missing from a sitemap', async () => {
    const site = await newSite();
    site.set({ '/': htmlPage({ title: 'Home', links: ['/a'] }), '/a': htmlPage({ title: 'A' }) });
    const crawl = await crawlSite(t, key, { url: `${site.origin}/` });
    assert.equal(crawl.status, 'finished');
    assert.equal(site.count('/sitemap.xml'), 1);
    assert.deepEqual(await firstTenIssues(t, key, crawl.id), []);
  });

  test('scope: the start host only; http(s) only; fragments stripped; each URL one row however it is spelt', async () => {
    const site = await newSite();
    const o = site.origin;
    const port = site.port;
    site.set({
      '/': htmlPage({
        title: 'Home',
        links: [
          `${elsewhere.origin}/`,
          `//127.0.0.2:${elsewhere.port}/protocol-relative`,
          'mailto:someone@example.com',
          'javascript:alert(1)',
          'tel:+15550100',
          'ftp://127.0.0.1/file',
          'data:text/plain,hello',
          '/a#section',
          '/a',
          `HTTP://127.0.0.1:${port}/a#top`,
          '/b/../a',
          './b',
        ],
      }),
      '/a': htmlPage({ title: 'A', links: [`${o}/b#again`, `http://127.0.0.1:${port}/b`] }),
      '/b': htmlPage({ title: 'B' }),
    });
    const crawl = await crawlSite(t, key, { url: `HTTP://127.0.0.1:${port}/#start`, sitemap: '0' });
    assert.equal(crawl.url, `${o}/`, 'the start url normalised too');
    const rows = await allPages(t, key, crawl.id);
    assert.deepEqual(
      rows.map((r) => [r.url, r.depth]),
      [
        [`${o}/`, 0],
        [`${o}/a`, 1],
        [`${o}/b`, 1],
      ],
    );
    assert.equal(site.count('/a'), 1);
    assert.equal(site.count('/b'), 1);
    assert.deepEqual(elsewhere.requests, [], 'another host is never fetched');
    assert.ok(!site.requests.some((r) => r.path.includes('#') || r.path.includes('..')));
  });

  test('max_pages: 30 pages, max_pages 10 → exactly 10 rows, and the fetches stop there', async () => {
    const site = await newSite();
    const o = site.origin;
    const paths = Array.from({ length: 29 }, (_, i) => `/p${i + 1}`);
    site.set({
      '/': htmlPage({ title: 'Home', links: paths }),
      ...Object.fromEntries(
        paths.map((p, i) => [p, htmlPage({ title: `Page ${i}`, links: ['/', paths[(i + 1) % paths.length]] })]),
      ),
      // The sitemap lists them all too: no way past the cap.
      '/sitemap.xml': urlset(['/', ...paths].map((p) => `${o}${p}`)),
    });
    const crawl = await crawlSite(t, key, { url: `${o}/`, max_pages: '10' });
    assert.equal(crawl.status, 'finished');
    const rows = await allPages(t, key, crawl.id);
    assert.equal(rows.length, 10);
    assert.equal(crawl.pages_found, 10);
    assert.equal(crawl.pages_done, 10);
    const pageRequests = site.requests.map((r) => r.path).filter((p) => p === '/' || /^\/p\d+$/.test(p));
    assert.deepEqual(pageRequests.sort(), rows.map((r) => new URL(r.url).pathname).sort(), 'only the 10 rows were fetched');
    const count = site.requests.length;
    await t.services.jobs.drain();
    assert.equal(site.requests.length, count, 'nothing more once finished');
  });
});
