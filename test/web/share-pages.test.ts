import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { testApp, type TestApp } from '../helpers/app.js';
import { seedReport } from '../helpers/seed.js';
import { findCheck } from '../../src/analysis/checks/index.js';
import { CHECK_NAMES } from '../../src/analysis/checks/index.js';

/** The `name=value` of a Set-Cookie header, for sending back. */
const cookieOf = (setCookie: string | string[] | undefined) => String([setCookie].flat()[0]).split(';')[0];

describe('share pages', () => {
  let t: TestApp;
  let user: { id: number; key: string };
  before(async () => {
    t = await testApp();
    user = await t.account();
  });
  after(() => t.close());

  const page = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });
  const unlock = (url: string, password: string, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      payload: new URLSearchParams({ password }).toString(),
    });

  test('a public report: every check, with security headers and no outside resources', async () => {
    const report = await seedReport(t.db.handle, user.id, { privacy: 0 });
    const res = await page(`/reports/${report.id}`);
    assert.equal(res.statusCode, 200);
    assert.match(res.headers['content-type'] as string, /^text\/html/);
    for (const name of CHECK_NAMES) assert.ok(res.body.includes(findCheck(name)!.title), `shows ${name}`);
    assert.ok(res.body.includes('https://www.example.com/blue-widgets'));
    const csp = res.headers['content-security-policy'] as string;
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /frame-ancestors 'none'/);
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
    assert.equal(res.headers['referrer-policy'], 'same-origin');
    assert.ok(!/<script/i.test(res.body), 'no script');
    for (const [, url] of res.body.matchAll(/(?:src|href)="([^"]+)"/g)) {
      if (url.startsWith('http')) assert.ok(/rel="[^"]*noopener/.test(res.body), 'external links are plain links');
    }
    assert.ok(!/<(?:link|img|script)[^>]+(?:src|href)="https?:/i.test(res.body), 'nothing loaded from another origin');
    const css = await page('/assets/rankscope.css');
    assert.equal(css.statusCode, 200);
    assert.match(css.headers['content-type'] as string, /^text\/css/);
    assert.equal((await page('/assets/rankscope.css', { 'if-none-match': css.headers.etag as string })).statusCode, 304);
  });

  test('a private report answers exactly like a missing one', async () => {
    const report = await seedReport(t.db.handle, user.id, { privacy: 1 });
    const priv = await page(`/reports/${report.id}`);
    const missing = await page('/reports/99999999');
    const junk = await page('/reports/abc');
    assert.equal(priv.statusCode, 404);
    assert.equal(missing.statusCode, 404);
    assert.equal(junk.statusCode, 404);
    assert.equal(priv.body, missing.body);
    assert.equal(priv.body, junk.body);
    assert.match(priv.body, /noindex/);
    // a password attempt on a private report reveals nothing either
    assert.equal((await unlock(`/reports/${report.id}`, 'x')).body, missing.body);
  });

  test('password flow: form, wrong password, right password sets a scoped signed cookie', async () => {
    const report = await seedReport(t.db.handle, user.id, { privacy: 2, password: 'open sesame' });
    const url = `/reports/${report.id}`;
    const form = await page(url);
    assert.equal(form.statusCode, 200);
    assert.match(form.body, /<label[^>]*for="password"/);
    assert.ok(!form.body.includes('Blue widgets for sale'), 'nothing of the report before unlocking');

    const wrong = await unlock(url, 'nope', { 'x-forwarded-for': '1' });
    assert.equal(wrong.statusCode, 401);
    assert.match(wrong.body, /Incorrect password\./);
    assert.equal(wrong.headers['set-cookie'], undefined);

    const right = await unlock(url, 'open sesame');
    assert.equal(right.statusCode, 303);
    assert.equal(right.headers.location, url);
    const setCookie = String(right.headers['set-cookie']);
    assert.match(setCookie, /HttpOnly/);
    assert.match(setCookie, /SameSite=Lax/i);
    assert.match(setCookie, new RegExp(`Path=${url}(;|$)`));
    assert.ok(!setCookie.includes('open sesame'));

    const cookie = cookieOf(right.headers['set-cookie']);
    const unlocked = await page(url, { cookie });
    assert.equal(unlocked.statusCode, 200);
    assert.ok(unlocked.body.includes('Blue widgets for sale'));

    // the cookie opens this report only, and a tampered one opens nothing
    const other = await seedReport(t.db.handle, user.id, { privacy: 2, password: 'open sesame' });
    const [name, value] = cookie.split('=');
    assert.match(
      (await page(`/reports/${other.id}`, { cookie: `${name.replace(String(report.id), String(other.id))}=${value}` })).body,
      /Password required/,
    );
    assert.match((await page(url, { cookie: `${name}=${value.slice(0, -2)}xx` })).body, /Password required/);
  });

  test('changing the password, or the privacy, locks earlier cookies out', async () => {
    const report = await seedReport(t.db.handle, user.id, { privacy: 2, password: 'first' });
    const url = `/reports/${report.id}`;
    const cookie = cookieOf((await unlock(url, 'first')).headers['set-cookie']);
    assert.equal((await page(url, { cookie })).statusCode, 200);
    assert.ok(!(await page(url, { cookie })).body.includes('Password required'));

    await t.call(user.key, { method: 'PUT', url: `/api/v1/reports/${report.id}`, form: { privacy: '2', password: 'second' } });
    assert.match((await page(url, { cookie })).body, /Password required/);
    const second = cookieOf((await unlock(url, 'second')).headers['set-cookie']);
    assert.ok(!(await page(url, { cookie: second })).body.includes('Password required'));

    await t.call(user.key, { method: 'PUT', url: `/api/v1/reports/${report.id}?privacy=0` });
    await t.call(user.key, { method: 'PUT', url: `/api/v1/reports/${report.id}`, form: { privacy: '2', password: 'second' } });
    assert.match((await page(url, { cookie: second })).body, /Password required/, 'same password, new hash: still locked out');
  });

  test('five wrong passwords per minute per client and page, then 429', async () => {
    const report = await seedReport(t.db.handle, user.id, { privacy: 2, password: 'right' });
    const url = `/reports/${report.id}`;
    for (let i = 1; i <= 5; i++) assert.equal((await unlock(url, `wrong${i}`)).statusCode, 401, `attempt ${i}`);
    const limited = await unlock(url, 'right');
    assert.equal(limited.statusCode, 429, 'even the right password waits');
    assert.ok(Number(limited.headers['retry-after']) > 0);
    assert.match(limited.body, /Too many attempts/);
    // another page is counted apart
    const other = await seedReport(t.db.handle, user.id, { privacy: 2, password: 'right' });
    assert.equal((await unlock(`/reports/${other.id}`, 'right')).statusCode, 303);
  });

  test("website pages: same privacy rules; the domain's reports (with or without www) and a chart", async () => {
    const created = await t.call(user.key, {
      method: 'POST',
      url: '/api/v1/websites',
      form: { domain: 'www.shop.example', privacy: '0' },
    });
    const websiteId = created.json().data.id;
    const handle = t.db.handle;
    const a = await seedReport(handle, user.id, {
      url: 'https://shop.example/',
      privacy: 0,
      result: 40,
      generated_at: '2024-01-01T00:00:00.000000Z',
    });
    await seedReport(handle, user.id, {
      url: 'https://www.shop.example/',
      privacy: 0,
      result: 80,
      generated_at: '2024-02-01T00:00:00.000000Z',
    });
    const hidden = await seedReport(handle, user.id, {
      url: 'https://www.shop.example/private',
      privacy: 1,
      result: 60,
      generated_at: '2024-03-01T00:00:00.000000Z',
    });
    await seedReport(handle, user.id, {
      url: 'https://www.shop.example/protected',
      privacy: 2,
      password: 'x',
      result: 61,
      generated_at: '2024-03-02T00:00:00.000000Z',
    });
    await seedReport(handle, user.id, { url: 'https://elsewhere.example/', privacy: 0, result: 99 });
    const otherUser = await t.account();
    await seedReport(handle, otherUser.id, { url: 'https://shop.example/theirs', privacy: 0 });

    const res = await page(`/websites/${websiteId}`);
    assert.equal(res.statusCode, 200);
    assert.ok(res.body.includes('www.shop.example'));
    assert.ok(res.body.includes('https://shop.example/'));
    assert.ok(!res.body.includes('https://www.shop.example/private'), 'a private report is not listed at all');
    assert.ok(!res.body.includes('elsewhere.example'), 'other domains are not listed');
    assert.ok(!res.body.includes('/theirs'), "another account's reports are not listed");
    assert.ok(res.body.includes(`href="/reports/${a.id}"`), 'public reports link to their page');
    assert.ok(!res.body.includes(`href="/reports/${hidden.id}"`), 'private reports do not');
    assert.ok(!res.body.includes('/protected') && !res.body.includes('>61<'), 'nor password-protected ones, nor their scores');
    assert.match(res.body, /<svg[^>]*>[\s\S]*<polyline/);

    await t.call(user.key, { method: 'PUT', url: `/api/v1/websites/${websiteId}?privacy=1` });
    assert.equal((await page(`/websites/${websiteId}`)).statusCode, 404);
    await t.call(user.key, { method: 'PUT', url: `/api/v1/websites/${websiteId}`, form: { privacy: '2', password: 'site-pw' } });
    assert.match((await page(`/websites/${websiteId}`)).body, /Password required/);
    const unlocked = await unlock(`/websites/${websiteId}`, 'site-pw');
    assert.equal(unlocked.statusCode, 303);
    assert.match(String(unlocked.headers['set-cookie']), new RegExp(`Path=/websites/${websiteId}`));
    const shown = await page(`/websites/${websiteId}`, { cookie: cookieOf(unlocked.headers['set-cookie']) });
    assert.ok(shown.body.includes('https://shop.example/'));
  });

  test('robots.txt, the root, and unknown pages', async () => {
    const robots = await page('/robots.txt');
    assert.equal(robots.statusCode, 200);
    assert.match(robots.body, /Disallow: \/api\//);
    const root = await page('/');
    assert.deepEqual([root.statusCode, root.headers.location], [302, '/docs']);
    const unknown = await page('/nothing-here');
    assert.equal(unknown.statusCode, 404);
    assert.match(unknown.headers['content-type'] as string, /^text\/html/);
    const apiUnknown = await page('/api/v1/nothing');
    assert.deepEqual(apiUnknown.json(), { message: 'Not found.', status: 404 });
  });
});
