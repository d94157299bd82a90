// The monitors pages (docs/dashboard.md): the list, create, edit, run now and
// delete, all through the API; a refused form shows the API's messages at each field and stores
// nothing; another account's monitor is a 404 on every page and form, and nothing changes.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { testApp, type TestApp } from '../helpers/app.js';
import { type DashboardClient, signedInClient } from '../helpers/dashboard.js';
import { goodPage, startSite, type PageSite } from '../helpers/pages.js';

const escaped = (text: string) => text.replace(/&/g, '&amp;').replace(/'/g, '&#39;').replace(/"/g, '&quot;');

describe('dashboard: monitors pages', () => {
  let t: TestApp;
  let site: PageSite;
  let owner: DashboardClient;
  let other: DashboardClient;
  let reportId: number;
  let reportUrl: string;

  before(async () => {
    t = await testApp({ ALLOW_PRIVATE_ADDRESSES: 'true', ANALYSIS_WORKERS: '0' });
    site = await startSite({ '/page.html': goodPage() });
    owner = await signedInClient(t);
    other = await signedInClient(t);
  });
  after(async () => {
    await t.close();
    await site.close();
  });

  const api = (client: DashboardClient, method: 'GET' | 'POST', url: string, form?: Record<string, string>) =>
    t.call(client.account.key, { method, url: `/api/v1${url}`, form });
  const monitorsOf = async (client: DashboardClient) => (await api(client, 'GET', '/monitors')).json().data;

  test('without reports or monitors, the list and the form say what to do next', async () => {
    const list = await owner.get('/app/monitors');
    assert.equal(list.statusCode, 200);
    assert.match(list.body, /<title>Monitors · Rankscope<\/title>/);
    assert.equal(list.body.match(/<h1[ >]/g)?.length, 1);
    assert.match(list.body, /No monitors yet\./);
    assert.match(list.body, /href="\/app\/reports"/);
    const form = await owner.get('/app/monitors/new');
    assert.equal(form.statusCode, 200);
    assert.match(form.body, /you have none yet/);
  });

  test('create: every field the API takes, then 303 to the monitor with a notice; the list shows it', async () => {
    const created = await api(owner, 'POST', '/reports', { url: `${site.origin}/page.html` });
    assert.equal(created.statusCode, 201, created.body);
    reportId = created.json().data.id;
    reportUrl = created.json().data.url;

    const form = await owner.get(`/app/monitors/new?report_id=${reportId}`);
    assert.equal(form.statusCode, 200);
    assert.match(form.body, new RegExp(`<option value="${reportId}" selected>`));
    for (const name of ['report_id', 'frequency', 'alert_drop', 'email']) {
      assert.match(form.body, new RegExp(`<label for="f-${name}">`), name);
    }

    const res = await owner.post('/app/monitors', {
      report_id: String(reportId),
      frequency: 'daily',
      alert_drop: '12',
      email: ['0', '1'], // the hidden 0, then the ticked box
    });
    assert.equal(res.statusCode, 303, res.body);
    const [monitor] = await monitorsOf(owner);
    assert.equal(res.headers.location, `/app/monitors/${monitor.id}`);
    assert.deepEqual([monitor.report_id, monitor.frequency, monitor.alert_drop, monitor.email], [reportId, 'daily', 12, 1]);

    const page = await owner.get(`/app/monitors/${monitor.id}`);
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /Monitor created\. Its first run is due/);
    assert.match(page.body, /<h1>Monitor of 127\.0\.0\.1:\d+\/page\.html<\/h1>/);
    assert.match(page.body, /<option value="daily" selected>/);
    assert.match(page.body, /name="alert_drop" type="number" value="12"/);
    assert.match(page.body, /type="checkbox" name="email" value="1" checked/);
    assert.match(page.body, /Not run yet/);

    const list = await owner.get('/app/monitors');
    assert.equal(list.statusCode, 200);
    assert.ok(list.body.includes(`href="/app/monitors/${monitor.id}">${reportUrl.replace(/^https?:\/\//, '')}</a>`));
    assert.match(list.body, /<td>Daily<\/td>/);
    assert.match(list.body, /12 points/);
    assert.match(list.body, /<th scope="col">Next run<\/th>/);
    assert.match(list.body, /<time datetime="/);
  });

  test('create refused: 422 with the API’s message at each field, the values kept, nothing stored', async () => {
    const before = (await monitorsOf(owner)).length;
    const fields = { report_id: '', frequency: 'hourly', alert_drop: '500', email: '1' };
    const expected = (await api(owner, 'POST', '/monitors', fields)).json();
    assert.ok(Object.keys(expected.errors).length >= 3, JSON.stringify(expected));
    const res = await owner.post('/app/monitors', fields);
    assert.equal(res.statusCode, 422);
    for (const [field, messages] of Object.entries(expected.errors as Record<string, string[]>)) {
      assert.match(res.body, new RegExp(`id="f-${field}"[^>]*aria-invalid="true"`), field);
      for (const message of messages) assert.ok(res.body.includes(escaped(message)), message);
    }
    assert.match(res.body, /name="alert_drop" type="number" value="500"/);

    // Another account's report is refused like an unknown one.
    const theirs = await api(other, 'POST', '/reports', { url: `${site.origin}/page.html` });
    const refused = await owner.post('/app/monitors', {
      report_id: String(theirs.json().data.id),
      frequency: 'weekly',
    });
    assert.equal(refused.statusCode, 422);
    assert.match(refused.body, /id="f-report_id-error">.*The selected report id is invalid\./);
    assert.equal((await monitorsOf(owner)).length, before);
    assert.equal((await monitorsOf(other)).length, 0);
  });

  test('edit: the settings go through PUT; a refused value answers 422 at its field and changes nothing', async () => {
    const [monitor] = await monitorsOf(owner);
    const res = await owner.post(`/app/monitors/${monitor.id}`, { frequency: 'monthly', alert_drop: '30', email: '0' });
    assert.equal(res.statusCode, 303);
    assert.equal(res.headers.location, `/app/monitors/${monitor.id}`);
    const saved = (await api(owner, 'GET', `/monitors/${monitor.id}`)).json().data;
    assert.deepEqual([saved.frequency, saved.alert_drop, saved.email], ['monthly', 30, 0]);
    const page = await owner.get(`/app/monitors/${monitor.id}`);
    assert.match(page.body, /Monitor settings saved\./);
    assert.doesNotMatch(page.body, /name="email" value="1" checked/);

    const bad = await owner.post(`/app/monitors/${monitor.id}`, { frequency: 'weekly', alert_drop: '0', email: '1' });
    assert.equal(bad.statusCode, 422);
    assert.match(bad.body, /id="f-alert_drop"[^>]*aria-invalid="true"/);
    assert.match(bad.body, /The alert drop must be at least 1\./);
    assert.match(bad.body, /name="alert_drop" type="number" value="0"/);
    assert.deepEqual((await api(owner, 'GET', `/monitors/${monitor.id}`)).json().data, saved);
  });

  test('run now: queued through the API, 303 back saying what it answered; after the run the page shows the score', async () => {
    const [monitor] = await monitorsOf(owner);
    const res = await owner.post(`/app/monitors/${monitor.id}/run`);
    assert.equal(res.statusCode, 303);
    assert.equal(res.headers.location, `/app/monitors/${monitor.id}`);
    const notice = await owner.get(`/app/monitors/${monitor.id}`);
    assert.match(notice.body, /Run queued: the API answered 202 Accepted\./);
    assert.equal(await t.services.jobs.drain(), 1);
    const ran = (await api(owner, 'GET', `/monitors/${monitor.id}`)).json().data;
    assert.notEqual(ran.last_run_at, null);
    assert.equal(typeof ran.last_result, 'number');
    const page = await owner.get(`/app/monitors/${monitor.id}`);
    assert.match(
      page.body,
      new RegExp(`<span class="badge band-\\w+">.*${ran.last_result}<span class="visually-hidden"> out of 100`),
    );
    assert.doesNotMatch(page.body, /Not run yet/);
  });

  test('another account’s monitor: 404 on every page and form, and nothing changes or runs', async () => {
    const [monitor] = await monitorsOf(owner);
    const before = (await api(owner, 'GET', `/monitors/${monitor.id}`)).json().data;
    const page = await other.get(`/app/monitors/${monitor.id}`);
    assert.equal(page.statusCode, 404);
    assert.match(page.body, /<h1 id="page-title">Not found<\/h1>/);
    for (const [path, fields] of [
      [`/app/monitors/${monitor.id}`, { frequency: 'daily', alert_drop: '99', email: '1' }],
      [`/app/monitors/${monitor.id}/run`, {}],
      [`/app/monitors/${monitor.id}/delete`, {}],
    ] as const) {
      const res = await other.post(path, fields);
      assert.equal(res.statusCode, 404, path);
    }
    assert.equal((await other.get('/app/monitors/not-a-number')).statusCode, 404);
    assert.equal(await t.services.jobs.drain(), 0, 'no run queued');
    assert.deepEqual((await api(owner, 'GET', `/monitors/${monitor.id}`)).json().data, before);
    const list = await other.get('/app/monitors');
    assert.doesNotMatch(list.body, new RegExp(`/app/monitors/${monitor.id}"`));
  });

  test('delete: 303 to the list with a notice; the API then answers 404', async () => {
    const [monitor] = await monitorsOf(owner);
    const res = await owner.post(`/app/monitors/${monitor.id}/delete`);
    assert.equal(res.statusCode, 303);
    assert.equal(res.headers.location, '/app/monitors');
    const list = await owner.get('/app/monitors');
    assert.match(list.body, /Monitor deleted\./);
    assert.equal((await api(owner, 'GET', `/monitors/${monitor.id}`)).statusCode, 404);
    assert.equal((await owner.get(`/app/monitors/${monitor.id}`)).statusCode, 404);
    assert.equal((await api(owner, 'GET', `/reports/${reportId}`)).statusCode, 200, 'the report stays');
  });

  test('paging: 25 a page, with links to the next and previous pages', async () => {
    for (let i = 0; i < 26; i++) {
      const res = await api(owner, 'POST', '/monitors', { report_id: String(reportId), frequency: 'weekly' });
      assert.equal(res.statusCode, 201, res.body);
    }
    const first = await owner.get('/app/monitors');
    assert.equal(first.body.match(/<tr>\n<td><a href="\/app\/monitors\/\d+">/g)?.length, 25);
    assert.match(first.body, /Page 1 of 2 \(26 monitors\)/);
    assert.match(first.body, /<a href="\/app\/monitors\?page=2">Next page of monitors<\/a>/);
    const second = await owner.get('/app/monitors?page=2');
    assert.equal(second.body.match(/<tr>\n<td><a href="\/app\/monitors\/\d+">/g)?.length, 1);
    assert.match(second.body, /<a href="\/app\/monitors\?page=1">Previous page of monitors<\/a>/);
  });
});
