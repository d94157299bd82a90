// The stats' fast path (closed days' totals kept, today read live) against the one-query form
// (queryDirect) on the same rows, stored through AnalyticsRepository.record(): every name, order,
// page and search, over past, mixed and live ranges, with today's events arriving between
// calls and a day passing midnight. Runs on SQLite, and on PostgreSQL with TEST_DATABASE_URL.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createAccount } from '../../src/accounts/accounts.js';
import { AnalyticsRepository } from '../../src/db/analytics-repository.js';
import { UsersRepository } from '../../src/db/users-repository.js';
import { WebsitesRepository } from '../../src/db/websites-repository.js';
import { SAMPLE_FIELDS } from '../../src/model/dimensions.js';
import type { StoredEvent } from '../../src/model/rollup.js';
import { LIVE_GRACE_MS, STAT_NAMES, type StatsQuery, StatsService, queryDirect } from '../../src/tracking/stats-service.js';
import { fixedClock, formatTimestamp } from '../../src/time.js';
import { type TestDatabase, testDatabase } from '../helpers/database.js';

const DAY_MS = 86_400_000;
const NOON = Date.parse('2026-11-20T12:00:00Z');
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const TODAY = day(NOON);
const daysAgo = (n: number) => day(NOON - n * DAY_MS);

/** Values that test the orders and the search: capitals, non-ASCII, astral, LIKE's wildcards. */
const SPECIAL = ['/É', '/é', '/ß', '/İ', '/\u{1F600}', '/\uE000', '/\uFFFD', '/50%', '/a_b', '/back\\slash', '/UPPER', '/Upper'];

function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * `count` events of one website at `at` and after: pages that recur every day, pages of that day
 * only and the special ones; referrers, browsers and custom events, from a few dozen visitors.
 */
function events(websiteId: number, at: number, count: number, random: () => number, tag: string): StoredEvent[] {
  const list: StoredEvent[] = [];
  for (let i = 0; i < count; i++) {
    const t = at + i * 1000;
    const pick = random();
    const page =
      pick < 0.4
        ? `/p${Math.floor(random() * 8)}`
        : pick < 0.8
          ? `/${tag}/${Math.floor(random() * 30)}`
          : SPECIAL[i % SPECIAL.length];
    const visitor = `v${tag}${Math.floor(random() * 40)}`;
    // Custom properties on a third of the events: values that recur, of that day, and the special ones.
    const plan =
      random() < 0.5
        ? ['pro', 'Pro', 'team'][Math.floor(random() * 3)]
        : random() < 0.5
          ? `${tag}-${i}`
          : SPECIAL[i % SPECIAL.length];
    const props = random() < 0.3 ? JSON.stringify({ plan, seats: Math.floor(random() * 5) }) : null;
    list.push({
      ...SAMPLE_FIELDS,
      websiteId,
      at: t,
      createdAt: formatTimestamp(new Date(t)),
      day: day(t),
      hour: new Date(t).toISOString().slice(11, 13),
      name: random() < 0.1 ? (random() < 0.5 ? 'Signup' : 'Download') : 'pageview',
      page,
      visitor,
      referrer: random() < 0.5 ? ['news.example', 'Search.Example', 'é.example'][Math.floor(random() * 3)] : null,
      source: null,
      campaign: null,
      browser: random() < 0.5 ? 'Firefox' : 'Chrome',
      os: 'Linux',
      device: 'desktop',
      country: random() < 0.5 ? 'DE' : 'FR',
      continent: 'EU',
      city: null,
      language: null,
      resolution: null,
      props,
    });
  }
  return list;
}

const ORDERS = [
  { sortBy: 'count', sort: 'desc' },
  { sortBy: 'count', sort: 'asc' },
  { sortBy: 'value', sort: 'asc' },
  { sortBy: 'value', sort: 'desc' },
] as const;
const SEARCHES = [null, 'p', 'É', 'é', 'upper', '%', '_', '\\', '\u{1F600}', 'nothing-matches'];
const PAGES: [limit: number | undefined, offset: number][] = [
  [10, 0],
  [10, 10],
  [25, 50],
  [100, 1000],
  [undefined, 0],
];

describe('stats: the fast path answers as one query over the whole range', () => {
  let db: TestDatabase;
  let repo: AnalyticsRepository;
  let websiteId: number;
  const clock = fixedClock(NOON);
  const random = prng(42);

  /** Stores `count` events from `at`; the number of pageviews among them. */
  const record = async (at: number, count: number, tag: string) => {
    const list = events(websiteId, at, count, random, tag);
    await repo.record(list);
    return list.filter((e) => e.name === 'pageview').length;
  };

  /** Asserts the fast path's page equals the one-query form's; returns it. */
  async function same(stats: StatsService, q: StatsQuery, limit?: number, offset = 0) {
    const fast = await stats.query(q, limit, offset);
    const direct = await queryDirect(repo, q, limit, offset);
    assert.deepEqual(fast, direct, `${JSON.stringify(q)} limit ${limit} offset ${offset}`);
    const all = [];
    for (const row of await stats.rows(q)) all.push(row);
    if (limit === undefined) assert.deepEqual(all, direct.rows, 'rows() gives what query() without a limit does');
    return fast;
  }

  before(async () => {
    db = await testDatabase();
    const { user } = await createAccount(new UsersRepository(db.handle.db), 'fast@example.com');
    const website = await new WebsitesRepository(db.handle.db, clock).create({
      user_id: user.id,
      domain: 'fast.example',
      privacy: 1,
      password_hash: null,
      email: null,
      exclude_bots: 1,
      exclude_ips: null,
      exclude_params: null,
    });
    websiteId = website.id;
    repo = new AnalyticsRepository(db.handle.db, db.handle.engine, clock);
    // Ten days before today, and today's morning.
    for (let n = 10; n >= 1; n--) await record(NOON - n * DAY_MS - 6 * 3_600_000, 120, `d${n}`);
    await record(NOON - 6 * 3_600_000, 120, 'today');
  });
  after(() => db.cleanup());

  const RANGES = {
    'past days only': { from: daysAgo(9), to: daysAgo(2) },
    'past days and today': { from: daysAgo(10), to: TODAY },
    'today only': { from: TODAY, to: TODAY },
    'into the future': { from: daysAgo(3), to: day(NOON + 5 * DAY_MS) },
    'one past day': { from: daysAgo(4), to: daysAgo(4) },
    'before any event': { from: daysAgo(40), to: daysAgo(30) },
  };

  test('every name over past, mixed, live and empty ranges, in its default order, first page and all rows', async () => {
    const stats = new StatsService(repo, { clock });
    for (const range of Object.values(RANGES)) {
      for (const name of STAT_NAMES) {
        // `prop`: one property's values over every event, and over one event name's.
        const variants =
          name === 'prop' ? [{ prop: 'plan' }, { prop: 'seats', event: 'pageview' }, { prop: 'plan', event: 'Signup' }] : [{}];
        for (const variant of variants) {
          for (const [limit, offset] of [PAGES[0], PAGES[4]])
            await same(stats, { websiteId, name, ...range, ...variant }, limit, offset);
        }
      }
      for (const [limit, offset] of [PAGES[0], PAGES[4]])
        await same(stats, { websiteId, name: 'prop_key', ...range }, limit, offset);
    }
  });

  test('top lists: every order, search and page', async () => {
    const stats = new StatsService(repo, { clock });
    for (const range of [RANGES['past days and today'], RANGES['past days only']]) {
      for (const [name, prop] of [['page'], ['referrer'], ['event'], ['prop', 'plan']] as const) {
        for (const order of ORDERS) {
          for (const search of SEARCHES) {
            for (const [limit, offset] of PAGES)
              await same(stats, { websiteId, name, prop, ...range, search, ...order }, limit, offset);
          }
        }
      }
    }
  });

  test('a range with today: events stored between two calls count in the second, the kept days unchanged', async () => {
    const stats = new StatsService(repo, { clock });
    const q = { websiteId, name: 'page' as const, ...RANGES['past days and today'] };
    const first = await same(stats, q, 100);
    const kept = stats.cacheUse().entries;
    assert.ok(kept > 0, 'the past days are kept');
    clock.advance(60_000);
    // New pages, and more views of pages already counted, both today.
    await record(clock.now(), 80, 'later');
    const second = await same(stats, q, 100);
    assert.ok(second.total > first.total, `${second.total} values > ${first.total}`);
    const pageviews = async () => (await stats.query(q)).rows.reduce((n, r) => n + r.count, 0);
    const before = await pageviews();
    const added = await record(clock.now() + 1000, 20, 'again');
    assert.equal(await pageviews(), before + added, 'every pageview stored since counts');
    assert.equal(stats.cacheUse().entries, kept, 'today is never kept');
  });

  test('midnight: a day is read live for LIVE_GRACE_MS after its end (a late commit still counts), then kept', async () => {
    const stats = new StatsService(repo, { clock });
    const yesterday = TODAY;
    const q = { websiteId, name: 'page' as const, from: daysAgo(5), to: day(NOON + DAY_MS) };
    // Ten minutes past midnight, an event stamped just before it is stored.
    clock.set(Date.parse(`${yesterday}T00:00:00Z`) + DAY_MS + 10 * 60_000);
    await same(stats, q, 10);
    const [late] = events(websiteId, Date.parse(`${yesterday}T23:59:59Z`), 1, random, 'late');
    await repo.record([{ ...late, name: 'pageview', page: '/late/0' }]);
    assert.deepEqual(
      (await stats.query({ ...q, search: '/late/' })).rows,
      [{ value: '/late/0', count: 1 }],
      'the late event counts',
    );
    await same(stats, q, 10);
    // After the grace the day before is kept with the others: still the same answers.
    clock.set(Date.parse(`${yesterday}T00:00:00Z`) + DAY_MS + LIVE_GRACE_MS + 60_000);
    const entries = stats.cacheUse().entries;
    await same(stats, q, 10);
    await same(stats, { ...q, sortBy: 'value', sort: 'desc' }, 25, 5);
    assert.equal(stats.cacheUse().entries, entries + 1, 'a new closed range, now ending with the day before');
    clock.set(NOON);
  });

  test('a budget of bytes: what is kept stays within it, and answers do not change when little or nothing is', async () => {
    for (const budget of [0, 20_000]) {
      const stats = new StatsService(repo, { clock, cacheBytes: budget });
      for (let n = 9; n >= 2; n--) {
        await same(stats, { websiteId, name: 'page', from: daysAgo(n), to: TODAY }, 10);
        assert.ok(stats.cacheUse().bytes <= budget, `${stats.cacheUse().bytes} ≤ ${budget}`);
      }
      if (budget === 0) assert.equal(stats.cacheUse().entries, 0);
      else assert.ok(stats.cacheUse().entries > 0);
    }
  });

  test('the next day, the kept range a day off is the base: only the day that left and the day that closed are read', async () => {
    let rowsRead = 0;
    const counting = new (class extends AnalyticsRepository {
      override async rollupRows(q: Parameters<AnalyticsRepository['rollupRows']>[0]) {
        const rows = await super.rollupRows(q);
        rowsRead += rows.length;
        return rows;
      }
    })(db.handle.db, db.handle.engine, clock);
    const stats = new StatsService(counting, { clock });
    const lastTenDays = () => ({ websiteId, name: 'page' as const, from: day(clock.now() - 9 * DAY_MS), to: day(clock.now()) });
    const rowsOf = async (d: string) =>
      (await repo.rollupRows({ websiteId, dimension: 'page', from: d, to: d, after: null, limit: 100_000, lower: false })).length;
    await stats.query(lastTenDays(), 10);
    clock.set(NOON + DAY_MS); // the next day's noon: the range lost its first day, today closed
    rowsRead = 0;
    const next = await stats.query(lastTenDays(), 10);
    assert.equal(rowsRead, (await rowsOf(daysAgo(9))) + (await rowsOf(TODAY)), 'the two days that differ, and an empty today');
    assert.deepEqual(next, await queryDirect(repo, lastTenDays(), 10));
    for (const order of ORDERS) await same(stats, { ...lastTenDays(), ...order, search: 'p' }, 25);
    clock.set(NOON);
  });

  test('many queries of one range at once read its past days once', async () => {
    let reads = 0;
    const counting = new (class extends AnalyticsRepository {
      override rollupRows(q: Parameters<AnalyticsRepository['rollupRows']>[0]) {
        reads++;
        return super.rollupRows(q);
      }
    })(db.handle.db, db.handle.engine, clock);
    const stats = new StatsService(counting, { clock });
    const q = { websiteId, name: 'page' as const, from: daysAgo(9), to: daysAgo(1) };
    const pages = await Promise.all(Array.from({ length: 12 }, () => stats.query(q, 10)));
    for (const page of pages) assert.deepEqual(page, pages[0]);
    assert.equal(reads, 1, 'one page of rows, read once for all twelve');
  });
});
