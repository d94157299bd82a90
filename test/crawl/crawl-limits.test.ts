// CRAWL_TIME_LIMIT and the crawl.finished event: a crawl past its time limit finishes with what it
// has (the rest skipped, saying why), its issues computed, and publishes crawl.finished once,
// with the Crawl as data. Time comes from the injected clock, moved by the fixture site itself.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { fixedClock } from '../../src/time.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { type CrawlSite, htmlPage, startCrawlSite } from '../helpers/crawl-site.js';
import { RecordingEvents } from '../helpers/recorders.js';
import { allPages, crawlSite } from './crawl-harness.js';

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

  test('past CRAWL_TIME_LIMIT the crawl finishes with the pages it has; no page is fetched after; crawl.finished once', async () => {
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
  });
});
