// Every dashboard page, with data and empty, and a refused form of each kind, meets the page
// rules (page-rules.ts): lang, a specific title, one h1, a label for every control, unique ids,
// heading order, links and buttons with text, no inline script or style.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { testApp, type TestApp } from '../helpers/app.js';
import { type DashboardClient, signedInClient } from '../helpers/dashboard.js';
import { seedReport } from '../helpers/seed.js';
import { assertDashboardPage } from './page-rules.js';

describe('dashboard page rules', () => {
  let t: TestApp;
  let empty: DashboardClient;
  let full: DashboardClient;
  const ids = { report: 0, website: 0, monitor: 0, webhook: 0, crawl: 0 };

  before(async () => {
    t = await testApp({ ALLOW_PRIVATE_ADDRESSES: 'true', ANALYSIS_WORKERS: '0' });
    empty = await signedInClient(t);
    full = await signedInClient(t);
    const key = full.account.key;
    ids.report = (await seedReport(t.db.handle, full.account.id, { privacy: 0 })).id;
    await seedReport(t.db.handle, full.account.id, { url: 'https://www.example.com/other', result: 41 });
    const call = async (url: string, form: Record<string, string>) => {
      const res = await t.call(key, { method: 'POST', url, form });
      assert.ok(res.statusCode === 201 || res.statusCode === 202, `${url}: ${res.statusCode} ${res.body}`);
      return res.json().data.id as number;
    };
    ids.website = await call('/api/v1/websites', { domain: 'www.example.com' });
    // Traffic with a custom property: the stats page shows its lists and the property form.
    const event = await t.app.inject({
      method: 'POST',
      url: '/api/event',
      headers: {
        'content-type': 'text/plain',
        'user-agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0',
      },
      payload: JSON.stringify({ n: 'pageview', u: 'https://www.example.com/', d: 'www.example.com', p: { plan: 'pro' } }),
    });
    assert.equal(event.statusCode, 202);
    assert.equal(event.headers['x-event-dropped'], undefined);
    ids.monitor = await call('/api/v1/monitors', { report_id: String(ids.report), frequency: 'weekly' });
    ids.webhook = await call('/api/v1/webhooks', { url: 'http://127.0.0.1:9/hook', events: 'report.created' });
    ids.crawl = await call('/api/v1/crawls', { url: 'http://127.0.0.1:9/' });
    // Issues in its table (its jobs never run), so the page shows the issues by type too.
    await t.db.handle.db
      .insertInto('crawl_issues')
      .values(
        [
          ['broken_link', 'high'],
          ['broken_link', 'high'],
          ['thin_content', 'low'],
        ].map(([type, severity], i) => ({
          crawl_id: ids.crawl,
          type,
          severity,
          url: `http://127.0.0.1:9/${i}`,
          detail: 'A detail.',
        })),
      )
      .execute();
  });

  test('the sign-in page, fresh and after a failure', async () => {
    assertDashboardPage((await t.app.inject({ method: 'GET', url: '/login' })).body, '/login');
    const failed = await t.app.inject({
      method: 'POST',
      url: '/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'email=a%40example.com&password=wrong',
    });
    assert.equal(failed.statusCode, 401);
    assertDashboardPage(failed.body, '/login (failed)');
  });

  const pages = () => [
    '/app/reports',
    `/app/reports/${ids.report}`,
    '/app/reports?search=nothing-matches',
    '/app/projects',
    '/app/websites',
    '/app/websites/new',
    `/app/websites/${ids.website}`,
    `/app/websites/${ids.website}/stats`,
    `/app/websites/${ids.website}/stats?prop=plan&from=2026-01-01&to=2026-12-31`,
    '/app/monitors',
    '/app/monitors/new',
    `/app/monitors/${ids.monitor}`,
    '/app/webhooks',
    '/app/webhooks/new',
    `/app/webhooks/${ids.webhook}`,
    '/app/crawls',
    `/app/crawls/${ids.crawl}`,
    `/app/crawls/${ids.crawl}?type=broken_link&severity=high`,
    `/app/crawls/${ids.crawl}?type=redirect_loop`,
    '/app/account',
    '/app/reports/999999',
    '/app/no-such-page',
  ];

  test('every page of an account with data', async () => {
    for (const path of pages()) {
      const res = await full.get(path);
      assert.ok([200, 404].includes(res.statusCode), `${path}: ${res.statusCode}`);
      assert.equal(res.statusCode === 404, path.includes('999999') || path.includes('no-such'), `${path}: ${res.statusCode}`);
      assertDashboardPage(res.body, path);
    }
  });

  test('every list of an empty account (the empty states)', async () => {
    for (const path of ['/app/reports', '/app/projects', '/app/websites', '/app/monitors', '/app/webhooks', '/app/crawls']) {
      const res = await empty.get(path);
      assert.equal(res.statusCode, 200, path);
      assertDashboardPage(res.body, `${path} (empty)`);
    }
  });

  test('every refused form, with its messages at the fields', async () => {
    for (const [path, fields] of [
      ['/app/reports', { url: 'not a url' }],
      [`/app/reports/${ids.report}`, { privacy: '2', password: '' }],
      ['/app/websites', { domain: '' }],
      [`/app/websites/${ids.website}`, { privacy: '7' }],
      ['/app/monitors', { report_id: '', frequency: 'hourly' }],
      [`/app/monitors/${ids.monitor}`, { frequency: 'hourly' }],
      ['/app/webhooks', { url: 'ftp://x', events: '' }],
      ['/app/crawls', { url: '' }],
      ['/app/account/password', { current_password: 'wrong', password: 'x', password_confirmation: 'x' }],
    ] as const) {
      const res = await full.post(path, fields);
      assert.equal(res.statusCode, 422, `${path}: ${res.statusCode}`);
      assert.match(res.body, /aria-invalid="true"/, `${path}: a field is marked`);
      assertDashboardPage(res.body, `${path} (refused)`);
    }
  });

  test('a form refused for now (429): the page saying why', async () => {
    assert.equal((await full.post(`/app/monitors/${ids.monitor}/run`)).statusCode, 303);
    const res = await full.post(`/app/monitors/${ids.monitor}/run`);
    assert.equal(res.statusCode, 429);
    assertDashboardPage(res.body, 'run now again (429)');
  });

  test('odd query strings and ids never answer a 5xx: a page, a 404 or the API’s 422 shown on the page', async () => {
    const odd = [
      'page=abc',
      'page=-1',
      'page=99999999999999999999',
      'per_page=7',
      'sort=sideways',
      'sort_by=nope',
      'search=%00%ff',
      'result=purple',
      'issues_page=x',
      'from=2026-02-30&to=x',
      'project[]=a',
    ];
    for (const path of pages()) {
      for (const query of odd) {
        const res = await full.get(`${path}${path.includes('?') ? '&' : '?'}${query}`);
        assert.ok(res.statusCode < 500, `${path} ?${query}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      }
    }
    for (const id of ['0', '-1', 'abc', '1e3', '99999999999999999999999', '%2e%2e']) {
      for (const area of ['reports', 'websites', 'monitors', 'webhooks', 'crawls']) {
        const res = await full.get(`/app/${area}/${id}`);
        assert.equal(res.statusCode, 404, `/app/${area}/${id}: ${res.statusCode}`);
      }
    }
  });
});
