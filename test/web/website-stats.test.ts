// The website share page's traffic (docs/share-pages.md): events sent through
// POST /api/event on two days with a fixed clock, then the page read back: totals, the chart
// and its table, the top lists, the range and its fallbacks, escaping, the DB-IP credit, privacy.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Document, Element } from 'domhandler';
import { findAll, findOne } from 'domutils';
import { AnalyticsRepository } from '../../src/db/analytics-repository.js';
import { fixedClock } from '../../src/time.js';
import { SAMPLE_FIELDS } from '../../src/model/dimensions.js';
import type { StoredEvent } from '../../src/model/rollup.js';
import { renderWebsitePage, TOP_LISTS, type TopList, type TopListName, type WebsiteTraffic } from '../../src/render/index.js';
import { yScale } from '../../src/render/traffic-chart.js';
import { statsRange } from '../../src/render/stats-range.js';
import { type TestApp, testApp } from '../helpers/app.js';
import { all, assertPageBasics, byId, one, text } from './render-helpers.js';

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
// Addresses the bundled DB-IP database places in these countries (only ever written in a header).
const US = '8.8.8.8';
const DE = '5.9.0.1';
const NL = '193.0.6.139';

const DB_IP = '<a href="https://db-ip.com">IP Geolocation by DB-IP</a>';
const cookieOf = (setCookie: string | string[] | undefined) => String([setCookie].flat()[0]).split(';')[0];

/** The rows of a top list: [label, count] per row (empty when the list says "None"). */
function topList(doc: Document, name: string): string[][] {
  const section = findOne((e) => e.name === 'section' && e.attribs['aria-labelledby'] === `top-${name}-heading`, [doc]);
  assert.ok(section, `the ${name} list is shown`);
  const body = one(section, 'tbody');
  return body ? all(body, 'tr').map((tr) => all(tr, 'td').map((td) => text(td))) : [];
}

/** The chart's data table: [date, visitors, pageviews] per day. */
function dataRows(doc: Document): string[][] {
  const table = findOne((e) => e.name === 'table' && /\btraffic-table\b/.test(e.attribs.class ?? ''), [doc]);
  assert.ok(table, 'the chart data table');
  return all(one(table, 'tbody')!, 'tr').map((tr) => all(tr, 'td').map((td) => text(td)));
}

function totals(doc: Document): Record<string, string> {
  const dl = findOne((e) => e.name === 'dl' && e.attribs.class === 'totals', [doc])!;
  const dts = all(dl, 'dt').map(text);
  const dds = all(dl, 'dd').map(text);
  return Object.fromEntries(dts.map((k, i) => [k, dds[i]]));
}

const inputValue = (doc: Document, id: string) => byId(doc, id)?.attribs.value;

function trafficChart(doc: Document): Element {
  const svg = findOne(
    (e) =>
      e.name === 'svg' && e.attribs.role === 'img' && e.attribs['aria-labelledby'] === 'traffic-chart-title traffic-chart-desc',
    [doc],
  );
  assert.ok(svg, 'the traffic chart');
  return svg;
}

describe('website share page: traffic', () => {
  let t: TestApp;
  let user: { id: number; key: string };
  let websiteId: number;
  const clock = fixedClock(Date.parse('2026-03-09T10:00:00Z'));

  const createWebsite = async (domain: string, form: Record<string, string> = { privacy: '0' }) => {
    const res = await t.call(user.key, { method: 'POST', url: '/api/v1/websites', form: { domain, ...form } });
    assert.equal(res.statusCode, 201, res.body);
    return res.json().data.id as number;
  };
  // One proxy in front (TRUST_PROXY=1): the right-most X-Forwarded-For entry is the client.
  const send = async (at: string, body: Record<string, unknown>, { ua = CHROME, ip = US } = {}) => {
    clock.set(Date.parse(at));
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/event',
      headers: { 'content-type': 'application/json', 'user-agent': ua, 'x-forwarded-for': ip },
      payload: JSON.stringify(body),
    });
    assert.equal(res.statusCode, 202, res.body);
    assert.equal(res.headers['x-event-dropped'], undefined, JSON.stringify(body));
  };
  const page = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });
  const open = async (url: string, headers: Record<string, string> = {}) => {
    const res = await page(url, headers);
    assert.equal(res.statusCode, 200, res.body);
    return { body: res.body, doc: assertPageBasics(res.body, { noindex: false }) };
  };

  before(async () => {
    t = await testApp({ TRUST_PROXY: '1' }, { clock });
    user = await t.account();
    websiteId = await createWebsite('stats.example');
    const i = websiteId;
    // 9 March: A (US, Chrome) views / from Hacker News, then /pricing, and signs up; B (DE, iPhone) views / from Google.
    await send('2026-03-09T10:00:00Z', {
      n: 'pageview',
      u: 'https://stats.example/',
      i,
      r: 'https://news.ycombinator.com/item?id=1',
    });
    await send('2026-03-09T10:05:00Z', { n: 'pageview', u: 'https://stats.example/pricing', i, r: 'https://stats.example/' });
    await send('2026-03-09T10:06:00Z', { n: 'Signup', u: 'https://stats.example/pricing', i, p: { plan: 'pro' } });
    await send(
      '2026-03-09T11:00:00Z',
      { n: 'pageview', u: 'https://stats.example/', i, r: 'https://www.google.com/' },
      { ua: IPHONE, ip: DE },
    );
    // 10 March: A again (a new day: a new visitor id), views /; C (NL, Firefox) views /pricing from Hacker News,
    // signs up and downloads.
    await send('2026-03-10T09:00:00Z', { n: 'pageview', u: 'https://stats.example/', i, p: { plan: 'free', theme: 'dark' } });
    const c = { ua: FIREFOX, ip: NL };
    await send(
      '2026-03-10T09:30:00Z',
      { n: 'pageview', u: 'https://stats.example/pricing', i, r: 'https://news.ycombinator.com/' },
      c,
    );
    await send('2026-03-10T09:31:00Z', { n: 'Signup', u: 'https://stats.example/pricing', i, p: { plan: 'pro' } }, c);
    await send('2026-03-10T09:32:00Z', { n: 'Download', u: 'https://stats.example/pricing', i, p: { file: 'guide.pdf' } }, c);
    clock.set(Date.parse('2026-03-10T18:00:00Z'));
  });
  after(() => t.close());

  test('the last 30 days by default: totals, the day series, the top lists', async () => {
    const { body, doc } = await open(`/websites/${websiteId}`);
    // 9 March: 3 pageviews by A and B; 10 March: 2 pageviews by A and C.
    assert.deepEqual(totals(doc), { Visitors: '4', Pageviews: '5' });
    assert.equal(inputValue(doc, 'range-from'), '2026-02-09');
    assert.equal(inputValue(doc, 'range-to'), '2026-03-10');
    assert.equal(findAll((e) => e.name === 'label' && e.attribs.for?.startsWith('range-'), [doc]).length, 2);
    assert.match(text(byId(doc, 'traffic-heading')!.parent as Element), /9 Feb 2026 to 10 Mar 2026 \(UTC\), 30 days/);
    assert.ok(!findOne((e) => e.attribs.class === 'notice', [doc]), 'no fallback notice');
    const current = findAll((e) => e.name === 'a' && e.attribs['aria-current'] === 'page', [doc]);
    assert.deepEqual(
      current.map((a) => [text(a), a.attribs.href]),
      [['Last 30 days', `/websites/${websiteId}?from=2026-02-09&to=2026-03-10`]],
    );

    const rows = dataRows(doc);
    assert.equal(rows.length, 30, 'every day of the range, zero-filled');
    assert.deepEqual(rows[0], ['9 Feb 2026', '0', '0']);
    assert.deepEqual(rows.slice(-2), [
      ['9 Mar 2026', '2', '3'],
      ['10 Mar 2026', '2', '2'],
    ]);
    assert.ok(
      rows.slice(0, -2).every((r) => r[1] === '0' && r[2] === '0'),
      'no other day has traffic',
    );

    assert.deepEqual(topList(doc, 'page'), [
      ['/', '3'],
      ['/pricing', '2'],
    ]);
    assert.deepEqual(topList(doc, 'referrer'), [
      ['news.ycombinator.com', '2'],
      ['www.google.com', '1'],
    ]);
    assert.deepEqual(topList(doc, 'country'), [
      ['United States (US)', '2'],
      ['Germany (DE)', '1'],
      ['Netherlands (NL)', '1'],
    ]);
    assert.deepEqual(topList(doc, 'browser'), [
      ['Chrome', '2'],
      ['Firefox', '1'],
      ['Mobile Safari', '1'],
    ]);
    assert.deepEqual(topList(doc, 'device'), [
      ['Desktop', '3'],
      ['Mobile', '1'],
    ]);
    assert.deepEqual(topList(doc, 'event'), [
      ['Signup', '2'],
      ['Download', '1'],
    ]);
    assert.ok(body.includes(DB_IP), 'countries are shown: DB-IP is credited');
    assert.ok(!body.includes('No visits recorded'));
  });

  test('the chart: two series over every day, named and summarised for screen readers', async () => {
    const { doc } = await open(`/websites/${websiteId}`);
    const svg = trafficChart(doc);
    assert.equal(text(byId(doc, 'traffic-chart-title')!), 'Visitors and pageviews per day, 9 Feb 2026 to 10 Mar 2026');
    assert.equal(
      text(byId(doc, 'traffic-chart-desc')!),
      '4 visitors and 5 pageviews from 9 Feb 2026 to 10 Mar 2026. The busiest day was 9 Mar 2026, with 3 pageviews by 2 visitors.',
    );
    const points = (series: string) => {
      const line = findOne((e) => e.name === 'polyline' && e.attribs.class === `chart-series chart-${series}`, [svg]);
      return line!.attribs.points.split(' ');
    };
    // The plot spans x 56–624 over 30 days and y 210 (0) to 12 (the top of the scale: 3).
    const pageviews = points('pageviews');
    const visitors = points('visitors');
    assert.equal(pageviews.length, 30);
    assert.equal(visitors.length, 30);
    assert.equal(pageviews[0], '56,210');
    assert.deepEqual(pageviews.slice(-2), ['604.4,12', '624,78']);
    assert.deepEqual(visitors.slice(-2), ['604.4,78', '624,78']);
    // The y axis is labelled 0 to 3, the x axis with the first, middle and last days.
    const labels = all(svg, 'text').map(text);
    assert.deepEqual(labels, ['0', '1', '2', '3', '9 Feb 2026', '23 Feb 2026', '10 Mar 2026']);
    // Each day with visits has a marker per series that says its numbers on hover.
    assert.equal(all(svg, 'circle').length, 4);
    const titles = all(svg, 'circle').map((c) => text(one(c, 'title')!));
    assert.ok(titles.includes('9 Mar 2026: 3 pageviews') && titles.includes('9 Mar 2026: 2 visitors'));
  });

  test('?from=&to= chooses the range', async () => {
    const { doc } = await open(`/websites/${websiteId}?from=2026-03-09&to=2026-03-09`);
    assert.deepEqual(totals(doc), { Visitors: '2', Pageviews: '3' });
    assert.equal(inputValue(doc, 'range-from'), '2026-03-09');
    assert.equal(inputValue(doc, 'range-to'), '2026-03-09');
    assert.deepEqual(dataRows(doc), [['9 Mar 2026', '2', '3']]);
    assert.deepEqual(topList(doc, 'page'), [
      ['/', '2'],
      ['/pricing', '1'],
    ]);
    assert.deepEqual(topList(doc, 'event'), [['Signup', '1']]);
    assert.deepEqual(topList(doc, 'country'), [
      ['Germany (DE)', '1'],
      ['United States (US)', '1'],
    ]);
    // One day: a marker per series in the middle, no line.
    const svg = trafficChart(doc);
    assert.equal(all(svg, 'polyline').length, 0);
    assert.deepEqual(
      all(svg, 'circle').map((c) => c.attribs.cx),
      ['340', '340'],
    );

    const second = await open(`/websites/${websiteId}?from=2026-03-10&to=2026-04-30`);
    assert.deepEqual(totals(second.doc), { Visitors: '2', Pageviews: '2' });
    assert.equal(dataRows(second.doc).length, 52, 'a range may reach past today');

    // A leap year of days is the longest range.
    const year = await open(`/websites/${websiteId}?from=2025-03-10&to=2026-03-10`);
    assert.equal(dataRows(year.doc).length, 366);
    assert.equal(inputValue(year.doc, 'range-from'), '2025-03-10');
    assert.equal(all(trafficChart(year.doc), 'circle').length, 0, 'no markers on a long range');
  });

  test('an unusable range falls back to the last 30 days, with a note, never an error', async () => {
    for (const query of [
      'from=2026-02-30&to=2026-03-10',
      'from=2026-03-10&to=2026-03-01',
      'from=2025-03-09&to=2026-03-10',
      'from=abc&to=2026-03-10',
      'from=2026-03-01',
      'to=2026-03-10',
      'from[]=2026-03-01&to=2026-03-10',
      'from=%3Cscript%3E&to=%22%3E',
      'from=20260301&to=2026-3-10',
    ]) {
      const { body, doc } = await open(`/websites/${websiteId}?${query}`);
      assert.equal(inputValue(doc, 'range-from'), '2026-02-09', query);
      assert.equal(inputValue(doc, 'range-to'), '2026-03-10', query);
      assert.deepEqual(totals(doc), { Visitors: '4', Pageviews: '5' }, query);
      assert.match(text(findOne((e) => e.attribs.class === 'notice', [doc])!), /these are the last 30 days/, query);
      assert.ok(!body.includes('<script'), query);
    }
    const blank = await open(`/websites/${websiteId}?from=&to=`);
    assert.ok(!findOne((e) => e.attribs.class === 'notice', [blank.doc]), 'empty fields are no request');
  });

  test('custom properties: the most used one’s values, and a form (no JavaScript) to choose another, keeping the range', async () => {
    const props = (doc: Document) => {
      const section = findOne((e) => e.name === 'section' && e.attribs['aria-labelledby'] === 'top-props-heading', [doc]);
      assert.ok(section, 'the custom properties are shown');
      const form = findOne((e) => e.name === 'form' && e.attribs.class === 'prop-form', [section]);
      const select = form && findOne((e) => e.name === 'select', [form]);
      const hidden = form ? Object.fromEntries(all(form, 'input').map((i) => [i.attribs.name, i.attribs.value])) : {};
      return {
        section,
        form,
        options: select
          ? all(select, 'option').map((o) => `${o.attribs.value}${o.attribs.selected !== undefined ? ' (selected)' : ''}`)
          : [],
        label: select ? text(findOne((e) => e.name === 'label' && e.attribs.for === select.attribs.id, [form!])!) : null,
        hidden,
        rows: topList(doc, 'props'),
        head: all(section, 'th').map(text),
        caption: one(section, 'caption') ? text(one(section, 'caption')!) : null,
      };
    };
    // The last 30 days: plan on 3 events (pro twice), then file and theme once each.
    const shown = props((await open(`/websites/${websiteId}`)).doc);
    assert.deepEqual(shown.options, ['plan (selected)', 'file', 'theme']);
    assert.equal(shown.label, 'Property');
    assert.equal(shown.form!.attribs.method, 'get');
    assert.equal(shown.form!.attribs.action, `/websites/${websiteId}`);
    assert.deepEqual(shown.hidden, { from: '2026-02-09', to: '2026-03-10' }, 'the form keeps the range');
    assert.deepEqual(shown.rows, [
      ['pro', '2'],
      ['free', '1'],
    ]);
    assert.deepEqual(shown.head, ['plan', 'Events']);
    assert.equal(shown.caption, 'Values of the custom property plan, 9 Feb 2026 to 10 Mar 2026');

    // Another property, chosen: the range form and the preset links keep it.
    const theme = await open(`/websites/${websiteId}?from=2026-03-01&to=2026-03-10&prop=theme`);
    const chosen = props(theme.doc);
    assert.deepEqual(chosen.options, ['plan', 'file', 'theme (selected)']);
    assert.deepEqual(chosen.rows, [['dark', '1']]);
    const rangeForm = findOne((e) => e.name === 'form' && e.attribs.class === 'range-form', [theme.doc])!;
    assert.deepEqual(
      all(rangeForm, 'input')
        .filter((i) => i.attribs.type === 'hidden')
        .map((i) => [i.attribs.name, i.attribs.value]),
      [['prop', 'theme']],
    );
    const preset = findOne((e) => e.name === 'a' && text(e) === 'Last 7 days', [theme.doc])!;
    assert.equal(preset.attribs.href, `/websites/${websiteId}?from=2026-03-04&to=2026-03-10&prop=theme`);

    // One day: only that day's properties.
    assert.deepEqual(props((await open(`/websites/${websiteId}?from=2026-03-09&to=2026-03-09`)).doc).rows, [['pro', '1']]);
    // A property nobody sent is offered as asked, with nothing to list.
    const none = props((await open(`/websites/${websiteId}?prop=${encodeURIComponent('size & fit')}`)).doc);
    assert.deepEqual(none.options, ['size & fit (selected)', 'plan', 'file', 'theme']);
    assert.match(text(none.section), /No event carried size & fit in this range/);
  });

  test('values sent from the internet are escaped: page paths, referrers, event names', async () => {
    const id = await createWebsite('xss.example');
    await send('2026-03-10T10:00:00Z', { n: 'pageview', u: 'https://xss.example/a\'"><svg onload=alert(1)>', i: id });
    await send('2026-03-10T10:01:00Z', { n: '<img src=x onerror=alert(2)>', u: 'https://xss.example/', i: id });
    await send('2026-03-10T10:02:00Z', { n: '"><script>alert(3)</script>', u: 'https://xss.example/', i: id });
    await send('2026-03-10T10:02:30Z', {
      n: 'Signup',
      u: 'https://xss.example/',
      i: id,
      p: { '"><b onmouseover=alert(7)>': '<img src=x onerror=alert(8)>' },
    });
    // What collection never stores (it keeps only a referrer's host), written straight to the
    // tables, so the page is tested on worse than the collector lets through.
    const hostile: StoredEvent = {
      ...SAMPLE_FIELDS,
      websiteId: id,
      at: Date.parse('2026-03-10T10:03:00Z'),
      createdAt: '2026-03-10T10:03:00.000000Z',
      day: '2026-03-10',
      hour: '10',
      name: 'pageview',
      page: '/<script>alert(4)</script>',
      visitor: 'hostile-visitor',
      referrer: '"><img src=x onerror=alert(5)>',
      source: null,
      campaign: null,
      browser: '<b onmouseover=alert(6)>',
      os: 'x',
      device: '<i>',
      country: '"><svg>',
      continent: 'Unknown',
      city: null,
      language: null,
      resolution: null,
      props: null,
    };
    await new AnalyticsRepository(t.db.handle.db, t.db.handle.engine, clock).record([hostile]);
    clock.set(Date.parse('2026-03-10T18:00:00Z'));

    const { body, doc } = await open(`/websites/${id}`);
    assert.deepEqual(topList(doc, 'props'), [['<img src=x onerror=alert(8)>', '1']]);
    for (const payload of ['<svg onload', '<img src=x', '<script', '<b onmouseover', '<i>', '"><svg>']) {
      assert.ok(!body.includes(payload), `${payload} is escaped`);
    }
    assert.ok(body.includes('&lt;img src=x onerror=alert(2)&gt;'));
    assert.ok(body.includes('/&lt;script&gt;alert(4)&lt;/script&gt;'));
    assert.ok(body.includes('&quot;&gt;&lt;img src=x onerror=alert(5)&gt;'));
    assert.deepEqual(
      topList(doc, 'event').map((r) => r[0]),
      ['"><script>alert(3)</script>', '<img src=x onerror=alert(2)>', 'Signup'],
    );
    assert.ok(topList(doc, 'page').some((r) => r[0] === "/a'%22%3E%3Csvg%20onload=alert(1)%3E"));
    assert.deepEqual(topList(doc, 'referrer'), [['"><img src=x onerror=alert(5)>', '1']]);
    // Nothing hostile became markup: no event handler attribute, no element it named.
    assert.deepEqual(
      findAll((e) => Object.keys(e.attribs).some((a) => a.startsWith('on')), [doc]).map((e) => e.name),
      [],
    );
    assert.equal(all(doc, 'img').length, 0);
    assert.equal(all(doc, 'b').length, 0);
    assert.equal(all(doc, 'svg').filter((s) => s.attribs.role === 'img').length, 1, 'the chart is the only picture');
  });

  test('a website without visits: the empty state and the snippet, no lists, no credit', async () => {
    const id = await createWebsite('quiet.example');
    const { body, doc } = await open(`/websites/${id}`);
    assert.equal(text(byId(doc, 'traffic-empty-title')!), 'No visits recorded in this range');
    const code = findOne((e) => e.name === 'code' && text(e).includes('/js/script.js'), [doc]);
    assert.equal(text(code!), `<script defer src="http://localhost:80/js/script.js" data-website="${id}"></script>`);
    assert.deepEqual(totals(doc), { Visitors: '0', Pageviews: '0' });
    assert.ok(!findOne((e) => e.attribs['aria-labelledby'] === 'top-page-heading', [doc]), 'no top lists');
    assert.ok(!body.includes('db-ip.com'), 'no countries shown, so no credit');
    assert.ok(!body.includes('<script'), 'the snippet is text, not a script');
    // A Host header that is not a host name is not echoed into the snippet.
    const odd = await page(`/websites/${id}`, { host: 'evil"><x' });
    assert.ok(odd.body.includes('https://YOUR-RANKSCOPE-HOST/js/script.js'));
    // The traffic of one range is empty, the same website's other range is not.
    assert.match((await page(`/websites/${websiteId}?from=2026-01-01&to=2026-01-31`)).body, /No visits recorded in this range/);
  });

  test('privacy: a private website answers 404; a password one shows its traffic only once unlocked', async () => {
    const id = await createWebsite('locked.example', { privacy: '1' });
    await send('2026-03-10T12:00:00Z', { n: 'pageview', u: 'https://locked.example/secret-page', i: id });
    clock.set(Date.parse('2026-03-10T18:00:00Z'));
    const hidden = await page(`/websites/${id}`);
    assert.equal(hidden.statusCode, 404);
    assert.ok(!hidden.body.includes('secret-page'));
    assert.equal((await page(`/websites/${id}?from=2026-03-10&to=2026-03-10`)).statusCode, 404);

    const changed = await t.call(user.key, {
      method: 'PUT',
      url: `/api/v1/websites/${id}`,
      form: { privacy: '2', password: 'site-pw' },
    });
    assert.equal(changed.statusCode, 200, changed.body);
    const form = await page(`/websites/${id}?from=2026-03-10&to=2026-03-10`);
    assert.equal(form.statusCode, 200);
    assert.match(form.body, /Password required/);
    assert.ok(!form.body.includes('secret-page') && !form.body.includes('Visitors'), 'nothing of the traffic before unlocking');

    const unlocked = await t.app.inject({
      method: 'POST',
      url: `/websites/${id}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'password=site-pw',
    });
    assert.equal(unlocked.statusCode, 303);
    const { doc } = await open(`/websites/${id}?from=2026-03-10&to=2026-03-10`, {
      cookie: cookieOf(unlocked.headers['set-cookie']),
    });
    assert.deepEqual(totals(doc), { Visitors: '1', Pageviews: '1' });
    assert.deepEqual(topList(doc, 'page'), [['/secret-page', '1']]);
  });
});

test('the range: two real days, to ≥ from, at most 366 days; otherwise the last 30 days', () => {
  const clock = fixedClock(Date.parse('2024-03-01T23:59:59Z'));
  const fallback = { from: '2024-02-01', to: '2024-03-01', fellBack: true };
  assert.deepEqual(statsRange({}, clock), { ...fallback, fellBack: false }, '30 days, today included (a leap February)');
  assert.deepEqual(statsRange({ from: '2024-02-29', to: '2024-02-29' }, clock), {
    from: '2024-02-29',
    to: '2024-02-29',
    fellBack: false,
  });
  assert.deepEqual(statsRange({ from: ' 2023-03-02 ', to: '2024-03-01' }, clock), {
    from: '2023-03-02',
    to: '2024-03-01',
    fellBack: false,
  });
  assert.deepEqual(statsRange({ from: '2023-03-01', to: '2024-03-01' }, clock), fallback, '367 days');
  assert.deepEqual(statsRange({ from: '2023-02-29', to: '2023-03-01' }, clock), fallback, 'not a day');
  assert.deepEqual(statsRange({ from: ['2024-02-01'], to: '2024-03-01' }, clock), fallback);
  assert.deepEqual(statsRange({ from: '2024-02-01', to: undefined }, clock), fallback);
});

/** Every top list, empty. */
function emptyLists(): Record<TopListName, TopList> {
  const lists = {} as Record<TopListName, TopList>;
  for (const name of TOP_LISTS) lists[name] = { total: 0, rows: [] };
  return lists;
}

test('a top list shows its first 10 values and says how many there are', () => {
  const none = { total: 0, rows: [] };
  const pages = Array.from({ length: 12 }, (_, i) => ({ value: `/p${i}`, count: 20 - i }));
  const traffic: WebsiteTraffic = {
    from: '2026-03-10',
    to: '2026-03-10',
    today: '2026-03-10',
    fellBack: false,
    days: [{ day: '2026-03-10', visitors: 5, pageviews: 12 }],
    lists: { ...emptyLists(), page: { total: 12, rows: pages } },
    props: { keys: none, key: null, asked: null, values: none },
    origin: 'https://rankscope.test',
  };
  const doc = assertPageBasics(renderWebsitePage({ id: 3, domain: 'many.example' }, [], { traffic }), { noindex: false });
  assert.equal(topList(doc, 'page').length, 10);
  const heading = byId(doc, 'top-page-heading')!;
  assert.equal(text(one(heading.parent as Element, 'p')!), 'Top 10 of 12');
  assert.match(text(findOne((e) => e.attribs['aria-labelledby'] === 'top-referrer-heading', [doc])!), /None in this range/);
  // No custom property in the range: no form, and the list says so like the others.
  const props = findOne((e) => e.attribs['aria-labelledby'] === 'top-props-heading', [doc])!;
  assert.match(text(props), /Custom properties None in this range/);
  assert.equal(one(props, 'form'), null);
  // The preset for the range shown is marked as the current one.
  const current = findAll((e) => e.name === 'a' && e.attribs['aria-current'] === 'page', [doc]);
  assert.deepEqual(
    current.map((a) => text(a)),
    [],
    'a one-day range is none of the presets',
  );
});

test('the y scale: round steps, at most four above zero', () => {
  assert.deepEqual(yScale(0), { step: 1, top: 4 });
  assert.deepEqual(yScale(3), { step: 1, top: 3 });
  assert.deepEqual(yScale(7), { step: 2, top: 8 });
  assert.deepEqual(yScale(10), { step: 5, top: 10 });
  assert.deepEqual(yScale(1234), { step: 500, top: 1500 });
  assert.deepEqual(yScale(40_000), { step: 10_000, top: 40_000 });
});
