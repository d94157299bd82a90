// The site-level issues of a real crawl (docs/site-audits.md): a fixture site with one planted
// fault per issue type gives exactly those issues, each on the right URL with its severity and
// a detail naming the related pages; a clean site gives none. The rules themselves are unit
// tested in site-issues.test.ts; this is the crawler feeding them what it saw.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { testApp, type TestApp } from '../helpers/app.js';
import { type CrawlSite, htmlPage, redirect, startCrawlSite } from '../helpers/crawl-site.js';
import { allIssues, allPages, byUrl, crawlSite, firstTenIssues, type IssueBody, urlset } from './crawl-harness.js';

describe('site issues of a crawl', () => {
  let t: TestApp;
  let key: string;
  const sites: CrawlSite[] = [];

  before(async () => {
    t = await testApp({ ALLOW_PRIVATE_ADDRESSES: 'true', ANALYSIS_WORKERS: '0' });
    ({ key } = await t.account());
  });
  after(async () => {
    await t.close();
    for (const site of sites) await site.close();
  });

  test('each planted fault gives its issue, on its url, with its severity and the related pages', async () => {
    const site = await startCrawlSite({});
    sites.push(site);
    const o = site.origin;
    site.set({
      '/': htmlPage({
        title: 'Home',
        links: ['/gone', '/error', '/a', '/dup1', '/dup2', '/desc1', '/desc2', '/noindex', '/unlisted'],
      }),
      '/error': { status: 500, type: 'text/html', body: '<!doctype html><title>Oops</title>' },
      // Relative Location headers: the crawler resolves them against the redirecting URL.
      '/a': redirect('/b'),
      '/b': redirect(`${o}/c`, 302),
      '/c': htmlPage({ title: 'Chain end' }),
      '/dup1': htmlPage({ title: 'Same title', description: 'The first of two pages with one title.' }),
      '/dup2': htmlPage({ title: 'Same title', description: 'The second of two pages with one title.' }),
      '/desc1': htmlPage({ title: 'Description one', description: 'One description for two pages.' }),
      '/desc2': htmlPage({ title: 'Description two', description: 'One description for two pages.' }),
      '/noindex': htmlPage({ title: 'Not for the index', head: '<meta name="robots" content="noindex">' }),
      '/orphan': htmlPage({ title: 'Nobody links here' }),
      '/unlisted': htmlPage({ title: 'Linked, not listed' }),
      // Listed: every indexable linked page but /unlisted, the noindex page, a 404 and the orphan.
      '/sitemap.xml': urlset(
        ['/', '/c', '/dup1', '/dup2', '/desc1', '/desc2', '/noindex', '/listed-gone', '/orphan'].map((p) => `${o}${p}`),
      ),
    });
    const crawl = await crawlSite(t, key, { url: `${o}/` });
    assert.equal(crawl.status, 'finished');
    const issues = await firstTenIssues(t, key, crawl.id);
    const expected: IssueBody[] = [
      { type: 'broken_link', severity: 'high', url: `${o}/error`, detail: `Answers 500; linked from ${o}/.` },
      { type: 'broken_link', severity: 'high', url: `${o}/gone`, detail: `Answers 404; linked from ${o}/.` },
      {
        type: 'non_indexable_in_sitemap',
        severity: 'high',
        url: `${o}/listed-gone`,
        detail: 'Listed in a sitemap, but it answers 404.',
      },
      {
        type: 'non_indexable_in_sitemap',
        severity: 'high',
        url: `${o}/noindex`,
        detail: 'Listed in a sitemap, but it is marked noindex.',
      },
      { type: 'duplicate_title', severity: 'medium', url: `${o}/dup1`, detail: `Same title "Same title" as ${o}/dup2.` },
      { type: 'duplicate_title', severity: 'medium', url: `${o}/dup2`, detail: `Same title "Same title" as ${o}/dup1.` },
      // The listed 404 is linked from nowhere either.
      {
        type: 'orphan_page',
        severity: 'medium',
        url: `${o}/listed-gone`,
        detail: 'Listed in a sitemap, but no crawled page links to it.',
      },
      {
        type: 'orphan_page',
        severity: 'medium',
        url: `${o}/orphan`,
        detail: 'Listed in a sitemap, but no crawled page links to it.',
      },
      {
        type: 'redirect_chain',
        severity: 'medium',
        url: `${o}/a`,
        detail: `2 redirects: ${o}/a → ${o}/b → ${o}/c, which answers 200.`,
      },
      {
        type: 'duplicate_meta_description',
        severity: 'low',
        url: `${o}/desc1`,
        detail: `Same meta description "One description for two pages." as ${o}/desc2.`,
      },
      {
        type: 'duplicate_meta_description',
        severity: 'low',
        url: `${o}/desc2`,
        detail: `Same meta description "One description for two pages." as ${o}/desc1.`,
      },
      {
        type: 'missing_from_sitemap',
        severity: 'low',
        url: `${o}/unlisted`,
        detail: `Indexable and linked from ${o}/, but in no sitemap.`,
      },
    ];
    assert.deepEqual(issues, expected);
    // The crawl counts every type of the catalogue; this site's pages also have short titles and thin text.
    assert.equal(crawl.issues, (await allIssues(t, key, crawl.id)).length);

    // What the issues rest on, as the pages show it.
    const rows = byUrl(await allPages(t, key, crawl.id));
    assert.deepEqual(
      ['/a', '/b', '/c'].map((p) => rows.get(`${o}${p}`)?.status_code),
      [301, 302, 200],
      'each hop of the chain is a row of its own',
    );
    assert.equal(rows.get(`${o}/orphan`)?.depth, null, 'a URL only a sitemap lists has no depth');
    assert.equal(rows.get(`${o}/orphan`)?.in_sitemap, true);
    assert.equal(rows.get(`${o}/noindex`)?.indexable, false);
    assert.equal(rows.get(`${o}/unlisted`)?.in_sitemap, false);
    assert.equal(rows.get(`${o}/unlisted`)?.indexable, true);
  });

  test('a clean site (unique titles and descriptions, every page linked and listed) has no issue at all', async () => {
    const site = await startCrawlSite({});
    sites.push(site);
    const o = site.origin;
    const paths = ['/', '/about', '/products', '/products/one', '/contact'];
    site.set({
      ...Object.fromEntries(
        paths.map((p, i) => [
          p,
          htmlPage({
            title: `Clean page ${i}`,
            description: `The clean page number ${i}, described once.`,
            links: paths.filter((q) => q !== p),
          }),
        ]),
      ),
      '/robots.txt': { type: 'text/plain', body: `User-agent: *\nAllow: /\nSitemap: ${o}/sitemap.xml\n` },
      '/sitemap.xml': urlset(paths.map((p) => `${o}${p}`)),
    });
    const crawl = await crawlSite(t, key, { url: `${o}/` });
    assert.equal(crawl.status, 'finished');
    assert.deepEqual(await firstTenIssues(t, key, crawl.id), []);
    assert.equal(crawl.issues, (await allIssues(t, key, crawl.id)).length);
    const rows = await allPages(t, key, crawl.id);
    assert.deepEqual(rows.map((r) => r.url).sort(), paths.map((p) => `${o}${p}`).sort());
    assert.ok(
      rows.every((r) => r.status_code === 200 && r.indexable && r.in_sitemap),
      JSON.stringify(rows),
    );
  });
});
