// The dimension registry (src/model/dimensions.ts) drives the stats: what the API's `name`
// accepts, what rollUp counts, what the collector stores and the writer's columns, and the share
// page's and dashboard's tables. A dimension added there shows up in each of them.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { StatsQuery } from '../../src/api/schemas/stats.js';
import { EVENT_COLUMNS } from '../../src/db/analytics-batch.js';
import {
  DIMENSIONS,
  type DimensionSpec,
  deriveFields,
  EVENT_FIELD_NAMES,
  type EventFields,
  type EventSources,
  LISTED_DIMENSIONS,
} from '../../src/model/dimensions.js';
import { rollUp, type StoredEvent } from '../../src/model/rollup.js';
import { TOP_LISTS } from '../../src/render/index.js';
import { renderTraffic } from '../../src/render/traffic.js';
import { STAT_NAMES, type StatsQuery as Query, statName } from '../../src/tracking/stats-service.js';
import { loadTraffic } from '../../src/web/website-traffic.js';
import { testDatabase } from '../helpers/database.js';

const specs: readonly DimensionSpec[] = DIMENSIONS;

test('names, aliases and rollup keys are unique; each field is one the event stores', () => {
  const names = specs.flatMap((d) => [d.name, ...(d.aliases ?? [])]);
  assert.equal(new Set(names).size, names.length, names.join(', '));
  const keys = specs.map((d) => d.key);
  assert.equal(new Set(keys).size, keys.length, keys.join(', '));
  for (const d of specs) {
    if (d.field !== undefined) assert.ok(d.field === 'hour' || EVENT_FIELD_NAMES.includes(d.field), `${d.name}: ${d.field}`);
    if (d.list) assert.ok(!d.internal, `${d.name}: a table of a name the API lacks`);
  }
  const orders = LISTED_DIMENSIONS.map((d) => d.list.order);
  assert.equal(new Set(orders).size, orders.length, 'each table has a place of its own');
});

test('the stats `name` accepts every dimension of the API and its aliases, and nothing else', () => {
  // The enum the validator and the OpenAPI document take the names from.
  const accepted = new Set<unknown>((StatsQuery.properties.name as unknown as { enum: unknown[] }).enum);
  for (const d of specs) {
    assert.equal(accepted.has(d.name), !d.internal, d.name);
    assert.equal(statName(d.name), d.internal ? null : d.name, d.name);
    for (const alias of d.aliases ?? []) {
      assert.ok(accepted.has(alias), alias);
      assert.equal(statName(alias), d.name, alias);
    }
  }
  assert.deepEqual(
    STAT_NAMES,
    specs.filter((d) => !d.internal).map((d) => d.name),
  );
  assert.ok(!accepted.has('prop_key'));
  assert.equal(accepted.size, STAT_NAMES.length + specs.flatMap((d) => d.aliases ?? []).length);
});

test('every listed dimension is read for the share page and the dashboard, and shown as a table, in order', async () => {
  const asked: string[] = [];
  const stats = {
    query: async (q: Query) => {
      asked.push(q.name);
      const value = q.name === 'visitors' || q.name === 'pageviews' ? '2026-05-01' : `value-of-${q.name}`;
      return { total: 1, rows: [{ value, count: 3 }] };
    },
  };
  const range = { from: '2026-05-01', to: '2026-05-01', fellBack: false };
  const traffic = await loadTraffic(stats, 1, range, { today: '2026-05-01', origin: 'https://stats.test' });
  assert.deepEqual(
    TOP_LISTS,
    LISTED_DIMENSIONS.map((d) => d.name),
  );
  for (const d of LISTED_DIMENSIONS) {
    assert.ok(asked.includes(d.name), d.name);
    assert.equal(traffic.lists[d.name].rows[0].value, `value-of-${d.name}`);
  }
  const page = String(renderTraffic(1, traffic));
  let at = -1;
  for (const d of LISTED_DIMENSIONS) {
    const title = page.indexOf(`<h2 id="top-${d.name}-heading">${d.list.title}</h2>`);
    assert.ok(title > at, `${d.name}: its table, after the one before`);
    at = title;
    assert.ok(page.includes(`<th scope="col">${d.list.column}</th><th scope="col" class="num">${d.list.unit}</th>`), d.name);
  }
});

test('an event stores every registry field, and rollUp counts it under every dimension that reads one', () => {
  const sources: EventSources = {
    name: 'pageview',
    url: new URL('https://example.test/p?utm_source=s'),
    page: { page: '/p', referrer: 'ref.test', source: 's', campaign: 'c' },
    agent: { browser: 'Firefox', os: 'Linux', device: 'desktop' },
    place: { country: 'DE', continent: 'EU', city: 'Berlin' },
    body: { language: 'de', screenWidth: 800, screenHeight: 600, props: { plan: 'pro' } },
  };
  const fields = deriveFields(sources);
  assert.deepEqual(Object.keys(fields), EVENT_FIELD_NAMES);
  for (const field of ['name', 'page', 'referrer', 'browser', 'country', 'language', 'resolution'] as const) {
    assert.notEqual(fields[field], null, field);
  }

  // Every field a value of its own (props a JSON object of one key), whatever derives it.
  const filled = Object.fromEntries(EVENT_FIELD_NAMES.map((field) => [field, `v-${field}`])) as unknown as EventFields;
  const base = { websiteId: 1, at: 0, createdAt: '2026-05-01T10:00:00.000000Z', day: '2026-05-01', hour: '10', visitor: 'v' };
  const pageview: StoredEvent = { ...base, ...filled, name: 'pageview', props: '{"plan":"pro"}' };
  const custom: StoredEvent = { ...pageview, name: 'Signup' };
  const counted = new Set(rollUp([pageview, custom], new Map()).increments.map((r) => `${r.dimension}=${r.value}`));
  for (const d of specs) {
    if (d.counts === 'prop') continue; // a property's own keys (propDimension), tested in rollup.test.ts
    const event = d.counts === 'event' ? custom : pageview;
    const value =
      d.field === undefined ? '' : d.field === 'hour' ? event.hour : d.counts === 'prop-key' ? 'plan' : event[d.field];
    assert.ok(counted.has(`${d.key}=${value}`), `${d.name}: ${d.key}=${value} in ${[...counted].join(', ')}`);
  }
});

test('the writer writes every registry field into a column of analytics_events', async (t) => {
  const db = await testDatabase();
  after(() => db.cleanup());
  const tables = await db.handle.db.introspection.getTables();
  const columns = new Set(tables.find((table) => table.name === 'analytics_events')?.columns.map((c) => c.name));
  for (const column of EVENT_COLUMNS) assert.ok(columns.has(column), column);
  t.diagnostic(`${EVENT_COLUMNS.length} columns`);
});
