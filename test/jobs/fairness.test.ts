// Shared fairly, end to end with the job workers running, on the engine under test: one account
// has 100 webhook deliveries to a receiver that accepts the connection and never answers, and 20
// crawls started (MAX_RUNNING_CRAWLS = 2 running, the rest queued). Another account's monitor run
// still starts within 5 s, and its 2-page crawl finishes within 15 s: deliveries, monitor runs
// and crawl pages have slots of their own, and within a kind the accounts take turns.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { CRAWL_START } from '../../src/crawl/crawl-service.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { type CrawlSite, htmlPage, startCrawlSite } from '../helpers/crawl-site.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { until } from '../helpers/wait.js';
import { type CrawlBody, runUntilEnded, startCrawl } from '../crawl/crawl-harness.js';

/** A home page linking to `n - 1` pages, each linking back. */
function starSite(n: number): Record<string, ReturnType<typeof htmlPage>> {
  const paths = Array.from({ length: n - 1 }, (_, i) => `/p${i + 1}`);
  return {
    '/': htmlPage({ title: 'Home', links: paths }),
    ...Object.fromEntries(paths.map((p) => [p, htmlPage({ title: `Page ${p}`, links: ['/'] })])),
  };
}

describe('one account’s backlog does not hold back another’s jobs', () => {
  let t: TestApp;
  let receiver: Receiver;
  let busySite: CrawlSite;
  let otherSite: CrawlSite;

  before(async () => {
    t = await testApp({ ALLOW_PRIVATE_ADDRESSES: 'true', ANALYSIS_WORKERS: '0' });
    receiver = await startReceiver();
    receiver.hang('/hook');
    // Slow pages, and more of them than the test lasts: the busy account's crawls keep running.
    busySite = await startCrawlSite(starSite(60), { delayMs: 300 });
    otherSite = await startCrawlSite({
      '/': htmlPage({ title: 'Other home', links: ['/two'] }),
      '/two': htmlPage({ title: 'Other two' }),
      '/watched': htmlPage({ title: 'Watched page' }),
    });
  });
  after(async () => {
    // The receiver first: its closed connections end the deliveries still waiting on it.
    await receiver.close();
    await t.close();
    await busySite.close();
    await otherSite.close();
  });

  test('100 deliveries to a receiver that never answers and 20 crawls: another account’s monitor run starts within 5 s, its 2-page crawl ends within 15 s', {
    timeout: 120_000,
  }, async () => {
    const busy = await t.account();
    const hook = await t.call(busy.key, {
      method: 'POST',
      url: '/api/v1/webhooks',
      form: { url: `${receiver.origin}/hook`, events: 'report.deleted' },
    });
    assert.equal(hook.statusCode, 201, hook.body);
    for (let i = 1; i <= 100; i++) await t.services.webhooks.publish(busy.id, 'report.deleted', { id: i });
    await t.services.startWorkers();

    const busyCrawls: CrawlBody[] = [];
    for (let i = 0; i < 20; i++) {
      busyCrawls.push(await startCrawl(t, busy.key, { url: `${busySite.origin}/`, sitemap: '0', max_pages: '60' }));
    }
    const statuses = async () => {
      const res = await t.call(busy.key, { method: 'GET', url: '/api/v1/crawls?per_page=100' });
      return (res.json().data as CrawlBody[]).map((c) => c.status);
    };
    const count = (list: string[], status: string) => list.filter((s) => s === status).length;
    // Every start job has run (18 found no room) while deliveries hang on the receiver.
    await until(
      async () => {
        const pendingStarts = (await t.services.jobs.list()).filter((job) => job.type === CRAWL_START && job.state !== 'failed');
        const now = await statuses();
        return pendingStarts.length === 0 && count(now, 'running') === 2 && receiver.at('/hook').length >= 1;
      },
      { what: 'the busy account’s 2 crawls running, 18 queued, and deliveries waiting on the receiver' },
    );
    assert.equal(count(await statuses(), 'queued'), 18, 'MAX_RUNNING_CRAWLS: the rest wait as queued');

    const other = await t.account();
    const report = await t.call(other.key, {
      method: 'POST',
      url: '/api/v1/reports',
      form: { url: `${otherSite.origin}/watched` },
    });
    assert.equal(report.statusCode, 201, report.body);
    const monitor = await t.call(other.key, {
      method: 'POST',
      url: '/api/v1/monitors',
      form: { report_id: String(report.json().data.id), frequency: 'daily' },
    });
    assert.equal(monitor.statusCode, 201, monitor.body);
    const fetched = otherSite.count('/watched');
    const run = await t.call(other.key, { method: 'POST', url: `/api/v1/monitors/${monitor.json().data.id}/run` });
    assert.equal(run.statusCode, 202, run.body);
    await until(() => otherSite.count('/watched') > fetched, {
      timeoutMs: 5_000,
      what: 'the other account’s monitor run to start (fetch its page) within 5 s',
    });

    const started = await startCrawl(t, other.key, { url: `${otherSite.origin}/`, sitemap: '0', max_pages: '2' });
    const crawl = await runUntilEnded(t, other.key, started.id, { workers: true, timeoutMs: 15_000 });
    assert.equal(crawl.status, 'finished');
    assert.equal(crawl.pages_done, 2);

    // All along, the busy account ran no more than its 2 crawls.
    assert.equal(count(await statuses(), 'running'), 2);
    assert.ok(receiver.at('/hook').length < 100, 'the deliveries are still waiting their turn at their own slots');
  });
});
