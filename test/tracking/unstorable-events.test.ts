// Events a database cannot store as sent never cost other events: a NUL in any field is removed
// and the event stored (PostgreSQL refuses a NUL, and with it every row of the transaction), and
// an event the database still refuses fails alone while the rest of its batch is stored. Runs on
// SQLite (the write thread) and, with TEST_DATABASE_URL, on PostgreSQL (record() in process).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { AnalyticsRepository } from '../../src/db/analytics-repository.js';
import { SAMPLE_FIELDS } from '../../src/model/dimensions.js';
import type { StoredEvent } from '../../src/model/rollup.js';
import { fixedClock } from '../../src/time.js';
import { type TestApp, testApp } from '../helpers/app.js';
import { refuseEventsWithPage } from '../helpers/refusing-trigger.js';

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
const DAY = '2026-03-10';

describe('events a database cannot store as sent', () => {
  let t: TestApp;
  let key: string;
  const clock = fixedClock(Date.parse(`${DAY}T09:15:00Z`));

  const send = (body: unknown, sender: number) =>
    t.app.inject({
      method: 'POST',
      url: '/api/event',
      headers: { 'content-type': 'application/json', 'user-agent': CHROME, 'x-forwarded-for': `198.51.100.${sender}` },
      payload: JSON.stringify(body),
    });
  const website = async (domain: string) => {
    const created = await t.call(key, { method: 'POST', url: '/api/v1/websites', form: { domain } });
    assert.equal(created.statusCode, 201, created.body);
    return created.json().data.id as number;
  };
  const events = (websiteId: number) =>
    t.db.handle.db.selectFrom('analytics_events').selectAll().where('website_id', '=', websiteId).orderBy('id').execute();
  const counted = async (websiteId: number, dimension: string) =>
    (
      await t.db.handle.db
        .selectFrom('analytics_rollups')
        .select(['value', 'count'])
        .where('website_id', '=', websiteId)
        .where('dimension', '=', dimension)
        .execute()
    )
      .map((r) => `${r.value}=${Number(r.count)}`)
      .sort();

  before(async () => {
    t = await testApp({ TRUST_PROXY: '1', EVENT_RATE_LIMIT: '0' }, { clock });
    ({ key } = await t.account());
    await refuseEventsWithPage(t.db.handle, '/refused');
  });
  after(() => t.close());

  test('40 events sent beside events with a NUL in every field: all 202, all stored and counted, no NUL kept', async () => {
    const id = await website('nul.example');
    const normal = Array.from({ length: 40 }, (_, i) => ({ n: 'pageview', u: `https://nul.example/page/${i}`, i: id }));
    const withNul = [
      { n: 'page\u0000view', u: 'https://nul.example/name', i: id },
      { n: 'pageview', u: 'https://nul.example/utm?utm_source=%00news%00letter&utm_campaign=%00', i: id },
      { n: 'sign\u0000up', u: 'https://nul.example/props', i: id, p: { 'pl\u0000an': 'pr\u0000o', '\u0000': 'dropped' } },
      { n: 'pageview', u: 'https://nul.example/a\u0000b', i: id, r: 'https://ref.example/\u0000x', l: 'en\u0000-us' },
      { n: 'pageview', u: 'https://nul.example/domain', d: 'nul.example\u0000' },
    ];
    // Sent together, so the writer batches NUL events and normal ones into the same transactions.
    const answers = await Promise.all([...normal, ...withNul].map((body, i) => send(body, i + 1)));
    for (const [i, res] of answers.entries()) {
      assert.equal(res.statusCode, 202, `event ${i}: ${res.body}`);
      assert.equal(res.headers['x-event-dropped'], undefined, `event ${i}`);
    }

    const rows = await events(id);
    assert.equal(rows.length, normal.length + withNul.length, 'every event stored');
    assert.ok(
      rows.every((row) => Object.values(row).every((v) => typeof v !== 'string' || !v.includes('\u0000'))),
      'no stored text holds a NUL',
    );
    const byPage = new Map(rows.map((row) => [row.page, row]));
    assert.equal(byPage.get('/name')?.name, 'pageview');
    assert.equal(byPage.get('/utm')?.source, 'newsletter');
    assert.equal(byPage.get('/utm')?.campaign, null, 'a campaign of NULs only is no campaign');
    assert.equal(byPage.get('/props')?.name, 'signup');
    assert.deepEqual(JSON.parse(byPage.get('/props')?.props ?? 'null'), { plan: 'pro' });
    assert.equal(byPage.get('/ab')?.referrer, 'ref.example');
    assert.equal(byPage.get('/ab')?.language, 'en-US');
    assert.ok(byPage.has('/domain'), 'found by its domain once the NUL is removed');

    assert.deepEqual(await counted(id, 'pageviews'), [`=${normal.length + withNul.length - 1}`]);
    assert.deepEqual(await counted(id, 'event'), ['signup=1']);
    assert.deepEqual(await counted(id, 'source'), ['newsletter=1', 'ref.example=1']);
  });

  test('an event the database refuses fails alone: the 40 sent beside it are acknowledged, stored and counted', async () => {
    const id = await website('refused.example');
    const bodies = Array.from({ length: 41 }, (_, i) => ({
      n: 'pageview',
      u: `https://refused.example/${i === 20 ? 'refused' : `page/${i}`}`,
      i: id,
    }));
    const answers = await Promise.all(bodies.map((body, i) => send(body, i + 1)));
    const statuses = answers.map((res) => res.statusCode);
    assert.equal(statuses[20], 503, answers[20].body);
    assert.equal(answers[20].headers['retry-after'], '1');
    assert.deepEqual(
      statuses.filter((_, i) => i !== 20),
      Array(40).fill(202),
    );
    const rows = await events(id);
    assert.equal(rows.length, 40);
    assert.ok(!rows.some((row) => row.page === '/refused'));
    assert.deepEqual(await counted(id, 'pageviews'), ['=40'], 'counted in the same transactions as stored');
    assert.equal((await counted(id, 'page')).length, 40);
  });

  test('record() stores the rest of a batch the database refuses one event of, and names that event', async () => {
    const id = await website('record.example');
    const repo = new AnalyticsRepository(t.db.handle.db, t.db.handle.engine, clock);
    const event = (page: string, visitor: string): StoredEvent => ({
      ...SAMPLE_FIELDS,
      websiteId: id,
      at: Date.parse(`${DAY}T10:00:00Z`),
      createdAt: `${DAY}T10:00:00.000000Z`,
      day: DAY,
      hour: '10',
      name: 'pageview',
      page,
      visitor,
      referrer: null,
      source: null,
      campaign: null,
      browser: 'Firefox',
      os: 'Linux',
      device: 'desktop',
      country: 'DE',
      continent: 'EU',
      city: null,
      language: null,
      resolution: null,
      props: null,
    });
    const batch = ['/one', '/two', '/refused', '/three', '/four', '/five', '/refused', '/six'].map((page, i) =>
      event(page, `v${i % 3}`),
    );
    const failures = await repo.record(batch);
    assert.deepEqual(
      failures.map((f) => f.index),
      [2, 6],
    );
    assert.match(failures[0].error.message, /refused by the test trigger/);
    assert.deepEqual(
      (await events(id)).map((row) => row.page),
      ['/one', '/two', '/three', '/four', '/five', '/six'],
    );
    assert.deepEqual(await counted(id, 'pageviews'), ['=6']);
    assert.deepEqual(await counted(id, 'visitors'), ['=3']);
  });
});
