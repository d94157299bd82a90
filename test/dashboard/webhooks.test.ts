// The webhooks pages (docs/dashboard.md): the list, create (the signing secret
// shown once, on the answer page), settings, delete, and the recent deliveries with what the
// receiver answered; the API's address guard; another account's webhook is a 404 everywhere.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { testApp, type TestApp } from '../helpers/app.js';
import { type DashboardClient, signedInClient } from '../helpers/dashboard.js';
import { goodPage, startSite, type PageSite } from '../helpers/pages.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';

const escaped = (text: string) => text.replace(/&/g, '&amp;').replace(/'/g, '&#39;').replace(/"/g, '&quot;');

describe('dashboard: webhooks pages', () => {
  let t: TestApp;
  let site: PageSite;
  let receiver: Receiver;
  let owner: DashboardClient;
  let other: DashboardClient;
  let hookId: number;
  let secret: string;

  before(async () => {
    t = await testApp({ ALLOW_PRIVATE_ADDRESSES: 'true', ANALYSIS_WORKERS: '0' });
    site = await startSite({ '/page.html': goodPage() });
    receiver = await startReceiver();
    owner = await signedInClient(t);
    other = await signedInClient(t);
  });
  after(async () => {
    await t.close();
    await site.close();
    await receiver.close();
  });

  const api = (client: DashboardClient, method: 'GET' | 'POST' | 'DELETE', url: string, form?: Record<string, string>) =>
    t.call(client.account.key, { method, url: `/api/v1${url}`, form });
  const webhooksOf = async (client: DashboardClient) => (await api(client, 'GET', '/webhooks')).json().data;

  test('without webhooks the list says what to do next; the form has a labelled box per event', async () => {
    const list = await owner.get('/app/webhooks');
    assert.equal(list.statusCode, 200);
    assert.match(list.body, /<title>Webhooks · Rankscope<\/title>/);
    assert.match(list.body, /No webhooks yet\./);
    assert.match(list.body, /href="\/app\/webhooks\/new"/);
    const form = await owner.get('/app/webhooks/new');
    assert.equal(form.statusCode, 200);
    assert.equal(form.body.match(/<h1[ >]/g)?.length, 1);
    assert.match(form.body, /<label for="f-url">/);
    for (const event of ['report.created', 'report.updated', 'report.deleted', 'monitor.alert', 'crawl.finished']) {
      const id = `f-events-${event.replace('.', '-')}`;
      assert.ok(form.body.includes(`<input id="${id}" type="checkbox" name="events[]" value="${event}">`), event);
      assert.ok(form.body.includes(`<label for="${id}">`), event);
    }
  });

  test('create: the answer page shows the secret once; no later page shows it', async () => {
    const res = await owner.post('/app/webhooks', {
      url: `${receiver.origin}/hook`,
      'events[]': ['report.deleted', 'report.created'],
      active: ['0', '1'],
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.headers.location, undefined, 'no redirect: the secret is in this answer');
    const match = /<code class="secret"[^>]*>(whsec_[A-Za-z0-9_-]+)<\/code>/.exec(res.body);
    assert.ok(match, 'the secret is shown');
    secret = match[1];
    assert.match(res.body, /it will not be shown again/);
    const [hook] = await webhooksOf(owner);
    hookId = hook.id;
    assert.deepEqual([hook.url, hook.events, hook.active], [`${receiver.origin}/hook`, ['report.created', 'report.deleted'], 1]);
    assert.ok(res.body.includes(`href="/app/webhooks/${hookId}"`));

    for (const path of ['/app/webhooks', `/app/webhooks/${hookId}`]) {
      const page = await owner.get(path);
      assert.equal(page.statusCode, 200);
      assert.ok(!page.body.includes(secret), path);
    }
    const list = await owner.get('/app/webhooks');
    assert.ok(list.body.includes(`<a href="/app/webhooks/${hookId}">${receiver.origin}/hook</a>`));
    assert.match(list.body, /<code>report\.created<\/code>, <code>report\.deleted<\/code>/);
    assert.match(list.body, /<td>Active<\/td>/);
  });

  test('create refused: 422 with the API’s message at each field, the values kept, nothing stored', async () => {
    const before = (await webhooksOf(owner)).length;
    const expected = (await api(owner, 'POST', '/webhooks', { url: 'ftp://files.example/x' })).json();
    assert.ok(expected.errors.url && expected.errors.events, JSON.stringify(expected));
    const res = await owner.post('/app/webhooks', { url: 'ftp://files.example/x', active: ['0'] });
    assert.equal(res.statusCode, 422);
    assert.match(res.body, /id="f-url"[^>]*aria-invalid="true"/);
    for (const messages of Object.values(expected.errors as Record<string, string[]>)) {
      for (const message of messages) assert.ok(res.body.includes(escaped(message)), message);
    }
    assert.match(res.body, /id="f-events-error"/);
    assert.match(res.body, /value="ftp:\/\/files\.example\/x"/);
    assert.doesNotMatch(res.body, /name="active" value="1" checked/, 'the unticked box stays unticked');
    assert.equal((await webhooksOf(owner)).length, before);
  });

  test('deliveries: after an event, the webhook page lists it with what the receiver answered', async () => {
    receiver.answer('/failing', 500);
    const failing = await api(owner, 'POST', '/webhooks', { url: `${receiver.origin}/failing`, events: 'report.created' });
    assert.equal(failing.statusCode, 201, failing.body);
    const empty = await owner.get(`/app/webhooks/${hookId}`);
    assert.match(empty.body, /No deliveries in the last 30 days\./);

    const report = await api(owner, 'POST', '/reports', { url: `${site.origin}/page.html` });
    assert.equal(report.statusCode, 201, report.body);
    await t.services.jobs.drain();
    assert.equal(receiver.at('/hook').length, 1);

    const page = await owner.get(`/app/webhooks/${hookId}`);
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /<th scope="col">Event<\/th>/);
    assert.match(
      page.body,
      /<tr>\n<td><code>report\.created<\/code><\/td>\n<td>Delivered<\/td>\n<td class="num">200<\/td>\n<td>—<\/td>\n<td class="num">1<\/td>\n<td><time /,
    );
    const bad = await owner.get(`/app/webhooks/${failing.json().data.id}`);
    assert.match(
      bad.body,
      /<td><code>report\.created<\/code><\/td>\n<td>Failed, will retry<\/td>\n<td class="num">500<\/td>\n<td>The receiver answered HTTP 500\.<\/td>\n<td class="num">1<\/td>/,
    );
    assert.match(bad.body, /Not yet/);
  });

  test('settings: saved through PUT; a refused value answers 422 at its field and changes nothing', async () => {
    const res = await owner.post(`/app/webhooks/${hookId}`, {
      url: `${receiver.origin}/moved`,
      'events[]': ['monitor.alert', 'crawl.finished'],
      active: '0',
    });
    assert.equal(res.statusCode, 303);
    assert.equal(res.headers.location, `/app/webhooks/${hookId}`);
    const saved = (await api(owner, 'GET', `/webhooks/${hookId}`)).json().data;
    assert.deepEqual(
      [saved.url, saved.events, saved.active],
      [`${receiver.origin}/moved`, ['monitor.alert', 'crawl.finished'], 0],
    );
    const page = await owner.get(`/app/webhooks/${hookId}`);
    assert.match(page.body, /Webhook settings saved\./);
    assert.match(page.body, /value="monitor\.alert" checked/);
    assert.doesNotMatch(page.body, /value="report\.created" checked/);

    const bad = await owner.post(`/app/webhooks/${hookId}`, { url: 'not a url', active: '1' });
    assert.equal(bad.statusCode, 422);
    assert.match(bad.body, /id="f-url"[^>]*aria-invalid="true"/);
    assert.match(bad.body, /The url must/);
    assert.match(bad.body, /value="not a url"/);
    assert.match(bad.body, /value="crawl\.finished" checked/, 'events left unticked show the current ones');
    assert.deepEqual((await api(owner, 'GET', `/webhooks/${hookId}`)).json().data, saved);
  });

  test('another account’s webhook: 404 on every page and form, and nothing changes', async () => {
    const before = (await api(owner, 'GET', `/webhooks/${hookId}`)).json().data;
    const page = await other.get(`/app/webhooks/${hookId}`);
    assert.equal(page.statusCode, 404);
    assert.match(page.body, /<h1 id="page-title">Not found<\/h1>/);
    const edit = await other.post(`/app/webhooks/${hookId}`, { url: 'https://evil.example/', 'events[]': ['report.created'] });
    assert.equal(edit.statusCode, 404);
    assert.equal((await other.post(`/app/webhooks/${hookId}/delete`)).statusCode, 404);
    assert.equal((await other.get('/app/webhooks/abc')).statusCode, 404);
    assert.deepEqual((await api(owner, 'GET', `/webhooks/${hookId}`)).json().data, before);
    assert.doesNotMatch((await other.get('/app/webhooks')).body, new RegExp(`/app/webhooks/${hookId}"`));
  });

  test('delete: 303 to the list with a notice; the API then answers 404', async () => {
    const res = await owner.post(`/app/webhooks/${hookId}/delete`);
    assert.equal(res.statusCode, 303);
    assert.equal(res.headers.location, '/app/webhooks');
    assert.match((await owner.get('/app/webhooks')).body, /Webhook deleted/);
    assert.equal((await api(owner, 'GET', `/webhooks/${hookId}`)).statusCode, 404);
    assert.equal((await owner.get(`/app/webhooks/${hookId}`)).statusCode, 404);
  });
});

describe('dashboard: webhooks without ALLOW_PRIVATE_ADDRESSES', () => {
  let t: TestApp;
  before(async () => {
    t = await testApp({ ANALYSIS_WORKERS: '0' });
  });
  after(async () => t.close());

  test('a private target is refused with the API’s message at the url field; nothing is stored', async () => {
    const client = await signedInClient(t);
    const res = await client.post('/app/webhooks', { url: 'http://127.0.0.1:9/', 'events[]': ['report.created'], active: '1' });
    assert.equal(res.statusCode, 422);
    assert.match(res.body, /id="f-url-error">.*The url points to a private or reserved network address\./);
    assert.match(res.body, /value="report\.created" checked/, 'the ticked event stays ticked');
    const listed = await t.call(client.account.key, { method: 'GET', url: '/api/v1/webhooks' });
    assert.deepEqual(listed.json().data, []);
  });
});
