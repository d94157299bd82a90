// The crawls pages (docs/dashboard.md: crawls, start, live progress, pages,
// issues, CSV): start a crawl of a small site on 127.0.0.1 from the form, run its jobs to the
// end, then read its page, progress JSON and CSV; cancel; a refused form; another account's
// crawl a 404 everywhere, changing nothing.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { testApp, type TestApp } from '../helpers/app.js';
import { type CrawlSite, htmlPage, startCrawlSite } from '../helpers/crawl-site.js';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, noBrowser, screenshot } from '../helpers/browser.js';
import { type DashboardClient, givePassword, signedInClient, TEST_PASSWORD } from '../helpers/dashboard.js';
import { until } from '../helpers/wait.js';
import { allPages, type CrawlBody, runUntilEnded, showCrawl, startCrawl, urlset } from '../crawl/crawl-harness.js';

describe('dashboard crawls pages', () => {
  let t: TestApp;
  let site: CrawlSite;
  let me: DashboardClient;
  let other: DashboardClient;
  let finished: CrawlBody;

  before(async () => {
    t = await testApp({ ALLOW_PRIVATE_ADDRESSES: 'true', ANALYSIS_WORKERS: '0', CRAWL_MAX_PAGES: '100' });
    site = await startCrawlSite({
      '/': htmlPage({ title: 'Home of widgets', links: ['/a', '/b', '/missing'] }),
      '/a': htmlPage({ title: 'Page A', links: ['/'] }),
      '/b': htmlPage({ title: 'Page B', links: ['/', '/a'] }),
      '/orphan': htmlPage({ title: 'Orphan', links: ['/'] }),
      // 55 broken links: 56 URL rows and 55 issues, so both tables have a second page.
      '/many': htmlPage({ title: 'Many links', links: Array.from({ length: 55 }, (_, i) => `/gone-${i}`) }),
    });
    // A sitemap listing a page no link reaches: only a crawl that reads sitemaps records it.
    site.set({ '/sitemap.xml': urlset([`${site.origin}/`, `${site.origin}/orphan`]) });
    me = await signedInClient(t);
    other = await signedInClient(t);
  });
  after(async () => {
    await t.close();
    await site.close();
  });

  const apiList = async (key: string) =>
    (await t.call(key, { method: 'GET', url: '/api/v1/crawls?per_page=100' })).json() as {
      data: CrawlBody[];
      meta: { total: number };
    };

  test('the empty list explains what a crawl does and offers the form', async () => {
    const res = await me.get('/app/crawls');
    assert.equal(res.statusCode, 200);
    assert.equal(res.body.match(/<h1[\s>]/g)?.length, 1);
    assert.match(res.body, /<title>Crawls · Rankscope<\/title>/);
    assert.match(res.body, /No crawls yet/);
    assert.match(res.body, /broken links/);
    assert.match(res.body, /<form method="post" action="\/app\/crawls"/);
    assert.match(res.body, /<label for="f-url">/);
    assert.match(res.body, /<label for="f-max_pages">/);
    assert.match(res.body, /<input id="f-sitemap" type="checkbox" name="sitemap" value="1" checked>/);
  });

  test('a refused form: 422 with the API’s message at each field, the values kept, nothing stored or fetched', async () => {
    const requests = site.requests.length;
    const res = await me.post('/app/crawls', { url: 'ftp://127.0.0.1/', max_pages: '101', sitemap: ['0', '1'] });
    assert.equal(res.statusCode, 422);
    assert.match(res.body, /<title>Start a crawl · Rankscope<\/title>/);
    assert.match(res.body, /role="alert"/);
    assert.ok(res.body.indexOf('id="start"') < res.body.indexOf('No crawls yet'), 'the refused form comes first');
    assert.match(
      res.body,
      /id="f-url" name="url" type="text" value="ftp:\/\/127\.0\.0\.1\/"[^>]* aria-invalid="true" aria-describedby="f-url-hint f-url-error"/,
    );
    assert.match(res.body, /<p class="error" id="f-url-error">.*The url must be a valid URL\.<\/p>/);
    assert.match(res.body, /<p class="error" id="f-max_pages-error">.*The max pages must not be greater than 100\.<\/p>/);
    const zero = await me.post('/app/crawls', { url: `${site.origin}/`, max_pages: '0', sitemap: '0' });
    assert.equal(zero.statusCode, 422);
    assert.match(zero.body, /The max pages must be at least 1\./);
    assert.match(
      zero.body,
      /<input id="f-sitemap" type="checkbox" name="sitemap" value="1" aria-describedby|<input id="f-sitemap" type="checkbox" name="sitemap" value="1">/,
    );
    await t.services.jobs.drain();
    assert.equal((await apiList(me.account.key)).meta.total, 0);
    assert.equal(site.requests.length, requests, 'nothing fetched');
  });

  test('start a crawl: 303 to its page (queued, live-progress markup, cancel button); run to the end, the page shows the counts, pages and the broken link', async () => {
    const res = await me.post('/app/crawls', { url: `${site.origin}/`, max_pages: '20', sitemap: ['0', '1'] });
    assert.equal(res.statusCode, 303, res.body);
    const location = String(res.headers.location);
    const id = Number(/^\/app\/crawls\/(\d+)$/.exec(location)?.[1]);
    assert.ok(id > 0, location);
    const crawl = await showCrawl(t, me.account.key, id);
    assert.equal(crawl.url, `${site.origin}/`);
    assert.equal(crawl.max_pages, 20);

    const queued = await me.get(location);
    assert.equal(queued.statusCode, 200);
    assert.match(queued.body, /Crawl started\./);
    assert.match(queued.body, /<script src="\/assets\/app\.js" defer><\/script>/);
    assert.match(queued.body, new RegExp(`data-poll="/app/crawls/${id}/progress" data-status="queued"`));
    assert.match(queued.body, /data-field="pages_done">0</);
    assert.match(queued.body, new RegExp(`action="/app/crawls/${id}/cancel"`));
    assert.match(queued.body, new RegExp(`<a href="/app/crawls/${id}">Refresh the counts</a>`));

    finished = await runUntilEnded(t, me.account.key, id);
    assert.equal(finished.status, 'finished');
    assert.ok(
      (await allPages(t, me.account.key, id)).some((r) => r.url === `${site.origin}/orphan` && r.in_sitemap),
      'sitemap checked: the sitemap was read',
    );

    const page = await me.get(location);
    assert.equal(page.statusCode, 200);
    assert.equal(page.body.match(/<h1[\s>]/g)?.length, 1);
    assert.match(page.body, /<title>Crawl of 127\.0\.0\.1 · Rankscope<\/title>/);
    assert.doesNotMatch(page.body, /Crawl started\./, 'the notice shows once');
    assert.match(page.body, /data-status="finished"/);
    assert.match(page.body, /data-field="status">finished</);
    assert.match(page.body, new RegExp(`data-field="pages_found">${finished.pages_found}<`));
    assert.match(page.body, new RegExp(`data-field="pages_done">${finished.pages_done}<`));
    assert.match(page.body, new RegExp(`data-field="issues">${finished.issues}<`));
    assert.doesNotMatch(page.body, /\/cancel"/, 'no cancel button once it ended');
    // The planted issue: /missing answers 404, linked from the start page.
    assert.match(page.body, new RegExp(`<tr data-issue="broken_link">[\\s\\S]*?${site.origin}/missing`));
    assert.match(page.body, /Broken link/);
    // The pages table: every URL, the analysed ones linking to their reports.
    const rows = await allPages(t, me.account.key, id);
    assert.equal(rows.length, finished.pages_found);
    for (const row of rows) {
      assert.ok(page.body.includes(`>${row.url}</a>`), row.url);
      if (row.report_id !== null) assert.ok(page.body.includes(`<a href="/app/reports/${row.report_id}">${row.result}`), row.url);
    }
    assert.ok(rows.some((r) => r.report_id !== null));
    assert.match(page.body, new RegExp(`href="/app/crawls/${id}/pages\\.csv"`));

    const list = await me.get('/app/crawls');
    assert.equal(list.statusCode, 200);
    assert.match(list.body, new RegExp(`<a href="/app/crawls/${id}">${site.origin}/<span class="visually-hidden">`));
    assert.match(list.body, /Finished/);
    assert.match(list.body, new RegExp(`${finished.pages_done} / ${finished.pages_found}`));
    assert.doesNotMatch(list.body, /No crawls yet/);
  });

  test('the issues by type: a table (caption, header scopes, severity in words) whose type links open the filtered list', async () => {
    const id = finished.id;
    const summary = (await t.call(me.account.key, { method: 'GET', url: `/api/v1/crawls/${id}/issues/summary` })).json().data as {
      type: string;
      severity: string;
      count: number;
    }[];
    assert.ok(summary.length >= 2, JSON.stringify(summary));
    const page = await me.get(`/app/crawls/${id}`);
    assert.equal(page.statusCode, 200);
    const section = /<section class="card" id="summary" aria-labelledby="summary-title">[\s\S]*?<\/section>/.exec(page.body)?.[0];
    assert.ok(section, 'the summary section');
    assert.match(section, /<h2 id="summary-title">Issues by type<\/h2>/);
    assert.match(section, /<caption class="visually-hidden">Issue types found, most severe first/);
    assert.equal(section.match(/<th scope="col">/g)?.length, 3);
    assert.doesNotMatch(section, /<th>/, 'every header cell has its scope');
    // One row per type, in the API's order, each a real link with its severity as text and its count.
    const rows = [...section.matchAll(/<tr data-summary="([a-z0-9_]+)">([\s\S]*?)<\/tr>/g)];
    assert.deepEqual(
      rows.map((r) => r[1]),
      summary.map((r) => r.type),
    );
    for (const [i, row] of summary.entries()) {
      const cells = rows[i][2];
      assert.match(cells, new RegExp(`<th scope="row"><a href="/app/crawls/${id}\\?type=${row.type}#issues">`), row.type);
      assert.match(cells, new RegExp(`</svg>${row.severity}</span>`), `${row.type}: the severity in words`);
      assert.match(cells, new RegExp(`<td class="num">${row.count}</td>`), row.type);
    }
    assert.match(
      section,
      /<a href="[^"]*\?type=broken_link#issues">Broken link<span class="visually-hidden"> \(show the 1 issue\)<\/span><\/a>/,
    );

    // Following a type's link: the issues list holds that type's issues only, says so, and links back.
    for (const row of summary) {
      const href: string = new RegExp(`<a href="(/app/crawls/${id}\\?type=${row.type})#issues">`).exec(section)![1];
      const filtered = await me.get(href);
      assert.equal(filtered.statusCode, 200, href);
      const types = [...filtered.body.matchAll(/<tr data-issue="([a-z0-9_]+)">/g)].map((m) => m[1]);
      assert.deepEqual(types, Array(row.count).fill(row.type), href);
      assert.match(filtered.body, /<section class="card" id="issues" aria-labelledby="issues-title">/);
      assert.match(filtered.body, new RegExp(`<a href="/app/crawls/${id}#issues">Show every issue</a>`));
    }
    const broken = await me.get(`/app/crawls/${id}?type=broken_link`);
    assert.match(broken.body, /<h2 id="issues-title">Issues: Broken link <span class="muted">\(1\)<\/span><\/h2>/);
    assert.match(broken.body, new RegExp(`<tr data-issue="broken_link">[\\s\\S]*?${site.origin}/missing`));
    assert.match(broken.body, /data-summary="broken_link"/, 'the summary stays whole beside a filtered list');

    // Severity: links for each, the current one marked; the list holds that severity only.
    const api = async (query: string) =>
      (await t.call(me.account.key, { method: 'GET', url: `/api/v1/crawls/${id}/issues?per_page=100&${query}` })).json().data as {
        type: string;
      }[];
    for (const severity of ['high', 'medium', 'low']) {
      const res = await me.get(`/app/crawls/${id}?severity=${severity}`);
      assert.equal(res.statusCode, 200);
      assert.deepEqual(
        [...res.body.matchAll(/<tr data-issue="([a-z0-9_]+)">/g)].map((m) => m[1]),
        (await api(`severity=${severity}`)).map((i) => i.type),
        severity,
      );
      assert.match(
        res.body,
        new RegExp(`<a href="/app/crawls/${id}\\?severity=${severity}#issues" aria-current="page">Severity ${severity}</a>`),
      );
    }
    assert.match(page.body, new RegExp(`<a href="/app/crawls/${id}#issues" aria-current="page">Every severity</a>`));
    const none = await me.get(`/app/crawls/${id}?type=broken_link&severity=low`);
    assert.equal(none.statusCode, 200);
    assert.match(none.body, /No issues match this filter\./);

    // An unknown type: the API's message, every issue listed instead, answered 422.
    const unknown = await me.get(`/app/crawls/${id}?type=no_such_type`);
    assert.equal(unknown.statusCode, 422);
    assert.match(
      unknown.body,
      /role="alert"><p>That filter cannot be used: The type field contains an unknown issue type: no_such_type\./,
    );
    assert.equal(
      [...unknown.body.matchAll(/<tr data-issue="/g)].length,
      summary.reduce((sum, row) => sum + row.count, 0),
    );
  });

  test('the progress JSON: the API’s crawl fields, flat, in application/json', async () => {
    const res = await me.get(`/app/crawls/${finished.id}/progress`);
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^application\/json/);
    assert.deepEqual(res.json(), await showCrawl(t, me.account.key, finished.id));
    assert.equal(res.json().status, 'finished');
  });

  test('Export CSV: text/csv, a file name, the header row, then one row per page', async () => {
    const res = await me.get(`/app/crawls/${finished.id}/pages.csv`);
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^text\/csv/);
    assert.equal(res.headers['content-disposition'], `attachment; filename="crawl-${finished.id}-pages.csv"`);
    const lines = res.body.replace(/\r\n$/, '').split('\r\n');
    assert.equal(lines[0], 'url,status_code,depth,report_id,result,in_sitemap,indexable,error');
    const rows = await allPages(t, me.account.key, finished.id);
    assert.deepEqual(
      lines.slice(1).map((l) => l.split(',')[0]),
      rows.map((r) => r.url),
    );
    assert.ok(lines.some((l) => l.startsWith(`${site.origin}/missing,404,`)));
  });

  test('sitemap unchecked (only the hidden 0 sent): the crawl reads no sitemap', async () => {
    const res = await me.post('/app/crawls', { url: `${site.origin}/`, max_pages: '', sitemap: '0' });
    assert.equal(res.statusCode, 303, res.body);
    const id = Number(/(\d+)$/.exec(String(res.headers.location))?.[1]);
    const ended = await runUntilEnded(t, me.account.key, id);
    assert.equal(ended.status, 'finished');
    assert.equal(ended.max_pages, 100, 'empty max_pages: the default');
    const rows = await allPages(t, me.account.key, id);
    assert.ok(rows.length > 0);
    assert.ok(!rows.some((r) => r.url === `${site.origin}/orphan` || r.in_sitemap), 'no URL from the sitemap');
  });

  test('cancel: a queued crawl is cancelled (notice, no cancel button after); cancelling an ended one says so', async () => {
    const crawl = await startCrawl(t, me.account.key, { url: `${site.origin}/` });
    const page = await me.get(`/app/crawls/${crawl.id}`);
    assert.match(page.body, new RegExp(`action="/app/crawls/${crawl.id}/cancel"`));
    const res = await me.post(`/app/crawls/${crawl.id}/cancel`);
    assert.equal(res.statusCode, 303);
    assert.equal(res.headers.location, `/app/crawls/${crawl.id}`);
    assert.equal((await showCrawl(t, me.account.key, crawl.id)).status, 'cancelled');
    const after = await me.get(`/app/crawls/${crawl.id}`);
    assert.match(after.body, /Crawl cancelled\./);
    assert.match(after.body, /data-field="status">cancelled</);
    assert.doesNotMatch(after.body, /\/cancel"/);
    await t.services.jobs.drain();
    assert.equal((await showCrawl(t, me.account.key, crawl.id)).status, 'cancelled');

    const again = await me.post(`/app/crawls/${finished.id}/cancel`);
    assert.equal(again.statusCode, 303);
    assert.match((await me.get(`/app/crawls/${finished.id}`)).body, /The crawl had already ended \(finished\)\./);
    assert.equal((await showCrawl(t, me.account.key, finished.id)).status, 'finished');
  });

  test('a running crawl: the page and the progress JSON say running, with the cancel button; cancelling stops it', async () => {
    // Each answer takes a while, and once the crawl runs the site holds every answer back.
    const slow = await startCrawlSite(
      { '/': htmlPage({ title: 'Slow home', links: ['/1', '/2', '/3'] }), '/1': htmlPage(), '/2': htmlPage(), '/3': htmlPage() },
      { delayMs: 100 },
    );
    const crawl = await startCrawl(t, me.account.key, { url: `${slow.origin}/`, sitemap: '0' });
    const draining = t.services.jobs.drain();
    let release = () => {};
    try {
      await until(async () => (await me.get(`/app/crawls/${crawl.id}/progress`)).json().status === 'running', {
        what: 'the crawl to run',
      });
      release = slow.hold();
      const page = await me.get(`/app/crawls/${crawl.id}`);
      assert.match(page.body, new RegExp(`data-poll="/app/crawls/${crawl.id}/progress" data-status="running"`));
      assert.match(page.body, /data-field="status">running</);
      assert.match(page.body, /The counts update by themselves while the crawl runs\./);
      assert.match(page.body, /Issues are found once the crawl has ended\./);
      const res = await me.post(`/app/crawls/${crawl.id}/cancel`);
      assert.equal(res.statusCode, 303);
      assert.equal((await me.get(`/app/crawls/${crawl.id}/progress`)).json().status, 'cancelled');
    } finally {
      release();
    }
    await draining;
    await t.services.jobs.drain();
    await slow.close();
    assert.equal((await showCrawl(t, me.account.key, crawl.id)).status, 'cancelled');
    assert.match((await me.get(`/app/crawls/${crawl.id}`)).body, /Crawl cancelled\. Its reports so far stay\./);
  });

  test('another account’s crawl (and an unknown id) is a 404 on the page, progress, CSV and cancel, and nothing changes', async () => {
    const queued = await startCrawl(t, me.account.key, { url: `${site.origin}/`, sitemap: '0' });
    for (const path of [
      `/app/crawls/${finished.id}`,
      `/app/crawls/${finished.id}/progress`,
      `/app/crawls/${finished.id}/pages.csv`,
      `/app/crawls/${queued.id}`,
      '/app/crawls/999999',
      '/app/crawls/999999/progress',
      '/app/crawls/abc',
    ]) {
      const res = await other.get(path);
      assert.equal(res.statusCode, 404, path);
      assert.match(res.body, /<h1 id="page-title">Not found<\/h1>/, path);
      assert.doesNotMatch(res.body, new RegExp(site.origin.replace(/\./g, '\\.')), path);
    }
    for (const path of [`/app/crawls/${queued.id}/cancel`, `/app/crawls/${finished.id}/cancel`, '/app/crawls/999999/cancel']) {
      const res = await other.post(path);
      assert.equal(res.statusCode, 404, path);
    }
    assert.equal((await showCrawl(t, me.account.key, queued.id)).status, 'queued', 'not cancelled');
    const list = await other.get('/app/crawls');
    assert.match(list.body, /No crawls yet/);
    assert.equal((await apiList(other.account.key)).meta.total, 0);
    assert.equal((await runUntilEnded(t, me.account.key, queued.id)).status, 'finished');
  });

  test('paging: the URL and issue tables page on their own (50 rows a page), each keeping the other’s page', async () => {
    const crawl = await startCrawl(t, me.account.key, { url: `${site.origin}/many`, sitemap: '0', max_pages: '100' });
    const ended = await runUntilEnded(t, me.account.key, crawl.id);
    assert.equal(ended.pages_found, 56);
    // 55 broken links (high: listed first), and what the catalogue finds on /many itself (a thin page…).
    const counts = (await t.call(me.account.key, { method: 'GET', url: `/api/v1/crawls/${crawl.id}/issues/summary` })).json();
    assert.deepEqual(counts.data[0], { type: 'broken_link', severity: 'high', count: 55 });
    const summed = (counts.data as { count: number }[]).reduce((sum, row) => sum + row.count, 0);
    assert.equal(ended.issues, summed, 'the crawl counts every issue the summary lists');
    const urlRows = (body: string) => body.match(/<th scope="row" class="crawl-url">/g)?.length ?? 0;
    const issueRows = (body: string) => body.match(/<tr data-issue="broken_link">/g)?.length ?? 0;
    const first = await me.get(`/app/crawls/${crawl.id}`);
    assert.equal(urlRows(first.body), 50);
    assert.equal(issueRows(first.body), 50);
    assert.match(first.body, new RegExp(`<a href="/app/crawls/${crawl.id}\\?page=2" rel="next">Next page of URLs</a>`));
    assert.match(first.body, new RegExp(`<a href="/app/crawls/${crawl.id}\\?issues_page=2" rel="next">Next page of issues</a>`));
    assert.match(first.body, /Page 1 of 2 \(56 URLs in all\)/);
    const second = await me.get(`/app/crawls/${crawl.id}?page=2`);
    assert.equal(urlRows(second.body), 6);
    assert.equal(issueRows(second.body), 50);
    assert.match(second.body, new RegExp(`<a href="/app/crawls/${crawl.id}\\?page=1" rel="prev">Previous page of URLs</a>`));
    assert.match(
      second.body,
      new RegExp(`<a href="/app/crawls/${crawl.id}\\?page=2&amp;issues_page=2" rel="next">Next page of issues</a>`),
    );
    const both = await me.get(`/app/crawls/${crawl.id}?page=2&issues_page=2`);
    assert.equal(urlRows(both.body), 6);
    assert.equal(issueRows(both.body), 5);
  });

  test('paging: the list of crawls, 25 a page', async () => {
    const lister = await signedInClient(t);
    const ids: number[] = [];
    for (let i = 0; i < 26; i++)
      ids.push((await startCrawl(t, lister.account.key, { url: `${site.origin}/a`, sitemap: '0' })).id);
    // Cancelled at once: nothing of them runs in the later drains.
    for (const id of ids)
      assert.equal((await t.call(lister.account.key, { method: 'DELETE', url: `/api/v1/crawls/${id}` })).statusCode, 200);
    const first = await lister.get('/app/crawls');
    assert.equal(first.body.match(/<th scope="row" class="crawl-url">/g)?.length, 25);
    assert.match(first.body, /<a href="\/app\/crawls\?page=2" rel="next">Next page of crawls<\/a>/);
    assert.ok(first.body.includes(`href="/app/crawls/${ids[25]}"`), 'newest first');
    const second = await lister.get('/app/crawls?page=2');
    assert.equal(second.body.match(/<th scope="row" class="crawl-url">/g)?.length, 1);
    assert.ok(second.body.includes(`href="/app/crawls/${ids[0]}"`));
    assert.match(second.body, /Cancelled/);
  });

  test('paging: a page past the end of the URL table says so and links back', async () => {
    const res = await me.get(`/app/crawls/${finished.id}?page=9`);
    assert.equal(res.statusCode, 200);
    assert.match(res.body, new RegExp(`<a href="/app/crawls/${finished.id}">Back to the first page of URLs</a>`));
    const list = await me.get('/app/crawls?page=5');
    assert.equal(list.statusCode, 200);
    assert.match(list.body, /No crawls on this page\./);
  });
});

describe('dashboard crawl page in Chromium: live progress', { skip: noBrowser }, () => {
  let t: TestApp;
  let site: CrawlSite;
  let browser: Browser;
  let base: string;
  let account: { id: number; email: string; key: string };

  before(async () => {
    t = await testApp({ ALLOW_PRIVATE_ADDRESSES: 'true', ANALYSIS_WORKERS: '0' });
    site = await startCrawlSite({
      '/': htmlPage({ title: 'Home', links: ['/a', '/gone'] }),
      '/a': htmlPage({ title: 'A', links: ['/'] }),
    });
    account = await t.account();
    await givePassword(t, account.id);
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const address = t.app.server.address();
    base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await t.close();
    await site.close();
  });

  async function signIn(options: { javaScriptEnabled?: boolean } = {}): Promise<Page> {
    const context = await browser.newContext({ ...options, viewport: { width: 360, height: 740 } });
    const page = await context.newPage();
    await page.goto(`${base}/login`);
    await page.fill('#email', account.email);
    await page.fill('#password', TEST_PASSWORD);
    await Promise.all([page.waitForURL(`${base}/app/reports`), page.click('button[type="submit"]')]);
    return page;
  }

  test('a queued crawl’s page polls its progress and reloads once the crawl has ended; no horizontal scroll at 360 px', async () => {
    const page = await signIn();
    await page.goto(`${base}/app/crawls`);
    await page.fill('#f-url', `${site.origin}/`);
    await Promise.all([page.waitForURL(/\/app\/crawls\/\d+$/), page.click('form.crawl-form button[type="submit"]')]);
    const id = Number(/(\d+)$/.exec(page.url())?.[1]);
    assert.equal(await page.getAttribute('[data-poll]', 'data-status'), 'queued');
    assert.equal(await page.locator('h1').count(), 1);
    const polled = page.waitForResponse((r) => r.url() === `${base}/app/crawls/${id}/progress` && r.status() === 200);
    const ended = await runUntilEnded(t, account.key, id);
    assert.equal(ended.status, 'finished');
    await polled;
    await page.waitForSelector('[data-poll][data-status="finished"]', { timeout: 15_000 });
    assert.equal(await page.textContent('[data-field="pages_done"]'), String(ended.pages_done));
    assert.ok((await page.locator('tr[data-issue="broken_link"]').count()) >= 1);
    const scroll = (await page.evaluate('document.documentElement.scrollWidth - window.innerWidth')) as number;
    assert.ok(scroll <= 0, `no horizontal scroll on a phone (${scroll}px)`);
    await screenshot(page, 'dashboard-crawl-phone');
    await page.goto(`${base}/app/crawls`);
    await screenshot(page, 'dashboard-crawls-phone');
    await page.context().close();
  });

  test('the issues by type, by keyboard and by role: a named table whose type link opens the filtered list', async () => {
    const crawl = await startCrawl(t, account.key, { url: `${site.origin}/`, sitemap: '0' });
    await runUntilEnded(t, account.key, crawl.id);
    const page = await signIn();
    await page.goto(`${base}/app/crawls/${crawl.id}`);
    const table = page.getByRole('table', { name: /^Issue types found, most severe first/ });
    assert.equal(await table.count(), 1);
    assert.deepEqual(await table.getByRole('columnheader').allTextContents(), ['Issue type', 'Severity', 'Issues']);
    const link = table.getByRole('link', { name: /^Broken link\s+\(show the 1 issue\)$/ });
    assert.equal(await link.count(), 1);
    // The focus on the type link (a real link: it takes the focus), then Enter opens it.
    await link.focus();
    await screenshot(page, 'dashboard-crawl-summary-phone');
    assert.equal(await page.evaluate('document.activeElement.textContent'), 'Broken link (show the 1 issue)');
    await Promise.all([page.waitForURL(/\?type=broken_link#issues$/), page.keyboard.press('Enter')]);
    assert.equal(await page.locator('tr[data-issue]').count(), 1);
    assert.equal(await page.locator('tr[data-issue="broken_link"]').count(), 1);
    assert.equal(await page.getByRole('heading', { level: 2, name: /^Issues: Broken link/ }).count(), 1);
    await page.getByRole('link', { name: 'Show every issue' }).press('Enter');
    await page.waitForURL(new RegExp(`/app/crawls/${crawl.id}#issues$`));
    assert.ok((await page.locator('tr[data-issue]').count()) > 1);
    await page.context().close();
  });

  test('with JavaScript off the page shows the counts and a Refresh link; Export CSV downloads the file', async () => {
    const crawl = await startCrawl(t, account.key, { url: `${site.origin}/`, sitemap: '0' });
    const page = await signIn({ javaScriptEnabled: false });
    await page.goto(`${base}/app/crawls/${crawl.id}`);
    assert.equal(await page.textContent('[data-field="status"]'), 'queued');
    await runUntilEnded(t, account.key, crawl.id);
    await page.click('text=Refresh the counts');
    assert.equal(await page.textContent('[data-field="status"]'), 'finished');
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('a[href$="/pages.csv"]')]);
    assert.equal(download.suggestedFilename(), `crawl-${crawl.id}-pages.csv`);
    await page.context().close();
  });
});
