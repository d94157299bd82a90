// The dashboard in Chromium (docs/dashboard.md): the main flows a person walks
// (sign in; create a report and change its privacy; add a website, copy its snippet onto a page
// that a visitor opens, then see the visit in the stats; rotate the API key; sign out), the same
// pages at phone width, and the security ones (no page without a session, a tampered or
// cross-site form refused, another account's ids answer 404, sessions revoked).
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { testApp, type TestApp } from '../helpers/app.js';
import { launchBrowser, noBrowser, screenshot } from '../helpers/browser.js';
import { givePassword, TEST_PASSWORD } from '../helpers/dashboard.js';
import { until } from '../helpers/wait.js';

const VISITED_HOST = '127.0.0.2';

describe('the dashboard in Chromium', { skip: noBrowser }, () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;
  let account: { id: number; email: string; key: string };
  /** The page a report analyses, on loopback. */
  let analysed: Server;
  let analysedUrl: string;
  /** The visited site: serves whatever snippet the test copied. */
  let visited: Server;
  let visitedOrigin: string;
  let snippetOnSite = '';

  before(async () => {
    t = await testApp({ ALLOW_PRIVATE_ADDRESSES: 'true', ANALYSIS_WORKERS: '0' });
    account = await t.account('walker@example.com');
    await givePassword(t, account.id);
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
    analysed = createServer((_req, res) => {
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(
          '<!doctype html><html lang="en"><head><title>Blue widgets for sale</title><meta name="description" content="Blue widgets."></head><body><h1>Blue widgets</h1><p>Made to order.</p></body></html>',
        );
    });
    await new Promise<void>((resolve) => analysed.listen(0, '127.0.0.1', resolve));
    analysedUrl = `http://127.0.0.1:${(analysed.address() as { port: number }).port}/widgets`;
    visited = createServer((_req, res) => {
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(
          `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title>${snippetOnSite}</head><body><h1>Shop</h1></body></html>`,
        );
    });
    await new Promise<void>((resolve) => visited.listen(0, VISITED_HOST, resolve));
    visitedOrigin = `http://${VISITED_HOST}:${(visited.address() as { port: number }).port}`;
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await new Promise((resolve) => analysed?.close(resolve));
    await new Promise((resolve) => visited?.close(resolve));
    await t.close();
  });

  /** A fresh browser context whose page records what it threw or logged as an error. */
  async function open(viewport?: {
    width: number;
    height: number;
  }): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
    const context = await browser.newContext(viewport ? { viewport } : {});
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    return { context, page, errors };
  }

  async function signIn(page: Page, email = account.email, password = TEST_PASSWORD): Promise<void> {
    await page.goto(`${base}/login`);
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${base}/app/reports`);
  }

  const apiGet = async (path: string, key = account.key) => {
    const res = await t.call(key, { method: 'GET', url: path });
    return { status: res.statusCode, body: res.json() };
  };

  test('sign in, create a report and make it public, add a website, copy its snippet, see a visit in its stats, rotate the key, sign out', async () => {
    const { context, page, errors } = await open();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });

    // No session: to the sign-in page, and back to the page asked for afterwards.
    await page.goto(`${base}/app/reports`);
    assert.equal(new URL(page.url()).pathname, '/login');
    await screenshot(page, 'dashboard-sign-in', { fullPage: false });
    await page.getByLabel('E-mail').fill(account.email);
    await page.getByLabel('Password', { exact: true }).fill(TEST_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${base}/app/reports`);
    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Reports');
    assert.ok(await page.getByText('No reports yet').first().isVisible(), 'the empty state says what to do');

    // A report from a URL: analysed, then its page.
    await page.getByLabel('Page URL').fill(analysedUrl);
    await page.getByRole('button', { name: 'Analyse' }).click();
    await page.waitForURL(/\/app\/reports\/\d+$/);
    const reportId = Number(new URL(page.url()).pathname.split('/').pop());
    assert.match(
      (await page.getByRole('status').first().textContent()) ?? '',
      /Report created: the page scored \d+ out of 100\./,
    );
    assert.ok(await page.getByText('Blue widgets for sale').first().isVisible(), 'the checks show the title found');
    assert.equal((await apiGet(`/api/v1/reports/${reportId}`)).body.data.privacy, 1, 'private by default');
    await page.getByLabel('Who can open the share page').selectOption('0');
    await page.getByRole('button', { name: 'Save privacy' }).click();
    await page.waitForURL(`${base}/app/reports/${reportId}`);
    assert.match((await page.getByRole('status').first().textContent()) ?? '', /Privacy saved\./);
    assert.equal((await apiGet(`/api/v1/reports/${reportId}`)).body.data.privacy, 0, 'public now, through the API too');
    await screenshot(page, 'dashboard-report', { fullPage: false });
    await page.goto(`${base}/app/reports`);
    assert.ok(await page.getByRole('link', { name: analysedUrl }).isVisible(), 'listed');
    await screenshot(page, 'dashboard-reports', { fullPage: false });

    // A website counting headless browsers (so this test's visit counts), and its snippet.
    await page.getByRole('link', { name: 'Websites', exact: true }).click();
    await page.goto(`${base}/app/websites/new`);
    await page.getByLabel('Domain').fill(VISITED_HOST);
    await page.getByLabel('Do not count bots, crawlers and headless browsers').uncheck();
    await page.getByRole('button', { name: 'Add the website' }).click();
    await page.waitForURL(/\/app\/websites\/\d+$/);
    const websiteId = Number(new URL(page.url()).pathname.split('/').pop());
    assert.equal((await apiGet(`/api/v1/websites/${websiteId}`)).body.data.exclude_bots, 0);
    await page.getByRole('button', { name: 'Copy the snippet' }).click();
    await until(async () => (await page.locator('.copy-status').textContent()) === 'Copied.', {
      what: 'the copy to be announced',
    });
    const copied = String(await page.evaluate('navigator.clipboard.readText()'));
    assert.equal(copied, `<script defer src="${base}/js/script.js" data-website="${websiteId}"></script>`);
    await screenshot(page, 'dashboard-website', { fullPage: false });

    // The copied snippet on the site; a visitor (another browser) opens a page. 127.0.0.x is
    // "local" to the tracker, which then needs data-allow-local.
    snippetOnSite = copied.replace('></script>', ' data-allow-local></script>');
    const visitor = await open();
    await visitor.page.goto(`${visitedOrigin}/pricing`);
    // (Yesterday too, in case the test runs across midnight UTC.)
    const today = new Date().toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const counted = async () => {
      const stats = await apiGet(`/api/v1/stats/${websiteId}?name=pageviews&from=${yesterday}&to=${today}`);
      assert.equal(stats.status, 200, JSON.stringify(stats.body));
      return (stats.body.data as { count: number }[]).reduce((s, r) => s + r.count, 0);
    };
    await until(async () => (await counted()) === 1, { what: 'the visit to be counted' });
    await visitor.context.close();

    await page.getByRole('link', { name: `Stats of ${VISITED_HOST}` }).click();
    await page.waitForURL(`${base}/app/websites/${websiteId}/stats`);
    const totals = await page.locator('dl').first().textContent();
    assert.match(totals ?? '', /Visitors\s*1/);
    assert.match(totals ?? '', /Pageviews\s*1/);
    assert.ok(await page.getByRole('cell', { name: '/pricing' }).first().isVisible(), 'the page in the top pages');
    await screenshot(page, 'dashboard-stats', { fullPage: false });

    // The API key: rotated, shown once, working; the old one refused.
    await page.getByRole('link', { name: 'Account' }).click();
    await page.getByRole('button', { name: 'Rotate the API key' }).click();
    const key = (await page.locator('#new-key').textContent()) ?? '';
    assert.match(key, /^rk_[A-Za-z0-9_-]{43}$/);
    assert.equal((await apiGet('/api/v1/account', key)).status, 200);
    assert.equal((await apiGet('/api/v1/account')).status, 401);
    account.key = key;
    await page.goto(`${base}/app/account`);
    assert.equal(await page.locator('#new-key').count(), 0, 'the key is not shown again');

    // Sign out: the session is gone.
    await page.getByRole('button', { name: /Sign out/ }).click();
    await page.waitForURL(`${base}/login`);
    await page.goto(`${base}/app/reports`);
    assert.equal(new URL(page.url()).pathname, '/login');
    assert.deepEqual(errors, [], 'nothing thrown or logged in the pages');
    await context.close();
  });

  test('at phone width (360 px) every main page fits: no sideways scrolling of the page itself', async () => {
    const { context, page, errors } = await open({ width: 360, height: 740 });
    await signIn(page);
    const reports = await apiGet('/api/v1/reports');
    const websites = await apiGet('/api/v1/websites');
    assert.equal(reports.status, 200, JSON.stringify(reports.body));
    assert.equal(websites.status, 200, JSON.stringify(websites.body));
    for (const path of [
      '/app/reports',
      `/app/reports/${reports.body.data[0].id}`,
      '/app/projects',
      '/app/websites',
      `/app/websites/${websites.body.data[0].id}`,
      `/app/websites/${websites.body.data[0].id}/stats`,
      '/app/monitors',
      '/app/webhooks',
      '/app/crawls',
      '/app/account',
    ]) {
      const res = await page.goto(`${base}${path}`);
      assert.equal(res?.status(), 200, path);
      const width = Number(await page.evaluate('document.documentElement.scrollWidth'));
      assert.ok(width <= 360, `${path} is ${width} px wide`);
    }
    await screenshot(page, 'dashboard-phone-stats', { fullPage: false });
    assert.deepEqual(errors, []);
    await context.close();
  });

  test('security: a tampered token and a cross-site form change nothing; another account’s ids answer 404; a password change signs other browsers out', async () => {
    const before = (await t.users.findById(account.id))!.api_key_hash;
    const { context, page } = await open();
    await signIn(page);

    // The session's token, tampered with in the page: 403, nothing rotated.
    await page.goto(`${base}/app/account`);
    await page.evaluate(`document.querySelector('form[action="/app/account/key"] input[name="_token"]').value = 'forged'`);
    const refused = page.waitForResponse((r) => r.url() === `${base}/app/account/key`);
    await page.getByRole('button', { name: 'Rotate the API key' }).click();
    assert.equal((await refused).status(), 403);
    assert.ok(await page.getByRole('heading', { name: 'Form refused' }).isVisible());

    // A form on another site posting here: the browser does not send the SameSite=Lax session
    // cookie with it, so it lands on the sign-in page; nothing rotated either way.
    const attacker = createServer((_req, res) => {
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(
          `<!doctype html><html lang="en"><head><title>Win</title></head><body><form method="post" action="${base}/app/account/key"><input type="hidden" name="_token" value="x"><button>Win a prize</button></form></body></html>`,
        );
    });
    await new Promise<void>((resolve) => attacker.listen(0, VISITED_HOST, resolve));
    try {
      await page.goto(`http://${VISITED_HOST}:${(attacker.address() as { port: number }).port}/`);
      await page.getByRole('button', { name: 'Win a prize' }).click();
      await page.waitForLoadState();
      assert.notEqual(new URL(page.url()).pathname, '/app/account/key');
    } finally {
      attacker.close();
    }
    assert.equal((await t.users.findById(account.id))!.api_key_hash, before, 'the key was not rotated');

    // Another account's report and website: 404, the same page as an unknown id.
    const other = await t.account();
    const site = await t.call(other.key, { method: 'POST', url: '/api/v1/websites', form: { domain: 'other.example' } });
    const theirs = site.json().data.id;
    for (const path of [`/app/websites/${theirs}`, `/app/websites/${theirs}/stats`, '/app/reports/999999']) {
      const res = await page.goto(`${base}${path}`);
      assert.equal(res?.status(), 404, path);
      assert.ok(await page.getByRole('heading', { name: 'Not found' }).isVisible());
    }

    // Two browsers signed in; the password changes in one: the other is signed out.
    const second = await open();
    await signIn(second.page);
    await page.goto(`${base}/app/account`);
    await page.getByLabel('Current password').fill(TEST_PASSWORD);
    await page.getByLabel('New password', { exact: true }).fill('another long password');
    await page.getByLabel('Confirm the new password').fill('another long password');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.waitForURL(`${base}/app/account`);
    assert.match((await page.getByRole('status').first().textContent()) ?? '', /Password changed\./);
    await second.page.goto(`${base}/app/reports`);
    assert.equal(new URL(second.page.url()).pathname, '/login', 'the other browser was signed out');
    await signIn(second.page, account.email, 'another long password');
    await second.context.close();
    await context.close();
  });
});
