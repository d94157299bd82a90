// What one account may take, through the API and the dashboard alike: the dashboard's forms count
// against the account's API budget a minute (its page views do not), at most MAX_MONITORS
// monitors, and "run now" of one monitor at most once a minute, shared across instances.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { type DashboardClient, signedInClient } from '../helpers/dashboard.js';
import { hasRedisServer, startRedis } from '../helpers/redis.js';
import { seedReport } from '../helpers/seed.js';

const MAX = 3;
const tooMany = `The account already has ${MAX} monitors, the most it may have.`;

const monitorCount = async (t: TestApp, userId: number) => (await t.services.repos.monitors.list(userId, 100, 0)).total;

function assertRetryAfter(res: { headers: Record<string, unknown> }) {
  const seconds = Number(res.headers['retry-after']);
  assert.ok(Number.isInteger(seconds) && seconds >= 1 && seconds <= 60, `Retry-After ${res.headers['retry-after']}`);
}

describe('the dashboard counts against the API budget a minute (RATE_LIMIT_PER_MINUTE=3)', () => {
  let t: TestApp;
  let browser: DashboardClient;
  let reportId: number;

  before(async () => {
    t = await testApp({ RATE_LIMIT_PER_MINUTE: '3', MAX_MONITORS: '100' });
    browser = await signedInClient(t);
    reportId = (await seedReport(t.db.handle, browser.account.id)).id;
  });
  after(() => t.close());

  test('page views do not count; each form counts as its API call; past the budget a 429 page saying so, nothing stored', async () => {
    for (let i = 0; i < 8; i++) assert.equal((await browser.get('/app/monitors')).statusCode, 200, `page view ${i + 1}`);
    for (let i = 0; i < 3; i++) {
      const res = await browser.post('/app/monitors', { report_id: String(reportId), frequency: 'weekly' });
      assert.equal(res.statusCode, 303, `create ${i + 1}`);
    }
    const refused = await browser.post('/app/monitors', { report_id: String(reportId), frequency: 'weekly' });
    assert.equal(refused.statusCode, 429, refused.body.slice(0, 300));
    assertRetryAfter(refused);
    assert.match(refused.body, /<h1 id="page-title">Too many changes<\/h1>/);
    assert.match(refused.body, /its 3 changes of the last minute/);
    assert.match(refused.body, /Nothing was changed\./);
    assert.equal(refused.body.match(/<h1[ >]/g)?.length, 1);
    assert.equal(await monitorCount(t, browser.account.id), 3);
    // One budget: the account's API key is out of it too.
    const api = await t.call(browser.account.key, { method: 'GET', url: '/api/v1/monitors' });
    assert.equal(api.statusCode, 429);
    // Pages still open.
    assert.equal((await browser.get('/app/monitors')).statusCode, 200);
  });
});

describe(`at most MAX_MONITORS (${MAX}) monitors per account`, () => {
  let t: TestApp;
  before(async () => {
    t = await testApp({ MAX_MONITORS: String(MAX) });
  });
  after(() => t.close());

  test('the API: past it a 422 on report_id; deleting one makes room', async () => {
    const { id, key } = await t.account();
    const report = await seedReport(t.db.handle, id);
    const create = () =>
      t.call(key, { method: 'POST', url: '/api/v1/monitors', form: { report_id: String(report.id), frequency: 'daily' } });
    const ids: number[] = [];
    for (let i = 0; i < MAX; i++) {
      const res = await create();
      assert.equal(res.statusCode, 201, res.body);
      ids.push(res.json().data.id);
    }
    const refused = await create();
    assert.equal(refused.statusCode, 422, refused.body);
    assert.deepEqual(refused.json(), { message: tooMany, errors: { report_id: [tooMany] }, status: 422 });
    assert.equal(await monitorCount(t, id), MAX);
    assert.equal((await t.call(key, { method: 'DELETE', url: `/api/v1/monitors/${ids[0]}` })).statusCode, 200);
    assert.equal((await create()).statusCode, 201);
    // Another account has its own allowance.
    const other = await t.account();
    const theirs = await seedReport(t.db.handle, other.id);
    const res = await t.call(other.key, {
      method: 'POST',
      url: '/api/v1/monitors',
      form: { report_id: String(theirs.id), frequency: 'daily' },
    });
    assert.equal(res.statusCode, 201);
  });

  test('20 creates sent at once: exactly the allowance is stored', async () => {
    const { id, key } = await t.account();
    const report = await seedReport(t.db.handle, id);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        t.call(key, { method: 'POST', url: '/api/v1/monitors', form: { report_id: String(report.id), frequency: 'weekly' } }),
      ),
    );
    const statuses = answers.map((a) => a.statusCode).sort();
    assert.deepEqual(statuses, [...Array(MAX).fill(201), ...Array(20 - MAX).fill(422)]);
    assert.equal(await monitorCount(t, id), MAX);
  });

  test('the dashboard: the form again (422) with the message at the report field', async () => {
    const browser = await signedInClient(t);
    const report = await seedReport(t.db.handle, browser.account.id);
    for (let i = 0; i < MAX; i++) {
      assert.equal((await browser.post('/app/monitors', { report_id: String(report.id), frequency: 'weekly' })).statusCode, 303);
    }
    const refused = await browser.post('/app/monitors', { report_id: String(report.id), frequency: 'weekly' });
    assert.equal(refused.statusCode, 422);
    assert.match(refused.body, /aria-invalid="true"/);
    assert.ok(refused.body.includes(tooMany), 'the API’s message at the field');
    assert.equal(await monitorCount(t, browser.account.id), MAX);
  });
});

describe('"run now": one monitor at most once a minute', () => {
  let t: TestApp;
  before(async () => {
    t = await testApp();
  });
  after(() => t.close());

  async function monitorOf(key: string, reportId: number): Promise<number> {
    const res = await t.call(key, {
      method: 'POST',
      url: '/api/v1/monitors',
      form: { report_id: String(reportId), frequency: 'daily' },
    });
    assert.equal(res.statusCode, 201, res.body);
    return res.json().data.id;
  }

  test('the API: 202, then 429 with Retry-After for that monitor only', async () => {
    const { id, key } = await t.account();
    const report = await seedReport(t.db.handle, id);
    const [first, second] = [await monitorOf(key, report.id), await monitorOf(key, report.id)];
    const run = (monitor: number) => t.call(key, { method: 'POST', url: `/api/v1/monitors/${monitor}/run` });
    assert.equal((await run(first)).statusCode, 202);
    const refused = await run(first);
    assert.equal(refused.statusCode, 429, refused.body);
    assert.deepEqual(refused.json(), { message: 'Too Many Attempts.', status: 429 });
    assertRetryAfter(refused);
    assert.equal((await run(second)).statusCode, 202, 'another monitor is counted apart');
    assert.equal((await run(999_999)).statusCode, 404, 'an unknown monitor is still a 404');
  });

  test('10 runs asked for at once: one is queued', async () => {
    const { id, key } = await t.account();
    const monitor = await monitorOf(key, (await seedReport(t.db.handle, id)).id);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => t.call(key, { method: 'POST', url: `/api/v1/monitors/${monitor}/run` })),
    );
    assert.deepEqual(answers.map((a) => a.statusCode).sort(), [202, ...Array(9).fill(429)]);
  });

  test('the dashboard: the same limit, as a page saying why', async () => {
    const browser = await signedInClient(t);
    const monitor = await monitorOf(browser.account.key, (await seedReport(t.db.handle, browser.account.id)).id);
    const done = await browser.post(`/app/monitors/${monitor}/run`);
    assert.equal(done.statusCode, 303);
    const refused = await browser.post(
      `/app/monitors/${monitor}/run`,
      {},
      { referer: `http://localhost:80/app/monitors/${monitor}` },
    );
    assert.equal(refused.statusCode, 429, refused.body.slice(0, 300));
    assertRetryAfter(refused);
    assert.match(refused.body, /This monitor was run less than a minute ago/);
    assert.match(refused.body, new RegExp(`<a href="/app/monitors/${monitor}">Back</a>`));
    // And the API, after the dashboard ran it.
    const api = await t.call(browser.account.key, { method: 'POST', url: `/api/v1/monitors/${monitor}/run` });
    assert.equal(api.statusCode, 429);
  });
});

describe('"run now" is counted across instances (Redis)', {
  skip: hasRedisServer ? false : 'redis-server is not installed',
}, () => {
  test('a run on one instance: the other answers 429', async () => {
    const redis = await startRedis();
    const first = await testApp({ REDIS_URL: redis.url });
    let second: FastifyInstance | undefined;
    try {
      second = await buildApp({ config: first.config, database: first.db.handle });
      const { id, key } = await first.account();
      const report = await seedReport(first.db.handle, id);
      const created = await first.call(key, {
        method: 'POST',
        url: '/api/v1/monitors',
        form: { report_id: String(report.id), frequency: 'daily' },
      });
      const monitor = created.json().data.id;
      const headers = { authorization: `Bearer ${key}` };
      assert.equal((await first.app.inject({ method: 'POST', url: `/api/v1/monitors/${monitor}/run`, headers })).statusCode, 202);
      assert.equal((await second.inject({ method: 'POST', url: `/api/v1/monitors/${monitor}/run`, headers })).statusCode, 429);
    } finally {
      await second?.close();
      await first.close();
      await redis.stop();
    }
  });
});
