// Links to other sites, images and hreflang targets (docs/external-links.md): the site on
// 127.0.0.1, the "other site" on 127.0.0.2. Each distinct URL is checked once (HEAD, then a GET
// reading at most 64 KB when HEAD is refused), with the reports' User-Agent and no robots.txt of
// the other host; external=0 asks the other host nothing; CRAWL_MAX_EXTERNAL caps the checks and
// external_unchecked counts the rest; at most 2 checks at once to one host; /links in JSON and CSV.
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { testApp, type TestApp } from '../helpers/app.js';
import { type CrawlSite, htmlPage, redirect, startCrawlSite } from '../helpers/crawl-site.js';
import { allIssues, crawlSite, runUntilEnded, startCrawl } from './crawl-harness.js';
import { until } from '../helpers/wait.js';

const USER_AGENT = 'Mozilla/5.0 (compatible; RankscopeBot/1.0)';
const LINK_FIELDS = ['url', 'kind', 'status_code', 'final_url', 'error', 'pages'];

interface LinkBody {
  url: string;
  kind: string;
  status_code: number | null;
  final_url: string | null;
  error: string | null;
  pages: number;
}

async function allLinks(t: TestApp, key: string, id: number): Promise<LinkBody[]> {
  const rows: LinkBody[] = [];
  for (let page = 1; ; page++) {
    const res = await t.call(key, { method: 'GET', url: `/api/v1/crawls/${id}/links?per_page=10&page=${page}` });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    rows.push(...body.data);
    if (page >= body.meta.last_page) return rows;
  }
}

const byKey = (rows: readonly LinkBody[]) => new Map(rows.map((row) => [`${row.kind} ${row.url}`, row]));

/** HEAD refused with 405; a GET answers 100 KB, chunked (no Content-Length): the check reads 64 KB of it. */
const noHead = (req: IncomingMessage) =>
  req.method === 'HEAD'
    ? { status: 405, body: '' }
    : { type: 'text/html', headers: { 'transfer-encoding': 'chunked' }, body: Buffer.alloc(100_000, 'a') };

describe('link and image checks', () => {
  let t: TestApp;
  let key: string;
  let otherKey: string;
  let site: CrawlSite;
  let other: CrawlSite;

  before(async () => {
    t = await testApp({ ALLOW_PRIVATE_ADDRESSES: 'true', ANALYSIS_WORKERS: '0' });
    ({ key } = await t.account());
    ({ key: otherKey } = await t.account());
    site = await startCrawlSite({});
    other = await startCrawlSite({}, { host: '127.0.0.2' });
    const o = other.origin;
    other.set({
      '/ok': htmlPage({ title: 'Elsewhere' }),
      '/moved': redirect('/ok', 301),
      '/no-head': noHead,
      '/img/remote.png': { type: 'image/png', body: Buffer.alloc(1000) },
      '/de/': htmlPage({ title: 'Deutsch' }),
    });
    site.set({
      '/': htmlPage({
        title: 'Home',
        links: ['/a', `${o}/ok`, `${o}/gone`, `${o}/moved`, `${o}/no-head`, `${o}/ok#again`, 'http://127.0.0.2:1/refused'],
        head: `<link rel="alternate" hreflang="de" href="${o}/de/"><link rel="alternate" hreflang="fr" href="${o}/fr/"><link rel="alternate" hreflang="en" href="/">`,
        body: `<img src="/img/local.png" alt=""><img src="${o}/img/remote.png" alt=""><img src="${o}/img/missing.png" alt="">`,
      }),
      // Links again to what / links to, and as a link to what / names as an hreflang target.
      '/a': htmlPage({ title: 'A', links: ['/', `${o}/gone`, `${o}/de/`], body: '<img src="/img/local.png" alt="">' }),
      '/img/local.png': { type: 'image/png', headers: { 'content-length': '300000' }, body: Buffer.alloc(300_000) },
    });
  });
  after(async () => {
    await t.close();
    await site.close();
    await other.close();
  });

  test('each distinct URL checked once: 404, redirect, HEAD refused then GET, images on both hosts, hreflang; /links and CSV', async () => {
    const crawl = await crawlSite(t, key, { url: `${site.origin}/`, sitemap: '0' });
    assert.equal(crawl.status, 'finished');
    assert.equal(crawl.pages_found, 2, 'checks are not pages');
    assert.equal(crawl.external_unchecked, 0);
    const o = other.origin;
    const rows = await allLinks(t, key, crawl.id);
    for (const row of rows) assert.deepEqual(Object.keys(row), LINK_FIELDS);
    const links = byKey(rows);
    assert.deepEqual(
      [...links.keys()].sort(),
      [
        `hreflang ${o}/de/`,
        `hreflang ${o}/fr/`,
        `image ${o}/img/missing.png`,
        `image ${o}/img/remote.png`,
        `image ${site.origin}/img/local.png`,
        `link ${o}/de/`,
        `link ${o}/gone`,
        `link ${o}/moved`,
        `link ${o}/no-head`,
        `link ${o}/ok`,
        'link http://127.0.0.2:1/refused',
      ].sort(),
      'links to other hosts, every image, hreflang targets on other hosts; never the own host’s links or hreflang',
    );
    const row = (k: string) => links.get(k)!;
    assert.deepEqual(row(`link ${o}/ok`), {
      url: `${o}/ok`,
      kind: 'link',
      status_code: 200,
      final_url: `${o}/ok`,
      error: null,
      pages: 1,
    });
    assert.deepEqual(row(`link ${o}/gone`), {
      url: `${o}/gone`,
      kind: 'link',
      status_code: 404,
      final_url: `${o}/gone`,
      error: null,
      pages: 2,
    });
    assert.deepEqual(
      row(`link ${o}/moved`),
      { url: `${o}/moved`, kind: 'link', status_code: 301, final_url: `${o}/ok`, error: null, pages: 1 },
      'the first answer’s status, and where the redirects end',
    );
    assert.equal(row(`link ${o}/no-head`).status_code, 200, 'HEAD refused (405): the GET’s answer');
    assert.equal(row(`image ${o}/img/missing.png`).status_code, 404);
    assert.equal(row(`image ${o}/img/remote.png`).status_code, 200);
    assert.deepEqual(row(`image ${site.origin}/img/local.png`), {
      url: `${site.origin}/img/local.png`,
      kind: 'image',
      status_code: 200,
      final_url: `${site.origin}/img/local.png`,
      error: null,
      pages: 2,
    });
    assert.equal(row(`hreflang ${o}/fr/`).status_code, 404);
    assert.equal(row(`hreflang ${o}/de/`).status_code, 200);
    assert.equal(row(`link ${o}/de/`).status_code, 200, 'a URL linked and named as hreflang: one check, both rows');
    const refused = row('link http://127.0.0.2:1/refused');
    assert.equal(refused.status_code, null);
    assert.equal(refused.final_url, null);
    assert.equal(refused.error, 'The server refused the connection.');

    // At the other host: one HEAD per distinct URL (two spellings of /ok, and /de/ as a link and an
    // hreflang target, are one each), a GET only after a refused HEAD, the reports' User-Agent,
    // and never its robots.txt or anything the checked pages link to.
    const asked = other.requests.map((r) => `${r.method} ${r.path}`).sort();
    assert.deepEqual(asked, [
      'GET /no-head',
      'HEAD /de/',
      'HEAD /fr/',
      'HEAD /gone',
      'HEAD /img/missing.png',
      'HEAD /img/remote.png',
      'HEAD /moved',
      'HEAD /no-head',
      'HEAD /ok',
      'HEAD /ok',
    ]);
    assert.equal(other.requests.filter((r) => r.path === '/ok').length, 2, '/ok once linked, once as /moved’s end');
    assert.ok(other.requests.every((r) => r.userAgent === USER_AGENT));
    assert.equal(
      site.requests
        .filter((r) => r.path === '/img/local.png')
        .map((r) => r.method)
        .join(),
      'HEAD',
      'the own host’s image: one HEAD',
    );

    // The GET after a refused HEAD stopped reading at 64 KB (no Content-Length: bytes read).
    const stored = await t.services.repos.crawlLinks.list(crawl.id, 100, 0);
    const bytesOf = (url: string) => stored.rows.find((r) => r.url === url)?.bytes;
    assert.equal(Number(bytesOf(`${o}/no-head`)), 64 * 1024);
    assert.equal(Number(bytesOf(`${site.origin}/img/local.png`)), 300_000, 'Content-Length');

    const csv = await t.call(key, { method: 'GET', url: `/api/v1/crawls/${crawl.id}/links?format=csv` });
    assert.equal(csv.statusCode, 200);
    assert.match(String(csv.headers['content-type']), /^text\/csv/);
    const lines = csv.body.split('\r\n');
    assert.equal(lines[0], LINK_FIELDS.join(','));
    assert.equal(lines.at(-1), '');
    assert.equal(lines.length, rows.length + 2);
    assert.ok(lines.includes(`${o}/moved,link,301,${o}/ok,,1`), csv.body);
    assert.ok(lines.includes('http://127.0.0.2:1/refused,link,,,The server refused the connection.,1'), csv.body);

    // The issue pass reads the checks' results.
    const issues = new Set((await allIssues(t, key, crawl.id)).map((i) => `${i.type} ${i.severity} ${i.url}`));
    for (const expected of [
      `broken_external_link medium ${o}/gone`,
      'broken_external_link medium http://127.0.0.2:1/refused',
      `external_redirect low ${o}/moved`,
      `broken_image medium ${o}/img/missing.png`,
      `large_image low ${site.origin}/img/local.png`,
      `hreflang_to_non_200 medium ${site.origin}/`,
    ]) {
      assert.ok(issues.has(expected), `${expected} among ${[...issues].join(', ')}`);
    }
    assert.ok(![...issues].some((i) => i.includes(`${o}/ok`) || i.includes(`${o}/no-head`)), 'answers of 200 are no issue');

    const missing = await t.call(otherKey, { method: 'GET', url: `/api/v1/crawls/${crawl.id}/links` });
    assert.equal(missing.statusCode, 404, 'another account’s crawl');
    assert.equal((await t.call(otherKey, { method: 'GET', url: `/api/v1/crawls/${crawl.id}/links?format=csv` })).statusCode, 404);
  });

  test('external=0: no request to the other host, no image check, no rows', async () => {
    const before = other.requests.length;
    const imageChecks = site.requests.filter((r) => r.path === '/img/local.png').length;
    const crawl = await crawlSite(t, key, { url: `${site.origin}/`, sitemap: '0', external: '0' });
    assert.equal(crawl.status, 'finished');
    assert.equal(crawl.pages_done, 2);
    assert.equal(other.requests.length, before, 'nothing reached 127.0.0.2');
    assert.equal(site.requests.filter((r) => r.path === '/img/local.png').length, imageChecks);
    assert.deepEqual(await allLinks(t, key, crawl.id), []);
    assert.equal(crawl.external_unchecked, 0);
  });

  test('external must be 0 or 1', async () => {
    const res = await t.call(key, { method: 'POST', url: '/api/v1/crawls', form: { url: `${site.origin}/`, external: '2' } });
    assert.equal(res.statusCode, 422);
    assert.ok(res.json().errors.external, res.body);
  });
});

describe('CRAWL_MAX_EXTERNAL', () => {
  let t: TestApp;
  let key: string;
  let site: CrawlSite;
  let other: CrawlSite;

  before(async () => {
    t = await testApp({ ALLOW_PRIVATE_ADDRESSES: 'true', ANALYSIS_WORKERS: '0', CRAWL_MAX_EXTERNAL: '2' });
    ({ key } = await t.account());
    site = await startCrawlSite({});
    other = await startCrawlSite({}, { host: '127.0.0.2' });
  });
  after(async () => {
    await t.close();
    await site.close();
    await other.close();
  });

  test('2: two URLs checked, the other three not requested and counted in external_unchecked', async () => {
    const targets = ['/1', '/2', '/3', '/4'].map((p) => `${other.origin}${p}`);
    site.set({ '/': htmlPage({ title: 'Many links', links: targets, body: '<img src="/logo.png" alt="">' }) });
    const crawl = await crawlSite(t, key, { url: `${site.origin}/`, sitemap: '0' });
    assert.equal(crawl.status, 'finished');
    assert.equal(crawl.external_unchecked, 3);
    const rows = await allLinks(t, key, crawl.id);
    assert.equal(rows.length, 2, 'only checked URLs are listed');
    const asked = other.requests.length + site.requests.filter((r) => r.path === '/logo.png').length;
    assert.equal(asked, 2, 'two checks in all, the image counted with the links');
  });
});

describe('link checks with the job workers running', () => {
  let t: TestApp;
  let key: string;
  const sites: CrawlSite[] = [];

  before(async () => {
    t = await testApp({ ALLOW_PRIVATE_ADDRESSES: 'true', ANALYSIS_WORKERS: '0', CRAWL_CONCURRENCY: '4', JOB_CONCURRENCY: '16' });
    ({ key } = await t.account());
    await t.services.startWorkers();
  });
  after(async () => {
    await t.close();
    for (const site of sites) await site.close();
  });

  test('at most 2 checks at once to one other host, however many workers (CRAWL_CONCURRENCY 4)', async () => {
    const other = await startCrawlSite({}, { host: '127.0.0.2', delayMs: 100 });
    const site = await startCrawlSite({});
    sites.push(other, site);
    site.set({ '/': htmlPage({ title: 'Eight links', links: Array.from({ length: 8 }, (_, i) => `${other.origin}/${i}`) }) });
    const crawl = await crawlSite(t, key, { url: `${site.origin}/`, sitemap: '0' }, { workers: true });
    assert.equal(crawl.status, 'finished');
    assert.equal(other.requests.length, 8);
    assert.equal(other.maxInFlight, 2);
    assert.equal((await allLinks(t, key, crawl.id)).length, 8);
  });

  test('a cancel stops the checks: no request starts after DELETE answers', async () => {
    const other = await startCrawlSite({}, { host: '127.0.0.2' });
    const site = await startCrawlSite({});
    sites.push(other, site);
    site.set({ '/': htmlPage({ title: 'Held links', links: Array.from({ length: 6 }, (_, i) => `${other.origin}/${i}`) }) });
    const release = other.hold();
    const started = await startCrawl(t, key, { url: `${site.origin}/`, sitemap: '0' });
    await until(() => other.inFlight > 0, { what: 'a check under way' });
    const res = await t.call(key, { method: 'DELETE', url: `/api/v1/crawls/${started.id}` });
    assert.equal(res.statusCode, 200);
    const asked = other.requests.length;
    release();
    const crawl = await runUntilEnded(t, key, started.id, { workers: true });
    assert.equal(crawl.status, 'cancelled');
    await until(() => other.inFlight === 0, { what: 'the held checks to end' });
    assert.equal(other.requests.length, asked);
  });
});
