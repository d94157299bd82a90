// POST /api/event (docs/analytics.md): answers, drop reasons, what is stored and what is not.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { loadConfig } from '../../src/config.js';
import { fixedClock } from '../../src/time.js';
import { type TestApp, testApp } from '../helpers/app.js';

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';

describe('event collection', () => {
  let t: TestApp;
  let key: string;
  let websiteId: number;
  const clock = fixedClock(Date.parse('2026-03-10T09:15:00Z'));

  // One proxy in front: the client address is the right-most X-Forwarded-For entry.
  const send = (body: unknown, { ua = CHROME, ip = '8.8.8.8', type = 'application/json' } = {}) =>
    t.app.inject({
      method: 'POST',
      url: '/api/event',
      headers: { 'content-type': type, 'user-agent': ua, 'x-forwarded-for': ip },
      payload: typeof body === 'string' ? body : JSON.stringify(body),
    });
  const events = () =>
    t.db.handle.db.selectFrom('analytics_events').selectAll().where('website_id', '=', websiteId).orderBy('id').execute();

  before(async () => {
    t = await testApp({ TRUST_PROXY: '1' }, { clock });
    ({ key } = await t.account());
    const created = await t.call(key, {
      method: 'POST',
      url: '/api/v1/websites',
      form: { domain: 'www.example.com', exclude_ips: '203.0.113.0/24\n2001:db8::1', exclude_params: 'session\nfbclid' },
    });
    assert.equal(created.statusCode, 201, created.body);
    websiteId = created.json().data.id;
  });
  after(() => t.close());

  test('a pageview is stored with what docs/analytics.md says is kept, and nothing else', async () => {
    const res = await send({
      n: 'pageview',
      u: 'https://example.com/pricing?plan=pro&session=abc&utm_source=newsletter&utm_campaign=spring&utm_medium=email#top',
      i: websiteId,
      r: 'https://news.ycombinator.com/item?id=1',
      sw: 1920,
      sh: 1080,
      l: 'en-us',
    });
    assert.equal(res.statusCode, 202);
    assert.equal(res.body, 'ok');
    assert.equal(res.headers['x-event-dropped'], undefined);
    assert.equal(res.headers['access-control-allow-origin'], '*');
    const [row] = await events();
    assert.equal(row.name, 'pageview');
    assert.equal(row.page, '/pricing?plan=pro', 'exclude_params, utm_* and the fragment removed');
    assert.equal(row.source, 'newsletter');
    assert.equal(row.campaign, 'spring');
    assert.equal(row.referrer, 'news.ycombinator.com');
    assert.equal(row.browser, 'Chrome');
    assert.equal(row.os, 'Windows');
    assert.equal(row.device, 'desktop');
    assert.equal(row.country, 'US');
    assert.equal(row.continent, 'NA');
    assert.equal(row.city, null, 'no city database configured');
    assert.equal(row.language, 'en-US');
    assert.equal(row.resolution, '1920x1080');
    assert.equal(row.created_at, '2026-03-10T09:15:00.000000Z');
    const stored = JSON.stringify(await t.db.handle.db.selectFrom('analytics_events').selectAll().execute());
    assert.ok(!stored.includes('8.8.8.8') && !stored.includes('Mozilla'), 'no address, no User-Agent');
    const visitors = JSON.stringify(await t.db.handle.db.selectFrom('analytics_visitors').selectAll().execute());
    assert.ok(!visitors.includes('8.8.8.8'));
    assert.ok(!t.logs.some((line) => line.includes('8.8.8.8')), 'no log line keeps the visitor’s address');
  });

  test('sendBeacon form: text/plain JSON with a domain instead of an id, ref as source', async () => {
    const before = (await events()).length;
    const res = await send(
      { name: 'pageview', url: 'https://blog.example.com/post?ref=producthunt', domain: 'www.example.com' },
      { type: 'text/plain;charset=UTF-8', ua: IPHONE },
    );
    assert.equal(res.statusCode, 202);
    const rows = await events();
    assert.equal(rows.length, before + 1);
    const row = rows.at(-1)!;
    assert.equal(row.page, '/post');
    assert.equal(row.source, 'producthunt');
    assert.equal(row.device, 'mobile');
    assert.equal(row.os, 'iOS');
  });

  test('a referrer from the site itself is not a referrer; a custom event keeps its props', async () => {
    const res = await send({
      n: 'Signup',
      u: 'https://example.com/',
      i: websiteId,
      r: 'https://www.example.com/pricing',
      p: { plan: 'pro', seats: 3 },
    });
    assert.equal(res.statusCode, 202);
    const row = (await events()).at(-1)!;
    assert.equal(row.name, 'Signup');
    assert.equal(row.referrer, null);
    assert.equal(row.source, null);
    assert.deepEqual(JSON.parse(row.props!), { plan: 'pro', seats: 3 });
  });

  const dropped = async (reason: string, body: unknown, options?: Parameters<typeof send>[1]) => {
    const count = (await events()).length;
    const res = await send(body, options);
    assert.equal(res.statusCode, 202, res.body);
    assert.equal(res.body, 'ok');
    assert.equal(res.headers['x-event-dropped'], reason);
    assert.equal((await events()).length, count, 'nothing stored');
  };

  test('dropped: no such website, by id or by domain', async () => {
    await dropped('website', { n: 'pageview', u: 'https://example.com/', i: 999_999 });
    await dropped('website', { n: 'pageview', u: 'https://example.com/', d: 'unknown.example' });
    await dropped('website', { n: 'pageview', u: 'https://example.com/' });
  });

  test('dropped as `website` too: a page not on the website’s domain, so no answer tells whether an id exists', async () => {
    await dropped('website', { n: 'pageview', u: 'https://evil.com/', i: websiteId });
    await dropped('website', { n: 'pageview', u: 'https://notexample.com/', i: websiteId });
    // The same answer as for an id that names no website.
    const unknown = await send({ n: 'pageview', u: 'https://evil.com/', i: 999_999 });
    const known = await send({ n: 'pageview', u: 'https://evil.com/', i: websiteId });
    assert.deepEqual([unknown.statusCode, unknown.body, unknown.headers['x-event-dropped']], [202, 'ok', 'website']);
    assert.deepEqual([known.statusCode, known.body, known.headers['x-event-dropped']], [202, 'ok', 'website']);
    for (const u of ['https://EXAMPLE.com:8443/', 'https://shop.example.com/']) {
      const res = await send({ n: 'pageview', u, i: websiteId });
      assert.equal(res.headers['x-event-dropped'], undefined, u);
    }
  });

  test('dropped: bots, headless browsers and an empty User-Agent while exclude_bots = 1', async () => {
    await dropped(
      'bot',
      { n: 'pageview', u: 'https://example.com/', i: websiteId },
      { ua: 'Googlebot/2.1 (+http://www.google.com/bot.html)' },
    );
    await dropped(
      'bot',
      { n: 'pageview', u: 'https://example.com/', i: websiteId },
      { ua: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/124.0.0.0 Safari/537.36' },
    );
    await dropped('bot', { n: 'pageview', u: 'https://example.com/', i: websiteId }, { ua: '' });
  });

  test('dropped: an excluded address (CIDR or exact, v4 or v6)', async () => {
    await dropped('ip', { n: 'pageview', u: 'https://example.com/', i: websiteId }, { ip: '203.0.113.77' });
    await dropped('ip', { n: 'pageview', u: 'https://example.com/', i: websiteId }, { ip: '2001:db8::1' });
    const res = await send({ n: 'pageview', u: 'https://example.com/', i: websiteId }, { ip: '203.0.114.1' });
    assert.equal(res.headers['x-event-dropped'], undefined);
  });

  test('bots count once exclude_bots = 0', async () => {
    const res = await t.call(key, { method: 'PATCH', url: `/api/v1/websites/${websiteId}`, form: { exclude_bots: '0' } });
    assert.equal(res.statusCode, 200, res.body);
    const count = (await events()).length;
    const sent = await send({ n: 'pageview', u: 'https://example.com/', i: websiteId }, { ua: 'HeadlessChrome/124' });
    assert.equal(sent.headers['x-event-dropped'], undefined);
    assert.equal((await events()).length, count + 1);
    await t.call(key, { method: 'PATCH', url: `/api/v1/websites/${websiteId}`, form: { exclude_bots: '1' } });
  });

  test('400 for a malformed event, naming the field, and nothing stored', async () => {
    const count = (await events()).length;
    const cases: [unknown, string][] = [
      ['{not json', 'body'],
      ['[1,2]', 'body'],
      [{ u: 'https://example.com/', i: websiteId }, 'name'],
      [{ n: 'pageview', i: websiteId }, 'url'],
      [{ n: 'pageview', u: 'ftp://example.com/', i: websiteId }, 'url'],
      [{ n: 'pageview', u: '/relative', i: websiteId }, 'url'],
      [{ n: 'x'.repeat(121), u: 'https://example.com/', i: websiteId }, 'name'],
      [{ n: 'pageview', u: `https://example.com/${'a'.repeat(2048)}`, i: websiteId }, 'url'],
      [
        {
          n: 'e',
          u: 'https://example.com/',
          i: websiteId,
          p: Object.fromEntries(Array.from({ length: 31 }, (_, i) => [`k${i}`, i])),
        },
        'props',
      ],
      [{ n: 'e', u: 'https://example.com/', i: websiteId, p: '{"plan":' }, 'props'],
      [{ n: 'e', u: 'https://example.com/', i: websiteId, p: '["pro"]' }, 'props'],
      [{ n: 'pageview', u: 'https://example.com/', i: 'abc' }, 'website'],
      [{ n: 'pageview', u: 'https://example.com/', i: websiteId, sw: -5 }, 'screen_width'],
    ];
    for (const [body, field] of cases) {
      const res = await send(body);
      assert.equal(res.statusCode, 400, `${JSON.stringify(body).slice(0, 80)}: ${res.body}`);
      const json = res.json();
      assert.equal(json.status, 400);
      assert.equal(typeof json.message, 'string');
      assert.ok(json.errors[field], `${field} in ${res.body}`);
      assert.equal(res.headers['access-control-allow-origin'], '*');
    }
    assert.equal((await events()).length, count);
  });

  test('413 over 8 KB, 415 for another content type, CORS preflight', async () => {
    const big = await send({ n: 'pageview', u: 'https://example.com/', i: websiteId, r: `https://a.com/${'x'.repeat(9000)}` });
    assert.equal(big.statusCode, 413);
    assert.equal(big.json().status, 413);
    // Another type is refused naming the types to send instead, in the usual error shape.
    for (const type of ['application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'text/html']) {
      const refused = await send('n=pageview', { type });
      assert.equal(refused.statusCode, 415, type);
      assert.deepEqual(refused.json(), {
        message: 'Unsupported media type: send the event as application/json or text/plain.',
        status: 415,
      });
      assert.equal(refused.headers['access-control-allow-origin'], '*');
    }
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/event',
      headers: {
        origin: 'https://example.com',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    assert.equal(preflight.statusCode, 204);
    assert.equal(preflight.headers['access-control-allow-origin'], '*');
    assert.match(String(preflight.headers['access-control-allow-methods']), /POST/);
    assert.match(String(preflight.headers['access-control-allow-headers']), /content-type/i);
    assert.equal(preflight.headers['access-control-max-age'], '86400');
    // An event's own answer: readable from any origin, with the drop reason exposed; the
    // preflight-only headers (ignored on it by browsers) are left off.
    const stored = await send({ n: 'pageview', u: 'https://example.com/cors', i: websiteId });
    assert.equal(stored.statusCode, 202);
    assert.equal(stored.headers['access-control-allow-origin'], '*');
    assert.equal(stored.headers['access-control-expose-headers'], 'X-Event-Dropped');
    assert.equal(stored.headers['access-control-allow-methods'], undefined);
    assert.equal(stored.headers['access-control-max-age'], undefined);
  });

  test('a domain several accounts registered: the website created first gets the domain-only events', async () => {
    const domain = 'shared.example';
    const first = await t.call(key, { method: 'POST', url: '/api/v1/websites', form: { domain } });
    assert.equal(first.statusCode, 201, first.body);
    const other = await t.account();
    const second = await t.call(other.key, { method: 'POST', url: '/api/v1/websites', form: { domain } });
    assert.equal(second.statusCode, 201, second.body);
    const firstId: number = first.json().data.id;
    const secondId: number = second.json().data.id;
    assert.ok(firstId < secondId);

    const res = await send({ n: 'pageview', u: 'https://shared.example/', d: domain });
    assert.equal(res.statusCode, 202);
    assert.equal(res.headers['x-event-dropped'], undefined, 'stored, not dropped as ambiguous');
    const stored = async (id: number) =>
      (await t.db.handle.db.selectFrom('analytics_events').select('id').where('website_id', '=', id).execute()).length;
    assert.equal(await stored(firstId), 1);
    assert.equal(await stored(secondId), 0);
    // The second account still gets its own events by id.
    const byId = await send({ n: 'pageview', u: 'https://shared.example/', i: secondId });
    assert.equal(byId.headers['x-event-dropped'], undefined);
    assert.equal(await stored(secondId), 1);
  });

  test('deleting the website deletes its events and stats', async () => {
    assert.ok((await events()).length > 0);
    const res = await t.call(key, { method: 'DELETE', url: `/api/v1/websites/${websiteId}` });
    assert.equal(res.statusCode, 200);
    assert.equal((await events()).length, 0);
    const rollups = await t.db.handle.db
      .selectFrom('analytics_rollups')
      .selectAll()
      .where('website_id', '=', websiteId)
      .execute();
    assert.equal(rollups.length, 0);
  });
});

const post = (t: TestApp, ip: string, body: Record<string, unknown>) =>
  t.app.inject({
    method: 'POST',
    url: '/api/event',
    headers: { 'content-type': 'application/json', 'user-agent': CHROME, 'x-forwarded-for': ip },
    payload: JSON.stringify(body),
  });

describe('event abuse limit', () => {
  test('past EVENT_RATE_LIMIT events a second from one address: 429; another address goes on', async () => {
    const t = await testApp({ EVENT_RATE_LIMIT: '5', TRUST_PROXY: '1' });
    try {
      const post = (ip: string) =>
        t.app.inject({
          method: 'POST',
          url: '/api/event',
          headers: { 'content-type': 'application/json', 'user-agent': CHROME, 'x-forwarded-for': ip },
          payload: JSON.stringify({ n: 'pageview', u: 'https://example.com/', d: 'example.com' }),
        });
      // Sent together, so they fall in one or (at a window's edge) two one-second windows.
      const codes = (await Promise.all(Array.from({ length: 15 }, () => post('1.2.3.4')))).map((r) => r.statusCode);
      const accepted = codes.filter((c) => c === 202).length;
      assert.ok(accepted >= 5 && accepted <= 10, `${accepted} accepted`);
      assert.equal(codes.filter((c) => c === 429).length, 15 - accepted);
      assert.equal((await post('1.2.3.5')).statusCode, 202);
    } finally {
      await t.close();
    }
  });

  test('an IPv6 client counts by its /64, an IPv4-mapped address as its IPv4 address', async () => {
    const t = await testApp({ EVENT_RATE_LIMIT: '5', TRUST_PROXY: '1' });
    try {
      const body = { n: 'pageview', u: 'https://example.com/', d: 'example.com' };
      // Fifteen addresses of one /64, sent together: one or two windows' worth are accepted.
      const codes = (
        await Promise.all(Array.from({ length: 15 }, (_, i) => post(t, `2001:db8:1:2:${i.toString(16)}::${i + 1}`, body)))
      ).map((r) => r.statusCode);
      const accepted = codes.filter((c) => c === 202).length;
      assert.ok(accepted >= 5 && accepted <= 10, `${accepted} accepted`);
      assert.equal(codes.filter((c) => c === 429).length, 15 - accepted);
      assert.equal((await post(t, '2001:db8:1:3::1', body)).statusCode, 202, 'the next /64 is another client');

      const mapped = (
        await Promise.all(
          Array.from({ length: 12 }, (_, i) => post(t, i % 2 === 0 ? '198.51.100.7' : '::ffff:198.51.100.7', body)),
        )
      ).map((r) => r.statusCode);
      const mappedAccepted = mapped.filter((c) => c === 202).length;
      assert.ok(mappedAccepted >= 5 && mappedAccepted <= 10, `${mappedAccepted} accepted`);
    } finally {
      await t.close();
    }
  });
});

describe('events per website', () => {
  test('past EVENT_WEBSITE_LIMIT events a second for one website: 429 with Retry-After; other websites go on; 0 is no limit', async () => {
    const t = await testApp({ EVENT_WEBSITE_LIMIT: '5', EVENT_RATE_LIMIT: '0', TRUST_PROXY: '1' });
    try {
      const { key } = await t.account();
      const site = async (domain: string) => {
        const res = await t.call(key, { method: 'POST', url: '/api/v1/websites', form: { domain } });
        assert.equal(res.statusCode, 201, res.body);
        return res.json().data.id as number;
      };
      const busy = await site('busy.example');
      const quiet = await site('quiet.example');
      // From fifteen addresses: the per-address limit is not what stops them.
      const answers = await Promise.all(
        Array.from({ length: 15 }, (_, i) =>
          post(t, `203.0.113.${i + 1}`, { n: 'pageview', u: 'https://busy.example/', i: busy }),
        ),
      );
      const accepted = answers.filter((r) => r.statusCode === 202).length;
      assert.ok(accepted >= 5 && accepted <= 10, `${accepted} accepted`);
      const limited = answers.filter((r) => r.statusCode === 429);
      assert.equal(limited.length, 15 - accepted);
      for (const res of limited) {
        assert.deepEqual(res.json(), { message: 'Too Many Attempts.', status: 429 });
        assert.match(String(res.headers['retry-after']), /^[1-9]\d*$/);
      }
      const stored = await t.db.handle.db.selectFrom('analytics_events').select('id').where('website_id', '=', busy).execute();
      assert.equal(stored.length, accepted, 'a refused event is not stored');
      const other = await post(t, '203.0.113.99', { n: 'pageview', u: 'https://quiet.example/', i: quiet });
      assert.equal(other.statusCode, 202);
      assert.equal(other.headers['x-event-dropped'], undefined);
    } finally {
      await t.close();
    }

    // EVENT_WEBSITE_LIMIT=0: no limit per website.
    const open = await testApp({ EVENT_WEBSITE_LIMIT: '0', EVENT_RATE_LIMIT: '0', TRUST_PROXY: '1' });
    try {
      const { key } = await open.account();
      const created = await open.call(key, { method: 'POST', url: '/api/v1/websites', form: { domain: 'open.example' } });
      const id = created.json().data.id as number;
      const answers = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          post(open, `203.0.113.${i + 1}`, { n: 'pageview', u: 'https://open.example/', i: id }),
        ),
      );
      assert.deepEqual(
        answers.map((r) => r.statusCode),
        Array(40).fill(202),
      );
    } finally {
      await open.close();
    }
  });

  test('EVENT_WEBSITE_LIMIT must be a whole number: the start is refused naming it', () => {
    for (const bad of ['-1', 'many', '2.5']) {
      assert.throws(() => loadConfig({ EVENT_WEBSITE_LIMIT: bad }), /EVENT_WEBSITE_LIMIT must be/, bad);
    }
    assert.equal(loadConfig({}).analytics.eventsPerWebsite, 1000);
  });
});
