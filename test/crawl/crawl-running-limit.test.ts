// MAX_RUNNING_CRAWLS (default 2): an account's crawls past it wait as `queued` and start oldest
// first as one of that account's crawls ends; a queued crawl whose start was lost with its process
// is started by the sweep (and one admitted whose start stopped early, taken over); two instances
// on one database never start one too many together.
// Other accounts' crawls are not held back by it.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openDatabase, type DatabaseHandle } from '../../src/db/connection.js';
import { CrawlsRepository } from '../../src/db/crawls-repository.js';
import { fixedClock } from '../../src/time.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { type CrawlSite, htmlPage, startCrawlSite } from '../helpers/crawl-site.js';
import { testDatabase, type TestDatabase } from '../helpers/database.js';
import { until } from '../helpers/wait.js';
import { type CrawlBody, runUntilEnded, showCrawl, startCrawl } from './crawl-harness.js';

const twoPages = () => ({ '/': htmlPage({ title: 'Home', links: ['/two'] }), '/two': htmlPage({ title: 'Two' }) });

describe('MAX_RUNNING_CRAWLS, with the job workers running', () => {
  let t: TestApp;
  let held: CrawlSite;
  let free: CrawlSite;
  before(async () => {
    t = await testApp({ ALLOW_PRIVATE_ADDRESSES: 'true', ANALYSIS_WORKERS: '0' });
    held = await startCrawlSite(twoPages());
    free = await startCrawlSite(twoPages());
  });
  after(async () => {
    await t.close();
    await held.close();
    await free.close();
  });

  test('an account runs at most 2 crawls at once; the rest wait queued and start oldest first as one ends; another account is not held back', {
    timeout: 120_000,
  }, async () => {
    const { key } = await t.account();
    const release = held.hold(); // the running crawls wait on the site until released
    await t.services.startWorkers();
    const crawls: CrawlBody[] = [];
    for (let i = 0; i < 4; i++) crawls.push(await startCrawl(t, key, { url: `${held.origin}/`, sitemap: '0' }));
    const statuses = async () => Promise.all(crawls.map(async (c) => (await showCrawl(t, key, c.id)).status));
    await until(async () => (await statuses()).join() === 'running,running,queued,queued' && held.requests.length >= 2, {
      what: 'the two oldest crawls running (fetching), the others queued',
    });

    const other = await t.account();
    const elsewhere = await startCrawl(t, other.key, { url: `${free.origin}/`, sitemap: '0' });
    assert.equal((await runUntilEnded(t, other.key, elsewhere.id, { workers: true })).status, 'finished');
    assert.deepEqual(await statuses(), ['running', 'running', 'queued', 'queued'], 'still held back');

    release();
    const ended = await Promise.all(crawls.map((c) => runUntilEnded(t, key, c.id, { workers: true })));
    assert.deepEqual(
      ended.map((c) => [c.status, c.pages_done]),
      Array.from({ length: 4 }, () => ['finished', 2]),
    );
    // Each queued crawl started only once one had ended, the oldest first.
    const finishedAt = (n: number) => ended[n].finished_at!;
    const startedAt = (n: number) => ended[n].started_at!;
    assert.ok(startedAt(2) >= [finishedAt(0), finishedAt(1)].sort()[0], 'the third after one of the first two ended');
    assert.ok(startedAt(3) >= [finishedAt(0), finishedAt(1), finishedAt(2)].sort()[1], 'the fourth after two had ended');
    assert.ok(startedAt(2) <= startedAt(3), 'oldest first');
  });
});

describe('a queued crawl whose start was lost', () => {
  const clock = fixedClock(Date.parse('2026-11-26T10:00:00Z'));
  let t: TestApp;
  let site: CrawlSite;
  before(async () => {
    t = await testApp({ ALLOW_PRIVATE_ADDRESSES: 'true', ANALYSIS_WORKERS: '0' }, { clock });
    site = await startCrawlSite(twoPages());
  });
  after(async () => {
    await t.close();
    await site.close();
  });

  test('is started by the sweep within a minute (its process died before queueing the start)', { timeout: 60_000 }, async () => {
    const { id, key } = await t.account();
    // Stored, its start job never queued: what a process killed in between leaves.
    const crawl = await t.services.repos.crawls.create({
      user_id: id,
      url: `${site.origin}/`,
      project: '127.0.0.1',
      max_pages: 10,
      sitemap: 0,
    });
    await t.services.jobs.drain();
    assert.equal((await showCrawl(t, key, crawl.id)).status, 'queued');
    clock.advance(61_000);
    await t.services.scheduler.tick();
    const ended = await runUntilEnded(t, key, crawl.id, { timeoutMs: 10_000 });
    assert.equal(ended.status, 'finished');
    assert.equal(ended.pages_done, 2);
  });
});

describe('a crawl whose start stopped after it was admitted', () => {
  const clock = fixedClock(Date.parse('2026-11-26T10:00:00Z'));
  let t: TestApp;
  let site: CrawlSite;
  before(async () => {
    t = await testApp({ ALLOW_PRIVATE_ADDRESSES: 'true', ANALYSIS_WORKERS: '0', JOB_LEASE_SECONDS: '30' }, { clock });
    site = await startCrawlSite(twoPages());
  });
  after(async () => {
    await t.close();
    await site.close();
  });

  test('is taken over by the sweep two leases later, and finishes', { timeout: 60_000 }, async () => {
    const { id, key } = await t.account();
    const crawl = await t.services.repos.crawls.create({
      user_id: id,
      url: `${site.origin}/`,
      project: '127.0.0.1',
      max_pages: 10,
      sitemap: 0,
    });
    // Admitted (running), then its job gone before it queued the page workers.
    assert.equal(await t.services.repos.crawls.admit(crawl.id, id, 2, clock.now() + 3_600_000), true);
    await t.services.scheduler.tick();
    await t.services.jobs.drain();
    assert.equal((await showCrawl(t, key, crawl.id)).pages_done, 0, 'not within two leases: its start may be at work');
    clock.advance(61_000);
    await t.services.scheduler.tick();
    const ended = await runUntilEnded(t, key, crawl.id, { timeoutMs: 10_000 });
    assert.equal(ended.status, 'finished');
    assert.equal(ended.pages_done, 2);
  });
});

describe('two instances on one database', () => {
  let db: TestDatabase;
  let second: DatabaseHandle;
  before(async () => {
    db = await testDatabase();
    second = await openDatabase(db.url, { schema: db.schema, poolSize: 5 });
  });
  after(async () => {
    await second.close();
    await db.cleanup();
  });

  test('starting crawls at the same moment never run more than 2 of an account, and start them oldest first', async () => {
    const [user] = await db.handle.db
      .insertInto('users')
      .values({
        email: 'crawls@example.com',
        api_key_hash: 'c'.repeat(64),
        created_at: '2026-01-01T00:00:00.000000Z',
        updated_at: '2026-01-01T00:00:00.000000Z',
      })
      .returning('id')
      .execute();
    const repos = [new CrawlsRepository(db.handle.db, db.handle.engine), new CrawlsRepository(second.db, second.engine)];
    const ids: number[] = [];
    for (let i = 0; i < 6; i++) {
      const crawl = await repos[0].create({
        user_id: user.id,
        url: 'https://example.com/',
        project: 'example.com',
        max_pages: 1,
        sitemap: 0,
      });
      ids.push(crawl.id);
    }
    const running = async () =>
      (await db.handle.db.selectFrom('crawls').select('id').where('status', '=', 'running').orderBy('id').execute()).map(
        (r) => r.id,
      );
    const started: number[] = [];
    for (let round = 0; round < 10 && started.length < ids.length; round++) {
      // Every instance tries every queued crawl at once, twice over.
      await Promise.all(repos.flatMap((repo) => [...ids, ...ids].map((id) => repo.admit(id, user.id, 2, Date.now() + 60_000))));
      const now = await running();
      assert.ok(now.length <= 2, `round ${round}: ${now.length} crawls running`);
      for (const id of now) if (!started.includes(id)) started.push(id);
      // One of them ends; the next round may start the next one.
      await repos[round % 2].end(now[0], 'finished', { skippedBecause: 'test' });
    }
    assert.deepEqual(started, ids, 'every crawl started, oldest first');
  });
});
