// What a crawl stores of what it fetched, on the engine under test: at most 10 × max_pages (at
// least 1,000) sitemap URLs, the rest counted; and text a database refuses (a NUL in a title or
// a description) cleaned wherever the crawl stores it (page rows, issue details, reports), so
// the crawl finishes rather than staying `running` until its time limit (PostgreSQL).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { testApp, type TestApp } from '../helpers/app.js';
import { type CrawlSite, htmlPage, startCrawlSite } from '../helpers/crawl-site.js';
import { allIssues, crawlSite, robotsTxt, sitemapIndex, urlset } from './crawl-harness.js';

describe('what a crawl stores', () => {
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

  test('a 1-page crawl of a site whose sitemaps list 60,000 URLs keeps 1,000 of them and counts the rest', {
    timeout: 120_000,
  }, async () => {
    const site = await startCrawlSite({});
    sites.push(site);
    const half = (from: number) => Array.from({ length: 30_000 }, (_, i) => `${site.origin}/listed/${from + i}`);
    site.set({
      '/': htmlPage({ title: 'Home' }),
      '/robots.txt': robotsTxt(`User-agent: *\nAllow: /\nSitemap: ${site.origin}/sitemap-index.xml\n`),
      '/sitemap-index.xml': sitemapIndex([`${site.origin}/one.xml`, `${site.origin}/two.xml`]),
      '/one.xml': urlset(half(0)),
      '/two.xml': urlset(half(30_000)),
    });
    const crawl = await crawlSite(t, key, { url: `${site.origin}/`, max_pages: '1' });
    assert.equal(crawl.status, 'finished');
    assert.equal(crawl.pages_done, 1);
    const stored = await t.db.handle.db
      .selectFrom('crawl_sitemap_urls')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('crawl_id', '=', crawl.id)
      .executeTakeFirstOrThrow();
    assert.equal(Number(stored.n), 1000, 'at least 1,000 kept: 10 × max_pages would be 10');
    const row = await t.db.handle.db
      .selectFrom('crawls')
      .select('sitemap_urls_unkept')
      .where('id', '=', crawl.id)
      .executeTakeFirstOrThrow();
    assert.equal(row.sitemap_urls_unkept, 29_000, 'the rest of the file read is counted; the second file is not fetched');
    assert.equal(site.count('/two.xml'), 0);
  });

  test('a NUL in a page’s title and description: the crawl finishes, and what it stores is cleaned', {
    timeout: 60_000,
  }, async () => {
    const site = await startCrawlSite({});
    sites.push(site);
    const page = (links: string[]) =>
      htmlPage({ title: 'Null\u0000Title', description: 'A page\u0000 with a NUL in its description.', links });
    site.set({ '/': page(['/twin']), '/twin': page([]) });
    const crawl = await crawlSite(t, key, { url: `${site.origin}/`, sitemap: '0' }, { timeoutMs: 20_000 });
    assert.equal(crawl.status, 'finished');
    assert.equal(crawl.pages_done, 2);
    const rows = await t.db.handle.db
      .selectFrom('crawl_pages')
      .select(['title', 'description', 'report_id'])
      .where('crawl_id', '=', crawl.id)
      .execute();
    assert.deepEqual(
      rows.map((r) => [r.title, r.description]),
      [
        ['NullTitle', 'A page with a NUL in its description.'],
        ['NullTitle', 'A page with a NUL in its description.'],
      ],
    );
    assert.ok(
      rows.every((r) => r.report_id !== null),
      'each page is a report',
    );
    const issues = await allIssues(t, key, crawl.id);
    const duplicates = issues.filter((i) => i.type === 'duplicate_title');
    assert.equal(duplicates.length, 2, JSON.stringify(issues));
    for (const issue of issues) assert.ok(!issue.detail.includes('\u0000') && !issue.url.includes('\u0000'));
  });
});
