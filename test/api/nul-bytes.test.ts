// U+0000 in any input: PostgreSQL text cannot hold it, so it must never reach a query as a value
// to store, and a filter holding it matches nothing. Same answers on SQLite and PostgreSQL: a
// stored field holding one is a 422 on that field (API and dashboard forms), /login refuses it
// as any unknown address, and /login's `next` follows only clean dashboard paths.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { seedReport } from '../helpers/seed.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { dashboardClient, givePassword, signedInClient, TEST_PASSWORD } from '../helpers/dashboard.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { safeNext } from '../../src/dashboard/routes.js';

describe('NUL characters in input', () => {
  let t: TestApp;
  let key: string;
  let reportId: number;
  let websiteId: number;
  /** A server on loopback that records every request: nothing may be fetched from it. */
  let site: Receiver & { requests(): number };
  before(async () => {
    t = await testApp({ ALLOW_PRIVATE_ADDRESSES: 'true' });
    const receiver = await startReceiver();
    site = Object.assign(receiver, { requests: () => receiver.received.length });
    const account = await t.account();
    key = account.key;
    reportId = (
      await seedReport(t.db.handle, account.id, {
        url: 'https://abcd.example/',
        privacy: 1,
        result: 50,
        generated_at: '2024-01-01T00:00:00.000000Z',
      })
    ).id;
    const website = await t.call(key, { method: 'POST', url: '/api/v1/websites', form: { domain: 'abcd.example' } });
    assert.equal(website.statusCode, 201);
    websiteId = website.json().data.id;
  });
  after(async () => {
    await site.close(); // first: a regression that queued a crawl of it must not hold the app open
    await t.close();
  });

  const get = (url: string) => t.call(key, { method: 'GET', url });

  for (const url of [
    '/api/v1/reports?search=%00',
    '/api/v1/reports?search=ab%00cd',
    '/api/v1/reports?search=abcd%00',
    '/api/v1/reports?project=abcd.example%00',
    '/api/v1/projects?search=abcd%00',
    '/api/v1/websites?search=%00',
    '/api/v1/websites?search=abcd%00',
  ]) {
    test(`${url}: an empty page, not an error`, async () => {
      const res = await get(url);
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json();
      assert.deepEqual([body.data, body.meta.total], [[], 0]);
      if (!url.endsWith('=%00')) {
        // the same filter without the NUL matches: the empty answer is the NUL's doing
        assert.equal((await get(url.replace('%00', ''))).json().meta.total, 1);
      }
    });
  }

  test('DELETE /projects/{project} with a NUL: 404, and the project keeps its reports', async () => {
    const res = await t.call(key, { method: 'DELETE', url: '/api/v1/projects/abcd.example%00' });
    assert.equal(res.statusCode, 404, res.body);
    assert.equal(res.json().message, 'Project not found.');
    assert.equal((await get('/api/v1/projects')).json().data[0].reports_count, 1);
  });

  test('exclude_params with a control character: 422 naming the entry, nothing stored', async () => {
    for (const value of ['a%01b', 'x%7Fy']) {
      const res = await t.call(key, {
        method: 'POST',
        url: '/api/v1/websites',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: `domain=nul-${value.slice(-1)}.example&exclude_params=${value}`,
      });
      assert.equal(res.statusCode, 422, res.body);
      assert.match(res.json().errors.exclude_params[0], /^The exclude params field contains an invalid parameter name: /);
    }
    assert.equal((await get('/api/v1/websites')).json().meta.total, 1);
  });

  /** A write holding a NUL in `field`: 422 on that field alone, in the usual shape. */
  const refusesNul = (
    res: { statusCode: number; body: string; json(): { message: string; errors: Record<string, string[]> } },
    field: string,
  ) => {
    assert.equal(res.statusCode, 422, res.body);
    const message = `The ${field.replace(/_/g, ' ')} must not contain a NUL character.`;
    assert.deepEqual(res.json().errors[field], [message], res.body);
  };
  const form = (method: 'POST' | 'PUT' | 'PATCH', url: string, payload: string) =>
    t.call(key, { method, url, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload });
  const json = (method: 'POST' | 'PUT' | 'PATCH', url: string, payload: unknown) =>
    t.call(key, { method, url, headers: { 'content-type': 'application/json' }, payload: JSON.stringify(payload) });

  describe('stored input holding a NUL: a 422 on that field, nothing stored, never a 5xx', () => {
    test('reports: url (form, JSON, query string)', async () => {
      refusesNul(await form('POST', '/api/v1/reports', `url=${encodeURIComponent(`${site.origin}/good.html`)}%00`), 'url');
      refusesNul(await json('POST', '/api/v1/reports', { url: `${site.origin}/go\u0000od.html` }), 'url');
      refusesNul(await form('POST', `/api/v1/reports?url=${encodeURIComponent(site.origin)}%2F%00`, ''), 'url');
      assert.equal((await get('/api/v1/reports')).json().meta.total, 1);
      assert.equal(site.requests(), 0, 'nothing was fetched');
    });

    test('websites: domain, exclude_ips, exclude_params on create and update', async () => {
      refusesNul(await form('POST', '/api/v1/websites', 'domain=nul%00.example'), 'domain');
      refusesNul(await form('POST', '/api/v1/websites', 'domain=nul-ips.example&exclude_ips=10.0.0.1%00'), 'exclude_ips');
      refusesNul(
        await form('POST', '/api/v1/websites', 'domain=nul-params.example&exclude_params=utm%00source'),
        'exclude_params',
      );
      refusesNul(await json('PATCH', `/api/v1/websites/${websiteId}`, { exclude_params: 'a\nb\u0000' }), 'exclude_params');
      const list = (await get('/api/v1/websites')).json();
      assert.equal(list.meta.total, 1);
      assert.equal(list.data[0].exclude_params, null, 'unchanged');
    });

    test('webhooks: url and events (a string or a list), on create and update', async () => {
      refusesNul(await form('POST', '/api/v1/webhooks', 'url=https://hooks.example/a%00b&events=report.created'), 'url');
      refusesNul(
        await form('POST', '/api/v1/webhooks', `url=${encodeURIComponent(`${site.origin}/hook`)}&events=report.created%00`),
        'events',
      );
      refusesNul(
        await json('POST', '/api/v1/webhooks', { url: `${site.origin}/hook`, events: ['report.created', '\u0000'] }),
        'events',
      );
      const created = await form(
        'POST',
        '/api/v1/webhooks',
        `url=${encodeURIComponent(`${site.origin}/hook`)}&events=report.created`,
      );
      assert.equal(created.statusCode, 201, created.body);
      const id = created.json().data.id;
      refusesNul(await form('PATCH', `/api/v1/webhooks/${id}`, 'url=https://hooks.example/%00'), 'url');
      assert.equal((await get(`/api/v1/webhooks/${id}`)).json().data.url, `${site.origin}/hook`);
      assert.equal((await get('/api/v1/webhooks')).json().meta.total, 1);
    });

    test('monitors: report_id and frequency on create, frequency on update', async () => {
      refusesNul(await form('POST', '/api/v1/monitors', `report_id=${reportId}&frequency=daily%00`), 'frequency');
      refusesNul(await json('POST', '/api/v1/monitors', { report_id: `${reportId}\u0000`, frequency: 'daily' }), 'report_id');
      const created = await form('POST', '/api/v1/monitors', `report_id=${reportId}&frequency=daily`);
      assert.equal(created.statusCode, 201, created.body);
      const id = created.json().data.id;
      refusesNul(await form('PUT', `/api/v1/monitors/${id}`, 'frequency=weekly%00'), 'frequency');
      assert.equal((await get(`/api/v1/monitors/${id}`)).json().data.frequency, 'daily');
    });

    test('crawls: url (nothing queued, nothing fetched)', async () => {
      refusesNul(await form('POST', '/api/v1/crawls', `url=${encodeURIComponent(`${site.origin}/`)}%00`), 'url');
      refusesNul(await json('POST', '/api/v1/crawls', { url: `${site.origin}/\u0000x`, max_pages: 5 }), 'url');
      assert.equal((await get('/api/v1/crawls')).json().meta.total, 0);
      await t.services.jobs.drain();
      assert.equal(site.requests(), 0);
    });

    test('dashboard forms: the form again (422) with the message at the field', async () => {
      const browser = await signedInClient(t);
      const page = await browser.post('/app/websites', { domain: 'form\u0000.example' });
      assert.equal(page.statusCode, 422, page.body.slice(0, 300));
      assert.match(page.body, /The domain must not contain a NUL character\./);
      const crawl = await browser.post('/app/crawls', { url: `${site.origin}/\u0000` });
      assert.equal(crawl.statusCode, 422, crawl.body.slice(0, 300));
      assert.match(crawl.body, /The url must not contain a NUL character\./);
      const report = await browser.post('/app/reports', { url: `${site.origin}/\u0000` });
      assert.equal(report.statusCode, 422, report.body.slice(0, 300));
      assert.match(report.body, /The url must not contain a NUL character\./);
    });
  });

  describe('/login', () => {
    test('an e-mail holding a NUL: the usual refusal (401 and the form), not an error', async () => {
      const browser = dashboardClient(t, await t.account());
      for (const email of ['\u0000', 'a\u0000@example.com', `${browser.account.email}\u0000`]) {
        const res = await browser.post('/login', { email, password: TEST_PASSWORD, _token: '' });
        assert.equal(res.statusCode, 401, res.body.slice(0, 300));
        assert.match(res.body, /These credentials do not match our records\./);
      }
    });

    test('next: a dashboard path is followed percent-encoded; anything else is ignored for the default page', async () => {
      const account = await t.account();
      await givePassword(t, account.id);
      const signIn = async (next: string) => {
        const res = await dashboardClient(t, account).post('/login', {
          email: account.email,
          password: TEST_PASSWORD,
          next,
          _token: '',
        });
        assert.equal(res.statusCode, 303, res.body.slice(0, 300));
        return res.headers.location;
      };
      assert.equal(await signIn('/app/reports?search=Ā'), '/app/reports?search=%C4%80');
      assert.equal(await signIn('/app/reports?search=😀 x'), '/app/reports?search=%F0%9F%98%80%20x');
      assert.equal(await signIn('/app/reports?search=a%20b'), '/app/reports?search=a%20b', 'an escape is kept');
      assert.equal(await signIn('/app/reports?search=100%'), '/app/reports?search=100%25');
      assert.equal(await signIn('/app/websites/1'), '/app/websites/1');
      for (const ignored of [
        '/app/reports?x=\u0000',
        '/app/reports?x=\u0001',
        '/app/reports\u007f',
        '/app/re\u0085ports',
        'https://evil.example/app',
        '//evil.example/app',
        '/application',
        '/app\\evil',
        '/docs',
      ]) {
        assert.equal(await signIn(ignored), '/app/reports', JSON.stringify(ignored));
      }
      assert.equal(safeNext('/app/\ud800'), undefined, 'broken UTF-16 (only JSON can carry it)');
      // The form carries it (GET /login?next=…) whatever characters it holds.
      const page = await t.app.inject({ method: 'GET', url: `/login?next=${encodeURIComponent('/app/reports?search=Ā')}` });
      assert.equal(page.statusCode, 200);
      assert.match(page.body, /name="next" value="\/app\/reports\?search=%C4%80"/);
    });
  });

  test('a password may hold a NUL: it is hashed, never stored as text', async () => {
    const res = await t.call(key, {
      method: 'POST',
      url: '/api/v1/websites',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'domain=nul-password.example&privacy=2&password=a%00b',
    });
    assert.equal(res.statusCode, 201, res.body);
    assert.equal(res.json().data.password, true);
  });
});
