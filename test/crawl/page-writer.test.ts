// The page writer (src/crawl/page-writer.ts) over CrawlsRepository.completeAll, on the engine under
// test: pages finished together are committed in one transaction, each as a page on its own would
// be (its report, its row, the crawl's counters, its links in the frontier); a page whose lease
// fence fails is not written, its report neither, and its caller is told; a page the database
// refuses fails alone, the others of its batch written one by one; and on PostgreSQL two
// instances' batches over the same crawls, in opposite orders, both commit.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openDatabase, type DatabaseHandle } from '../../src/db/connection.js';
import { type CrawlPageRow, CrawlsRepository, type PageCompletion } from '../../src/db/crawls-repository.js';
import { ReportsRepository } from '../../src/db/reports-repository.js';
import { PageWriter } from '../../src/crawl/page-writer.js';
import { fixedClock } from '../../src/time.js';
import { testDatabase, type TestDatabase, usingPostgres } from '../helpers/database.js';

const ORIGIN = 'https://example.com';
const CHECKS = { title: { passed: true }, meta_description: { passed: false } };

describe('the page writer', () => {
  const clock = fixedClock(Date.parse('2026-11-28T10:00:00Z'));
  let db: TestDatabase;
  let crawls: CrawlsRepository;
  let reports: ReportsRepository;
  let userId: number;
  before(async () => {
    db = await testDatabase();
    crawls = new CrawlsRepository(db.handle.db, db.handle.engine, clock);
    reports = new ReportsRepository(db.handle.db, db.handle.engine, clock);
    const [user] = await db.handle.db
      .insertInto('users')
      .values({
        email: 'writer@example.com',
        api_key_hash: 'w'.repeat(64),
        created_at: '2026-01-01T00:00:00.000000Z',
        updated_at: '2026-01-01T00:00:00.000000Z',
      })
      .returning('id')
      .execute();
    userId = user.id;
  });
  after(() => db.cleanup());

  /** A running crawl with `n` queued pages (`/c<crawl>/p/0` … ), all taken under one lease. */
  async function takenPages(n: number, repo = crawls): Promise<{ crawlId: number; lease: number; pages: CrawlPageRow[] }> {
    const crawl = await repo.create({
      user_id: userId,
      url: `${ORIGIN}/`,
      project: 'example.com',
      max_pages: 10_000,
      sitemap: 0,
    });
    assert.ok(await repo.admit(crawl.id, userId, 1000, clock.now() + 3_600_000));
    await repo.discover(
      crawl.id,
      // Each crawl's URLs its own (reports are the account's, by URL).
      Array.from({ length: n }, (_, i) => ({ url: `${ORIGIN}/c${crawl.id}/p/${i}`, depth: 1, from: null })),
    );
    const lease = clock.now() + 60_000;
    const pages: CrawlPageRow[] = [];
    for (let i = 0; i < n; i++) pages.push(...(await repo.take(crawl.id, lease)));
    return { crawlId: crawl.id, lease, pages };
  }

  /** A page done with a report (as a crawl records an analysed page) and links to `/` and a new page. */
  function done(crawlId: number, lease: number, page: CrawlPageRow, user = userId, first?: () => Promise<void>): PageCompletion {
    return {
      crawlId,
      pageId: page.id,
      leaseUntilMs: lease,
      outcome: { state: 'done', status_code: 200, result: 80, html: 1, title: `Page ${page.url}` },
      links: [
        { url: page.url.replace(/\/p\/\d+$/, '/p/0'), depth: 2, from: page.url },
        { url: `${page.url}/child`, depth: 2, from: page.url },
      ],
      report: async (trx) => {
        await first?.();
        const recorded = await reports.recordIn(
          trx,
          {
            user_id: user,
            url: page.url,
            project: 'example.com',
            result: 80,
            results: JSON.stringify(CHECKS),
            privacy: 1,
            password_hash: null,
            generated_at: '2026-11-28T10:00:00.000000Z',
          },
          CHECKS,
        );
        return recorded.report.id;
      },
    };
  }

  /** A writer whose commits are counted: the size of each transaction's batch, in order. */
  function countingWriter(options: { maxPages?: number; maxWaitMs?: number } = {}) {
    const batches: number[] = [];
    const writer = new PageWriter(async (pages) => {
      batches.push(pages.length);
      return crawls.completeAll(pages);
    }, options);
    return { writer, batches };
  }

  const pageRows = (crawlId: number) =>
    db.handle.db
      .selectFrom('crawl_pages')
      .select(['url', 'state', 'report_id', 'inlinks', 'linked_from', 'lease_ms'])
      .where('crawl_id', '=', crawlId)
      .orderBy('id')
      .execute();
  const reportCount = async (urls: string[]) =>
    Number(
      (
        await db.handle.db
          .selectFrom('reports')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('url', 'in', urls)
          .executeTakeFirstOrThrow()
      ).n,
    );

  test('pages finished together are committed in one transaction, each recorded as it would be alone', async () => {
    const { crawlId, lease, pages } = await takenPages(30);
    const { writer, batches } = countingWriter({ maxWaitMs: 200 });
    const written = await Promise.all(pages.map((page) => writer.write(done(crawlId, lease, page))));
    assert.deepEqual(written, Array(30).fill(true));
    assert.deepEqual(batches, [30], 'one transaction for the 30 pages');

    const crawl = (await crawls.findById(crawlId))!;
    assert.equal(crawl.pages_done, 30);
    assert.equal(crawl.scored, 30);
    assert.equal(crawl.score_sum, 2400);
    assert.equal(crawl.pages_found, 60, 'each page’s new link added once');
    const rows = await pageRows(crawlId);
    const taken = rows.slice(0, 30);
    assert.ok(taken.every((r) => r.state === 'done' && r.report_id !== null && r.lease_ms === null));
    // `/p/0` is linked from the 29 other pages (its own link to itself counts: 30), and keeps the first two.
    assert.equal(taken[0].inlinks, 30);
    assert.deepEqual(JSON.parse(taken[0].linked_from), [pages[0].url, pages[1].url]);
    const children = rows.slice(30);
    assert.equal(children.length, 30);
    assert.ok(children.every((r, i) => r.state === 'queued' && r.inlinks === 1 && r.url === `${pages[i].url}/child`));
    assert.equal(await reportCount(pages.map((p) => p.url)), 30);
    const history = await db.handle.db
      .selectFrom('report_history')
      .select(['passed', 'failed', 'passed_checks'])
      .where(
        'report_id',
        'in',
        taken.map((r) => r.report_id!),
      )
      .execute();
    assert.equal(history.length, 30);
    assert.deepEqual(history[0], { passed: 1, failed: 1, passed_checks: 'title' });
  });

  test('a batch holds at most maxPages pages; a flush commits without waiting for more', async () => {
    const { crawlId, lease, pages } = await takenPages(25);
    const { writer, batches } = countingWriter({ maxPages: 10, maxWaitMs: 60_000 });
    const first = pages.slice(0, 20).map((page) => writer.write(done(crawlId, lease, page)));
    assert.deepEqual(await Promise.all(first), Array(20).fill(true));
    assert.deepEqual(batches, [10, 10], 'two full batches, each gone as it filled');
    const rest = pages.slice(20).map((page) => writer.write(done(crawlId, lease, page)));
    writer.flush();
    assert.deepEqual(await Promise.all(rest), Array(5).fill(true), 'written without the minute’s wait');
    assert.deepEqual(batches, [10, 10, 5]);
  });

  test('a page whose lease fence fails is not written, nor its report, and its caller is told; the others are', async () => {
    const { crawlId, lease, pages } = await takenPages(3);
    // The first page's lease passes and another worker takes it again, under a lease of its own.
    clock.advance(61_000);
    const newLease = clock.now() + 60_000;
    const [retaken] = await crawls.take(crawlId, newLease);
    assert.equal(retaken?.id, pages[0].id);
    const { writer, batches } = countingWriter();
    const written = await Promise.all(pages.map((page) => writer.write(done(crawlId, lease, page))));
    assert.deepEqual(written, [false, true, true]);
    assert.deepEqual(batches, [3]);
    const rows = await pageRows(crawlId);
    assert.deepEqual(
      rows.slice(0, 3).map((r) => [r.state, r.report_id === null]),
      [
        ['fetching', true],
        ['done', false],
        ['done', false],
      ],
    );
    assert.equal(await reportCount([pages[0].url]), 0, 'no report for the page that was not written');
    assert.equal((await crawls.findById(crawlId))!.pages_done, 2);
    // Its new owner records it.
    assert.deepEqual(await crawls.completeAll([done(crawlId, newLease, retaken)]), [true]);
    assert.equal((await crawls.findById(crawlId))!.pages_done, 3);
  });

  test('a page the database refuses fails alone: the batch is written again page by page', async () => {
    const { crawlId, lease, pages } = await takenPages(5);
    const { writer, batches } = countingWriter();
    // The third page's report names an account that does not exist (a foreign key the database enforces).
    const results = await Promise.allSettled(
      pages.map((page, i) => writer.write(done(crawlId, lease, page, i === 2 ? 999_999 : userId))),
    );
    assert.deepEqual(
      results.map((r) => r.status),
      ['fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled'],
    );
    assert.deepEqual(batches, [5, 1, 1, 1, 1, 1], 'the batch, then each page on its own');
    const rows = await pageRows(crawlId);
    assert.deepEqual(
      rows.slice(0, 5).map((r) => r.state),
      ['done', 'done', 'fetching', 'done', 'done'],
    );
    assert.equal(await reportCount([pages[2].url]), 0);
    const crawl = (await crawls.findById(crawlId))!;
    assert.equal(crawl.pages_done, 4, 'counted once each: the failed batch was rolled back');
    assert.equal(crawl.pages_found, 5 + 4);
  });

  describe('two instances on one PostgreSQL', { skip: !usingPostgres && 'needs TEST_DATABASE_URL (PostgreSQL)' }, () => {
    let second: DatabaseHandle;
    before(async () => {
      second = await openDatabase(db.url, { schema: db.schema, poolSize: 5 });
    });
    after(() => second.close());

    test('batches over the same crawls in opposite orders both commit (the crawls are locked in id order)', async () => {
      const other = new CrawlsRepository(second.db, second.engine, clock);
      for (let round = 0; round < 5; round++) {
        const a = await takenPages(10);
        const b = await takenPages(10);
        // Each transaction's first report waits (up to 300 ms) for the other's to begin, so they
        // run side by side: taking the crawls' locks in the batches' own orders, they would deadlock.
        let arrived = 0;
        let meet = () => {};
        const met = new Promise<void>((resolve) => {
          meet = resolve;
        });
        const together = async () => {
          if (++arrived === 2) meet();
          await Promise.race([met, new Promise((resolve) => setTimeout(resolve, 300))]);
        };
        const half = (t: typeof a, from: number) =>
          t.pages.slice(from, from + 5).map((page, i) => done(t.crawlId, t.lease, page, userId, i === 0 ? together : undefined));
        const [one, two] = await Promise.all([
          crawls.completeAll([...half(a, 0), ...half(b, 0)]),
          other.completeAll([...half(b, 5), ...half(a, 5)]),
        ]);
        assert.deepEqual([...one, ...two], Array(20).fill(true));
        for (const t of [a, b]) assert.equal((await crawls.findById(t.crawlId))!.pages_done, 10);
      }
    });
  });
});
