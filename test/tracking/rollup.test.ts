// The counting rules (docs/api.md#stats), on literal events: what each pageview and custom event
// adds to the rollups, visits and their landing pages, a visitor once per value per day.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SAMPLE_FIELDS } from '../../src/model/dimensions.js';
import {
  MAX_SEEN_PER_DIMENSION,
  propDimension,
  rollUp,
  type StoredEvent,
  type VisitorState,
  visitorKey,
} from '../../src/model/rollup.js';

const T0 = Date.parse('2026-05-01T10:00:00Z');
const MIN = 60_000;

function event(over: Partial<StoredEvent> = {}): StoredEvent {
  return {
    ...SAMPLE_FIELDS,
    websiteId: 1,
    at: T0,
    createdAt: '2026-05-01T10:00:00.000000Z',
    day: '2026-05-01',
    hour: '10',
    name: 'pageview',
    page: '/',
    visitor: 'v1',
    referrer: null,
    source: null,
    campaign: null,
    browser: 'Firefox',
    os: 'Linux',
    device: 'desktop',
    country: 'DE',
    continent: 'EU',
    city: null,
    language: 'de-DE',
    resolution: '1280x800',
    props: null,
    ...over,
  };
}

/** The increments as "dimension value=count" strings, sorted, for readable comparisons. */
function counted(events: StoredEvent[], visitors = new Map<string, VisitorState>()): string[] {
  return rollUp(events, visitors)
    .increments.map((r) => `${r.dimension} ${r.value}=${r.count}`)
    .sort();
}

test('one pageview: the day, the hour, the page, a visitor, a visit, and the visitor under each value', () => {
  assert.deepEqual(counted([event({ referrer: 'duckduckgo.com', source: 'duckduckgo.com' })]), [
    'browser Firefox=1',
    'continent EU=1',
    'country DE=1',
    'device desktop=1',
    'landing_page /=1',
    'language de-DE=1',
    'os Linux=1',
    'page /=1',
    'pageviews =1',
    'pageviews_hours 10=1',
    'referrer duckduckgo.com=1',
    'resolution 1280x800=1',
    'source duckduckgo.com=1',
    'visitors =1',
    'visitors_hours 10=1',
  ]);
});

test('a second pageview of the same visitor within 30 minutes: pageviews only', () => {
  assert.deepEqual(
    counted([event(), event({ at: T0 + 29 * MIN, page: '/b' })]).filter(
      (s) => !s.match(/^(browser|continent|country|device|language|os|resolution)/),
    ),
    ['landing_page /=1', 'page /=1', 'page /b=1', 'pageviews =2', 'pageviews_hours 10=2', 'visitors =1', 'visitors_hours 10=1'],
  );
});

test('after 31 minutes without a pageview a new visit starts on its page; the visitor is still one', () => {
  const rows = counted([event(), event({ at: T0 + 31 * MIN, page: '/later', hour: '10' })]);
  assert.ok(rows.includes('landing_page /=1'));
  assert.ok(rows.includes('landing_page /later=1'));
  assert.ok(rows.includes('visitors =1'));
});

test('the visit gap is measured from the last pageview, not the first', () => {
  const rows = counted([event(), event({ at: T0 + 20 * MIN }), event({ at: T0 + 40 * MIN, page: '/c' })]);
  assert.ok(!rows.some((r) => r.startsWith('landing_page /c')), rows.join(', '));
});

test('a visitor already seen today (a stored row) adds no visitor and no value it was counted under', () => {
  const visitors = new Map<string, VisitorState>([
    [visitorKey(1, '2026-05-01', 'v1'), { lastSeen: T0 - 5 * MIN, seen: { browser: ['Firefox'], visitors_hours: ['10'] } }],
  ]);
  const rows = counted([event({ os: 'Linux' })], visitors);
  assert.ok(!rows.includes('visitors =1'));
  assert.ok(!rows.some((r) => r.startsWith('landing_page')), 'same visit');
  assert.ok(!rows.some((r) => r.startsWith('browser')));
  assert.ok(!rows.some((r) => r.startsWith('visitors_hours')));
  assert.ok(rows.includes('os Linux=1'), 'a value not yet seen is counted');
  assert.equal(visitors.get(visitorKey(1, '2026-05-01', 'v1'))?.lastSeen, T0);
});

test('the same visitor id on another day (or website) is another visitor', () => {
  const nextDay = event({ day: '2026-05-02', at: T0 + 24 * 60 * MIN });
  const visitors = rollUp([event(), nextDay, event({ websiteId: 2 })], new Map()).increments.filter(
    (r) => r.dimension === 'visitors',
  );
  assert.deepEqual(visitors.map((r) => `${r.websiteId} ${r.day} ${r.count}`).sort(), [
    '1 2026-05-01 1',
    '1 2026-05-02 1',
    '2 2026-05-01 1',
  ]);
});

test('custom events count under event only: no pageview, no visitor, no visit', () => {
  const visitors = new Map<string, VisitorState>();
  assert.deepEqual(counted([event({ name: 'Signup' }), event({ name: 'Signup' }), event({ name: 'Download' })], visitors), [
    'event Download=1',
    'event Signup=2',
  ]);
  assert.equal(visitors.size, 0);
});

test('a visitor counts under at most MAX_SEEN_PER_DIMENSION values of one dimension a day', () => {
  const events = Array.from({ length: MAX_SEEN_PER_DIMENSION + 20 }, (_, i) => event({ referrer: `r${i}.example`, at: T0 + i }));
  const referrers = rollUp(events, new Map()).increments.filter((r) => r.dimension === 'referrer');
  assert.equal(referrers.length, MAX_SEEN_PER_DIMENSION);
});

test('null values (no referrer, no campaign, no city) make no rows', () => {
  const rows = counted([event({ language: null, resolution: null })]);
  assert.ok(!rows.some((r) => /^(referrer|source|campaign|city|language|resolution) /.test(r)), rows.join(', '));
});

test('custom properties: every event (pageviews too) counts once under each key, its value over all events and under its event name', () => {
  const increments = rollUp(
    [
      event({ props: JSON.stringify({ plan: 'pro', seats: 3, beta: 'true' }) }),
      event({ name: 'Signup', visitor: 'v2', props: JSON.stringify({ plan: 'pro' }) }),
      event({ name: 'Signup', visitor: 'v3', props: JSON.stringify({ plan: 'team' }) }),
    ],
    new Map(),
  ).increments.filter((r) => r.dimension.startsWith('prop'));
  assert.deepEqual(increments.map((r) => `${r.dimension} ${r.value}=${r.count}${r.propKey ? ` (${r.propKey})` : ''}`).sort(), [
    'prop:4:beta true=1 (beta)',
    'prop:4:beta:pageview true=1 (beta)',
    'prop:4:plan pro=2 (plan)',
    'prop:4:plan team=1 (plan)',
    'prop:4:plan:Signup pro=1 (plan)',
    'prop:4:plan:Signup team=1 (plan)',
    'prop:4:plan:pageview pro=1 (plan)',
    'prop:5:seats 3=1 (seats)',
    'prop:5:seats:pageview 3=1 (seats)',
    'prop_key beta=1',
    'prop_key plan=3',
    'prop_key seats=1',
  ]);
  // A key's own row comes before its values' (the value cap decides the key first).
  const order = increments.map((r) => r.dimension);
  assert.ok(order.indexOf('prop_key') < order.indexOf('prop:4:plan'));
});

test('a property’s dimension names its key and event name unambiguously', () => {
  assert.equal(propDimension('plan'), 'prop:4:plan');
  assert.equal(propDimension('plan', 'Signup'), 'prop:4:plan:Signup');
  // A key holding a colon cannot pass for a key and an event name.
  assert.notEqual(propDimension('a:b'), propDimension('a', 'b'));
  assert.notEqual(propDimension('a:b', 'c'), propDimension('a', 'b:c'));
});
