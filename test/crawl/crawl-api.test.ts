// /api/v1/crawls end to end (docs/site-audits.md): the 202 at once, every 422 (fetching and
// storing nothing), the list, show, pages (paginator and CSV) and issues, another account's
// crawl a 404 everywhere, the live counts of a finished crawl, and the reports a crawl leaves.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { testApp, type TestApp } from '../helpers/app.js';
import { type CrawlSite, htmlPage, startCrawlSite } from '../helpers/crawl-site.js';
import {
  allPages,
  byUrl,
  type CrawlBody,
  crawlSite,
  robotsTxt,
  runUntilEnded,
  showCrawl,
  startCrawl,
  urlset,
} from './crawl-harness.js';

const CRAWL_FIELDS = [
  'id',
  'url',
  'project',
  'status',
  'max_pages',
  'render',
  'pages_found',
  'pages_done',
  'pages_failed',
  'result',
  'issues',
  'external_unchecked',
  'started_at',
  'finished_at',
  'created_at',
  'updated_at',
];
const PAGE_FIELDS = ['url', 'status_code', 'depth', 'report_id', 'result', 'in_sitemap', 'indexable', 'error'];
const ISSUE_FIELDS = ['type', 'severity', 'url', 'detail'];
const NOT_FOUND = { message: 'Crawl not found.', status: 404 };
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const MAX_PAGES = 50;

/**
 * Twelve pages (so a per_page of 10 makes two pages of rows): the start page links to the
 * others, one of which answers 404, one garbled (no answer: failed), one robots.txt disallows.
 */
function apiSite(site: CrawlSite): void {
  const o = site.origin;
  const numbered = Array.from({ length: 8 }, (_, i) => `/p${i}`);
  site.set({
    '/robots.txt': robotsTxt('User-agent: *\nDisallow: /private\n'),
    '/': htmlPage({ title: 'Home', links: [...numbered, '/missing', '/garbled', '/private'] }),
    ...Object.fromEntries(numbered.map((p) => [p, htmlPage({ title: `Page ${p}`, links: ['/'] })])),
    '/garbled': { type: 'text/html', headers: { 'content-encoding': 'gzip' }, body: 'not gzip at all' },
    '/private': htmlPage({ title: 'Private' }),
    '/sitemap.xml': urlset([`${o}/`, ...numbered.map((p) => `${o}${p}`)]),
  });
}

describe('crawls API', () => {
  let t: TestApp;
  let site: CrawlSite;
  let key: string;
  let otherKey: string;
  let finished: CrawlBody;

  before(async () => {
    t = await testApp({ ALLOW_PRIVATE_ADDRESSES: 'true', CRAWL_MAX_PAGES: String(MAX_PAGES), ANALYSIS_WORKERS: '0' });
    ({ key } = await t.account());
    ({ key: otherKey } = await t.account());
    site = await startCrawlSite({});
    apiSite(site);
  });
  after(async () => {
    await t.close();
    await site.close();
  });

  const post = (form: Record<string, string>, k = key) => t.call(k, { method: 'POST', url: '/api/v1/crawls', form });
  const list = (k = key, query = '') => t.call(k, { method: 'GET', url: `/api/v1/crawls${query}` });

  test('POST answers 202 {data, status} at once: queued, nothing counted, nothing fetched before the jobs run', async () => {
    const res = await post({ url: `${site.origin}/` });
    assert.equal(res.statusCode, 202, res.body);
    const body = res.json();
    assert.deepEqual(Object.keys(body), ['data', 'status']);
    assert.equal(body.status, 202);
    const crawl = body.data;
    assert.deepEqual(Object.keys(crawl), CRAWL_FIELDS);
    assert.deepEqual(
      { ...crawl, id: 0, created_at: '', updated_at: '' },
      {
        id: 0,
        url: `${site.origin}/`,
        project: '127.0.0.1',
        status: 'queued',
        max_pages: MAX_PAGES, // the default (100) capped by CRAWL_MAX_PAGES
        render: false,
        pages_found: 0,
        pages_done: 0,
        pages_failed: 0,
        result: null,
        issues: 0,
        external_unchecked: 0,
        started_at: null,
        finished_at: null,
        created_at: '',
        updated_at: '',
      },
    );
    assert.match(crawl.created_at, TIMESTAMP);
    assert.deepEqual(site.requests, [], 'the request itself fetches nothing');
    assert.deepEqual(await showCrawl(t, key, crawl.id), crawl, 'show gives the same crawl');

    finished = await runUntilEnded(t, key, crawl.id);
    assert.equal(finished.status, 'finished');
  });

  test('422 for a missing or invalid url, max_pages 0 or above CRAWL_MAX_PAGES, sitemap not 0/1; nothing stored or fetched', async () => {
    await t.services.jobs.drain();
    const before = (await list()).json().meta.total;
    const requestsBefore = site.requests.length;
    const jobsBefore = (await t.services.jobs.list()).length;
    const cases: [Record<string, string>, Record<string, string[]>][] = [
      [{}, { url: ['The url field is required.'] }],
      [{ url: 'http://' }, { url: ['The url must be a valid URL.'] }],
      [{ url: 'ftp://127.0.0.1/' }, { url: ['The url must be a valid URL.'] }],
      [{ url: `${site.origin}/`, max_pages: '0' }, { max_pages: ['The max pages must be at least 1.'] }],
      [
        { url: `${site.origin}/`, max_pages: String(MAX_PAGES + 1) },
        { max_pages: [`The max pages must not be greater than ${MAX_PAGES}.`] },
      ],
      [{ url: `${site.origin}/`, max_pages: 'ten' }, { max_pages: ['The max pages must be an integer.'] }],
      [{ url: `${site.origin}/`, sitemap: '2' }, { sitemap: ['The selected sitemap is invalid.'] }],
    ];
    for (const [form, errors] of cases) {
      const res = await post(form);
      assert.equal(res.statusCode, 422, `${JSON.stringify(form)}: ${res.body}`);
      assert.deepEqual(res.json().errors, errors, JSON.stringify(form));
    }
    // A url that is not a URL at all gets a 422, not a server error (found by this test: the
    // address check parsed it unvalidated and threw).
    const garbage = await post({ url: 'http://exa mple.com/' });
    assert.equal(garbage.statusCode, 422, garbage.body);
    assert.deepEqual(Object.keys(garbage.json().errors), ['url']);

    await t.services.jobs.drain();
    assert.equal((await list()).json().meta.total, before, 'no crawl stored');
    assert.equal((await t.services.jobs.list()).length, jobsBefore, 'no job queued');
    assert.equal(site.requests.length, requestsBefore, 'no request reached the site');
  });

  test('max_pages and sitemap as given are kept', async () => {
    const crawl = await startCrawl(t, key, { url: `${site.origin}/`, max_pages: String(MAX_PAGES), sitemap: '0' });
    assert.equal(crawl.max_pages, MAX_PAGES);
    const ended = await runUntilEnded(t, key, crawl.id);
    assert.equal(ended.status, 'finished');
    const rows = await allPages(t, key, crawl.id);
    assert.ok(
      rows.every((row) => !row.in_sitemap),
      'sitemap=0: nothing is marked as listed in a sitemap',
    );
  });

  test('a finished crawl: its live counts agree with its rows and issues; pages and issues are paginators', async () => {
    const crawl = finished;
    assert.equal(crawl.status, 'finished');
    assert.match(crawl.started_at!, TIMESTAMP);
    assert.match(crawl.finished_at!, TIMESTAMP);
    const o = site.origin;

    const first = await t.call(key, { method: 'GET', url: `/api/v1/crawls/${crawl.id}/pages?per_page=10` });
    assert.equal(first.statusCode, 200);
    const page1 = first.json();
    assert.deepEqual(Object.keys(page1.meta), ['current_page', 'from', 'last_page', 'links', 'path', 'per_page', 'to', 'total']);
    assert.equal(page1.meta.total, 12);
    assert.equal(page1.meta.last_page, 2);
    assert.equal(page1.data.length, 10);
    assert.equal(page1.links.next, `http://localhost:80/api/v1/crawls/${crawl.id}/pages?per_page=10&page=2`);
    for (const row of page1.data) assert.deepEqual(Object.keys(row), PAGE_FIELDS);
    const page2 = (
      await t.call(key, { method: 'GET', url: new URL(page1.links.next).pathname + new URL(page1.links.next).search })
    ).json();
    assert.equal(page2.data.length, 2);
    const rows = [...page1.data, ...page2.data];
    assert.deepEqual(rows, await allPages(t, key, crawl.id));
    assert.equal(rows[0].url, `${o}/`, 'discovery order: the start page first');
    assert.equal(rows[0].depth, 0);
    assert.equal(new Set(rows.map((r) => r.url)).size, rows.length, 'one row per URL');

    const rowOf = byUrl(rows);
    assert.deepEqual(rowOf.get(`${o}/p3`), {
      url: `${o}/p3`,
      status_code: 200,
      depth: 1,
      report_id: rowOf.get(`${o}/p3`)!.report_id,
      result: rowOf.get(`${o}/p3`)!.result,
      in_sitemap: true,
      indexable: true,
      error: null,
    });
    assert.equal(typeof rowOf.get(`${o}/p3`)!.report_id, 'number');
    assert.equal(typeof rowOf.get(`${o}/p3`)!.result, 'number');
    assert.deepEqual(
      { ...rowOf.get(`${o}/missing`) },
      {
        url: `${o}/missing`,
        status_code: 404,
        depth: 1,
        report_id: null,
        result: null,
        in_sitemap: false,
        indexable: false,
        error: null,
      },
    );
    const garbled = rowOf.get(`${o}/garbled`)!;
    assert.equal(garbled.status_code, null);
    assert.equal(garbled.report_id, null);
    assert.match(garbled.error ?? '', /compress/i, 'no readable answer: why, in error');
    const disallowed = rowOf.get(`${o}/private`)!;
    assert.equal(disallowed.status_code, null);
    assert.match(disallowed.error ?? '', /Disallow/);

    // The counts: every row; the answered ones; the one that got no answer; the mean score.
    const scores = rows.map((r) => r.result).filter((r): r is number => r !== null);
    assert.equal(scores.length, 9, 'the start page and the eight numbered pages were analysed');
    assert.equal(crawl.pages_found, rows.length);
    assert.equal(crawl.pages_done, rows.filter((r) => r.status_code !== null).length);
    assert.equal(crawl.pages_done, 10);
    assert.equal(crawl.pages_failed, 1);
    assert.equal(crawl.result, Math.round(scores.reduce((a, b) => a + b, 0) / scores.length));

    const issuesRes = await t.call(key, { method: 'GET', url: `/api/v1/crawls/${crawl.id}/issues?per_page=10` });
    assert.equal(issuesRes.statusCode, 200);
    const issues = issuesRes.json();
    assert.deepEqual(Object.keys(issues), ['data', 'links', 'meta', 'current_page', 'last_page', 'status']);
    assert.ok(issues.data.length > 0);
    for (const issue of issues.data) assert.deepEqual(Object.keys(issue), ISSUE_FIELDS);
    assert.equal(crawl.issues, issues.meta.total);
    assert.ok(
      issues.data.some((i: { type: string; url: string }) => i.type === 'broken_link' && i.url === `${o}/missing`),
      JSON.stringify(issues.data),
    );
  });

  test('format=csv: the header line, then every page, CRLF, booleans 1/0 and null as an empty field', async () => {
    const res = await t.call(key, { method: 'GET', url: `/api/v1/crawls/${finished.id}/pages?format=csv&per_page=10` });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^text\/csv/);
    assert.ok(res.body.endsWith('\r\n'));
    const lines = res.body.slice(0, -2).split('\r\n');
    assert.ok(!lines.some((l) => l.includes('\n')), 'lines end with CRLF, never a bare LF');
    assert.equal(lines[0], PAGE_FIELDS.join(','));
    const rows = await allPages(t, key, finished.id);
    assert.equal(lines.length - 1, rows.length, 'every page, not only per_page of them');
    assert.deepEqual(
      lines.slice(1).map((line) => line.split(',')[0]),
      rows.map((r) => r.url),
    );
    const missing = lines.find((l) => l.startsWith(`${site.origin}/missing,`));
    assert.equal(missing, `${site.origin}/missing,404,1,,,0,0,`);
    const p0 = rows.find((r) => r.url === `${site.origin}/p0`)!;
    assert.equal(
      lines.find((l) => l.startsWith(`${site.origin}/p0,`)),
      `${site.origin}/p0,200,1,${p0.report_id},${p0.result},1,1,`,
    );
  });

  test('list: a paginator of the account’s crawls, newest first; another account sees none of them', async () => {
    const res = await list(key, '?per_page=10');
    assert.equal(res.statusCode, 200);
    const body = res.json();
    const ids = body.data.map((c: CrawlBody) => c.id);
    assert.ok(ids.length >= 2);
    assert.deepEqual(
      ids,
      [...ids].sort((a: number, b: number) => b - a),
      'newest first',
    );
    assert.equal(body.meta.total, ids.length);
    for (const crawl of body.data) assert.deepEqual(Object.keys(crawl), CRAWL_FIELDS);
    assert.deepEqual(
      body.data.find((c: CrawlBody) => c.id === finished.id),
      await showCrawl(t, key, finished.id),
    );
    const other = (await list(otherKey)).json();
    assert.equal(other.meta.total, 0);
    assert.deepEqual(other.data, []);
  });

  test('another account’s crawl is a 404 on show, pages, CSV, issues, their summary and delete (and the delete changes nothing)', async () => {
    const running = await startCrawl(t, key, { url: `${site.origin}/`, sitemap: '0' });
    for (const [method, url] of [
      ['GET', `/api/v1/crawls/${finished.id}`],
      ['GET', `/api/v1/crawls/${finished.id}/pages`],
      ['GET', `/api/v1/crawls/${finished.id}/pages?format=csv`],
      ['GET', `/api/v1/crawls/${finished.id}/issues`],
      ['GET', `/api/v1/crawls/${finished.id}/issues?type=broken_link`],
      ['GET', `/api/v1/crawls/${finished.id}/issues/summary`],
      ['DELETE', `/api/v1/crawls/${finished.id}`],
      ['DELETE', `/api/v1/crawls/${running.id}`],
      ['GET', '/api/v1/crawls/999999'],
      ['DELETE', '/api/v1/crawls/999999'],
    ] as const) {
      const res = await t.call(otherKey, { method, url });
      assert.equal(res.statusCode, 404, `${method} ${url}`);
      assert.deepEqual(res.json(), NOT_FOUND, `${method} ${url}`);
    }
    assert.equal((await showCrawl(t, key, running.id)).status, 'queued', 'the other account’s DELETE cancelled nothing');
    assert.equal((await runUntilEnded(t, key, running.id)).status, 'finished');
  });

  test('every HTML page becomes a private report in the account (project = host); a second crawl re-runs the same reports, privacy kept', async () => {
    const o = site.origin;
    const rows = await allPages(t, key, finished.id);
    const analysed = rows.filter((r) => r.report_id !== null);
    assert.equal(analysed.length, 9);
    for (const row of analysed) {
      const res = await t.call(key, { method: 'GET', url: `/api/v1/reports/${row.report_id}` });
      assert.equal(res.statusCode, 200, res.body);
      const report = res.json().data;
      assert.equal(report.url, row.url);
      assert.equal(report.project, '127.0.0.1');
      assert.equal(report.privacy, 1, 'private');
      assert.equal(report.result, row.result);
      assert.equal((await t.call(otherKey, { method: 'GET', url: `/api/v1/reports/${row.report_id}` })).statusCode, 404);
    }
    // The earlier crawls of this file re-ran these reports already; count from here.
    const historyOf = async (id: number) => {
      const res = await t.call(key, { method: 'GET', url: `/api/v1/reports/${id}/history` });
      assert.equal(res.statusCode, 200, res.body);
      return res.json().data.length as number;
    };
    const p1 = byUrl(rows).get(`${o}/p1`)!.report_id!;
    const made = await t.call(key, { method: 'PATCH', url: `/api/v1/reports/${p1}`, form: { privacy: '0' } });
    assert.equal(made.statusCode, 200, made.body);
    const histories = new Map<number, number>();
    for (const row of analysed) histories.set(row.report_id!, await historyOf(row.report_id!));
    const reportsBefore = (await t.call(key, { method: 'GET', url: '/api/v1/reports' })).json().meta.total;

    const again = await crawlSite(t, key, { url: `${o}/` });
    assert.equal(again.status, 'finished');
    const rerun = await allPages(t, key, again.id);
    assert.deepEqual(
      rerun.filter((r) => r.report_id !== null).map((r) => [r.url, r.report_id]),
      analysed.map((r) => [r.url, r.report_id]),
      'the same report ids',
    );
    for (const [id, items] of histories) assert.equal(await historyOf(id), items + 1, `report ${id} has one more history item`);
    assert.equal(
      (await t.call(key, { method: 'GET', url: '/api/v1/reports' })).json().meta.total,
      reportsBefore,
      'no new report',
    );
    assert.equal((await t.call(key, { method: 'GET', url: `/api/v1/reports/${p1}` })).json().data.privacy, 0, 'privacy kept');
  });
});

describe('crawls API without ALLOW_PRIVATE_ADDRESSES', () => {
  let t: TestApp;
  let site: CrawlSite;

  before(async () => {
    t = await testApp({ ANALYSIS_WORKERS: '0' });
    site = await startCrawlSite({ '/': htmlPage({ title: 'Home' }) });
  });
  after(async () => {
    await t.close();
    await site.close();
  });

  test('a start url on a private address is a 422 on url: nothing stored, no job, no request reaches the site', async () => {
    const { key } = await t.account();
    for (const url of [`${site.origin}/`, `http://localhost:${site.port}/`, `http://[::1]:${site.port}/`]) {
      const res = await t.call(key, { method: 'POST', url: '/api/v1/crawls', form: { url } });
      assert.equal(res.statusCode, 422, `${url}: ${res.body}`);
      assert.deepEqual(res.json().errors, { url: ['The url points to a private or reserved network address.'] }, url);
    }
    await t.services.jobs.drain();
    assert.equal((await t.call(key, { method: 'GET', url: '/api/v1/crawls' })).json().meta.total, 0);
    assert.deepEqual(await t.db.handle.db.selectFrom('crawls').selectAll().execute(), []);
    assert.deepEqual(await t.services.jobs.list(), []);
    assert.deepEqual(site.requests, []);
  });
});
