// Plausible's own npm trackers, unchanged, in Chromium, pointed at Rankscope with their own
// options (plausible-tracker's `apiHost`, @plausible-analytics/tracker's `endpoint`, each with its
// option to count a local page): a page on another loopback site (127.0.0.2, 127.0.0.4) sends
// pageviews, custom events with props and outbound-link clicks (to 127.0.0.3) to Rankscope on
// 127.0.0.1, and every one of them is counted, its props listed by the stats' name=prop.
import assert from 'node:assert/strict';
import { type RequestListener, type Server, createServer } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { build } from 'esbuild';
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { type TestApp, testApp } from '../helpers/app.js';
import { launchBrowser, noBrowser, screenshot } from '../helpers/browser.js';
import { until } from '../helpers/wait.js';

/** plausible-tracker's page, @plausible-analytics/tracker's page, and the site the outbound links go to. */
const LEGACY_HOST = '127.0.0.2';
const ELSEWHERE_HOST = '127.0.0.3';
const NPM_HOST = '127.0.0.4';
/** A desktop Chrome: the trackers are what is tested here, not the exclusion of headless browsers. */
const USER_AGENT = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

/** The package as the page loads it: bundled by esbuild, as a site's build would, setting `global`. */
async function bundle(source: string): Promise<string> {
  const result = await build({
    stdin: { contents: source, resolveDir: process.cwd(), loader: 'js' },
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'es2017',
    logLevel: 'silent',
  });
  return result.outputFiles[0].text;
}

function listen(server: Server, host: string): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, host, () => resolve(`http://${host}:${(server.address() as { port: number }).port}`)),
  );
}

describe('Plausible’s trackers pointed at Rankscope, in Chromium', { skip: noBrowser }, () => {
  let t: TestApp;
  let key: string;
  let browser: Browser;
  let api: string;
  const servers: Server[] = [];
  let legacySite: string;
  let npmSite: string;
  let elsewhere: string;
  const websites: Record<string, number> = {};

  before(async () => {
    t = await testApp();
    ({ key } = await t.account());
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    api = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
    for (const host of [LEGACY_HOST, NPM_HOST]) {
      const created = await t.call(key, { method: 'POST', url: '/api/v1/websites', form: { domain: host } });
      assert.equal(created.statusCode, 201, created.body);
      assert.equal(created.json().data.exclude_bots, 1, 'bots excluded, as by default');
      websites[host] = created.json().data.id;
    }

    const scripts: Record<string, string> = {
      '/plausible-tracker.js': await bundle("import Plausible from 'plausible-tracker'; window.Plausible = Plausible;"),
      '/plausible-npm.js': await bundle(
        "import { init, track } from '@plausible-analytics/tracker'; window.PlausibleNpm = { init, track };",
      ),
    };
    const outbound = () => `<p><a id="out" href="${elsewhere}/docs?from=shop">Read the docs elsewhere</a></p>`;
    // Each tracker as its README sets it up, with Rankscope as the host and local pages counted.
    const pages: Record<string, () => string> = {
      [LEGACY_HOST]: () => `<script src="/plausible-tracker.js"></script>
<script>
  var plausible = Plausible({ domain: '${LEGACY_HOST}', apiHost: '${api}', trackLocalhost: true, hashMode: true });
  plausible.enableAutoPageviews();
  plausible.enableAutoOutboundTracking();
</script>${outbound()}`,
      [NPM_HOST]: () => `<script src="/plausible-npm.js"></script>
<script>
  PlausibleNpm.init({ domain: '${NPM_HOST}', endpoint: '${api}/api/event', captureOnLocalhost: true, outboundLinks: true });
</script>${outbound()}`,
    };
    const handler: RequestListener = (request, response) => {
      const script = scripts[request.url ?? ''];
      if (script) return response.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
      const host = (request.headers.host ?? '').split(':')[0];
      const body = pages[host]?.() ?? '<p>Elsewhere</p>';
      response
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(
          `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title></head><body><h1>Shop</h1>${body}</body></html>`,
        );
    };
    const [legacy, npm, other] = [createServer(handler), createServer(handler), createServer(handler)];
    servers.push(legacy, npm, other);
    legacySite = await listen(legacy, LEGACY_HOST);
    npmSite = await listen(npm, NPM_HOST);
    elsewhere = await listen(other, ELSEWHERE_HOST);
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    for (const server of servers) await new Promise((resolve) => server.close(resolve));
    await t.close();
  });

  const rows = (host: string) =>
    t.db.handle.db
      .selectFrom('analytics_events')
      .select(['name', 'page', 'props', 'resolution'])
      .where('website_id', '=', websites[host])
      .orderBy('id')
      .execute();
  /** "value=count" rows of a stat of today (and yesterday, in case the test runs across midnight UTC). */
  const stat = async (host: string, params: Record<string, string>) => {
    const today = new Date().toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const query = new URLSearchParams({ from: yesterday, to: today, per_page: '100', ...params });
    const res = await t.call(key, { method: 'GET', url: `/api/v1/stats/${websites[host]}?${query}` });
    assert.equal(res.statusCode, 200, res.body);
    return (res.json().data as { value: string; count: number }[]).map((r) => `${r.value}=${r.count}`);
  };

  /** A page that records its errors and what it posts to /api/event, with each answer. */
  async function openPage(): Promise<{ context: BrowserContext; page: Page; errors: string[]; sent: Request[] }> {
    const context = await browser.newContext({ userAgent: USER_AGENT });
    const page = await context.newPage();
    const errors: string[] = [];
    const sent: Request[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') errors.push(message.text());
    });
    context.on('request', (request) => {
      if (request.url() === `${api}/api/event`) sent.push(request);
    });
    return { context, page, errors, sent };
  }
  const total = (rows: string[]) => rows.reduce((sum, row) => sum + Number(row.split('=').at(-1)), 0);
  const bodyOf = (request: Request) => JSON.parse(request.postData() ?? 'null') as Record<string, unknown>;

  test('plausible-tracker 0.3.9: pageviews (hash routing), a custom event with props, an outbound link', async () => {
    const { context, page, errors, sent } = await openPage();
    await page.goto(`${legacySite}/shop/`);
    await until(async () => (await rows(LEGACY_HOST)).length >= 1, { what: 'the first pageview' });
    // What it sends: `w` is the window's width, props a JSON string, `h` its hash mode.
    const first = bodyOf(sent[0]);
    assert.equal(first.w, await page.evaluate('window.innerWidth'));
    assert.equal(first.d, LEGACY_HOST);
    assert.equal(first.h, 1);

    // (Setting location.hash instead fires popstate and hashchange, both of which it counts.)
    await page.evaluate(`
      history.pushState({}, '', '#/pricing');
      plausible.trackEvent('Signup', { props: { plan: 'pro', seats: 3 } });
    `);
    await until(async () => (await rows(LEGACY_HOST)).length >= 3, { what: 'the hash pageview and the custom event' });
    assert.equal(typeof bodyOf(sent.find((r) => bodyOf(r).n === 'Signup')!).p, 'string', 'props as a JSON string');
    for (const request of sent) assert.equal((await request.response())?.status(), 202);
    // The outbound link: the event, then (150 ms later) the navigation to the other site.
    await page.click('#out');
    await page.waitForURL(`${elsewhere}/docs?from=shop`);
    await until(async () => (await rows(LEGACY_HOST)).length >= 4, { what: 'the outbound link click' });

    const stored = (await rows(LEGACY_HOST)).map((r) => [r.name, r.page, r.props === null ? null : JSON.parse(r.props)]);
    assert.deepEqual(stored.sort(), [
      ['Outbound Link: Click', '/shop/#/pricing', { url: `${elsewhere}/docs?from=shop` }],
      ['Signup', '/shop/#/pricing', { plan: 'pro', seats: 3 }],
      ['pageview', '/shop/#/pricing', null],
      ['pageview', '/shop/', null],
    ]);
    assert.equal(sent.length, 4, 'one request per event');

    assert.deepEqual(await stat(LEGACY_HOST, { name: 'page' }), ['/shop/=1', '/shop/#/pricing=1']);
    assert.equal(total(await stat(LEGACY_HOST, { name: 'visitors' })), 1);
    assert.deepEqual(await stat(LEGACY_HOST, { name: 'event' }), ['Outbound Link: Click=1', 'Signup=1']);
    assert.deepEqual(await stat(LEGACY_HOST, { name: 'prop', prop: 'plan' }), ['pro=1']);
    assert.deepEqual(await stat(LEGACY_HOST, { name: 'prop', prop: 'seats', event: 'Signup' }), ['3=1']);
    assert.deepEqual(await stat(LEGACY_HOST, { name: 'prop', prop: 'url', event: 'Outbound Link: Click' }), [
      `${elsewhere}/docs?from=shop=1`,
    ]);
    assert.deepEqual(errors, [], 'nothing thrown, logged or ignored by the tracker');
    await context.close();
  });

  test('@plausible-analytics/tracker 0.4.6: pageviews (SPA), custom events with props and revenue, an outbound link', async () => {
    const { context, page, errors, sent } = await openPage();
    await page.goto(`${npmSite}/app`);
    await until(async () => (await rows(NPM_HOST)).length >= 1, { what: 'the first pageview' });
    await page.evaluate(`
      history.pushState({}, '', '/app/pricing');
      PlausibleNpm.track('Purchase', { props: { plan: 'team', trial: 'no' }, revenue: { amount: 49.9, currency: 'EUR' } });
      PlausibleNpm.track('Scrolled', { props: { depth: '75' }, interactive: false });
    `);
    await until(async () => (await rows(NPM_HOST)).length >= 4, { what: 'the SPA pageview and the custom events' });
    const purchase = bodyOf(sent.find((r) => bodyOf(r).n === 'Purchase')!);
    assert.deepEqual(purchase.$, { amount: 49.9, currency: 'EUR' }, 'revenue sent as `$`');
    assert.equal(bodyOf(sent.find((r) => bodyOf(r).n === 'Scrolled')!).i, false, '`i` is its interactive flag');

    // The SPA navigation sent an engagement ping (time on page, scroll depth) for the page it
    // left: answered, and not counted.
    const engagement = sent.find((r) => bodyOf(r).n === 'engagement');
    assert.ok(engagement, 'an engagement ping was sent');
    for (const request of sent) {
      const response = await request.response();
      assert.equal(response?.status(), 202, String(bodyOf(request).n));
      assert.equal(response?.headers()['x-event-dropped'], request === engagement ? 'engagement' : undefined);
    }

    await page.click('#out');
    await page.waitForURL(`${elsewhere}/docs?from=shop`);
    await until(async () => (await rows(NPM_HOST)).length >= 5, { what: 'the outbound link click' });
    const stored = (await rows(NPM_HOST)).map((r) => [r.name, r.page, r.props === null ? null : JSON.parse(r.props)]);
    assert.deepEqual(stored.sort(), [
      ['Outbound Link: Click', '/app/pricing', { url: `${elsewhere}/docs?from=shop` }],
      ['Purchase', '/app/pricing', { plan: 'team', trial: 'no' }],
      ['Scrolled', '/app/pricing', { depth: '75' }],
      ['pageview', '/app', null],
      ['pageview', '/app/pricing', null],
    ]);
    assert.deepEqual(await stat(NPM_HOST, { name: 'page' }), ['/app=1', '/app/pricing=1']);
    assert.equal(total(await stat(NPM_HOST, { name: 'pageviews' })), 2);
    assert.deepEqual(await stat(NPM_HOST, { name: 'event' }), ['Outbound Link: Click=1', 'Purchase=1', 'Scrolled=1']);
    assert.deepEqual(await stat(NPM_HOST, { name: 'prop', prop: 'plan' }), ['team=1']);
    assert.deepEqual(await stat(NPM_HOST, { name: 'prop', prop: 'depth', event: 'Scrolled' }), ['75=1']);
    assert.deepEqual(await stat(NPM_HOST, { name: 'prop', prop: 'url' }), [`${elsewhere}/docs?from=shop=1`]);
    assert.deepEqual(errors, [], 'nothing thrown, logged or ignored by the tracker');

    // The dashboard's view of it: the share page of a public website shows the property.
    const shared = await t.call(key, { method: 'PATCH', url: `/api/v1/websites/${websites[NPM_HOST]}`, form: { privacy: '0' } });
    assert.equal(shared.statusCode, 200, shared.body);
    const share = await context.newPage();
    await share.goto(`${api}/websites/${websites[NPM_HOST]}?prop=plan`);
    assert.equal(await share.locator('#prop-key').inputValue(), 'plan');
    assert.match((await share.locator('section[aria-labelledby="top-props-heading"] tbody').textContent()) ?? '', /team\s*1/);
    await screenshot(share, 'plausible-npm-share-page');
    await context.close();
  });
});
