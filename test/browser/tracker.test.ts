// The tracker in Chromium (docs/analytics.md): a page on one loopback site (127.0.0.2) loads
// /js/script.js from the API on another (127.0.0.1), then its pageviews, an SPA navigation and a
// custom event arrive in analytics_events. With exclude_bots = 1 (the default) the headless
// browser's pageview is dropped.
import assert from 'node:assert/strict';
import { type Server, createServer } from 'node:http';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { type TestApp, testApp } from '../helpers/app.js';
import { launchBrowser, noBrowser, screenshot } from '../helpers/browser.js';
import { until } from '../helpers/wait.js';

const PAGE_HOST = '127.0.0.2';

describe('the tracker in Chromium', { skip: noBrowser }, () => {
  let t: TestApp;
  let browser: Browser;
  let pages: Server;
  let api: string;
  let site: string;
  let key: string;
  let websiteId: number;

  before(async () => {
    t = await testApp();
    ({ key } = await t.account());
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    api = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
    const created = await t.call(key, { method: 'POST', url: '/api/v1/websites', form: { domain: PAGE_HOST } });
    assert.equal(created.statusCode, 201, created.body);
    websiteId = created.json().data.id;
    assert.equal(created.json().data.exclude_bots, 1, 'bots are excluded by default');

    // The host page, on another site: every path answers the same page with the install snippet.
    // 127.0.0.x is "local" to the tracker, hence data-allow-local.
    const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title>
<script defer src="${api}/js/script.js" data-website="${websiteId}" data-allow-local></script></head>
<body><h1>Shop</h1></body></html>`;
    pages = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
    });
    await new Promise<void>((resolve) => pages.listen(0, PAGE_HOST, resolve));
    site = `http://${PAGE_HOST}:${(pages.address() as { port: number }).port}`;
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await new Promise((resolve) => pages?.close(resolve));
    await t.close();
  });

  const rows = () =>
    t.db.handle.db
      .selectFrom('analytics_events')
      .select(['name', 'page', 'props', 'language', 'resolution'])
      .where('website_id', '=', websiteId)
      .orderBy('id')
      .execute();
  const setExcludeBots = async (value: '0' | '1') => {
    const res = await t.call(key, { method: 'PATCH', url: `/api/v1/websites/${websiteId}`, form: { exclude_bots: value } });
    assert.equal(res.statusCode, 200, res.body);
  };

  /** A fresh context whose page records its errors and the events it posts. */
  async function openPage(): Promise<{ context: BrowserContext; page: Page; errors: string[]; events: Request[] }> {
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors: string[] = [];
    const events: Request[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('request', (request) => {
      if (request.url() === `${api}/api/event`) events.push(request);
    });
    return { context, page, errors, events };
  }

  test('pageviews on load and on pushState, a custom event with props; no cookie, nothing stored', async () => {
    await setExcludeBots('0');
    const { context, page, errors, events } = await openPage();
    const script = page.waitForResponse(`${api}/js/script.js`);
    await page.goto(`${site}/`);
    const loaded = await script;
    assert.equal(loaded.status(), 200, 'loaded across sites (Cross-Origin-Resource-Policy: cross-origin)');
    assert.equal(loaded.headers()['content-encoding'], 'gzip');
    await until(async () => (await rows()).length >= 1, { what: 'the first pageview' });

    // The second pushState keeps the path: no pageview for it. (Strings: the tests compile without DOM types.)
    await page.evaluate(`
      history.pushState({}, '', '/pricing');
      history.pushState({}, '', '/pricing?tab=teams');
      rankscope('Signup', { props: { plan: 'pro' } });
    `);
    await until(async () => (await rows()).length >= 3, { what: 'the second pageview and the custom event' });
    await until(() => events.length >= 3, { what: 'the three requests' });

    // The requests may reach the server in any order: compare the rows by page.
    const stored = (await rows()).sort((a, b) => a.page.localeCompare(b.page));
    assert.deepEqual(
      stored.map((r) => [r.name, r.page, r.props === null ? null : JSON.parse(r.props)]),
      [
        ['pageview', '/', null],
        ['pageview', '/pricing', null],
        ['Signup', '/pricing?tab=teams', { plan: 'pro' }],
      ],
    );
    assert.equal(events.length, 3, 'one request per event');
    for (const request of events) assert.equal(request.method(), 'POST');
    assert.equal(stored[0].language, 'en-US');
    assert.match(stored[0].resolution ?? '', /^\d+x\d+$/);

    // …and the stats API shows them, from the rollups.
    // (Yesterday too, in case the test runs across midnight UTC.)
    const today = new Date().toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const listed = async (name: string) => {
      const url = `/api/v1/stats/${websiteId}?name=${name}&from=${yesterday}&to=${today}`;
      const res = await t.call(key, { method: 'GET', url });
      assert.equal(res.statusCode, 200, res.body);
      return res.json().data as { value: string; count: number }[];
    };
    const stat = async (name: string) => (await listed(name)).map((r) => `${r.value}=${r.count}`);
    const total = async (name: string) => (await listed(name)).reduce((sum, r) => sum + r.count, 0);
    assert.deepEqual(await stat('page'), ['/=1', '/pricing=1']);
    assert.equal(await total('pageviews'), 2);
    assert.equal(await total('visitors'), 1);
    assert.deepEqual(await stat('event'), ['Signup=1']);
    assert.deepEqual(await stat('browser'), ['Chrome Headless=1']);

    assert.deepEqual(await context.cookies(), [], 'no cookie on either site');
    assert.deepEqual(await page.evaluate('[document.cookie, localStorage.length, sessionStorage.length]'), ['', 0, 0]);
    assert.deepEqual(errors, [], 'nothing thrown or logged in the page');
    await screenshot(page, 'tracker-page');
    await context.close();
  });

  test('with exclude_bots = 1 the headless browser’s pageview is dropped', async () => {
    await setExcludeBots('1');
    const before = (await rows()).length;
    const { context, page, errors } = await openPage();
    assert.match((await page.evaluate('navigator.userAgent')) as string, /HeadlessChrome/);
    const answer = page.waitForResponse((response) => response.url() === `${api}/api/event`);
    await page.goto(`${site}/headless`);
    // /api/event answers once the event is stored or dropped, so the table is final here.
    // (Chromium does not show a beacon's response headers, so X-Event-Dropped cannot be read.)
    assert.equal((await answer).status(), 202);
    assert.equal((await rows()).length, before, 'no row');

    // The control: the same page, once bots count, is stored.
    await setExcludeBots('0');
    await page.reload();
    await until(async () => (await rows()).some((r) => r.page === '/headless'), { what: 'the pageview once bots count' });
    assert.deepEqual(errors, []);
    await context.close();
  });
});
