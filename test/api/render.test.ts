// `render` on an instance without Chromium (CHROMIUM_PATH points nowhere): a 422 on the field
// before any fetch, for reports (create, re-run), monitors (create, update) and crawls; nothing
// else changes, and the dashboard does not offer it. With Chromium: test/browser/render-reports.test.ts
// and test/browser/render-crawl.test.ts.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { testApp, type TestApp } from '../helpers/app.js';
import { signedInClient } from '../helpers/dashboard.js';
import { goodPage, startSite, type PageSite } from '../helpers/pages.js';

const NEEDS_CHROMIUM = 'Rendering needs Chromium: set CHROMIUM_PATH.';
const REFUSED = { message: NEEDS_CHROMIUM, errors: { render: [NEEDS_CHROMIUM] }, status: 422 };

describe('render without Chromium', () => {
  let t: TestApp;
  let site: PageSite;
  let key: string;

  before(async () => {
    t = await testApp({ ALLOW_PRIVATE_ADDRESSES: 'true', CHROMIUM_PATH: '/nonexistent/chromium' });
    ({ key } = await t.account());
    site = await startSite({ '/good.html': goodPage() });
  });
  after(async () => {
    await t.close();
    await site.close();
  });

  const url = () => `${site.origin}/good.html`;

  test('POST /reports with render=1: 422 on render, the page never fetched, nothing stored', async () => {
    const hits = site.hits('/good.html');
    const res = await t.call(key, { method: 'POST', url: '/api/v1/reports', form: { url: url(), render: '1' } });
    assert.equal(res.statusCode, 422);
    assert.deepEqual(res.json(), REFUSED);
    assert.equal(site.hits('/good.html'), hits);
    assert.equal((await t.call(key, { method: 'GET', url: '/api/v1/reports' })).json().meta.total, 0);
    // A JSON body too; render=0 and no render analyse as before.
    const json = await t.call(key, { method: 'POST', url: '/api/v1/reports', payload: { url: url(), render: true } });
    assert.deepEqual(json.json(), REFUSED);
    for (const form of [{ url: url(), render: '0' }, { url: url() }] as Record<string, string>[]) {
      const made = await t.call(key, { method: 'POST', url: '/api/v1/reports', form });
      assert.equal(made.statusCode, 201, made.body);
      assert.equal(made.json().data.rendered, false);
    }
  });

  test('render must be a boolean', async () => {
    const res = await t.call(key, { method: 'POST', url: '/api/v1/reports', form: { url: url(), render: 'yes' } });
    assert.equal(res.statusCode, 422);
    assert.deepEqual(res.json().errors, { render: ['The render field must be true or false.'] });
  });

  test('PUT with results=1&render=1: 422 on render, the report unchanged; render without a re-run analyses nothing', async () => {
    const report = (await t.call(key, { method: 'POST', url: '/api/v1/reports', form: { url: url() } })).json().data;
    const hits = site.hits('/good.html');
    const rerun = await t.call(key, { method: 'PUT', url: `/api/v1/reports/${report.id}?results=1&render=1` });
    assert.equal(rerun.statusCode, 422);
    assert.deepEqual(rerun.json(), REFUSED);
    assert.equal(site.hits('/good.html'), hits);
    const alone = await t.call(key, { method: 'PUT', url: `/api/v1/reports/${report.id}?render=1` });
    assert.equal(alone.statusCode, 200, alone.body);
    assert.equal(alone.json().data.generated_at, report.generated_at);
    assert.equal(alone.json().data.rendered, false);
  });

  test('monitors: render=1 refused on create and update; render=0 stored', async () => {
    const report = (await t.call(key, { method: 'POST', url: '/api/v1/reports', form: { url: url() } })).json().data;
    const create = (form: Record<string, string>) => t.call(key, { method: 'POST', url: '/api/v1/monitors', form });
    const refused = await create({ report_id: String(report.id), frequency: 'daily', render: '1' });
    assert.equal(refused.statusCode, 422);
    assert.deepEqual(refused.json(), REFUSED);
    const invalid = await create({ report_id: String(report.id), frequency: 'daily', render: '2' });
    assert.deepEqual(invalid.json().errors, { render: ['The selected render is invalid.'] });
    const made = await create({ report_id: String(report.id), frequency: 'daily', render: '0' });
    assert.equal(made.statusCode, 201, made.body);
    assert.equal(made.json().data.render, 0);
    const id = made.json().data.id;
    const update = await t.call(key, { method: 'PUT', url: `/api/v1/monitors/${id}`, form: { render: '1' } });
    assert.equal(update.statusCode, 422);
    assert.deepEqual(update.json(), REFUSED);
    assert.equal((await t.call(key, { method: 'GET', url: `/api/v1/monitors/${id}` })).json().data.render, 0);
  });

  test('POST /crawls with render=1: 422 on render, nothing stored or fetched; render=0 crawls as before', async () => {
    const fetched = () => site.hits('/good.html') + site.hits('/robots.txt');
    const before = fetched();
    const refused = await t.call(key, { method: 'POST', url: '/api/v1/crawls', form: { url: url(), render: '1' } });
    assert.equal(refused.statusCode, 422);
    assert.deepEqual(refused.json(), REFUSED);
    const invalid = await t.call(key, { method: 'POST', url: '/api/v1/crawls', form: { url: url(), render: '2' } });
    assert.deepEqual(invalid.json().errors, { render: ['The selected render is invalid.'] });
    assert.equal((await t.call(key, { method: 'GET', url: '/api/v1/crawls' })).json().meta.total, 0);
    await t.services.jobs.drain();
    assert.equal(fetched(), before, 'nothing was fetched');
    const made = await t.call(key, { method: 'POST', url: '/api/v1/crawls', form: { url: url(), render: '0', max_pages: '1' } });
    assert.equal(made.statusCode, 202, made.body);
    assert.equal(made.json().data.render, false);
  });

  test('the dashboard does not offer Render with Chromium', async () => {
    const client = await signedInClient(t);
    const list = await client.get('/app/reports');
    assert.equal(list.statusCode, 200);
    assert.doesNotMatch(list.body, /name="render"/);
    const report = (await t.call(client.account.key, { method: 'POST', url: '/api/v1/reports', form: { url: url() } })).json()
      .data;
    assert.doesNotMatch((await client.get(`/app/reports/${report.id}`)).body, /name="render"/);
    assert.doesNotMatch((await client.get('/app/monitors/new')).body, /name="render"/);
    assert.doesNotMatch((await client.get('/app/crawls')).body, /name="render"/);
  });
});
