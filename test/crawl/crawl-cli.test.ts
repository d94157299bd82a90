// `rankscope crawl`: the same audit with no server (docs/site-audits.md): JSON or CSV alone on
// stdout, nothing on stderr off a terminal, exit 0 when the crawl ran whatever it found, 1 when
// the start page could not be fetched, 2 for a usage error; its reports land in the first account.
import { captureIo } from '../helpers/cli-io.js';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { runCrawl } from '../../src/cli/crawl.js';
import { loadConfig } from '../../src/config.js';
import { migrateToLatest } from '../../src/db/connection.js';
import { silentLog } from '../../src/jobs/log.js';
import { buildServices } from '../../src/services.js';
import { type ProcessDatabase, processDatabase } from '../helpers/database.js';
import { type CrawlSite, htmlPage, startCrawlSite } from '../helpers/crawl-site.js';

const capture = (stderrIsTTY = false) => captureIo({ stderrIsTTY });

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('rankscope crawl', () => {
  let site: CrawlSite;
  let database: ProcessDatabase;
  let env: Record<string, string>;
  before(async () => {
    site = await startCrawlSite({
      '/': htmlPage({ title: 'Home', description: 'The home page.', links: ['/a', '/b', '/gone'] }),
      '/a': htmlPage({ title: 'A', description: 'Page A.', links: ['/'] }),
      '/b': htmlPage({ title: 'B', description: 'Page B.', links: ['/a'] }),
      '/robots.txt': { type: 'text/plain', body: 'User-agent: *\nAllow: /\n' },
    });
    database = await processDatabase();
    env = {
      ...(process.env as Record<string, string>),
      DATABASE_URL: database.databaseUrl,
      ALLOW_PRIVATE_ADDRESSES: 'true',
      ADMIN_EMAIL: 'owner@example.com',
      CRAWL_MAX_PAGES: '50',
    };
  });
  after(async () => {
    await site.close();
    await database.cleanup();
  });

  test('--json: one JSON document on stdout (crawl, pages, issues, summary), nothing on stderr, exit 0; the reports are the first account’s', async () => {
    const run = capture();
    assert.equal(await runCrawl([`${site.origin}/`, '--json', '--max-pages', '10'], run.io, { env }), 0);
    assert.equal(run.stderr().includes('['), false, 'no progress bar off a terminal');
    const doc = JSON.parse(run.stdout()) as {
      crawl: { status: string; pages_found: number; pages_done: number; max_pages: number; issues: number };
      pages: { url: string; status_code: number | null; report_id: number | null }[];
      issues: { type: string; severity: string; url: string; detail: string }[];
      summary: { type: string; severity: string; count: number }[];
    };
    assert.deepEqual(Object.keys(doc), ['crawl', 'pages', 'issues', 'summary'], 'the summary comes after the members it had');
    assert.equal(doc.crawl.status, 'finished');
    assert.equal(doc.crawl.max_pages, 10);
    assert.deepEqual(doc.pages.map((p) => [p.url.replace(site.origin, ''), p.status_code]).sort(), [
      ['/', 200],
      ['/a', 200],
      ['/b', 200],
      ['/gone', 404],
    ]);
    assert.equal(doc.crawl.pages_found, 4);
    assert.equal(doc.crawl.pages_done, 4);
    const broken = doc.issues.filter((i) => i.type === 'broken_link');
    assert.deepEqual(
      broken.map((i) => i.url),
      [`${site.origin}/gone`],
    );
    assert.match(broken[0].detail, new RegExp(`${site.origin}/(?!gone)`));
    assert.equal(doc.crawl.issues, doc.issues.length);
    // The summary counts the issues by type, as the API's /issues/summary: most severe first, then by count.
    const rank: Record<string, number> = { high: 0, medium: 1, low: 2 };
    const counted = new Map<string, { type: string; severity: string; count: number }>();
    for (const issue of doc.issues) {
      const row = counted.get(issue.type) ?? { type: issue.type, severity: issue.severity, count: 0 };
      row.count++;
      counted.set(issue.type, row);
    }
    assert.deepEqual(
      doc.summary,
      [...counted.values()].sort(
        (a, b) => rank[a.severity] - rank[b.severity] || b.count - a.count || (a.type < b.type ? -1 : 1),
      ),
    );
    assert.deepEqual(doc.summary[0], { type: 'broken_link', severity: 'high', count: 1 });

    const db = await database.open();
    try {
      const owner = await db.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', 'owner@example.com')
        .executeTakeFirstOrThrow();
      const reports = await db.db.selectFrom('reports').select(['id', 'user_id', 'privacy', 'project']).execute();
      assert.equal(reports.length, 3, 'one report per HTML page');
      for (const report of reports) {
        assert.equal(report.user_id, owner.id);
        assert.equal(report.privacy, 1, 'private');
        assert.equal(report.project, '127.0.0.1');
      }
      const ids = doc.pages.map((p) => p.report_id).filter((id) => id !== null);
      assert.deepEqual(ids.sort(), reports.map((r) => r.id).sort());
    } finally {
      await db.close();
    }
  });

  test('it works its own crawl’s jobs alone: another job queued in the database stays queued', async () => {
    const db = await database.open();
    const services = buildServices({ config: loadConfig(env), database: db, log: silentLog, engineWorkers: false });
    try {
      await migrateToLatest(db);
      assert.equal(await services.jobs.send('monitor.run', { monitorId: 1 }), true);
      const run = capture();
      assert.equal(await runCrawl([`${site.origin}/`, '--json'], run.io, { env }), 0);
      const monitorJobs = (await services.jobs.list()).filter((job) => job.type === 'monitor.run');
      assert.deepEqual(
        monitorJobs.map((job) => [job.state, job.attempts]),
        [['queued', 0]],
      );
    } finally {
      await services.close();
      await db.close();
    }
  });

  test('--csv: the pages as CSV (header, CRLF, one line each); without a flag, a summary naming the issues', async () => {
    const csv = capture();
    assert.equal(await runCrawl([`${site.origin}/`, '--csv'], csv.io, { env }), 0);
    const lines = csv.stdout().split('\r\n');
    assert.equal(lines[0], 'url,status_code,depth,report_id,result,in_sitemap,indexable,error');
    assert.equal(lines.at(-1), '', 'every line ends in CRLF');
    assert.equal(lines.length - 2, 4);
    assert.ok(lines.some((line) => line.startsWith(`${site.origin}/gone,404,1,,,0,0,`)));

    const summary = capture();
    assert.equal(await runCrawl([site.origin], summary.io, { env }), 0);
    assert.match(summary.stdout(), /finished/);
    assert.match(summary.stdout(), /\[high\] broken_link .*\/gone/);
  });

  test('a progress bar on stderr when it is a terminal, and stdout still only the JSON', async () => {
    const run = capture(true);
    assert.equal(await runCrawl([`${site.origin}/`, '--json'], run.io, { env }), 0);
    assert.match(run.stderr(), /\[[#-]{30}\] \d+\/\d+ pages/);
    JSON.parse(run.stdout());
  });

  test('a start page that cannot be fetched: exit 1, the reason on stderr, the failed crawl as JSON', async () => {
    const run = capture();
    const url = `http://127.0.0.1:${await closedPort()}/`;
    assert.equal(await runCrawl([url, '--json'], run.io, { env }), 1);
    assert.match(run.stderr(), /start page could not be fetched: .*refused/i);
    assert.equal((JSON.parse(run.stdout()) as { crawl: { status: string } }).crawl.status, 'failed');
  });

  test('usage errors exit 2 and crawl nothing; a private start address is refused with exit 1', async () => {
    const before = site.requests.length;
    for (const args of [
      [],
      ['a', 'b'],
      [site.origin, '--json', '--csv'],
      [site.origin, '--max-pages', '0'],
      [site.origin, '--max-pages', '51'],
      ['ftp://x/'],
    ]) {
      const run = capture();
      assert.equal(await runCrawl(args, run.io, { env }), 2, JSON.stringify(args));
      assert.equal(run.stdout(), '');
      assert.notEqual(run.stderr(), '');
    }
    const refused = capture();
    assert.equal(await runCrawl([`${site.origin}/`], refused.io, { env: { ...env, ALLOW_PRIVATE_ADDRESSES: 'false' } }), 1);
    assert.match(refused.stderr(), /private or reserved/);
    assert.equal(site.requests.length, before, 'nothing was fetched');
  });

  test('--no-external: no request to another host; without it, the link there gets its one HEAD', async () => {
    const other = await startCrawlSite({ '/elsewhere': htmlPage({ title: 'Elsewhere' }) }, { host: '127.0.0.2' });
    const linking = await startCrawlSite({
      '/': htmlPage({ title: 'Linking', links: [`${other.origin}/elsewhere`], body: '<img src="/logo.png" alt="">' }),
    });
    try {
      const off = capture();
      assert.equal(await runCrawl([`${linking.origin}/`, '--json', '--no-external'], off.io, { env }), 0);
      assert.equal(JSON.parse(off.stdout()).crawl.external_unchecked, 0);
      assert.equal(other.requests.length, 0, 'nothing reached 127.0.0.2');
      assert.equal(linking.count('/logo.png'), 0, 'no image check either');
      const on = capture();
      assert.equal(await runCrawl([`${linking.origin}/`, '--json'], on.io, { env }), 0);
      assert.deepEqual(
        other.requests.map((r) => `${r.method} ${r.path}`),
        ['HEAD /elsewhere'],
      );
      assert.equal(linking.count('/logo.png'), 1);
    } finally {
      await other.close();
      await linking.close();
    }
  });
});
