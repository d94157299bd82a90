// GET /api/v1/stats/{website} (docs/api.md#stats), fed only through POST /api/event with the clock
// moved between events. Every expected row below is counted by hand from the events sent.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fixedClock } from '../../src/time.js';
import { type TestApp, testApp } from '../helpers/app.js';
import { writeCityDatabase } from '../helpers/mmdb.js';

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
const FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:125.0) Gecko/20100101 Firefox/125.0';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const IPAD =
  'Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';

interface Visitor {
  ip: string;
  ua: string;
}
// Countries from the bundled country database; cities from the test's own city database.
const A: Visitor = { ip: '8.8.8.8', ua: CHROME }; // US, NA; no city in the test database → Unknown
const B: Visitor = { ip: '81.2.69.142', ua: FIREFOX }; // GB, EU, London
const C: Visitor = { ip: '85.214.132.117', ua: IPHONE }; // DE, EU, München
const D: Visitor = { ip: '203.0.113.9', ua: IPAD }; // a documentation address: Unknown everywhere

type Row = [string, number];
type Event = [at: string, who: Visitor, body: Record<string, unknown>];

const pv = (path: string, extra: Record<string, unknown> = {}) => ({ n: 'pageview', u: `https://example.com${path}`, ...extra });
const custom = (name: string, path = '/') => ({ n: name, u: `https://example.com${path}` });
const A_SCREEN = { sw: 1920, sh: 1080, l: 'en-US' };
const B_SCREEN = { sw: 1366, sh: 768, l: 'en-GB' };

/**
 * The main website's events. Range 2026-11-01..03 holds: A on the 1st (3 pageviews in two
 * visits, 2 Signup events) and the 3rd, B on the 1st (2 pageviews, one visit), C on the 2nd
 * (1 pageview, 2 events), D on the 3rd. The first and the last event fall just outside.
 */
const MAIN: Event[] = [
  ['2026-10-31T23:59:59Z', A, pv('/', A_SCREEN)],
  ['2026-11-01T00:00:00Z', A, pv('/', { ...A_SCREEN, r: 'https://news.ycombinator.com/item?id=1' })],
  ['2026-11-01T00:10:00Z', A, pv('/pricing', { ...A_SCREEN, r: 'https://example.com/' })],
  ['2026-11-01T00:20:00Z', A, custom('Signup', '/pricing')],
  ['2026-11-01T00:21:00Z', A, custom('Signup', '/pricing')],
  ['2026-11-01T01:00:00Z', A, pv('/docs', { ...A_SCREEN, r: 'https://www.google.com/' })],
  [
    '2026-11-01T09:30:00Z',
    B,
    pv('/pricing?utm_source=newsletter&utm_campaign=spring', { ...B_SCREEN, r: 'https://www.google.com/' }),
  ],
  ['2026-11-01T09:40:00Z', B, pv('/docs?ref=producthunt', B_SCREEN)],
  ['2026-11-02T10:00:00Z', C, pv('/?utm_source=newsletter&utm_campaign=winter', { sw: 390, sh: 844, l: 'de' })],
  ['2026-11-02T10:05:00Z', C, custom('Download')],
  ['2026-11-02T10:06:00Z', C, custom('Signup')],
  ['2026-11-03T08:15:00Z', A, pv('/', { ...A_SCREEN, r: 'https://news.ycombinator.com/' })],
  ['2026-11-03T23:59:59Z', D, pv('/pricing', { r: 'https://Example.com/' })],
  ['2026-11-04T00:00:00Z', B, pv('/', B_SCREEN)],
];

/** 24 hour rows: zero but for the hours given. */
const hours = (counts: Record<string, number>): Row[] =>
  Array.from({ length: 24 }, (_, h) => String(h).padStart(2, '0')).map((hour) => [hour, counts[hour] ?? 0]);

/** Every name over 2026-11-01..03 of MAIN, counted by hand, in the default order. */
const MAIN_EXPECTED: Record<string, Row[]> = {
  pageviews: [
    ['2026-11-01', 5],
    ['2026-11-02', 1],
    ['2026-11-03', 2],
  ],
  visitors: [
    ['2026-11-01', 2], // A, B
    ['2026-11-02', 1], // C
    ['2026-11-03', 2], // A again (a new day), D
  ],
  pageviews_hours: hours({ '00': 2, '01': 1, '08': 1, '09': 2, '10': 1, '23': 1 }),
  // A's two pageviews at 00h count once; A at 00h and 01h counts in both hours.
  visitors_hours: hours({ '00': 1, '01': 1, '08': 1, '09': 1, '10': 1, '23': 1 }),
  page: [
    ['/', 3],
    ['/pricing', 3],
    ['/docs', 2],
  ],
  // Visits: A (1st) at / and, 50 minutes after its last pageview, /docs; B at /pricing; C at /; A (3rd) at /; D at /pricing.
  landing_page: [
    ['/', 3],
    ['/pricing', 2],
    ['/docs', 1],
  ],
  referrer: [
    ['news.ycombinator.com', 2], // A on the 1st and on the 3rd
    ['www.google.com', 2], // A and B on the 1st (the site's own referrer is no referrer)
  ],
  source: [
    ['news.ycombinator.com', 2],
    ['newsletter', 2], // utm_source wins over B's Google referrer; C
    ['producthunt', 1], // ?ref=
    ['www.google.com', 1], // A's second visit
  ],
  campaign: [
    ['spring', 1],
    ['winter', 1],
  ],
  browser: [
    ['Chrome', 2], // A on two days, three pageviews on the first
    ['Mobile Safari', 2],
    ['Firefox', 1],
  ],
  os: [
    ['Windows', 3],
    ['iOS', 2],
  ],
  device: [
    ['desktop', 3],
    ['mobile', 1],
    ['tablet', 1],
  ],
  country: [
    ['US', 2],
    ['DE', 1],
    ['GB', 1],
    ['Unknown', 1],
  ],
  continent: [
    ['EU', 2],
    ['NA', 2],
    ['Unknown', 1],
  ],
  city: [
    ['Unknown', 3],
    ['London', 1],
    ['München', 1],
  ],
  language: [
    ['en-US', 2],
    ['de', 1],
    ['en-GB', 1],
  ],
  resolution: [
    ['1920x1080', 2],
    ['1366x768', 1],
    ['390x844', 1],
  ],
  event: [
    ['Signup', 3],
    ['Download', 1],
  ],
};

const ALIASES: Record<string, string> = {
  pageview: 'pageviews',
  visitor: 'visitors',
  operating_system: 'os',
  screen_resolution: 'resolution',
};

const asRows = (data: { value: string; count: number }[]): Row[] => data.map((r) => [r.value, r.count]);

describe('GET /api/v1/stats/{website}', () => {
  let t: TestApp;
  let key: string;
  let otherKey: string;
  let main: number;
  let dir: string;
  // Far before every event: the pruning that runs at start deletes nothing the tests send.
  const clock = fixedClock(Date.parse('2000-01-01T00:00:00Z'));

  const website = async (apiKey: string, domain = 'example.com'): Promise<number> => {
    const res = await t.call(apiKey, { method: 'POST', url: '/api/v1/websites', form: { domain } });
    assert.equal(res.statusCode, 201, res.body);
    return res.json().data.id;
  };

  /** Sends the events in order, each at its time, from its visitor (one proxy: X-Forwarded-For). */
  const send = async (websiteId: number, events: Event[]) => {
    for (const [at, who, body] of events) {
      clock.set(Date.parse(at));
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/event',
        headers: { 'content-type': 'application/json', 'user-agent': who.ua, 'x-forwarded-for': who.ip },
        payload: JSON.stringify({ ...body, i: websiteId }),
      });
      assert.equal(res.statusCode, 202, res.body);
      assert.equal(res.headers['x-event-dropped'], undefined, `${at} stored`);
    }
  };

  const get = (websiteId: number | string, params: Record<string, string>, apiKey = key) =>
    t.call(apiKey, { method: 'GET', url: `/api/v1/stats/${websiteId}?${new URLSearchParams(params)}` });

  /** The rows of a 200, with per_page 100 unless given. */
  const rows = async (websiteId: number, params: Record<string, string>): Promise<Row[]> => {
    const res = await get(websiteId, { per_page: '100', ...params });
    assert.equal(res.statusCode, 200, res.body);
    return asRows(res.json().data);
  };

  const range = { from: '2026-11-01', to: '2026-11-03' };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rankscope-stats-'));
    const cities = join(dir, 'city.mmdb');
    writeCityDatabase(cities, {
      '81.2.69.142': { city: { names: { en: 'London' } } },
      '85.214.132.117': { city: { names: { en: 'München' } } },
    });
    t = await testApp({ TRUST_PROXY: '1', GEOIP_CITY_DB: cities }, { clock });
    ({ key } = await t.account());
    ({ key: otherKey } = await t.account());
    main = await website(key);
    await send(main, MAIN);
  });
  after(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  describe('what each name counts', () => {
    for (const [name, expected] of Object.entries(MAIN_EXPECTED)) {
      test(`${name}`, async () => {
        const res = await get(main, { name, ...range, per_page: '100' });
        assert.equal(res.statusCode, 200, res.body);
        const body = res.json();
        assert.deepEqual(asRows(body.data), expected);
        assert.equal(body.meta.total, expected.length);
        for (const row of body.data) assert.deepEqual(Object.keys(row), ['value', 'count']);
      });
    }

    test('every alias answers exactly as its name', async () => {
      for (const [alias, name] of Object.entries(ALIASES)) {
        assert.deepEqual(await rows(main, { name: alias, ...range }), MAIN_EXPECTED[name], alias);
      }
    });

    test('the day series: one row per UTC day of the range, zero-filled, both ends included', async () => {
      assert.deepEqual(await rows(main, { name: 'pageviews', from: '2026-11-01', to: '2026-11-06' }), [
        ['2026-11-01', 5],
        ['2026-11-02', 1],
        ['2026-11-03', 2],
        ['2026-11-04', 1], // B at 00:00:00
        ['2026-11-05', 0],
        ['2026-11-06', 0],
      ]);
      assert.deepEqual(await rows(main, { name: 'visitors', from: '2026-10-30', to: '2026-10-31' }), [
        ['2026-10-30', 0],
        ['2026-10-31', 1], // A at 23:59:59
      ]);
      assert.deepEqual(await rows(main, { name: 'pageviews', from: '2026-11-02', to: '2026-11-02' }), [['2026-11-02', 1]]);
      assert.deepEqual(await rows(main, { name: 'page', from: '2026-11-05', to: '2026-11-30' }), [], 'no pageviews: no rows');
      assert.deepEqual(
        await rows(main, { name: 'pageviews_hours', from: '2026-11-05', to: '2026-11-30' }),
        hours({}),
        'hours: always 24 rows',
      );
    });

    test('custom events are events, not pageviews, and a website without any has no event rows', async () => {
      const quiet = await website(key, 'quiet.example');
      await send(quiet, [
        ['2026-11-02T12:00:00Z', A, { n: 'pageview', u: 'https://quiet.example/' }],
        ['2026-11-02T12:01:00Z', A, { n: 'pageview', u: 'https://quiet.example/' }],
      ]);
      assert.deepEqual(await rows(quiet, { name: 'event', ...range }), []);
      assert.deepEqual(await rows(quiet, { name: 'page', ...range }), [['/', 2]]);
      assert.deepEqual(await rows(quiet, { name: 'pageviews', ...range }), [
        ['2026-11-01', 0],
        ['2026-11-02', 2],
        ['2026-11-03', 0],
      ]);
    });
  });

  describe('counting visitors and visits', () => {
    test('a visitor counts once a day, on each day, and once per value per day', async () => {
      const site = await website(key, 'visitors.example');
      const X = { ip: '198.51.100.7', ua: CHROME };
      const sameAddressOtherBrowser = { ip: '198.51.100.7', ua: FIREFOX };
      const Y = { ip: '198.51.100.8', ua: CHROME };
      const at = (path: string) => ({ n: 'pageview', u: `https://visitors.example${path}` });
      await send(site, [
        ['2026-11-10T10:00:00Z', X, at('/')],
        ['2026-11-10T10:05:00Z', X, at('/a')], // same day again: still one visitor, one Chrome
        ['2026-11-11T10:00:00Z', X, at('/')], // the next day: counted again
        ['2026-11-11T11:00:00Z', Y, at('/')],
        ['2026-11-11T12:00:00Z', sameAddressOtherBrowser, at('/')], // another User-Agent: another visitor
      ]);
      const days = { from: '2026-11-10', to: '2026-11-11' };
      assert.deepEqual(await rows(site, { name: 'visitors', ...days }), [
        ['2026-11-10', 1],
        ['2026-11-11', 3],
      ]);
      assert.deepEqual(await rows(site, { name: 'pageviews', ...days }), [
        ['2026-11-10', 2],
        ['2026-11-11', 3],
      ]);
      assert.deepEqual(await rows(site, { name: 'browser', ...days }), [
        ['Chrome', 3],
        ['Firefox', 1],
      ]);
      assert.deepEqual(await rows(site, { name: 'page', ...days }), [
        ['/', 4],
        ['/a', 1],
      ]);
      assert.deepEqual(await rows(site, { name: 'visitors', from: '2026-11-11', to: '2026-11-11' }), [['2026-11-11', 3]]);
    });

    test('visits: a pageview 30 minutes or more after the previous one starts a new visit; so does a new day', async () => {
      const site = await website(key, 'visits.example');
      const at = (path: string) => ({ n: 'pageview', u: `https://visits.example${path}` });
      await send(site, [
        ['2026-11-20T12:00:00.000Z', A, at('/a')], // visit 1
        ['2026-11-20T12:29:59.999Z', A, at('/b')],
        ['2026-11-20T12:59:59.999Z', A, at('/c')], // exactly 30 minutes later: visit 2
        ['2026-11-20T13:29:59.998Z', A, at('/d')], // 29:59.999 later: still visit 2
        ['2026-11-20T13:40:00.000Z', A, { n: 'Ping', u: 'https://visits.example/d' }], // an event is no visit
        ['2026-11-20T23:59:00.000Z', A, at('/e')], // visit 3
        ['2026-11-21T00:01:00.000Z', A, at('/f')], // a new day: a new visitor, visit 4
      ]);
      const days = { from: '2026-11-20', to: '2026-11-21' };
      assert.deepEqual(await rows(site, { name: 'landing_page', ...days }), [
        ['/a', 1],
        ['/c', 1],
        ['/e', 1],
        ['/f', 1],
      ]);
      assert.deepEqual(await rows(site, { name: 'visitors', ...days }), [
        ['2026-11-20', 1],
        ['2026-11-21', 1],
      ]);
      assert.deepEqual(await rows(site, { name: 'event', ...days }), [['Ping', 1]]);
    });

    test('source: utm_source, else ref, else the referrer host; campaign: utm_campaign; none of them stay in the page', async () => {
      const site = await website(key, 'utm.example');
      const at = (path: string, r?: string) => ({ n: 'pageview', u: `https://utm.example${path}`, ...(r ? { r } : {}) });
      await send(site, [
        [
          '2026-11-12T09:00:00Z',
          A,
          at('/?utm_source=Newsletter&ref=ph&utm_campaign=launch&utm_medium=email', 'https://www.google.com/'),
        ],
        ['2026-11-12T09:00:00Z', B, at('/?ref=ph', 'https://www.bing.com/search?q=x')],
        ['2026-11-12T09:00:00Z', C, at('/', 'https://duckduckgo.com/')],
        ['2026-11-12T09:00:00Z', D, at('/', 'https://www.utm.example/elsewhere')], // the site itself: direct
      ]);
      const day = { from: '2026-11-12', to: '2026-11-12' };
      assert.deepEqual(await rows(site, { name: 'source', ...day }), [
        ['Newsletter', 1], // code point order: capitals first
        ['duckduckgo.com', 1],
        ['ph', 1],
      ]);
      assert.deepEqual(await rows(site, { name: 'referrer', ...day }), [
        ['duckduckgo.com', 1],
        ['www.bing.com', 1],
        ['www.google.com', 1],
      ]);
      assert.deepEqual(await rows(site, { name: 'campaign', ...day }), [['launch', 1]]);
      assert.deepEqual(await rows(site, { name: 'page', ...day }), [['/', 4]]);
    });
  });

  describe('search, order and pages', () => {
    test('search: a case-insensitive substring of the value; LIKE wildcards are plain characters', async () => {
      assert.deepEqual(await rows(main, { name: 'page', ...range, search: 'PRIC' }), [['/pricing', 3]]);
      assert.deepEqual(await rows(main, { name: 'source', ...range, search: 'NEWS' }), [
        ['news.ycombinator.com', 2],
        ['newsletter', 2],
      ]);
      assert.deepEqual(await rows(main, { name: 'city', ...range, search: 'mün' }), [['München', 1]]);
      assert.deepEqual(await rows(main, { name: 'page', ...range, search: '%' }), []);
      assert.deepEqual(await rows(main, { name: 'resolution', ...range, search: '1920_1080' }), []);
      assert.deepEqual(await rows(main, { name: 'pageviews', ...range, search: '11-02', search_by: 'value' }), [
        ['2026-11-02', 1],
      ]);
      assert.deepEqual(await rows(main, { name: 'visitors_hours', ...range, search: '2' }), [
        ['02', 0],
        ['12', 0],
        ['20', 0],
        ['21', 0],
        ['22', 0],
        ['23', 1],
      ]);
      const res = await get(main, { name: 'page', ...range, search: 'PRIC' });
      assert.equal(res.json().meta.total, 1);
    });

    test('a search holding NUL (no stored value can) matches nothing, on every name and in CSV', async () => {
      for (const name of Object.keys(MAIN_EXPECTED)) {
        for (const search of ['\u0000', 'pric\u0000']) {
          const res = await get(main, { name, ...range, search });
          assert.equal(res.statusCode, 200, `${name}: ${res.body}`);
          assert.deepEqual([res.json().meta.total, res.json().data], [0, []], name);
        }
      }
      const csv = await get(main, { name: 'page', ...range, search: '\u0000', format: 'csv' });
      assert.equal(csv.statusCode, 200, csv.body);
      assert.equal(csv.body, 'value,count\r\n');
    });

    test('sort_by and sort; equal counts always by value ascending', async () => {
      assert.deepEqual(await rows(main, { name: 'page', ...range, sort_by: 'value', sort: 'asc' }), [
        ['/', 3],
        ['/docs', 2],
        ['/pricing', 3],
      ]);
      assert.deepEqual(await rows(main, { name: 'page', ...range, sort_by: 'value' }), [
        ['/pricing', 3],
        ['/docs', 2],
        ['/', 3],
      ]);
      assert.deepEqual(await rows(main, { name: 'page', ...range, sort: 'asc' }), [
        ['/docs', 2],
        ['/', 3],
        ['/pricing', 3],
      ]);
      assert.deepEqual(await rows(main, { name: 'pageviews', ...range, sort_by: 'count' }), [
        ['2026-11-01', 5],
        ['2026-11-03', 2],
        ['2026-11-02', 1],
      ]);
      assert.deepEqual(await rows(main, { name: 'pageviews', ...range, sort: 'desc' }), [
        ['2026-11-03', 2],
        ['2026-11-02', 1],
        ['2026-11-01', 5],
      ]);
      assert.deepEqual(await rows(main, { name: 'visitors', ...range, sort_by: 'count', sort: 'asc' }), [
        ['2026-11-02', 1],
        ['2026-11-01', 2],
        ['2026-11-03', 2],
      ]);
      const top = (await rows(main, { name: 'pageviews_hours', ...range, sort_by: 'count', sort: 'desc' })).slice(0, 8);
      assert.deepEqual(top, [
        ['00', 2],
        ['09', 2],
        ['01', 1],
        ['08', 1],
        ['10', 1],
        ['23', 1],
        ['02', 0],
        ['03', 0],
      ]);
    });

    test('a top list in pages: the total counts every value, on its page and past the last', async () => {
      const page = (n: number) => get(main, { name: 'page', ...range, page: String(n) }).then((r) => r.json());
      const first = await page(1);
      assert.deepEqual(asRows(first.data), [
        ['/', 3],
        ['/pricing', 3],
        ['/docs', 2],
      ]);
      assert.equal(first.meta.total, 3);
      const past = await page(3);
      assert.deepEqual(past.data, []);
      assert.equal(past.meta.total, 3, 'a page past the end still says how many values there are');
      assert.equal(past.meta.last_page, 1);
      const none = (await get(main, { name: 'page', from: '2026-11-10', to: '2026-11-12', page: '2' })).json();
      assert.deepEqual([none.data, none.meta.total], [[], 0]);
    });

    test('pages of 10 by default, per_page 25, the paginator links and meta', async () => {
      const base = `http://localhost:80/api/v1/stats/${main}`;
      const url = (page: number, perPage = 10) =>
        `${base}?name=pageviews&from=2026-11-01&to=2026-11-30&search_by=value&sort_by=value&sort=asc&per_page=${perPage}&page=${page}`;
      const month = { name: 'pageviews', from: '2026-11-01', to: '2026-11-30' };

      const first = (await get(main, month)).json();
      assert.deepEqual(asRows(first.data), [
        ['2026-11-01', 5],
        ['2026-11-02', 1],
        ['2026-11-03', 2],
        ['2026-11-04', 1],
        ['2026-11-05', 0],
        ['2026-11-06', 0],
        ['2026-11-07', 0],
        ['2026-11-08', 0],
        ['2026-11-09', 0],
        ['2026-11-10', 0],
      ]);
      assert.deepEqual(first.links, { first: url(1), last: url(3), prev: null, next: url(2) });
      assert.deepEqual(
        { ...first.meta, links: undefined },
        { current_page: 1, from: 1, last_page: 3, links: undefined, path: base, per_page: 10, to: 10, total: 30 },
      );
      assert.deepEqual(first.meta.links, [
        { url: null, label: '&laquo; Previous', active: false },
        { url: url(1), label: '1', active: true },
        { url: url(2), label: '2', active: false },
        { url: url(3), label: '3', active: false },
        { url: url(2), label: 'Next &raquo;', active: false },
      ]);
      assert.equal(first.current_page, 1);
      assert.equal(first.last_page, 3);
      assert.equal(first.status, 200);

      const third = (await get(main, { ...month, page: '3' })).json();
      assert.deepEqual(
        third.data.map((r: { value: string }) => r.value),
        Array.from({ length: 10 }, (_, i) => `2026-11-${21 + i}`),
      );
      assert.deepEqual(third.links, { first: url(1), last: url(3), prev: url(2), next: null });
      assert.equal(third.meta.from, 21);
      assert.equal(third.meta.to, 30);

      const second25 = (await get(main, { ...month, per_page: '25', page: '2' })).json();
      assert.deepEqual(
        second25.data.map((r: { value: string }) => r.value),
        ['2026-11-26', '2026-11-27', '2026-11-28', '2026-11-29', '2026-11-30'],
      );
      assert.equal(second25.meta.last_page, 2);
      assert.equal(second25.links.first, url(1, 25));

      const past = (await get(main, { ...month, page: '9' })).json();
      assert.deepEqual(past.data, []);
      assert.equal(past.meta.from, null);
      assert.equal(past.meta.to, null);
      assert.equal(past.meta.total, 30);

      const odd = (await get(main, { ...month, page: 'abc' })).json();
      assert.equal(odd.meta.current_page, 1, 'page that is not a positive integer: 1');
    });

    test('the links carry the name as sent, the search (encoded) and the order asked', async () => {
      const body = (await get(main, { name: 'operating_system', ...range, search: 'a b', sort: 'asc' })).json();
      assert.equal(
        body.links.first,
        `http://localhost:80/api/v1/stats/${main}?name=operating_system&from=2026-11-01&to=2026-11-03&search=a%20b&search_by=value&sort_by=count&sort=asc&per_page=10&page=1`,
      );
      assert.deepEqual(body.data, []);
      assert.equal(body.meta.last_page, 1);
    });
  });

  describe('CSV', () => {
    let site: number;
    before(async () => {
      site = await website(key, 'csv.example');
      const named = (n: string) => ({ n, u: 'https://csv.example/' });
      const names = ['Plain', 'Plain', 'Plain', 'Comma, inside', 'Comma, inside', 'Quote "inside"', 'Line\nbreak', '=1+1'];
      for (let i = 1; i <= 8; i++) names.push(`e0${i}`);
      await send(
        site,
        names.map((n, i) => [`2026-11-02T10:${String(i).padStart(2, '0')}:00Z`, A, named(n)]),
      );
    });

    test('every row (no paging), header value,count, RFC 4180 quoting, CRLF, an attachment named after the stat', async () => {
      const res = await get(site, { name: 'event', ...range, format: 'csv', per_page: '10', page: '2' });
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['content-type'], 'text/csv; charset=utf-8');
      assert.equal(res.headers['content-disposition'], 'attachment; filename="stats-event-2026-11-01-2026-11-03.csv"');
      assert.equal(
        res.body,
        'value,count\r\n' +
          'Plain,3\r\n' +
          '"Comma, inside",2\r\n' +
          "'=1+1,1\r\n" +
          '"Line\nbreak",1\r\n' +
          '"Quote ""inside""",1\r\n' +
          'e01,1\r\ne02,1\r\ne03,1\r\ne04,1\r\ne05,1\r\ne06,1\r\ne07,1\r\ne08,1\r\n',
      );
    });

    test('an export is streamed as it is written: chunked, no Content-Length held back for the whole text', async () => {
      for (const name of ['event', 'pageviews']) {
        const res = await get(site, { name, ...range, format: 'csv' });
        assert.equal(res.statusCode, 200);
        assert.equal(res.headers['content-length'], undefined, name);
        assert.equal(res.headers['transfer-encoding'], 'chunked', name);
      }
    });

    test('search and order apply; series are zero-filled; an alias names the file after its stat', async () => {
      const found = await get(site, { name: 'event', ...range, format: 'csv', search: 'INSIDE', sort_by: 'value' });
      assert.equal(found.body, 'value,count\r\n"Quote ""inside""",1\r\n"Comma, inside",2\r\n');
      const days = await get(site, { name: 'pageview', ...range, format: 'csv' });
      assert.equal(days.headers['content-disposition'], 'attachment; filename="stats-pageviews-2026-11-01-2026-11-03.csv"');
      assert.equal(days.body, 'value,count\r\n2026-11-01,0\r\n2026-11-02,0\r\n2026-11-03,0\r\n');
      const cities = await get(main, { name: 'city', ...range, format: 'csv' });
      assert.equal(cities.body, 'value,count\r\nUnknown,3\r\nLondon,1\r\nMünchen,1\r\n');
      const year = await get(main, { name: 'visitors', from: '2026-01-01', to: '2026-12-31', format: 'csv' });
      assert.equal(year.body.split('\r\n').length, 1 + 365 + 1, 'a header, 365 days, and the last line end');
    });

    test('an invalid CSV request is the usual JSON 422', async () => {
      const res = await get(site, { name: 'event', from: '2026-11-01', format: 'csv' });
      assert.equal(res.statusCode, 422);
      assert.deepEqual(res.json().errors, { to: ['The to field is required.'] });
    });
  });

  describe('validation', () => {
    const errorsOf = async (params: Record<string, string>) => {
      const res = await get(main, params);
      assert.equal(res.statusCode, 422, `${JSON.stringify(params)}: ${res.body}`);
      return res.json().errors;
    };

    test('name, from and to are required: one 422 with every field, in parameter order', async () => {
      const res = await get(main, {});
      assert.equal(res.statusCode, 422);
      assert.deepEqual(res.json(), {
        message: 'The name field is required. (and 2 more errors)',
        errors: {
          name: ['The name field is required.'],
          from: ['The from field is required.'],
          to: ['The to field is required.'],
        },
        status: 422,
      });
      assert.deepEqual(await errorsOf({ name: '  ', ...range }), { name: ['The name field is required.'] });
    });

    test('an unknown name', async () => {
      for (const name of ['pageviewz', 'Pageviews', 'constructor', '__proto__', 'hasOwnProperty', 'operating system']) {
        assert.deepEqual(await errorsOf({ name, ...range }), { name: ['The selected name is invalid.'] }, name);
      }
    });

    test('dates: YYYY-MM-DD days that exist', async () => {
      for (const bad of [
        '2026-2-01',
        '2026-02-30',
        '2025-02-29',
        '2100-02-29',
        '2026-13-01',
        '2026-11-00',
        '01/11/2026',
        '20261101',
        '2026-11-01T00:00:00Z',
        'today',
        '٢٠٢٦-١١-٠١',
      ]) {
        assert.deepEqual(
          await errorsOf({ name: 'pageviews', from: bad, to: '2026-11-03' }),
          { from: ['The from does not match the format Y-m-d.'] },
          bad,
        );
      }
      assert.deepEqual(await errorsOf({ name: 'pageviews', from: '2026-11-01', to: '2026-11-31' }), {
        to: ['The to does not match the format Y-m-d.'],
      });
      assert.deepEqual(await rows(main, { name: 'pageviews', from: '2000-02-29', to: '2000-02-29' }), [['2000-02-29', 0]]);
      assert.deepEqual(await rows(main, { name: 'pageviews', from: '2028-02-29', to: '2028-03-01' }), [
        ['2028-02-29', 0],
        ['2028-03-01', 0],
      ]);
    });

    test("to on or after from; any span, a long one cut to the website's life", async () => {
      assert.deepEqual(await errorsOf({ name: 'pageviews', from: '2026-11-03', to: '2026-11-02' }), {
        to: ['The to must be a date after or equal to from.'],
      });
      clock.set(Date.parse('2026-11-04T12:00:00Z'));
      // 366 days exactly: zero-filled whole, the days to come included (2026-01-01 to 2027-01-01, and the leap year 2028).
      for (const [from, to] of [
        ['2026-01-01', '2027-01-01'],
        ['2028-01-01', '2028-12-31'],
      ]) {
        const res = await get(main, { name: 'pageviews', from, to });
        assert.equal(res.statusCode, 200, `${from}..${to}: ${res.body}`);
        assert.equal(res.json().meta.total, 366);
      }
      // Longer: from the website's creation day (2000-01-01, the clock when it was made) to today.
      const csv = await get(main, { name: 'pageviews', from: '1970-01-01', to: '2026-11-04', format: 'csv', sort: 'asc' });
      assert.equal(csv.statusCode, 200, csv.body);
      const all = csv.body
        .trim()
        .split('\r\n')
        .slice(1)
        .map((line) => line.split(','));
      const wholeLife = Math.round((Date.parse('2026-11-04') - Date.parse('2000-01-01')) / 86_400_000) + 1;
      assert.equal(all.length, wholeLife);
      assert.deepEqual(all[0], ['2000-01-01', '0']);
      assert.deepEqual(all.at(-1), ['2026-11-04', '1']);
      assert.equal(
        all.reduce((n, [, count]) => n + Number(count), 0),
        MAIN.filter(([, , body]) => body.n === 'pageview').length,
      );
      const res = await get(main, { name: 'pageviews', from: '1970-01-01', to: '2099-12-31', per_page: '10', page: '1' });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().meta.total, wholeLife, 'not into the future either');
      assert.match(res.json().links.next, /from=1970-01-01&to=2099-12-31/, 'the links keep the range asked for');
      // A top list over any span counts what the website has.
      assert.deepEqual(await rows(main, { name: 'page', from: '1970-01-01', to: '2099-12-31' }), [
        ['/', 5],
        ['/pricing', 3],
        ['/docs', 2],
      ]);
      // A website made on 2026-11-02: its series starts that day; one that ends before it is empty.
      clock.set(Date.parse('2026-11-02T08:00:00Z'));
      const young = await website(key, 'young.example');
      clock.set(Date.parse('2026-11-04T12:00:00Z'));
      assert.deepEqual(await rows(young, { name: 'visitors', from: '1970-01-01', to: '2026-11-04' }), [
        ['2026-11-02', 0],
        ['2026-11-03', 0],
        ['2026-11-04', 0],
      ]);
      assert.deepEqual(await rows(young, { name: 'visitors', from: '1970-01-01', to: '2026-01-01' }), []);
      assert.deepEqual(await errorsOf({ name: 'nope', from: '2026-11-03', to: '2026-11-02', per_page: '20' }), {
        name: ['The selected name is invalid.'],
        to: ['The to must be a date after or equal to from.'],
        per_page: ['The selected per page is invalid.'],
      });
    });

    test('per_page, sort_by, sort, search_by, format and search', async () => {
      const ok = { name: 'page', ...range };
      assert.deepEqual(await errorsOf({ ...ok, per_page: '20' }), { per_page: ['The selected per page is invalid.'] });
      assert.deepEqual(await errorsOf({ ...ok, per_page: 'abc' }), {
        per_page: ['The per page must be an integer.', 'The selected per page is invalid.'],
      });
      // Any other sort_by sorts as the default (Pipedream's components send domain or id), and the links say which.
      for (const other of ['name', 'domain', 'id']) {
        const res = await get(main, { ...ok, sort_by: other, per_page: '100' });
        assert.equal(res.statusCode, 200, res.body);
        assert.deepEqual(asRows(res.json().data), MAIN_EXPECTED.page, other);
        assert.match(res.json().links.first, /&sort_by=count&sort=desc&/);
      }
      assert.deepEqual(await errorsOf({ ...ok, sort: 'up' }), { sort: ['The selected sort is invalid.'] });
      assert.deepEqual(await errorsOf({ ...ok, search_by: 'count' }), { search_by: ['The selected search by is invalid.'] });
      assert.deepEqual(await errorsOf({ ...ok, format: 'xml' }), { format: ['The selected format is invalid.'] });
      assert.deepEqual(await errorsOf({ ...ok, search: 'x'.repeat(256) }), {
        search: ['The search must not be greater than 255 characters.'],
      });
      for (const perPage of ['10', '25', '50', '100']) {
        const res = await get(main, { ...ok, per_page: perPage });
        assert.equal(res.json().meta.per_page, Number(perPage));
      }
    });
  });

  describe('authorisation and isolation', () => {
    test('another account’s website and an unknown id answer 404 Website not found., before any 422', async () => {
      const theirs = await website(otherKey, 'theirs.example');
      for (const [id, params] of [
        [theirs, {}],
        [theirs, { name: 'nope', from: 'x', to: 'y' }],
        [theirs, { name: 'pageviews', ...range }],
        [theirs, { name: 'pageviews', ...range, format: 'csv' }],
        [987_654, {}],
        [987_654, { name: 'pageviews', ...range }],
        ['abc', { name: 'pageviews', ...range }],
        ['0', {}],
      ] as const) {
        const res = await get(id, params);
        assert.equal(res.statusCode, 404, `${id} ${JSON.stringify(params)}: ${res.body}`);
        assert.deepEqual(res.json(), { message: 'Website not found.', status: 404 });
      }
      const own = await get(theirs, { name: 'pageviews', ...range }, otherKey);
      assert.equal(own.statusCode, 200, 'its own account sees it');
      const mine = await get(main, {}, otherKey);
      assert.equal(mine.statusCode, 404);
    });

    test('a website counts only its own events, whoever else shares its days, visitors or domain', async () => {
      const unchanged = await rows(main, { name: 'page', ...range });
      const theirs = await website(otherKey); // the same domain, another account
      const sibling = await website(key, 'sibling.example');
      await send(theirs, [
        ['2026-11-01T00:05:00Z', A, pv('/theirs')],
        ['2026-11-02T10:00:00Z', C, pv('/pricing')],
      ]);
      await send(sibling, [['2026-11-01T00:06:00Z', A, { n: 'pageview', u: 'https://sibling.example/pricing' }]]);
      assert.deepEqual(await rows(main, { name: 'page', ...range }), unchanged);
      assert.deepEqual(await rows(main, { name: 'visitors', ...range }), MAIN_EXPECTED.visitors);
      assert.deepEqual(await rows(main, { name: 'landing_page', ...range }), MAIN_EXPECTED.landing_page);
      const res = await get(theirs, { name: 'page', ...range, per_page: '100' }, otherKey);
      assert.deepEqual(asRows(res.json().data), [
        ['/pricing', 1],
        ['/theirs', 1],
      ]);
      assert.deepEqual(await rows(sibling, { name: 'page', ...range }), [['/pricing', 1]]);
    });

    test('no key: 401', async () => {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/v1/stats/${main}?name=pageviews&from=2026-11-01&to=2026-11-03`,
      });
      assert.equal(res.statusCode, 401);
    });
  });
});
