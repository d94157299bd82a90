// CRAWL_TIME_LIMIT and the crawl.finished event: a crawl past its time limit finishes with what it
// has (the rest skipped, saying why), its issues computed, and publishes crawl.finished once,
// with the Crawl as data. Time comes from the injected clock, moved by the fixture site itself.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { EventData } from '../../src/model/events.js';
import { fixedClock } from '../../src/time.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { usingPostgres } from '../helpers/database.js';
import { type CrawlSite, htmlPage, startCrawlSite } from '../helpers/crawl-site.js';
import { RecordingEvents } from '../helpers/recorders.js';
import { allPages, crawlSite, showCrawl, startCrawl } from './crawl-harness.js';

describe('crawl time limit and crawl.finished', () => {
  const clock = fixedClock(Date.parse('2026-11-26T10:00:00Z'));
  const events = new RecordingEvents();
  let t: TestApp;
  let site: CrawlSite;
  let key: string;
  let userId: number;
  before(async () => {
    t = await testApp({ ALLOW_PRIVATE_ADDRESSES: 'true', ANALYSIS_WORKERS: '0', CRAWL_TIME_LIMIT: '60' }, { clock, events });
    ({ key, id: userId } = await t.account());
    // A chain / → /p1 → … → /p9: one page at a time, in order.
    const routes: Parameters<typeof startCrawlSite>[0] = {};
    for (let i = 0; i < 10; i++) routes[i === 0 ? '/' : `/p${i}`] = htmlPage({ title: `Page ${i}`, links: [`/p${i + 1}`] });
    // Answering /p3 takes "61 seconds" of the crawl's clock: the limit passes there.
    const p3 = routes['/p3'];
    routes['/p3'] = () => {
      clock.advance(61_000);
      return typeof p3 === 'function' ? p3({} as never) : p3;
    };
    site = await startCrawlSite(routes);
  });
  after(async () => {
    await t.close();
    await site.close();
  });

  test('past CRAWL_TIME_LIMIT the crawl finishes with the pages it has; no page is fetched after; crawl.finished once', {
    timeout: 120_000,
  }, async () => {
    const crawl = await crawlSite(t, key, { url: `${site.origin}/`, sitemap: '0' });
    assert.equal(crawl.status, 'finished');
    const rows = await allPages(t, key, crawl.id);
    const fetched = rows.filter((r) => r.status_code !== null).map((r) => r.url.replace(site.origin, ''));
    assert.deepEqual(fetched, ['/', '/p1', '/p2', '/p3']);
    const skipped = rows.filter((r) => r.status_code === null);
    assert.deepEqual(
      skipped.map((r) => r.url.replace(site.origin, '')),
      ['/p4'],
      'the link /p3 found is recorded, not fetched',
    );
    assert.match(skipped[0].error ?? '', /ended before this page was fetched/);
    assert.equal(site.count('/p4'), 0);
    assert.equal(crawl.pages_done, 4);

    const finished = events.of(userId, 'crawl.finished');
    assert.equal(finished.length, 1);
    assert.equal(finished[0].id, crawl.id);
    assert.equal(finished[0].status, 'finished');
    assert.equal(finished[0].pages_done, 4);
    assert.equal(finished[0].finished_at, crawl.finished_at);

    // Each page's report is a report.created event whose data is the report's resource (built
    // only because someone listens: the recorder does).
    const created = events.of(userId, 'report.created');
    const reported = rows.filter((r) => r.report_id !== null);
    assert.deepEqual(
      created.map((r) => [r.id, r.url, r.result]),
      reported.map((r) => [r.report_id, r.url, r.result]),
    );
    assert.equal(created[0].privacy, 1, 'a crawled page becomes a private report');
  });
});

describe('a page worker that keeps failing', () => {
  const clock = fixedClock(Date.parse('2026-11-26T10:00:00Z'));
  /** Refuses the first five report events, as a database that is away for a while would. */
  class FlakyEvents extends RecordingEvents {
    failures = 0;
    override async publish(userId: number, event: Parameters<RecordingEvents['publish']>[1], data: EventData): Promise<void> {
      if (event.startsWith('report.') && this.failures < 5) {
        this.failures++;
        throw new Error('the event store is away');
      }
      return super.publish(userId, event, data);
    }
  }
  const events = new FlakyEvents();
  let t: TestApp;
  let site: CrawlSite;
  let key: string;
  before(async () => {
    t = await testApp(
      { ALLOW_PRIVATE_ADDRESSES: 'true', ANALYSIS_WORKERS: '0', CRAWL_CONCURRENCY: '1', JOB_LEASE_SECONDS: '5' },
      { clock, events },
    );
    ({ key } = await t.account());
    site = await startCrawlSite({
      // Five pages: a report's event is published once its page has committed, so each page
      // fails its job once (five failures, more than a job's retries).
      '/': htmlPage({ title: 'Home', links: ['/a', '/b', '/c', '/d'] }),
      '/a': htmlPage({ title: 'A' }),
      '/b': htmlPage({ title: 'B' }),
      '/c': htmlPage({ title: 'C' }),
      '/d': htmlPage({ title: 'D' }),
    });
  });
  after(async () => {
    await t.close();
    await site.close();
  });

  // On PostgreSQL pg-boss decides when a job is due by PostgreSQL's clock, not the injected one,
  // so the worker's pause cannot be stepped through here; the SQLite queue follows the clock.
  const skip = usingPostgres ? 'pg-boss keeps time by PostgreSQL’s clock, not the injected one' : false;
  test('carries on in a new job (more failures than a job’s retries): the crawl finishes with every page, one report each', {
    skip,
    timeout: 120_000,
  }, async () => {
    const started = await startCrawl(t, key, { url: `${site.origin}/`, sitemap: '0' });
    let crawl = started;
    for (let round = 0; round < 20 && crawl.status !== 'finished'; round++) {
      await t.services.jobs.drain();
      crawl = await showCrawl(t, key, started.id);
      // Past the failed page's lease and the worker's pause: both are on the injected clock.
      clock.advance(6_000);
    }
    assert.equal(events.failures, 5);
    assert.equal(crawl.status, 'finished');
    const rows = await allPages(t, key, crawl.id);
    assert.deepEqual(
      rows.map((r) => [r.url.replace(site.origin, ''), r.status_code]),
      [
        ['/', 200],
        ['/a', 200],
        ['/b', 200],
        ['/c', 200],
        ['/d', 200],
      ],
    );
    const reports = await t.db.handle.db.selectFrom('reports').select('url').execute();
    assert.equal(reports.length, 5, 'one report a page');
  });
});
