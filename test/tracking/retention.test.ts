// Analytics pruning is a scheduled task like the others: each tick, on every instance, queues the
// hour's `analytics.prune` job under the hour's key, so the instances on one database prune once
// an hour. The job deletes raw events past ANALYTICS_RETENTION_DAYS (the rollups, and so the
// stats, stay) and the salts, visitor rows and value counts of days before yesterday.
import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import { createAccount } from '../../src/accounts/accounts.js';
import { loadConfig } from '../../src/config.js';
import { UsersRepository } from '../../src/db/users-repository.js';
import { WebsitesRepository } from '../../src/db/websites-repository.js';
import { silentLog } from '../../src/jobs/log.js';
import { buildServices, type Services } from '../../src/services.js';
import { fixedClock } from '../../src/time.js';
import { ANALYTICS_PRUNE_JOB } from '../../src/tracking/retention.js';
import { type TestDatabase, testDatabase } from '../helpers/database.js';

const clock = fixedClock(Date.parse('2026-03-10T10:15:00Z'));

describe('analytics pruning, scheduled', () => {
  let db: TestDatabase;
  let websiteId: number;
  const running: Services[] = [];

  const instance = (env: Record<string, string> = {}) => {
    const services = buildServices({ config: loadConfig(env), database: db.handle, log: silentLog, clock, engineWorkers: false });
    running.push(services);
    return services;
  };

  before(async () => {
    db = await testDatabase();
    const { user } = await createAccount(new UsersRepository(db.handle.db), 'retention@example.com');
    const website = await new WebsitesRepository(db.handle.db, clock).create({
      user_id: user.id,
      domain: 'kept.example',
      privacy: 1,
      password_hash: null,
      email: 0,
      exclude_bots: 1,
      exclude_ips: null,
      exclude_params: null,
    });
    websiteId = website.id;
  });
  // Each test at an hour of its own on 2026-03-10: a completed job keeps its hour's key a day.
  beforeEach(async () => {
    for (const table of ['analytics_events', 'analytics_salts', 'analytics_visitors', 'analytics_rollups'] as const) {
      await db.handle.db.deleteFrom(table).execute();
    }
    await seed(['2026-01-01T00:00:00.000000Z', '2026-02-08T09:00:00.000000Z', '2026-03-09T12:00:00.000000Z']);
  });
  afterEach(async () => {
    for (const services of running.splice(0)) await services.close();
  });
  after(async () => {
    await db.cleanup();
  });

  async function seed(eventTimes: string[]): Promise<void> {
    for (const created_at of eventTimes) {
      await db.handle.db
        .insertInto('analytics_events')
        .values({
          website_id: websiteId,
          created_at,
          name: 'pageview',
          page: '/',
          visitor: 'v',
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
        })
        .execute();
    }
    for (const day of ['2026-03-07', '2026-03-08', '2026-03-09', '2026-03-10']) {
      await db.handle.db
        .insertInto('analytics_salts')
        .values({ day, salt: 's'.repeat(64), created_at: `${day}T00:00:00.000000Z` })
        .onConflict((oc) => oc.doNothing())
        .execute();
      await db.handle.db
        .insertInto('analytics_visitors')
        .values({ website_id: websiteId, day, visitor: 'v', last_seen: 1, seen: '[]' })
        .onConflict((oc) => oc.doNothing())
        .execute();
      await db.handle.db
        .insertInto('analytics_rollups')
        .values({ website_id: websiteId, dimension: 'pageviews', day, value: '', count: 1 })
        .onConflict((oc) => oc.doNothing())
        .execute();
    }
  }

  async function state() {
    const events = await db.handle.db.selectFrom('analytics_events').select('created_at').orderBy('created_at').execute();
    const salts = await db.handle.db.selectFrom('analytics_salts').select('day').orderBy('day').execute();
    const visitors = await db.handle.db.selectFrom('analytics_visitors').select('day').orderBy('day').execute();
    const rollups = await db.handle.db.selectFrom('analytics_rollups').select('day').orderBy('day').execute();
    return {
      events: events.map((r) => r.created_at.slice(0, 10)),
      salts: salts.map((r) => r.day),
      visitors: visitors.map((r) => r.day),
      rollups: rollups.map((r) => r.day),
    };
  }

  test('a tick queues the hour’s job: events past the retention go, the days before yesterday go, the rollups stay', async () => {
    clock.set(Date.parse('2026-03-10T10:15:00Z'));
    const services = instance({ ANALYTICS_RETENTION_DAYS: '30' });
    assert.equal(await services.jobs.drain([ANALYTICS_PRUNE_JOB]), 0, 'nothing queued before a tick');
    await services.scheduler.tick();
    assert.equal(await services.jobs.drain([ANALYTICS_PRUNE_JOB]), 1);
    assert.deepEqual(await state(), {
      events: ['2026-03-09'],
      salts: ['2026-03-09', '2026-03-10'],
      visitors: ['2026-03-09', '2026-03-10'],
      rollups: ['2026-03-07', '2026-03-08', '2026-03-09', '2026-03-10'],
    });
  });

  test('once an hour: the hour’s key is taken until the next hour', async () => {
    clock.set(Date.parse('2026-03-10T12:15:00Z'));
    const services = instance({ ANALYTICS_RETENTION_DAYS: '30' });
    await services.scheduler.tick();
    assert.equal(await services.jobs.drain([ANALYTICS_PRUNE_JOB]), 1);
    await seed(['2026-01-02T00:00:00.000000Z']);
    clock.set(Date.parse('2026-03-10T12:59:59Z'));
    await services.scheduler.tick();
    assert.equal(await services.jobs.drain([ANALYTICS_PRUNE_JOB]), 0, 'not again within the hour');
    assert.deepEqual((await state()).events, ['2026-01-02', '2026-03-09']);
    clock.set(Date.parse('2026-03-10T13:00:00Z'));
    await services.scheduler.tick();
    assert.equal(await services.jobs.drain([ANALYTICS_PRUNE_JOB]), 1);
    assert.deepEqual((await state()).events, ['2026-03-09']);
  });

  test('two instances on one database, ticking at once, prune once', async () => {
    clock.set(Date.parse('2026-03-10T14:15:00Z'));
    const first = instance({ ANALYTICS_RETENTION_DAYS: '30' });
    const second = instance({ ANALYTICS_RETENTION_DAYS: '30' });
    await Promise.all([first.scheduler.tick(), second.scheduler.tick(), first.scheduler.tick()]);
    const ran = (await first.jobs.drain([ANALYTICS_PRUNE_JOB])) + (await second.jobs.drain([ANALYTICS_PRUNE_JOB]));
    assert.equal(ran, 1);
    assert.deepEqual((await state()).events, ['2026-03-09']);
  });

  test('without ANALYTICS_RETENTION_DAYS events are kept; the salts and visitor rows still go', async () => {
    clock.set(Date.parse('2026-03-10T15:15:00Z'));
    const services = instance();
    await services.scheduler.tick();
    assert.equal(await services.jobs.drain([ANALYTICS_PRUNE_JOB]), 1);
    assert.deepEqual(await state(), {
      events: ['2026-01-01', '2026-02-08', '2026-03-09'],
      salts: ['2026-03-09', '2026-03-10'],
      visitors: ['2026-03-09', '2026-03-10'],
      rollups: ['2026-03-07', '2026-03-08', '2026-03-09', '2026-03-10'],
    });
  });
});
