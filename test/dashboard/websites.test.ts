// The websites pages (docs/dashboard.md): list, add with every setting, edit,
// tracking snippet, stats over a date range, delete; another account's website is a 404.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { fixedClock } from '../../src/time.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { type DashboardClient, signedInClient } from '../helpers/dashboard.js';
import { all, elements, parse, text } from '../web/render-helpers.js';

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';

/** What every page of this area keeps to: one h1, headings in order, unique ids, a label for every control. */
function assertAccessible(body: string, where: string): void {
  const doc = parse(body);
  assert.equal(all(doc, 'h1').length, 1, `${where}: one h1`);
  const els = elements(doc);
  const levels = els.filter((e) => /^h[1-6]$/.test(e.name)).map((e) => Number(e.name[1]));
  levels.reduce((prev, level) => {
    assert.ok(level <= prev + 1, `${where}: h${level} after h${prev}`);
    return level;
  }, 0);
  const ids = els.map((e) => e.attribs.id).filter((id) => id !== undefined);
  assert.equal(new Set(ids).size, ids.length, `${where}: unique ids`);
  const labelled = new Set(els.filter((e) => e.name === 'label').map((e) => e.attribs.for));
  for (const control of els.filter((e) => ['input', 'select', 'textarea'].includes(e.name) && e.attribs.type !== 'hidden')) {
    assert.ok(labelled.has(control.attribs.id), `${where}: a label for ${control.attribs.name}`);
  }
  for (const link of els.filter((e) => e.name === 'a')) assert.ok(text(link).length > 0, `${where}: link text`);
  for (const table of all(doc, 'table')) assert.ok(all(table, 'caption').length === 1 || table.attribs['aria-label'], where);
}

/** A page's text, tags removed. */
const textOf = (body: string) =>
  body
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

describe('dashboard websites pages', () => {
  let t: TestApp;
  let me: DashboardClient;
  let other: DashboardClient;
  const clock = fixedClock(Date.parse('2026-03-10T09:15:00Z'));

  const apiWebsites = async (client: DashboardClient) =>
    (await t.call(client.account.key, { method: 'GET', url: '/api/v1/websites' })).json().data as Array<Record<string, unknown>>;
  const apiWebsite = async (client: DashboardClient, id: number) =>
    t.call(client.account.key, { method: 'GET', url: `/api/v1/websites/${id}` });

  /** Adds a website through the page; its id. */
  async function addWebsite(client: DashboardClient, fields: Record<string, string>): Promise<number> {
    await client.get('/app/websites/new');
    const res = await client.post('/app/websites', { privacy: '1', email: '0', exclude_bots: '1', ...fields });
    assert.equal(res.statusCode, 303, res.body);
    const id = Number(/^\/app\/websites\/(\d+)$/.exec(String(res.headers.location))?.[1]);
    assert.ok(id > 0);
    return id;
  }

  before(async () => {
    t = await testApp({}, { clock });
    me = await signedInClient(t);
    other = await signedInClient(t);
  });
  after(async () => t.close());

  test('the empty list says what to do, and links to the form', async () => {
    const res = await me.get('/app/websites');
    assert.equal(res.statusCode, 200);
    assert.match(res.body, /<h1>Websites<\/h1>/);
    assert.match(res.body, /No websites yet/);
    assert.match(res.body, /href="\/app\/websites\/new"/);
    const form = await me.get('/app/websites/new');
    assert.equal(form.statusCode, 200);
    for (const name of ['domain', 'privacy', 'password', 'email', 'exclude_bots', 'exclude_ips', 'exclude_params']) {
      assert.match(form.body, new RegExp(`name="${name}"`), name);
    }
    assert.equal(form.body.match(/<h1[ >]/g)?.length, 1);
  });

  test('a refused website shows the API’s messages at their fields, keeps the values, and stores nothing', async () => {
    await me.get('/app/websites/new');
    const res = await me.post('/app/websites', {
      domain: 'not a domain!',
      privacy: '0',
      email: '1',
      exclude_bots: '0',
      exclude_ips: '203.0.113.0/24\nnope',
      exclude_params: 'session',
    });
    assert.equal(res.statusCode, 422);
    assert.match(res.body, /id="f-domain-error"[^>]*>.*The domain must be a valid domain name\./);
    assert.match(res.body, /id="f-domain"[^>]*aria-invalid="true"/);
    assert.match(
      res.body,
      /id="f-exclude_ips-error"[^>]*>.*The exclude ips field contains an invalid IP address or range: nope\./,
    );
    assert.match(res.body, /value="not a domain!"/, 'the domain is kept');
    assert.match(res.body, />203\.0\.113\.0\/24\nnope<\/textarea>/, 'the list is kept');
    assert.match(res.body, /<option value="0" selected>/, 'privacy kept');
    assert.match(res.body, /id="f-email" type="checkbox" name="email" value="1" checked/);
    assert.doesNotMatch(res.body, /id="f-exclude_bots" type="checkbox" name="exclude_bots" value="1" checked/);
    assert.deepEqual(await apiWebsites(me), []);

    const noPassword = await me.post('/app/websites', { domain: 'example.org', privacy: '2', email: '0', exclude_bots: '1' });
    assert.equal(noPassword.statusCode, 422);
    assert.match(noPassword.body, /id="f-password-error"[^>]*>.*The password field is required when privacy is 2\./);
    assert.deepEqual(await apiWebsites(me), []);
  });

  test('a website is added with every setting, then shown with its snippet; the list links to it', async () => {
    await me.get('/app/websites/new');
    const res = await me.post('/app/websites', {
      domain: 'https://www.Example.com/some/page',
      privacy: '2',
      password: 'open sesame',
      email: ['0', '1'],
      exclude_bots: '0',
      exclude_ips: ' 203.0.113.0/24 \n\n2001:db8::1',
      exclude_params: 'session\nfbclid',
    });
    assert.equal(res.statusCode, 303, res.body);
    const id = Number(/^\/app\/websites\/(\d+)$/.exec(String(res.headers.location))?.[1]);
    const api = (await apiWebsite(me, id)).json().data;
    assert.equal(api.domain, 'www.example.com');
    assert.equal(api.privacy, 2);
    assert.equal(api.password, true);
    assert.equal(api.email, 1);
    assert.equal(api.exclude_bots, 0);
    assert.equal(api.exclude_ips, '203.0.113.0/24\n2001:db8::1');
    assert.equal(api.exclude_params, 'session\nfbclid');

    const page = await me.get(`/app/websites/${id}`);
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /Website www\.example\.com added\./, 'the notice');
    assert.match(page.body, /<h1>www\.example\.com<\/h1>/);
    const snippet = /<pre class="snippet" id="snippet" data-copy="the snippet">([^<]*)<\/pre>/.exec(page.body)?.[1];
    // inject() reaches the app at localhost:80: the snippet names the origin the page was served from.
    assert.equal(
      snippet,
      `&lt;script defer src=&quot;http://localhost:80/js/script.js&quot; data-website=&quot;${id}&quot;&gt;&lt;/script&gt;`,
    );
    assert.match(page.body, new RegExp(`href="/app/websites/${id}/stats"`));
    assert.match(page.body, new RegExp(`href="/websites/${id}"`), 'a password page is shared');
    assert.match(page.body, /<option value="2" selected>/);
    assert.match(page.body, />203\.0\.113\.0\/24\n2001:db8::1<\/textarea>/);

    const list = await me.get('/app/websites');
    assert.equal(list.statusCode, 200);
    assert.match(list.body, new RegExp(`<a href="/app/websites/${id}">www\\.example\\.com</a>`));
    assert.match(textOf(list.body), /Password/);
  });

  test('the snippet uses the origin the request came to', async () => {
    const id = await addWebsite(me, { domain: 'snippet.example' });
    const page = await me.get(`/app/websites/${id}`, { host: 'seo.example.net', 'x-forwarded-proto': 'https' });
    const snippet = /<pre class="snippet" id="snippet" data-copy="the snippet">([^<]*)<\/pre>/.exec(page.body)?.[1] ?? '';
    assert.match(snippet, /src=&quot;http:\/\/seo\.example\.net\/js\/script\.js&quot;/);
    assert.match(snippet, new RegExp(`data-website=&quot;${id}&quot;`));
    assert.doesNotMatch(page.body, new RegExp(`href="/websites/${id}"`), 'private: no share link');
  });

  test('settings are edited through the API; a refused edit shows the message and changes nothing', async () => {
    const id = await addWebsite(me, { domain: 'edit.example', exclude_params: 'a' });
    await me.get(`/app/websites/${id}`);
    const saved = await me.post(`/app/websites/${id}`, {
      privacy: '0',
      password: '',
      email: ['0', '1'],
      exclude_bots: '0',
      exclude_ips: '198.51.100.7',
      exclude_params: '',
    });
    assert.equal(saved.statusCode, 303);
    assert.equal(saved.headers.location, `/app/websites/${id}`);
    let api = (await apiWebsite(me, id)).json().data;
    assert.equal(api.privacy, 0);
    assert.equal(api.email, 1);
    assert.equal(api.exclude_bots, 0);
    assert.equal(api.exclude_ips, '198.51.100.7');
    assert.equal(api.exclude_params, null, 'an empty list clears it');
    const page = await me.get(`/app/websites/${id}`);
    assert.match(page.body, /Settings saved\./);
    assert.match(page.body, new RegExp(`href="/websites/${id}"`), 'public: the share link');

    const refused = await me.post(`/app/websites/${id}`, {
      privacy: '2',
      email: '0',
      exclude_bots: '1',
      exclude_ips: '198.51.100.7',
      exclude_params: 'bad name!',
    });
    assert.equal(refused.statusCode, 422);
    assert.match(refused.body, /id="f-password-error"/);
    assert.match(refused.body, /id="f-exclude_params-error"[^>]*>.*invalid parameter name/);
    assert.match(refused.body, />bad name!<\/textarea>/);
    api = (await apiWebsite(me, id)).json().data;
    assert.equal(api.privacy, 0);
    assert.equal(api.exclude_bots, 0);
  });

  test('the stats page counts a pageview sent to /api/event, and the range form changes the range', async () => {
    const id = await addWebsite(me, { domain: 'stats.example' });
    const sent = await t.app.inject({
      method: 'POST',
      url: '/api/event',
      headers: { 'content-type': 'application/json', 'user-agent': CHROME, origin: 'https://stats.example' },
      payload: JSON.stringify({ n: 'pageview', u: 'https://stats.example/pricing', d: 'stats.example', i: id }),
    });
    assert.equal(sent.statusCode, 202);
    assert.equal(sent.headers['x-event-dropped'], undefined);

    const res = await me.get(`/app/websites/${id}/stats`);
    assert.equal(res.statusCode, 200);
    assert.match(res.body, /<h1>Stats of stats\.example<\/h1>/);
    assertAccessible(res.body, 'stats with traffic');
    assert.match(res.body, /<dt>Pageviews<\/dt><dd>1<\/dd>/);
    assert.match(res.body, /<dt>Visitors<\/dt><dd>1<\/dd>/);
    assert.match(res.body, /\/pricing/);
    assert.match(res.body, /IP Geolocation by DB-IP/, 'the credit where countries appear');
    assert.match(res.body, new RegExp(`<form class="range-form" method="get" action="/app/websites/${id}/stats">`));
    assert.match(res.body, /id="range-from" name="from" value="2026-02-09"/);
    assert.match(res.body, /id="range-to" name="to" value="2026-03-10"/);
    assert.match(res.body, /<svg/);

    const earlierDays = await me.get(`/app/websites/${id}/stats?from=2026-03-01&to=2026-03-09`);
    assert.equal(earlierDays.statusCode, 200);
    assert.match(earlierDays.body, /id="range-from" name="from" value="2026-03-01"/);
    assert.match(earlierDays.body, /id="range-to" name="to" value="2026-03-09"/);
    assert.match(earlierDays.body, /<dt>Pageviews<\/dt><dd>0<\/dd>/);
    assert.match(earlierDays.body, /No visits recorded in this range/);

    const bad = await me.get(`/app/websites/${id}/stats?from=2026-03-10&to=2026-03-01`);
    assert.equal(bad.statusCode, 200);
    assert.match(bad.body, /could not be shown/);
    assert.match(bad.body, /<dt>Pageviews<\/dt><dd>1<\/dd>/);
  });

  test('the stats page shows custom properties: the most used one’s values, another chosen with a GET form', async () => {
    const id = await addWebsite(me, { domain: 'props.example' });
    const send = async (body: Record<string, unknown>) => {
      const sent = await t.app.inject({
        method: 'POST',
        url: '/api/event',
        headers: { 'content-type': 'text/plain', 'user-agent': CHROME },
        // As plausible-tracker sends it: `w` is the window width, props a JSON string.
        payload: JSON.stringify({ u: 'https://props.example/', d: 'props.example', w: 1280, ...body }),
      });
      assert.equal(sent.statusCode, 202);
      assert.equal(sent.headers['x-event-dropped'], undefined);
    };
    await send({ n: 'pageview', p: JSON.stringify({ plan: 'pro', theme: 'dark' }) });
    await send({ n: 'Signup', p: JSON.stringify({ plan: 'pro' }) });
    await send({ n: 'Signup', p: JSON.stringify({ plan: 'team' }) });

    const res = await me.get(`/app/websites/${id}/stats`);
    assert.equal(res.statusCode, 200);
    assertAccessible(res.body, 'stats with custom properties');
    assert.match(res.body, /<h2 id="top-props-heading">Custom properties<\/h2>/);
    assert.match(res.body, new RegExp(`<form class="prop-form" method="get" action="/app/websites/${id}/stats">`));
    assert.match(res.body, /<label for="prop-key">Property<\/label><select id="prop-key" name="prop">/);
    assert.match(res.body, /<option value="plan" selected>plan<\/option><option value="theme">theme<\/option>/);
    assert.match(res.body, /<tr><td>pro<\/td><td class="num">2<\/td><\/tr><tr><td>team<\/td><td class="num">1<\/td><\/tr>/);

    const theme = await me.get(`/app/websites/${id}/stats?from=2026-03-01&to=2026-03-10&prop=theme`);
    assert.equal(theme.statusCode, 200);
    assertAccessible(theme.body, 'stats with another custom property');
    assert.match(theme.body, /<option value="theme" selected>theme<\/option>/);
    assert.match(theme.body, /<tr><td>dark<\/td><td class="num">1<\/td><\/tr>/);
    assert.match(theme.body, /<input type="hidden" name="prop" value="theme">/, 'the range form keeps the property');
  });

  test('delete: 303 to the list with a notice, and the API no longer has it', async () => {
    const id = await addWebsite(me, { domain: 'delete.example' });
    await me.get(`/app/websites/${id}`);
    const res = await me.post(`/app/websites/${id}/delete`);
    assert.equal(res.statusCode, 303);
    assert.equal(res.headers.location, '/app/websites');
    assert.equal((await apiWebsite(me, id)).statusCode, 404);
    const list = await me.get('/app/websites');
    assert.match(list.body, /Website delete\.example deleted\./);
    assert.equal((await me.get(`/app/websites/${id}`)).statusCode, 404);
  });

  test('another account’s website answers the dashboard 404 on every page and form, and nothing changes', async () => {
    const id = await addWebsite(me, { domain: 'mine.example' });
    const earlier = (await apiWebsite(me, id)).json().data;
    await other.get('/app/websites');
    for (const path of [`/app/websites/${id}`, `/app/websites/${id}/stats`, '/app/websites/999999', '/app/websites/abc']) {
      const res = await other.get(path);
      assert.equal(res.statusCode, 404, path);
      assert.match(res.body, /<h1 id="page-title">Not found<\/h1>/);
    }
    const edit = await other.post(`/app/websites/${id}`, { privacy: '0', exclude_bots: '0', exclude_ips: '', email: '1' });
    assert.equal(edit.statusCode, 404);
    const del = await other.post(`/app/websites/${id}/delete`);
    assert.equal(del.statusCode, 404);
    assert.deepEqual((await apiWebsite(me, id)).json().data, earlier);
    const pages = [
      `/app/websites/${id}`,
      `/app/websites/${id}/stats`,
      '/app/websites',
      '/app/websites/new',
      '/app/websites?search=zzz',
    ];
    for (const path of pages) {
      const page = await me.get(path);
      assert.equal(page.statusCode, 200, path);
      assertAccessible(page.body, path);
      assert.match(page.body, /<title>[^<]+ · Rankscope<\/title>/);
    }
    await me.get('/app/websites/new');
    const refused = await me.post('/app/websites', { domain: '', privacy: '2', email: '0', exclude_bots: '1', exclude_ips: 'x' });
    assert.equal(refused.statusCode, 422);
    assertAccessible(refused.body, 'a refused form');
    const list = await other.get('/app/websites');
    assert.doesNotMatch(list.body, /mine\.example/);
  });

  test('the list searches and pages through the API', async () => {
    const client = await signedInClient(t);
    for (let i = 1; i <= 27; i++) await addWebsite(client, { domain: `site${String(i).padStart(2, '0')}.example` });
    const first = await client.get('/app/websites');
    assert.equal(first.statusCode, 200);
    assert.match(first.body, /Page 1 of 2 \(27 websites\)/);
    assert.match(first.body, /href="\/app\/websites\?page=2" rel="next"/);
    const second = await client.get('/app/websites?page=2');
    assert.match(second.body, /site02\.example/);
    assert.match(second.body, /site01\.example/);
    const search = await client.get('/app/websites?search=site1');
    assert.match(search.body, /site15\.example/);
    assert.doesNotMatch(search.body, /site25\.example/);
    const none = await client.get('/app/websites?search=zzz');
    assert.match(none.body, /No website’s domain contains “zzz”/);
  });
});
