// Crawls across processes (docs/site-audits.md: everything a crawl knows is in the database):
// a `rankscope serve` killed with SIGKILL mid-crawl, and another started on the same database,
// finishes the crawl, refetching at most the pages that were in flight at the kill; and two
// instances on one PostgreSQL share a crawl, each page fetched once, the concurrency cap held
// across both.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import type { DatabaseHandle } from '../../src/db/connection.js';
import { type CrawlSite, htmlPage, startCrawlSite } from '../helpers/crawl-site.js';
import { type ProcessDatabase, processDatabase, usingPostgres } from '../helpers/database.js';
import { type RunningServer, startServer } from '../helpers/spawn.js';
import { until } from '../helpers/wait.js';
import type { CrawlBody, PageBody } from './crawl-harness.js';

function starSite(n: number): Record<string, ReturnType<typeof htmlPage>> {
  const paths = Array.from({ length: n - 1 }, (_, i) => `/p${i + 1}`);
  return {
    '/': htmlPage({ title: 'Home', links: paths }),
    ...Object.fromEntries(paths.map((p) => [p, htmlPage({ title: `Page ${p}`, links: ['/'] })])),
  };
}

const isPage = (path: string) => path === '/' || /^\/p\d+$/.test(path);

/** The API of a running child, with its key. */
function client(server: RunningServer, key: string) {
  const base = `http://127.0.0.1:${server.port}/api/v1`;
  const headers = { authorization: `Bearer ${key}`, accept: 'application/json' };
  return {
    async start(form: Record<string, string>): Promise<CrawlBody> {
      const res = await fetch(`${base}/crawls`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(form).toString(),
      });
      assert.equal(res.status, 202, await res.clone().text());
      return ((await res.json()) as { data: CrawlBody }).data;
    },
    async show(id: number): Promise<CrawlBody> {
      const res = await fetch(`${base}/crawls/${id}`, { headers });
      assert.equal(res.status, 200);
      return ((await res.json()) as { data: CrawlBody }).data;
    },
    async pages(id: number): Promise<PageBody[]> {
      const rows: PageBody[] = [];
      for (let page = 1; ; page++) {
        const res = await fetch(`${base}/crawls/${id}/pages?per_page=100&page=${page}`, { headers });
        const body = (await res.json()) as { data: PageBody[]; meta: { last_page: number } };
        rows.push(...body.data);
        if (page >= body.meta.last_page) return rows;
      }
    },
  };
}

function keyOf(server: RunningServer): string {
  const key = /API key, shown only this once:\n(rk_\S+)\n/.exec(server.output())?.[1];
  assert.ok(key, `the first start prints a key:\n${server.output()}`);
  return key;
}

describe('a crawl across a restart', () => {
  let pdb: ProcessDatabase;
  let site: CrawlSite;
  let handle: DatabaseHandle | undefined;
  const servers: RunningServer[] = [];

  after(async () => {
    for (const server of servers) await server.stop('SIGKILL');
    await handle?.close();
    await site?.close();
    await pdb?.cleanup();
  });

  test('killed with SIGKILL mid-crawl, another instance on the same database finishes it; only pages in flight at the kill fetched twice', async () => {
    pdb = await processDatabase();
    site = await startCrawlSite(starSite(30), { delayMs: 150 });
    const env = {
      DATABASE_URL: pdb.databaseUrl,
      ALLOW_PRIVATE_ADDRESSES: '1',
      JOB_LEASE_SECONDS: '5',
      ANALYSIS_WORKERS: '0',
      RATE_LIMIT_PER_MINUTE: '0',
      LOG_LEVEL: 'warn',
    };
    const first = await startServer(env);
    servers.push(first);
    const key = keyOf(first);
    const api1 = client(first, key);
    const crawl = await api1.start({ url: `${site.origin}/`, sitemap: '0' });
    await until(async () => (await api1.show(crawl.id)).pages_done >= 5, { what: 'a few pages done' });
    await first.stop('SIGKILL');

    // What the database says at the kill: the pages done, and those taken but not done (in flight).
    handle = await pdb.open();
    const atKill = await handle.db.selectFrom('crawl_pages').select(['url', 'state']).where('crawl_id', '=', crawl.id).execute();
    const inFlight = new Set(atKill.filter((r) => r.state === 'fetching').map((r) => new URL(r.url).pathname));
    const doneAtKill = atKill.filter((r) => r.state === 'done').length;
    assert.ok(doneAtKill >= 5 && doneAtKill < 30, `killed mid-crawl (${doneAtKill} done)`);
    await handle.close();
    handle = undefined;
    const requestedAtKill = site.requests.filter((r) => isPage(r.path)).length;

    const second = await startServer(env);
    servers.push(second);
    const api2 = client(second, key);
    let ended!: CrawlBody;
    await until(
      async () => {
        ended = await api2.show(crawl.id);
        return ended.status !== 'running' && ended.status !== 'queued';
      },
      { timeoutMs: 60_000, what: 'the crawl to end on the second instance' },
    );
    assert.equal(ended.status, 'finished');
    assert.equal(ended.pages_found, 30);
    assert.equal(ended.pages_done, 30, 'every page done');
    assert.equal(ended.pages_failed, 0);
    const rows = await api2.pages(crawl.id);
    assert.ok(
      rows.every((r) => r.status_code === 200 && r.report_id !== null),
      JSON.stringify(rows.filter((r) => r.status_code !== 200)),
    );

    const paths = ['/', ...Array.from({ length: 29 }, (_, i) => `/p${i + 1}`)];
    const twice = paths.filter((p) => site.count(p) === 2);
    assert.deepEqual(
      paths.filter((p) => site.count(p) === 0 || site.count(p) > 2),
      [],
      'each page fetched once or twice',
    );
    for (const path of twice) assert.ok(inFlight.has(path), `${path} fetched twice, yet not in flight at the kill`);
    // In flight: the CRAWL_CONCURRENCY pages being fetched, and pages fetched but waiting for their
    // batch's commit (src/crawl/page-writer.ts, at most 25 ms of them), which a kill loses too.
    assert.ok(twice.length <= 4, `at most 2 × CRAWL_CONCURRENCY pages were in flight (${twice.join(' ')})`);
    assert.ok(site.requests.filter((r) => isPage(r.path)).length > requestedAtKill, 'the second instance fetched the rest');
    assert.equal(site.count('/robots.txt'), 1, 'robots.txt is kept with the crawl, not fetched again');
  });
});

describe('two instances on one PostgreSQL', { skip: !usingPostgres && 'needs TEST_DATABASE_URL (PostgreSQL)' }, () => {
  let pdb: ProcessDatabase;
  let site: CrawlSite;
  const servers: RunningServer[] = [];

  after(async () => {
    for (const server of servers) await server.stop();
    await site?.close();
    await pdb?.cleanup();
  });

  test('one crawl, two instances: every page fetched exactly once, the crawl finished, at most CRAWL_CONCURRENCY requests at once across both', async () => {
    pdb = await processDatabase();
    site = await startCrawlSite(starSite(40), { delayMs: 150 });
    const env = {
      DATABASE_URL: pdb.databaseUrl,
      ALLOW_PRIVATE_ADDRESSES: '1',
      CRAWL_CONCURRENCY: '4',
      JOB_CONCURRENCY: '4',
      ANALYSIS_WORKERS: '0',
      RATE_LIMIT_PER_MINUTE: '0',
      LOG_LEVEL: 'warn',
    };
    const first = await startServer(env);
    servers.push(first);
    const key = keyOf(first);
    servers.push(await startServer(env));
    const [api1, api2] = servers.map((server) => client(server, key));
    const crawl = await api1.start({ url: `${site.origin}/`, sitemap: '0' });
    let ended!: CrawlBody;
    await until(
      async () => {
        ended = await api2.show(crawl.id);
        return ended.status !== 'running' && ended.status !== 'queued';
      },
      { timeoutMs: 60_000, what: 'the crawl to end' },
    );
    assert.equal(ended.status, 'finished');
    assert.equal(ended.pages_done, 40);
    const paths = ['/', ...Array.from({ length: 39 }, (_, i) => `/p${i + 1}`)];
    assert.deepEqual(
      paths.filter((p) => site.count(p) !== 1),
      [],
      'every page fetched exactly once',
    );
    assert.equal(site.count('/robots.txt'), 1);
    assert.ok(site.maxInFlight <= 4, `at most 4 requests at once (saw ${site.maxInFlight})`);
    assert.ok(site.maxInFlight >= 2, `the crawl ran in parallel (saw ${site.maxInFlight})`);
    assert.equal((await api1.pages(crawl.id)).length, 40);
  });
});
