// GET /api/v1/stats/{website}?name=prop&prop=<key> (Plausible's custom properties): the values of
// one property across the range's events, each counting the events that carried it; `event=`
// narrows them to one event name. Fed through POST /api/event with the clock moved, read from
// the rollups (the raw events are pruned before the last reads), over closed days and today.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { fixedClock } from '../../src/time.js';
import { type TestApp, testApp } from '../helpers/app.js';

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';

type Event = [at: string, ip: string, body: Record<string, unknown>];

const page = (path: string) => `https://props.example${path}`;
/** Two closed days and today (2026-06-03, where the clock stays for the reads). */
const EVENTS: Event[] = [
  ['2026-06-01T09:00:00Z', '8.8.8.8', { n: 'pageview', u: page('/'), p: { plan: 'pro', logged_in: true } }],
  ['2026-06-01T09:05:00Z', '8.8.8.8', { n: 'Signup', u: page('/pricing'), p: { plan: 'pro', seats: 3 } }],
  ['2026-06-01T10:00:00Z', '8.8.4.4', { n: 'Signup', u: page('/pricing'), p: JSON.stringify({ plan: 'team', seats: 10 }) }],
  ['2026-06-02T11:00:00Z', '1.1.1.1', { n: 'Download', u: page('/docs'), p: { plan: 'free', file: 'guide.pdf' } }],
  ['2026-06-02T11:30:00Z', '1.1.1.1', { n: 'pageview', u: page('/docs'), p: { plan: 'free' } }],
  ['2026-06-03T08:00:00Z', '9.9.9.9', { n: 'pageview', u: page('/') }],
  ['2026-06-03T08:01:00Z', '9.9.9.9', { n: 'Signup', u: page('/pricing'), p: { plan: 'Team', logged_in: false } }],
  // Outside the range.
  ['2026-06-04T08:00:00Z', '9.9.9.9', { n: 'Signup', u: page('/'), p: { plan: 'later' } }],
];

describe('stats of a custom property: name=prop', () => {
  let t: TestApp;
  let key: string;
  let id: number;
  const clock = fixedClock(Date.parse('2026-06-01T00:00:00Z'));

  const get = (params: Record<string, string>, apiKey = key, website: number | string = id) =>
    t.call(apiKey, { method: 'GET', url: `/api/v1/stats/${website}?${new URLSearchParams(params)}` });
  const rows = async (params: Record<string, string>): Promise<string[]> => {
    const res = await get({ name: 'prop', from: '2026-06-01', to: '2026-06-03', per_page: '100', ...params });
    assert.equal(res.statusCode, 200, res.body);
    return (res.json().data as { value: string; count: number }[]).map((r) => `${r.value}=${r.count}`);
  };

  before(async () => {
    t = await testApp({ TRUST_PROXY: '1' }, { clock });
    ({ key } = await t.account());
    const created = await t.call(key, { method: 'POST', url: '/api/v1/websites', form: { domain: 'props.example' } });
    assert.equal(created.statusCode, 201, created.body);
    id = created.json().data.id;
    for (const [at, ip, body] of EVENTS) {
      clock.set(Date.parse(at));
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/event',
        headers: { 'content-type': 'text/plain', 'user-agent': CHROME, 'x-forwarded-for': ip },
        payload: JSON.stringify({ ...body, d: 'props.example', w: 1280 }),
      });
      assert.equal(res.statusCode, 202, res.body);
      assert.equal(res.headers['x-event-dropped'], undefined, at);
    }
    clock.set(Date.parse('2026-06-03T12:00:00Z'));
  });

  test('the values of one property across the events, pageviews included, each counting the events that carried it', async () => {
    assert.deepEqual(await rows({ prop: 'plan' }), ['free=2', 'pro=2', 'Team=1', 'team=1']);
    assert.deepEqual(await rows({ prop: 'seats' }), ['10=1', '3=1']);
    assert.deepEqual(await rows({ prop: 'logged_in' }), ['false=1', 'true=1']);
    assert.deepEqual(await rows({ prop: 'file' }), ['guide.pdf=1']);
    assert.deepEqual(await rows({ prop: 'nobody-sends-this' }), []);
    // One day: closed, and today alone.
    assert.deepEqual(await rows({ prop: 'plan', from: '2026-06-01', to: '2026-06-01' }), ['pro=2', 'team=1']);
    assert.deepEqual(await rows({ prop: 'plan', from: '2026-06-03', to: '2026-06-03' }), ['Team=1']);
  });

  test('event=<name> narrows them to one event name (pageview included)', async () => {
    assert.deepEqual(await rows({ prop: 'plan', event: 'Signup' }), ['Team=1', 'pro=1', 'team=1']);
    assert.deepEqual(await rows({ prop: 'plan', event: 'pageview' }), ['free=1', 'pro=1']);
    assert.deepEqual(await rows({ prop: 'plan', event: 'Download' }), ['free=1']);
    assert.deepEqual(await rows({ prop: 'plan', event: 'Nothing' }), []);
    assert.deepEqual(await rows({ prop: 'seats', event: 'Signup' }), ['10=1', '3=1']);
  });

  test('search, order, paging links and CSV work as for every other name', async () => {
    assert.deepEqual(await rows({ prop: 'plan', search: 'TEA' }), ['Team=1', 'team=1']);
    // Values in code point order: `T` before `f`.
    assert.deepEqual(await rows({ prop: 'plan', sort_by: 'value', sort: 'asc' }), ['Team=1', 'free=2', 'pro=2', 'team=1']);
    const res = await get({ name: 'prop', prop: 'plan', event: 'Signup', from: '2026-06-01', to: '2026-06-03', per_page: '10' });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    assert.equal(body.meta.total, 3);
    const first = new URL(body.links.first);
    assert.equal(first.searchParams.get('prop'), 'plan');
    assert.equal(first.searchParams.get('event'), 'Signup');
    const csv = await get({ name: 'prop', prop: 'plan', from: '2026-06-01', to: '2026-06-03', format: 'csv' });
    assert.equal(csv.statusCode, 200);
    assert.equal(csv.body, 'value,count\r\nfree,2\r\npro,2\r\nTeam,1\r\nteam,1\r\n');
    assert.match(String(csv.headers['content-disposition']), /stats-prop-2026-06-01-2026-06-03\.csv/);
  });

  test('prop is required with name=prop (422, Laravel’s words); a key holding NUL matches nothing', async () => {
    for (const params of [{}, { prop: '' }, { prop: '   ' }] as Record<string, string>[]) {
      const res = await get({ name: 'prop', from: '2026-06-01', to: '2026-06-03', ...params });
      assert.equal(res.statusCode, 422, res.body);
      assert.deepEqual(res.json().errors, { prop: ['The prop field is required when name is prop.'] });
    }
    const long = await get({ name: 'prop', prop: 'k'.repeat(65), from: '2026-06-01', to: '2026-06-03' });
    assert.equal(long.statusCode, 422);
    assert.ok(long.json().errors.prop, long.body);
    assert.deepEqual(await rows({ prop: 'pl\u0000an' }), []);
    assert.deepEqual(await rows({ prop: 'plan', event: 'Sign\u0000up' }), []);
    // Other names need no prop, and ignore one.
    const event = await get({ name: 'event', from: '2026-06-01', to: '2026-06-03', prop: 'plan' });
    assert.equal(event.statusCode, 200, event.body);
    assert.deepEqual(
      event.json().data.map((r: { value: string; count: number }) => `${r.value}=${r.count}`),
      ['Signup=3', 'Download=1'],
    );
    // Another account's website: 404 before any 422.
    const other = await t.account();
    const res = await get({ name: 'prop', from: '2026-06-01', to: '2026-06-03' }, other.key);
    assert.equal(res.statusCode, 404);
  });

  test('read from the rollups alone: the same answers once the raw events are pruned', async () => {
    await t.db.handle.db.deleteFrom('analytics_events').where('website_id', '=', id).execute();
    assert.deepEqual(await rows({ prop: 'plan' }), ['free=2', 'pro=2', 'Team=1', 'team=1']);
    assert.deepEqual(await rows({ prop: 'plan', event: 'Signup' }), ['Team=1', 'pro=1', 'team=1']);
  });
});
