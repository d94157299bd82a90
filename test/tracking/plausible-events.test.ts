// POST /api/event read as Plausible's trackers send it (plausible-tracker, @plausible-analytics/tracker,
// Plausible's script tag, its Events API): `w` is the window width and `i` the website id, props
// come as an object or a JSON string (`p`, or the older `m`), a value that is neither a string, a
// number nor a boolean is dropped alone, `h` keeps the fragment, `$`/`revenue` are accepted and
// not stored, and a comma-separated `d` stores the event for each listed domain with a website.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { fixedClock } from '../../src/time.js';
import { type TestApp, testApp } from '../helpers/app.js';

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';

describe('events as Plausible’s trackers send them', () => {
  let t: TestApp;
  let key: string;
  /** plausible.example; another website the `w` of a Plausible body could be mistaken for. */
  let site: number;
  let other: number;
  const clock = fixedClock(Date.parse('2026-05-04T10:00:00Z'));

  const send = (body: unknown, type = 'text/plain') =>
    t.app.inject({
      method: 'POST',
      url: '/api/event',
      headers: { 'content-type': type, 'user-agent': CHROME, 'x-forwarded-for': '8.8.8.8' },
      payload: typeof body === 'string' ? body : JSON.stringify(body),
    });
  /** Sends `body`, expects it stored, and returns the row it added to `website`'s events. */
  const stored = async (body: Record<string, unknown>, website = site) => {
    const before = await rows(website);
    const res = await send(body);
    assert.equal(res.statusCode, 202, res.body);
    assert.equal(res.headers['x-event-dropped'], undefined, `stored: ${JSON.stringify(body)}`);
    const after = await rows(website);
    assert.equal(after.length, before.length + 1, 'one row');
    return after.at(-1)!;
  };
  const rows = (website: number) =>
    t.db.handle.db.selectFrom('analytics_events').selectAll().where('website_id', '=', website).orderBy('id').execute();
  const createWebsite = async (domain: string) => {
    const res = await t.call(key, { method: 'POST', url: '/api/v1/websites', form: { domain } });
    assert.equal(res.statusCode, 201, res.body);
    return res.json().data.id as number;
  };
  const propsOf = (row: { props: string | null }) => (row.props === null ? null : JSON.parse(row.props));

  before(async () => {
    t = await testApp({ TRUST_PROXY: '1' }, { clock });
    ({ key } = await t.account());
    other = await createWebsite('other.example');
    site = await createWebsite('plausible.example');
  });

  test('`w` is the screen (window) width, never a website id', async () => {
    // plausible-tracker's pageview: `w` = window.innerWidth, here the other website's id.
    const row = await stored({ n: 'pageview', u: 'https://plausible.example/', d: 'plausible.example', r: null, w: other, h: 0 });
    assert.equal(row.page, '/');
    assert.equal((await rows(other)).length, 0, 'nothing for the website whose id `w` happens to be');
    // With a height, `w` makes the resolution; `sw` (Rankscope's key) wins over it.
    assert.equal(
      (await stored({ n: 'pageview', u: 'https://plausible.example/', d: 'plausible.example', w: 1280, sh: 800 })).resolution,
      '1280x800',
    );
    const both = { n: 'pageview', u: 'https://plausible.example/', d: 'plausible.example', w: 1280, sw: 1920, sh: 1080 };
    assert.equal((await stored(both)).resolution, '1920x1080');
    // A width of 0 (a hidden frame) is unknown, not a malformed event.
    assert.equal(
      (await stored({ n: 'pageview', u: 'https://plausible.example/', d: 'plausible.example', w: 0 })).resolution,
      null,
    );
  });

  test('`i` is the website id, a number or a numeric string; a boolean `i` is the interactive flag', async () => {
    await stored({ n: 'pageview', u: 'https://plausible.example/by-number', i: site });
    await stored({ n: 'pageview', u: 'https://plausible.example/by-string', i: String(site) });
    // @plausible-analytics/tracker's non-interactive event: `i: false`, the website by its domain.
    const row = await stored({ n: 'Scrolled', u: 'https://plausible.example/', d: 'plausible.example', i: false, v: 36 });
    assert.equal(row.name, 'Scrolled');
    const bad = await send({ n: 'pageview', u: 'https://plausible.example/', i: 'seven' });
    assert.equal(bad.statusCode, 400);
    assert.ok(bad.json().errors.website, bad.body);
  });

  test('booleans are kept as true/false', async () => {
    const row = await stored({
      n: 'Signup',
      u: 'https://plausible.example/',
      website: site,
      p: { member: true, trial: false, plan: 'pro' },
    });
    assert.deepEqual(propsOf(row), { member: 'true', trial: 'false', plan: 'pro' });
  });

  test('a value that is an object, a list or null is dropped alone, never the event', async () => {
    const row = await stored({
      n: 'Signup',
      u: 'https://plausible.example/',
      website: site,
      props: { plan: 'pro', seats: 3, nested: { a: 1 }, list: ['x'], none: null, empty: '' },
    });
    assert.deepEqual(propsOf(row), { plan: 'pro', seats: 3 });
    // Nothing left: no props, the event still stored.
    assert.equal(
      propsOf(await stored({ n: 'Signup', u: 'https://plausible.example/', website: site, p: { nested: { a: 1 } } })),
      null,
    );
    // A long string is cut, not refused (an outbound link's URL).
    const long = await stored({
      n: 'Outbound Link: Click',
      u: 'https://plausible.example/',
      website: site,
      p: { url: `https://x.example/${'a'.repeat(600)}` },
    });
    assert.equal(propsOf(long).url.length, 512);
  });

  test('props as a JSON string (`p`, and `m` of the older script)', async () => {
    // What plausible-tracker sends: the props JSON-encoded inside the JSON body.
    const asString = await stored({
      n: 'Download',
      u: 'https://plausible.example/',
      website: site,
      p: JSON.stringify({ file: 'guide.pdf', pages: 12, logged_in: false, meta: { a: 1 } }),
    });
    assert.deepEqual(propsOf(asString), { file: 'guide.pdf', pages: 12, logged_in: 'false' });
    const meta = await stored({
      n: 'Download',
      u: 'https://plausible.example/',
      d: 'plausible.example',
      m: '{"file":"old.pdf"}',
    });
    assert.deepEqual(propsOf(meta), { file: 'old.pdf' });
    // `p` comes before `m`.
    const both = await stored({
      n: 'Download',
      u: 'https://plausible.example/',
      website: site,
      p: { file: 'p.pdf' },
      m: '{"file":"m.pdf"}',
    });
    assert.deepEqual(propsOf(both), { file: 'p.pdf' });
    for (const p of ['{"file":', '["a"]', '42']) {
      const res = await send({ n: 'Download', u: 'https://plausible.example/', website: site, p });
      assert.equal(res.statusCode, 400, p);
      assert.deepEqual(res.json().errors.props, ['The props must be an object or a JSON string of one.']);
    }
  });

  test('`h`: with hash routing the fragment is part of the page', async () => {
    const url = 'https://plausible.example/app?tab=1#/settings/billing';
    assert.equal((await stored({ n: 'pageview', u: url, d: 'plausible.example', h: 1 })).page, '/app?tab=1#/settings/billing');
    assert.equal((await stored({ n: 'pageview', u: url, d: 'plausible.example', h: true })).page, '/app?tab=1#/settings/billing');
    assert.equal((await stored({ n: 'pageview', u: url, d: 'plausible.example', h: 0 })).page, '/app?tab=1');
    assert.equal((await stored({ n: 'pageview', u: url, d: 'plausible.example' })).page, '/app?tab=1');
    assert.equal((await stored({ n: 'pageview', u: 'https://plausible.example/#', d: 'plausible.example', h: 1 })).page, '/');
  });

  test('`$`/`revenue`: Plausible’s revenue event is stored, its revenue is not', async () => {
    // The script tag's revenue goal: `w`, props as a JSON string, `$` with amount and currency.
    const row = await stored({
      n: 'Purchase',
      u: 'https://plausible.example/checkout',
      d: 'plausible.example',
      r: null,
      w: 1440,
      p: '{"plan":"team"}',
      $: { amount: '49.90', currency: 'EUR' },
    });
    assert.deepEqual(propsOf(row), { plan: 'team' });
    assert.ok(!JSON.stringify(row).includes('49.90') && !JSON.stringify(row).includes('EUR'), 'no revenue stored');
    const long = await stored({
      n: 'Purchase',
      u: 'https://plausible.example/',
      website: site,
      revenue: { amount: 5, currency: 'USD' },
    });
    assert.equal(long.props, null);
    // Any shape: accepted and ignored.
    await stored({ n: 'Purchase', u: 'https://plausible.example/', website: site, $: 'free' });
  });

  test('`engagement` pings (time on page, scroll depth) are no events: answered, not stored', async () => {
    const before = await rows(site);
    const res = await send({ n: 'engagement', u: 'https://plausible.example/', d: 'plausible.example', sd: 80, e: 4200, v: 36 });
    assert.equal(res.statusCode, 202);
    assert.equal(res.body, 'ok');
    assert.equal(res.headers['x-event-dropped'], 'engagement');
    assert.equal((await rows(site)).length, before.length);
  });

  test('a comma-separated `d` stores the event once for each listed domain that has a website', async () => {
    // Plausible's rollups: a blog counted on its own and in the site-wide website.
    const blog = await createWebsite('blog.rollup.example');
    const rollup = await createWebsite('rollup.example');
    const unrelated = await createWebsite('unrelated.example');
    const res = await send({
      n: 'pageview',
      u: 'https://blog.rollup.example/post',
      d: 'blog.rollup.example, ROLLUP.example,no-website.example,rollup.example,unrelated.example',
    });
    assert.equal(res.statusCode, 202);
    assert.equal(res.headers['x-event-dropped'], undefined);
    assert.deepEqual(
      (await rows(blog)).map((r) => r.page),
      ['/post'],
    );
    assert.deepEqual(
      (await rows(rollup)).map((r) => r.page),
      ['/post'],
      'once, however often listed',
    );
    assert.equal((await rows(unrelated)).length, 0, 'the page is not on that website’s domain');
    // Each website counts it in its own stats, under its own visitor.
    for (const id of [blog, rollup]) {
      const stats = await t.call(key, { method: 'GET', url: `/api/v1/stats/${id}?name=page&from=2026-05-04&to=2026-05-04` });
      assert.deepEqual(stats.json().data, [{ value: '/post', count: 1 }]);
    }
    // None of the listed domains has a website (or is the page's): dropped as `website`.
    const none = await send({ n: 'pageview', u: 'https://blog.rollup.example/', d: 'a.example,b.example' });
    assert.equal(none.headers['x-event-dropped'], 'website');
    const elsewhere = await send({ n: 'pageview', u: 'https://elsewhere.example/', d: 'unrelated.example,rollup.example' });
    assert.equal(elsewhere.headers['x-event-dropped'], 'website');
  });

  test('Rankscope’s own tracker: `i`; a copy cached from before (`w` as a string beside `sw`) still counts', async () => {
    await stored({ n: 'pageview', u: 'https://plausible.example/new', i: String(site), d: null, sw: 1440, sh: 900, l: 'en-GB' });
    const cached = await stored({
      n: 'pageview',
      u: 'https://plausible.example/cached',
      w: String(site),
      d: null,
      sw: null,
      sh: null,
    });
    assert.equal(cached.page, '/cached');
    assert.equal(cached.resolution, null, 'the old `w` is no width');
  });
});
