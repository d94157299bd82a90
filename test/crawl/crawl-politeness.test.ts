// How a crawl treats the site it visits (docs/site-audits.md), with the app's real job
// workers running the slots concurrently: at most CRAWL_CONCURRENCY requests at once (and that
// many, in parallel); Crawl-delay makes it one request at a time, each ≥ N s after the last;
// DELETE stops it at once (no request after the answer); and every discovered URL passes the
// same address guard as reports.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Resolver } from '../../src/analysis/fetch/address-guard.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { type CrawlSite, htmlPage, redirect, startCrawlSite } from '../helpers/crawl-site.js';
import { until } from '../helpers/wait.js';
import { allPages, byUrl, crawlSite, robotsTxt, runUntilEnded, showCrawl, startCrawl } from './crawl-harness.js';

/** A site of `n` pages: the start page links to all the others. */
function starSite(n: number, title: string): Record<string, ReturnType<typeof htmlPage>> {
  const paths = Array.from({ length: n - 1 }, (_, i) => `/p${i + 1}`);
  return {
    '/': htmlPage({ title: `${title} home`, links: paths }),
    ...Object.fromEntries(paths.map((p) => [p, htmlPage({ title: `${title} ${p}`, links: ['/'] })])),
  };
}

const pagePaths = (site: CrawlSite) => site.requests.map((r) => r.path).filter((p) => p === '/' || /^\/p\d+$/.test(p));

describe('politeness, with the job workers running', () => {
  let t: TestApp;
  let key: string;
  const sites: CrawlSite[] = [];

  before(async () => {
    t = await testApp({ ALLOW_PRIVATE_ADDRESSES: 'true', ANALYSIS_WORKERS: '0', CRAWL_CONCURRENCY: '2', JOB_CONCURRENCY: '6' });
    ({ key } = await t.account());
    await t.services.startWorkers();
  });
  after(async () => {
    await t.close();
    for (const site of sites) await site.close();
  });

  test('CRAWL_CONCURRENCY=2: never more than 2 requests at once to the site, and 2 in parallel', async () => {
    const site = await startCrawlSite(starSite(20, 'Capped'), { delayMs: 100 });
    sites.push(site);
    const crawl = await crawlSite(t, key, { url: `${site.origin}/`, sitemap: '0' }, { workers: true });
    assert.equal(crawl.status, 'finished');
    assert.equal(crawl.pages_done, 20);
    assert.equal(site.maxInFlight, 2);
    const fetched = pagePaths(site);
    assert.equal(fetched.length, 20);
    assert.equal(new Set(fetched).size, 20, 'each page once');
  });

  test('Crawl-delay: 1 → one request at a time, each starting ≥ 1 s after the previous one (robots.txt and probes too)', async () => {
    const site = await startCrawlSite({
      '/robots.txt': robotsTxt('User-agent: *\nCrawl-delay: 1\n'),
      '/': htmlPage({ title: 'Slow home', links: ['/a'] }),
      '/a': htmlPage({ title: 'Slow a', links: ['/'] }),
    });
    sites.push(site);
    const crawl = await crawlSite(t, key, { url: `${site.origin}/`, sitemap: '0' }, { workers: true });
    assert.equal(crawl.status, 'finished');
    assert.equal(crawl.pages_done, 2);
    assert.equal(site.maxInFlight, 1);
    const starts = site.requests.map((r) => r.at).sort((a, b) => a - b);
    assert.ok(starts.length >= 5, site.requests.map((r) => r.path).join(' '));
    // Some slack: the site notes a request when it arrives, a little after it started (up to a
    // few tens of ms on a loaded machine, for a request that opens a connection). Unpaced, the
    // gaps are a few ms.
    const gaps = starts.slice(1).map((at, i) => at - starts[i]);
    assert.ok(
      gaps.every((gap) => gap >= 950),
      `gaps between request starts: ${gaps.join(', ')} ms (${site.requests.map((r) => r.path).join(' ')})`,
    );
  });

  test('DELETE stops a running crawl: 200 cancelled; no request reaches the site after the answer; the rest skipped; its reports stay', async () => {
    const site = await startCrawlSite(starSite(40, 'Cancelled'), { delayMs: 150 });
    sites.push(site);
    const crawl = await startCrawl(t, key, { url: `${site.origin}/`, sitemap: '0' });
    await until(async () => (await showCrawl(t, key, crawl.id)).pages_done >= 3, { what: 'a few pages done' });
    // Both slots waiting on the site for an answer it holds back: no request is on its way, so
    // any request the site sees after the DELETE answered was started after it.
    const release = site.hold();
    await until(() => site.inFlight === 2, { what: 'both slots to wait on the site' });
    const res = await t.call(key, { method: 'DELETE', url: `/api/v1/crawls/${crawl.id}` });
    const requestsAtAnswer = site.requests.length;
    try {
      // At once: the two fetches under way are given up, not waited for.
      await until(() => site.abandoned === 2, { timeoutMs: 5000, what: 'the crawl to abandon the requests in flight' });
    } finally {
      release();
    }
    assert.equal(res.statusCode, 200, res.body);
    const cancelled = res.json().data;
    assert.equal(cancelled.status, 'cancelled');
    assert.ok(cancelled.finished_at !== null);

    // Wait until no crawl job is left queued or running, then run whatever is due once more.
    await until(
      async () => (await t.services.jobs.list()).every((j) => !j.type.startsWith('crawl.') || j.state === 'completed'),
      { what: 'the crawl’s jobs to end' },
    );
    await t.services.jobs.drain();
    assert.equal(site.requests.length, requestsAtAnswer, 'no request after the DELETE answered');
    assert.ok(pagePaths(site).length < 40, 'it stopped short of the whole site');

    const now = await showCrawl(t, key, crawl.id);
    assert.equal(now.status, 'cancelled');
    const rows = await allPages(t, key, crawl.id);
    assert.equal(now.pages_found, rows.length);
    const skipped = rows.filter((r) => r.error === 'The crawl was cancelled.');
    assert.ok(skipped.length > 0);
    assert.equal(now.pages_done + now.pages_failed + skipped.length, rows.length, 'every other row was skipped');
    for (const row of skipped) assert.equal(row.status_code, null);
    const reported = rows.filter((r) => r.report_id !== null);
    assert.ok(reported.length >= 3);
    for (const row of reported) {
      assert.equal((await t.call(key, { method: 'GET', url: `/api/v1/reports/${row.report_id}` })).statusCode, 200);
    }

    // Cancelling again, or cancelling a finished crawl, changes nothing.
    const again = await t.call(key, { method: 'DELETE', url: `/api/v1/crawls/${crawl.id}` });
    assert.equal(again.statusCode, 200);
    assert.deepEqual(again.json().data, now);
    const done = await crawlSite(t, key, { url: `${site.origin}/p1`, sitemap: '0', max_pages: '1' }, { workers: true });
    const late = await t.call(key, { method: 'DELETE', url: `/api/v1/crawls/${done.id}` });
    assert.equal(late.statusCode, 200);
    assert.deepEqual(late.json().data, done);
  });
});

describe('the address guard on what a crawl discovers', () => {
  let t: TestApp;
  let site: CrawlSite;
  /** The same port on a private address: what a link to www.site.test would reach unguarded. */
  let trap: CrawlSite;
  let siteAddress = '127.0.0.1';
  // site.test is the public site (127.0.0.1 counts as public here); its www. twin, in the
  // crawl's scope, resolves to a private address.
  const resolver: Resolver = async (hostname) => {
    if (hostname === 'site.test') return [{ address: siteAddress, family: 4 }];
    if (hostname === 'www.site.test') return [{ address: '127.0.0.3', family: 4 }];
    throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
  };

  before(async () => {
    site = await startCrawlSite({});
    trap = await startCrawlSite(
      { '/': htmlPage({ title: 'Private' }), '/x': htmlPage({ title: 'Private x' }) },
      { host: '127.0.0.3', port: site.port },
    );
    t = await testApp(
      { ANALYSIS_WORKERS: '0' },
      { analysisHooks: { resolver, guard: { treatAsPublic: (a) => a === '127.0.0.1' } } },
    );
  });
  after(async () => {
    await t.close();
    await site.close();
    await trap.close();
  });

  test('a link or redirect to an in-scope host that resolves privately is refused: its row failed, blocked, nothing reaches it', async () => {
    const { key } = await t.account();
    const www = `http://www.site.test:${site.port}`;
    site.set({
      '/': htmlPage({ title: 'Public home', links: [`${www}/x`, '/r', `http://127.0.0.3:${site.port}/direct`] }),
      '/r': redirect(`${www}/`),
    });
    const crawl = await crawlSite(t, key, { url: `http://site.test:${site.port}/`, sitemap: '0' });
    assert.equal(crawl.status, 'finished');
    const rows = byUrl(await allPages(t, key, crawl.id));
    assert.deepEqual(
      [...rows.keys()],
      [`http://site.test:${site.port}/`, `${www}/x`, `http://site.test:${site.port}/r`, `${www}/`],
      'the www. twin is in scope; another host is not',
    );
    for (const url of [`${www}/x`, `${www}/`]) {
      const row = rows.get(url)!;
      assert.equal(row.status_code, null, url);
      assert.match(row.error ?? '', /private or reserved network/, url);
    }
    assert.equal(crawl.pages_failed, 2, 'refused fetches count as failed');
    assert.deepEqual(trap.requests, [], 'nothing reached the private address');
  });

  test('a start page whose host resolves privately by the time the crawl runs ends the crawl failed, saying why', async () => {
    const { key } = await t.account();
    site.set({ '/': htmlPage({ title: 'Public home' }) });
    const crawl = await startCrawl(t, key, { url: `http://site.test:${site.port}/`, sitemap: '0' });
    siteAddress = '127.0.0.3';
    try {
      const ended = await runUntilEnded(t, key, crawl.id);
      assert.equal(ended.status, 'failed');
      const [row] = await allPages(t, key, crawl.id);
      assert.equal(row.url, `http://site.test:${site.port}/`);
      assert.equal(row.status_code, null);
      assert.match(row.error ?? '', /private or reserved network/);
      assert.deepEqual(trap.requests, []);
    } finally {
      siteAddress = '127.0.0.1';
    }
  });
});
