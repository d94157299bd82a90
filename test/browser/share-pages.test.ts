// The share pages and /docs in a real browser (headless Chromium), against a listening server.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { testApp, type TestApp } from '../helpers/app.js';
import { seedReport } from '../helpers/seed.js';
import { launchBrowser, noBrowser, screenshot } from '../helpers/browser.js';
import { CHECK_NAMES } from '../../src/analysis/checks/index.js';

describe('share pages in Chromium', { skip: noBrowser }, () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;
  let user: { id: number; key: string };
  const outsideRequests: string[] = [];

  before(async () => {
    t = await testApp();
    user = await t.account();
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await t.close();
    assert.deepEqual(outsideRequests, [], 'no page loaded anything from another origin');
  });

  /** A fresh context (own cookies) whose page records any request leaving this origin. */
  async function openPage(
    options: { javaScriptEnabled?: boolean; viewport?: { width: number; height: number } } = {},
  ): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext(options);
    const page = await context.newPage();
    page.on('request', (request) => {
      const url = request.url();
      if (!url.startsWith(base) && !url.startsWith('data:')) outsideRequests.push(url);
    });
    return { context, page };
  }

  test('a public report renders every check, on a phone, with JavaScript off', async () => {
    const report = await seedReport(t.db.handle, user.id, { privacy: 0 });
    const { context, page } = await openPage({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
    const response = await page.goto(`${base}/reports/${report.id}`);
    assert.equal(response?.status(), 200);
    assert.equal(await page.locator('h1').count(), 1);
    const text = await page.locator('main').innerText();
    assert.ok(text.includes('https://www.example.com/blue-widgets'));
    const checks = page.locator('article.check');
    assert.equal(await checks.count(), CHECK_NAMES.length, 'one block per check');
    for (const name of CHECK_NAMES) assert.equal(await page.locator(`#check-${name}`).count(), 1, name);
    const scroll = (await page.evaluate('document.documentElement.scrollWidth - window.innerWidth')) as number;
    assert.ok(scroll <= 0, `no horizontal scroll on a phone (${scroll}px)`);
    await screenshot(page, 'report-public-phone');
    await context.close();
  });

  test('a private report answers 404', async () => {
    const report = await seedReport(t.db.handle, user.id, { privacy: 1 });
    const { context, page } = await openPage();
    const response = await page.goto(`${base}/reports/${report.id}`);
    assert.equal(response?.status(), 404);
    assert.match(await page.locator('h1').innerText(), /not found/i);
    await screenshot(page, 'report-private-404');
    await context.close();
  });

  test('the password flow: a wrong password, the right one, then a password change locks the cookie out', async () => {
    const report = await seedReport(t.db.handle, user.id, { privacy: 2, password: 'correct horse' });
    const url = `${base}/reports/${report.id}`;
    const { context, page } = await openPage();
    await page.goto(url);
    await page.getByLabel('Password', { exact: true }).fill('wrong');
    await page.getByRole('button').click();
    await page.waitForLoadState();
    assert.match(await page.locator('main').innerText(), /Incorrect password\./);
    await screenshot(page, 'report-password-wrong');

    await page.getByLabel('Password', { exact: true }).fill('correct horse');
    await page.getByRole('button').click();
    await page.waitForURL(url);
    assert.equal(await page.locator('#check-title').count(), 1, 'the report is shown');
    await screenshot(page, 'report-password-unlocked');
    const cookies = await context.cookies();
    assert.equal(cookies.length, 1);
    assert.deepEqual([cookies[0].httpOnly, cookies[0].sameSite, cookies[0].path], [true, 'Lax', `/reports/${report.id}`]);

    const changed = await t.call(user.key, {
      method: 'PATCH',
      url: `/api/v1/reports/${report.id}`,
      form: { privacy: '2', password: 'battery staple' },
    });
    assert.equal(changed.statusCode, 200);
    await page.reload();
    assert.equal(await page.getByLabel('Password', { exact: true }).count(), 1, 'the old cookie no longer opens the page');
    await screenshot(page, 'report-password-changed');
    await context.close();
  });

  test('wrong passwords are rate-limited', async () => {
    const report = await seedReport(t.db.handle, user.id, { privacy: 2, password: 'right' });
    const { context, page } = await openPage();
    await page.goto(`${base}/reports/${report.id}`);
    for (let i = 0; i < 5; i++) {
      await page.getByLabel('Password', { exact: true }).fill(`wrong-${i}`);
      await page.getByRole('button').click();
      await page.waitForLoadState();
    }
    await page.getByLabel('Password', { exact: true }).fill('right');
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST'),
      page.getByRole('button').click(),
    ]);
    assert.equal(response.status(), 429);
    assert.match(await page.locator('main').innerText(), /Too many attempts/);
    await screenshot(page, 'report-password-429');
    await context.close();
  });

  test('a website page lists its reports and draws the chart', async () => {
    const created = await t.call(user.key, {
      method: 'POST',
      url: '/api/v1/websites',
      form: { domain: 'chart.example', privacy: '0' },
    });
    const id = created.json().data.id;
    const scores = [35, 52, 71, 88, 93];
    for (const [i, result] of scores.entries()) {
      await seedReport(t.db.handle, user.id, {
        url: `https://chart.example/${i % 2 ? 'a' : 'b'}`,
        result,
        privacy: 0,
        generated_at: `2024-0${i + 1}-10T08:00:00.000000Z`,
      });
    }
    const { context, page } = await openPage();
    const response = await page.goto(`${base}/websites/${id}`);
    assert.equal(response?.status(), 200);
    const main = await page.locator('main').innerText();
    assert.ok(main.includes('https://chart.example/a') && main.includes('https://chart.example/b'));
    const chart = page.locator('svg polyline').first();
    assert.ok(await chart.isVisible(), 'the chart line is drawn');
    const points = (await chart.getAttribute('points'))!.trim().split(/\s+/);
    assert.equal(points.length, scores.length, 'one point per report');
    await screenshot(page, 'website-chart');
    await context.close();
  });

  test('a website page shows its traffic on a phone with JavaScript off, and the range form works', async () => {
    const created = await t.call(user.key, {
      method: 'POST',
      url: '/api/v1/websites',
      form: { domain: 'traffic.example', privacy: '0' },
    });
    const id = created.json().data.id;
    for (const path of ['/', '/', '/about']) {
      const sent = await t.app.inject({
        method: 'POST',
        url: '/api/event',
        headers: {
          'content-type': 'application/json',
          'user-agent':
            'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
        },
        payload: JSON.stringify({ n: 'pageview', u: `https://traffic.example${path}`, i: id }),
      });
      assert.equal(sent.statusCode, 202);
    }
    const { context, page } = await openPage({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
    const response = await page.goto(`${base}/websites/${id}`);
    assert.equal(response?.status(), 200);
    assert.ok(await page.getByRole('img', { name: /Visitors and pageviews per day/ }).isVisible(), 'the chart is drawn');
    assert.match(await page.locator('.totals').innerText(), /Visitors\s+1\s+Pageviews\s+3/);
    assert.match(await page.locator('section[aria-labelledby="top-page-heading"]').innerText(), /\/about/);
    const scroll = (await page.evaluate('document.documentElement.scrollWidth - window.innerWidth')) as number;
    assert.ok(scroll <= 0, `no horizontal scroll on a phone (${scroll}px)`);
    await screenshot(page, 'website-traffic-phone');

    // The range form is a plain GET form: a past week without visits.
    await page.getByLabel('From', { exact: true }).fill('2020-01-01');
    await page.getByLabel('To', { exact: true }).fill('2020-01-07');
    await page.getByRole('button', { name: 'Show' }).click();
    await page.waitForURL(/from=2020-01-01&to=2020-01-07$/);
    assert.match(await page.locator('main').innerText(), /No visits recorded in this range/);
    await context.close();
  });

  test('/docs loads and lists every endpoint', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json() as {
      paths: Record<string, Record<string, unknown>>;
    };
    const operations = Object.values(doc.paths).reduce((n, ops) => n + Object.keys(ops).length, 0);
    const { context, page } = await openPage();
    await page.goto(`${base}/docs`);
    // Swagger UI's bundle is 1.4 MB of script: on a loaded machine (several Chromiums on two cores) it takes a while.
    await page.locator('.opblock').first().waitFor({ timeout: 60_000 });
    // tags start expanded (docExpansion: list), so every operation has its block
    assert.equal(await page.locator('.opblock').count(), operations);
    for (const path of Object.keys(doc.paths)) {
      assert.ok((await page.locator(`.opblock-summary-path[data-path="${path}"]`).count()) > 0, `${path} is listed`);
    }
    await screenshot(page, 'docs');
    await context.close();
  });
});
