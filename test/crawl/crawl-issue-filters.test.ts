// The issues list's filters and the issue summary (docs/api.md "Crawls", docs/site-audits.md):
// `type` (one, or several comma-separated; an unknown one is a 422) and `severity` narrow
// GET /crawls/{id}/issues and keep to its paginator; GET /crawls/{id}/issues/summary counts
// the issues by type, most severe first, then the most frequent, then by name; another
// account's crawl is a 404 on both.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { testApp, type TestApp } from '../helpers/app.js';
import { type CrawlSite, htmlPage, startCrawlSite } from '../helpers/crawl-site.js';
import { allIssues, type CrawlBody, crawlSite, type IssueBody, showCrawl, startCrawl } from './crawl-harness.js';

const RANK: Record<string, number> = { high: 0, medium: 1, low: 2 };

interface SummaryRow {
  type: string;
  severity: string;
  count: number;
}

/** The issues counted by type, in the summary's order, from the whole list. */
function expectedSummary(issues: readonly IssueBody[]): SummaryRow[] {
  const counts = new Map<string, SummaryRow>();
  for (const issue of issues) {
    const row = counts.get(issue.type) ?? { type: issue.type, severity: issue.severity, count: 0 };
    row.count++;
    counts.set(issue.type, row);
  }
  return [...counts.values()].sort(
    (a, b) => RANK[a.severity] - RANK[b.severity] || b.count - a.count || (a.type < b.type ? -1 : 1),
  );
}

describe('crawl issues: filters and summary', () => {
  let t: TestApp;
  let site: CrawlSite;
  let key: string;
  let otherKey: string;
  let crawl: CrawlBody;
  let issues: IssueBody[];

  before(async () => {
    t = await testApp({ ALLOW_PRIVATE_ADDRESSES: 'true', ANALYSIS_WORKERS: '0' });
    ({ key } = await t.account());
    ({ key: otherKey } = await t.account());
    site = await startCrawlSite({
      // Three broken links (two 404s and a 500, which is also a server error), one page without a
      // title, and the short, thin pages every fixture page is.
      '/': htmlPage({ title: 'Home page', links: ['/gone1', '/gone2', '/error', '/a', '/b', '/untitled'] }),
      '/a': htmlPage({ title: 'The page called A', links: ['/'] }),
      '/b': htmlPage({ title: 'The page called B', links: ['/'] }),
      '/error': { status: 500, type: 'text/html', body: '<!doctype html><title>Oops</title>' },
      '/untitled': {
        type: 'text/html',
        body: '<!doctype html><html lang="en"><head></head><body><h1>No title</h1></body></html>',
      },
    });
    crawl = await crawlSite(t, key, { url: `${site.origin}/`, sitemap: '0' });
    assert.equal(crawl.status, 'finished');
    issues = await allIssues(t, key, crawl.id);
  });
  after(async () => {
    await t.close();
    await site.close();
  });

  const get = (url: string, k = key) => t.call(k, { method: 'GET', url });
  const issuesOf = async (query: string) => {
    const res = await get(`/api/v1/crawls/${crawl.id}/issues?per_page=100&${query}`);
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as { data: IssueBody[]; meta: { total: number }; links: { first: string } };
  };

  test('type: one type gives only its issues, in the list’s order; several comma-separated give any of them', async () => {
    const o = site.origin;
    const broken = await issuesOf('type=broken_link');
    assert.deepEqual(
      broken.data,
      issues.filter((i) => i.type === 'broken_link'),
    );
    assert.deepEqual(broken.data.map((i) => i.url).sort(), [`${o}/error`, `${o}/gone1`, `${o}/gone2`]);
    assert.equal(broken.meta.total, 3);

    const two = await issuesOf(`type=${encodeURIComponent(' broken_link , missing_title,broken_link')}`);
    assert.deepEqual(
      two.data,
      issues.filter((i) => i.type === 'broken_link' || i.type === 'missing_title'),
      'spaces around the names and a repeat are fine',
    );
    assert.deepEqual(
      two.data.filter((i) => i.type === 'missing_title').map((i) => i.url),
      [`${o}/untitled`],
    );

    const none = await issuesOf('type=redirect_loop');
    assert.deepEqual(none.data, [], 'a known type the crawl did not find: an empty page');
    assert.equal(none.meta.total, 0);
  });

  test('severity alone and with type; the paginator counts and links with the filters', async () => {
    for (const severity of ['high', 'medium', 'low']) {
      const list = await issuesOf(`severity=${severity}`);
      assert.deepEqual(
        list.data,
        issues.filter((i) => i.severity === severity),
        severity,
      );
    }
    assert.ok((await issuesOf('severity=high')).data.length >= 4, 'three broken links and the server error at least');
    assert.deepEqual((await issuesOf('type=broken_link&severity=low')).data, [], 'broken_link is high');
    assert.equal((await issuesOf('type=broken_link&severity=high')).meta.total, 3);

    const res = await get(`/api/v1/crawls/${crawl.id}/issues?type=broken_link&severity=high&per_page=10`);
    const first = res.json();
    assert.equal(first.meta.total, 3);
    assert.equal(
      first.links.first,
      `http://localhost:80/api/v1/crawls/${crawl.id}/issues?type=broken_link&severity=high&per_page=10&page=1`,
    );
    // The filtered list's pages: three issues fit on the first.
    const second = (await get(`/api/v1/crawls/${crawl.id}/issues?type=broken_link&per_page=10&page=2`)).json();
    assert.deepEqual(second.data, []);
    assert.equal(second.meta.total, 3);
  });

  test('an unknown type or severity is a 422 in the validation shape, and changes nothing', async () => {
    const before = await showCrawl(t, key, crawl.id);
    const cases: [string, Record<string, string[]>][] = [
      ['type=no_such_type', { type: ['The type field contains an unknown issue type: no_such_type.'] }],
      ['type=broken_link,Broken_Link', { type: ['The type field contains an unknown issue type: Broken_Link.'] }],
      ['severity=urgent', { severity: ['The selected severity is invalid.'] }],
      [
        'type=nope&severity=HIGH',
        { type: ['The type field contains an unknown issue type: nope.'], severity: ['The selected severity is invalid.'] },
      ],
    ];
    for (const [query, errors] of cases) {
      const res = await get(`/api/v1/crawls/${crawl.id}/issues?${query}`);
      assert.equal(res.statusCode, 422, query);
      const body = res.json();
      assert.deepEqual(body.errors, errors, query);
      assert.equal(typeof body.message, 'string');
      assert.ok(body.message.startsWith(Object.values(errors)[0][0]), body.message);
    }
    assert.deepEqual(await showCrawl(t, key, crawl.id), before);
    assert.deepEqual(await allIssues(t, key, crawl.id), issues);
  });

  test('summary: one row per type found with its count, most severe first, then by count, then by name', async () => {
    const res = await get(`/api/v1/crawls/${crawl.id}/issues/summary`);
    assert.equal(res.statusCode, 200);
    const body = res.json() as { data: SummaryRow[]; status: number };
    assert.deepEqual(Object.keys(body), ['data', 'status']);
    assert.equal(body.status, 200);
    for (const row of body.data) assert.deepEqual(Object.keys(row), ['type', 'severity', 'count']);
    assert.deepEqual(body.data, expectedSummary(issues));
    assert.equal(
      body.data.reduce((sum, row) => sum + row.count, 0),
      crawl.issues,
    );
    assert.deepEqual(
      body.data.find((row) => row.type === 'broken_link'),
      { type: 'broken_link', severity: 'high', count: 3 },
    );
    assert.deepEqual(
      body.data.find((row) => row.type === 'missing_title'),
      { type: 'missing_title', severity: 'high', count: 1 },
    );
    // Each row's count is what the list filtered by its type totals.
    for (const row of body.data) assert.equal((await issuesOf(`type=${row.type}`)).meta.total, row.count, row.type);
  });

  test('summary order with ties: stored issues of chosen counts', async () => {
    // A crawl whose jobs never run, with issues put in its table: the order rests on nothing else.
    const seeded = await startCrawl(t, key, { url: `${site.origin}/`, sitemap: '0' });
    const plant: [string, string, number][] = [
      ['thin_content', 'low', 1],
      ['url_underscore', 'low', 2],
      ['url_too_long', 'low', 2],
      ['duplicate_title', 'medium', 2],
      ['missing_h1', 'medium', 5],
      ['server_error', 'high', 1],
      ['broken_link', 'high', 1],
      ['fetch_failed', 'high', 4],
    ];
    const rows = plant.flatMap(([type, severity, n]) =>
      Array.from({ length: n }, (_, i) => ({
        crawl_id: seeded.id,
        type,
        severity,
        url: `${site.origin}/${type}/${i}`,
        detail: '',
      })),
    );
    await t.db.handle.db.insertInto('crawl_issues').values(rows).execute();
    const res = await get(`/api/v1/crawls/${seeded.id}/issues/summary`);
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json().data, [
      { type: 'fetch_failed', severity: 'high', count: 4 },
      { type: 'broken_link', severity: 'high', count: 1 },
      { type: 'server_error', severity: 'high', count: 1 },
      { type: 'missing_h1', severity: 'medium', count: 5 },
      { type: 'duplicate_title', severity: 'medium', count: 2 },
      { type: 'url_too_long', severity: 'low', count: 2 },
      { type: 'url_underscore', severity: 'low', count: 2 },
      { type: 'thin_content', severity: 'low', count: 1 },
    ]);

    const empty = await startCrawl(t, key, { url: `${site.origin}/`, sitemap: '0' });
    const none = await get(`/api/v1/crawls/${empty.id}/issues/summary`);
    assert.equal(none.statusCode, 200);
    assert.deepEqual(none.json(), { data: [], status: 200 }, 'a crawl with no issues (yet): an empty list');
  });

  test('another account’s crawl is a 404 on the filtered list and the summary; an unknown one too', async () => {
    const notFound = { message: 'Crawl not found.', status: 404 };
    for (const url of [
      `/api/v1/crawls/${crawl.id}/issues?type=broken_link`,
      `/api/v1/crawls/${crawl.id}/issues?severity=high`,
      `/api/v1/crawls/${crawl.id}/issues/summary`,
      '/api/v1/crawls/999999/issues/summary',
    ]) {
      const res = await get(url, otherKey);
      assert.equal(res.statusCode, 404, url);
      assert.deepEqual(res.json(), notFound, url);
    }
  });
});
