// Site audits (src/crawl/): crawls, their frontier and pages, sitemap URLs and issues. All of a
// crawl's state is here, so any instance can take its next page, and a restart loses nothing:
// a page taken by a worker that died is taken again once its lease has passed.
import { type Kysely, type Selectable, sql, type Transaction } from 'kysely';
import type { CrawlIssuesTable, CrawlPagesTable, CrawlsTable, CrawlStatus, Database, DatabaseEngine, Toggle } from './schema.js';
import { nowTimestamp, systemClock, type Clock } from '../time.js';
import { storableOrNull, storableText } from '../model/text.js';
import { addToFrontier, type Discovered, inLists, keepLinksOn } from './crawl-frontier.js';
import { preparedOn, preparedWriteOn } from './prepared.js';

export type { Discovered } from './crawl-frontier.js';

export type CrawlRow = Selectable<CrawlsTable>;
/** A page row as the crawl reads it: everything but the stored text (read for near-duplicate candidates only). */
export type CrawlPageRow = Omit<Selectable<CrawlPagesTable>, 'page_text'>;

/** The columns of CrawlPageRow. */
const PAGE_COLUMNS = [
  'id',
  'crawl_id',
  'url',
  'state',
  'priority',
  'depth',
  'lease_ms',
  'status_code',
  'redirect_to',
  'report_id',
  'result',
  'in_sitemap',
  'indexable',
  'robots_disallowed',
  'html',
  'noindex',
  'mixed_content',
  'title',
  'description',
  'canonical',
  'inlinks',
  'linked_from',
  'error',
  'facts',
  'response_ms',
] as const satisfies readonly (keyof CrawlPageRow)[];
export type CrawlIssueRow = Selectable<CrawlIssuesTable>;

/** URLs a statement names at most. */
const IN_CHUNK = 400;

export interface NewCrawl {
  user_id: number;
  url: string;
  project: string;
  max_pages: number;
  sitemap: Toggle;
  /** 0: no link, image or hreflang checks (default 1). */
  external?: Toggle;
  /** 1: render each HTML page in Chromium (default 0). */
  render?: Toggle;
}

/** How a taken page ended. */
export interface PageOutcome {
  state: 'done' | 'failed' | 'skipped';
  status_code?: number | null;
  redirect_to?: string | null;
  report_id?: number | null;
  result?: number | null;
  indexable?: Toggle;
  robots_disallowed?: Toggle;
  html?: Toggle;
  noindex?: Toggle;
  mixed_content?: Toggle;
  title?: string | null;
  description?: string | null;
  canonical?: string | null;
  error?: string | null;
  /** The page's facts for the issue catalogue (JSON). */
  facts?: string | null;
  response_ms?: number | null;
  /** The visible text, deflated, of a page that may be a near-duplicate. */
  page_text?: Uint8Array | null;
}

/** A taken page's ending, for completeAll (crawl/page-writer.ts gathers them). */
export interface PageCompletion {
  crawlId: number;
  pageId: number;
  /** The lease its worker took it under: the fence (a page re-taken since, or ended, is not written). */
  leaseUntilMs: number;
  outcome: PageOutcome;
  /** What it links to, for the frontier. */
  links?: readonly Discovered[];
  /** Its report, written in the transaction before its row (which keeps the report's id). */
  report?: (trx: Transaction<Database>) => Promise<number>;
  /** More of its writes, in the transaction (what it refers to on other hosts: crawl-links-repository.ts). */
  also?: (trx: Transaction<Database>) => Promise<void>;
}

/** A page's fence held when the batch read it and failed at its write: the batch is rolled back. */
class FenceLost extends Error {
  override name = 'FenceLost';
}

export interface NewIssue {
  type: string;
  severity: string;
  url: string;
  detail: string;
}

/** The issues list's filters: any of these types, of this severity. */
export interface IssueFilter {
  types?: readonly string[];
  severity?: string;
}

/** One row of a crawl's issue summary. */
export interface IssueCount {
  type: string;
  severity: string;
  count: number;
}

const SEVERITY_ORDER = ['high', 'medium', 'low'];
/** An unknown severity (none is stored) sorts last. */
const severityRank = (severity: string) => {
  const rank = SEVERITY_ORDER.indexOf(severity);
  return rank === -1 ? SEVERITY_ORDER.length : rank;
};

const clip = (value: string | null | undefined, max: number) => (value == null ? null : value.slice(0, max));

export class CrawlsRepository {
  /** A taken page's row as it ended, under its lease fence (every crawled page: compiled once). */
  private readonly pageDone;
  /** A crawl's counters moved by a batch of its pages. */
  private readonly countPages;
  /** take(): the frontier's front, and a page whose lease passed (every crawled page: compiled once). */
  private readonly takeQueued;
  private readonly takeAbandoned;
  private readonly keepLinks;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly engine: DatabaseEngine,
    private readonly clock: Clock = systemClock,
  ) {
    // Parameters in the order of the columns below, then the WHERE's (pageId, 'fetching', lease).
    this.pageDone = preparedWriteOn(
      db
        .updateTable('crawl_pages')
        .set({
          state: 'done',
          status_code: null,
          redirect_to: null,
          report_id: null,
          result: null,
          indexable: 0,
          robots_disallowed: 0,
          html: 0,
          noindex: 0,
          mixed_content: 0,
          title: null,
          description: null,
          canonical: null,
          error: null,
          facts: null,
          response_ms: null,
          page_text: null,
          lease_ms: null,
        })
        .where('id', '=', 0)
        .where('state', '=', 'fetching')
        .where('lease_ms', '=', 0),
    );
    // Parameters: 'fetching', the lease, the crawl's id, the state taken ('queued' or 'fetching'),
    // for an abandoned page the time its lease must have passed, how many pages.
    const claim = (state: 'queued' | 'fetching') =>
      preparedOn(
        db
          .updateTable('crawl_pages')
          .set({ state: 'fetching', lease_ms: 0 })
          .where('id', 'in', (eb) => {
            let next = eb
              .selectFrom('crawl_pages')
              .select('id')
              .where('crawl_id', '=', 0)
              .where('state', '=', state)
              .orderBy('priority')
              .orderBy('id')
              .limit(1);
            if (state === 'fetching') next = next.where('lease_ms', '<', 0);
            return engine === 'postgres' ? next.forUpdate().skipLocked() : next;
          })
          .returning(PAGE_COLUMNS),
      );
    this.keepLinks = keepLinksOn(db);
    this.takeQueued = claim('queued');
    this.takeAbandoned = claim('fetching');
    // Parameters: done, failed, score sum, scored, pages found, updated_at, the crawl's id.
    this.countPages = preparedWriteOn(
      db
        .updateTable('crawls')
        .set((eb) => ({
          pages_done: eb('pages_done', '+', 0),
          pages_failed: eb('pages_failed', '+', 0),
          score_sum: eb('score_sum', '+', 0),
          scored: eb('scored', '+', 0),
          pages_found: eb('pages_found', '+', 0),
          updated_at: '',
        }))
        .where('id', '=', 0),
    );
  }

  create(crawl: NewCrawl): Promise<CrawlRow> {
    const now = nowTimestamp(this.clock);
    return this.db
      .insertInto('crawls')
      .values({
        ...crawl,
        status: 'queued',
        slots: 1,
        delay_ms: 0,
        pages_found: 0,
        pages_done: 0,
        pages_failed: 0,
        score_sum: 0,
        scored: 0,
        issues: 0,
        sitemap_found: 0,
        sitemap_urls_unkept: 0,
        workers_queued: 0,
        origins: '{}',
        error: null,
        deadline_ms: null,
        started_at: null,
        finished_at: null,
        created_at: now,
        updated_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /** A page of the account's crawls, newest first. */
  async list(userId: number, limit: number, offset: number): Promise<{ total: number; rows: CrawlRow[] }> {
    const base = this.db.selectFrom('crawls').where('user_id', '=', userId);
    const counted = await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    const total = Number(counted.n);
    if (total === 0 || offset >= total) return { total, rows: [] };
    return { total, rows: await base.selectAll().orderBy('id', 'desc').limit(limit).offset(offset).execute() };
  }

  find(userId: number, id: number): Promise<CrawlRow | undefined> {
    return this.db.selectFrom('crawls').selectAll().where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
  }

  /** Whoever owns it (the jobs act for the owner). */
  findById(id: number): Promise<CrawlRow | undefined> {
    return this.db.selectFrom('crawls').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async status(id: number): Promise<CrawlStatus | undefined> {
    return (await this.db.selectFrom('crawls').select('status').where('id', '=', id).executeTakeFirst())?.status;
  }

  /**
   * queued → running, when its account has fewer than `maxRunning` crawls running and no older
   * one queued (they start oldest first); false otherwise (it stays queued, or it was cancelled).
   * One statement after the account's row is locked on PostgreSQL, so two instances never start
   * one crawl too many together; SQLite's writer lock serialises already.
   */
  admit(id: number, userId: number, maxRunning: number, deadlineMs: number): Promise<boolean> {
    const run = async (trx: Kysely<Database>) => {
      if (this.engine === 'postgres') {
        await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().executeTakeFirst();
      }
      const now = nowTimestamp(this.clock);
      const result = await trx
        .updateTable('crawls')
        .set({ status: 'running', started_at: now, deadline_ms: deadlineMs, updated_at: now })
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .where('status', '=', 'queued')
        .where((eb) =>
          eb(
            eb
              .selectFrom('crawls as r')
              .select((r) => r.fn.countAll().as('n'))
              .where('r.user_id', '=', userId)
              .where('r.status', '=', 'running'),
            '<',
            maxRunning,
          ),
        )
        .where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom('crawls as o')
                .select('o.id')
                .where('o.user_id', '=', userId)
                .where('o.status', '=', 'queued')
                .where('o.id', '<', id),
            ),
          ),
        )
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    };
    return this.engine === 'postgres' ? this.db.transaction().execute(run) : run(this.db);
  }

  /** A running crawl's politeness settings and start origin's shared fetches; false when it is no longer running. */
  async configure(id: number, settings: { slots: number; delay_ms: number; origins: string }): Promise<boolean> {
    const result = await this.db
      .updateTable('crawls')
      .set({ ...settings, updated_at: nowTimestamp(this.clock) })
      .where('id', '=', id)
      .where('status', '=', 'running')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** The account's oldest queued crawl, when it has room to run one (fewer than `maxRunning` running). */
  async nextToStart(userId: number, maxRunning: number): Promise<number | undefined> {
    const running = await this.db
      .selectFrom('crawls')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('user_id', '=', userId)
      .where('status', '=', 'running')
      .executeTakeFirstOrThrow();
    if (Number(running.n) >= maxRunning) return undefined;
    const next = await this.db
      .selectFrom('crawls')
      .select('id')
      .where('user_id', '=', userId)
      .where('status', '=', 'queued')
      .orderBy('id')
      .limit(1)
      .executeTakeFirst();
    return next?.id;
  }

  /**
   * For the sweep: each account's oldest crawl queued since before `before` while the account
   * has fewer than `maxRunning` running (its start was lost with a process, or found no room and
   * no end since started it).
   */
  async stalledQueued(maxRunning: number, before: string, limit: number): Promise<{ id: number; user_id: number }[]> {
    return this.db
      .selectFrom('crawls as c')
      .select(['c.id', 'c.user_id'])
      .where('c.status', '=', 'queued')
      .where('c.created_at', '<', before)
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('crawls as o')
              .select('o.id')
              .whereRef('o.user_id', '=', 'c.user_id')
              .where('o.status', '=', 'queued')
              .whereRef('o.id', '<', 'c.id'),
          ),
        ),
      )
      .where((eb) =>
        eb(
          eb
            .selectFrom('crawls as r')
            .select((r) => r.fn.countAll().as('n'))
            .whereRef('r.user_id', '=', 'c.user_id')
            .where('r.status', '=', 'running'),
          '<',
          maxRunning,
        ),
      )
      .orderBy('c.id')
      .limit(limit)
      .execute();
  }

  /** The crawl's start has queued its page workers. */
  async markWorkersQueued(id: number): Promise<void> {
    await this.db.updateTable('crawls').set({ workers_queued: 1 }).where('id', '=', id).execute();
  }

  /** Running crawls started before `before` whose start never queued their page workers (its job was lost). */
  async startsUnfinished(before: string, limit: number): Promise<{ id: number; user_id: number }[]> {
    return this.db
      .selectFrom('crawls')
      .select(['id', 'user_id'])
      .where('status', '=', 'running')
      .where('workers_queued', '=', 0)
      .where('started_at', '<', before)
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  /** Running crawls whose deadline passed before `beforeMs` (their workers are gone): for the sweep to finish. */
  async overdue(beforeMs: number, limit: number): Promise<{ id: number; user_id: number }[]> {
    return this.db
      .selectFrom('crawls')
      .select(['id', 'user_id'])
      .where('status', '=', 'running')
      .where('deadline_ms', '<', Math.floor(beforeMs))
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  /** Counts sitemap URLs read past the crawl's cap (not stored). */
  async countUnkeptSitemapUrls(id: number, n: number): Promise<void> {
    if (n <= 0) return;
    await this.db
      .updateTable('crawls')
      .set((eb) => ({ sitemap_urls_unkept: eb('sitemap_urls_unkept', '+', n) }))
      .where('id', '=', id)
      .execute();
  }

  /** Adds one origin's shared fetches to the cache the crawl's workers read. */
  async saveOrigin(id: number, origin: string, resources: unknown): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const row = await this.lockCrawl(trx, id);
      if (!row) return;
      const origins = JSON.parse(row.origins) as Record<string, unknown>;
      origins[origin] = resources;
      await trx
        .updateTable('crawls')
        .set({ origins: JSON.stringify(origins) })
        .where('id', '=', id)
        .execute();
    });
  }

  async setSitemapFound(id: number): Promise<void> {
    await this.db.updateTable('crawls').set({ sitemap_found: 1 }).where('id', '=', id).execute();
  }

  /** Records sitemap URLs (each once) and marks the pages already found at them; how many were new. */
  async addSitemapUrls(crawlId: number, urls: readonly string[]): Promise<number> {
    let added = 0;
    for (let i = 0; i < urls.length; i += IN_CHUNK) {
      const slice = urls.slice(i, i + IN_CHUNK);
      const rows = await this.db
        .insertInto('crawl_sitemap_urls')
        .values(slice.map((url) => ({ crawl_id: crawlId, url })))
        .onConflict((oc) => oc.doNothing())
        .returning('url')
        .execute();
      added += rows.length;
      await this.db
        .updateTable('crawl_pages')
        .set({ in_sitemap: 1 })
        .where('crawl_id', '=', crawlId)
        .where('url', 'in', slice)
        .execute();
    }
    return added;
  }

  async countSitemapUrls(crawlId: number): Promise<number> {
    const row = await this.db
      .selectFrom('crawl_sitemap_urls')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('crawl_id', '=', crawlId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /**
   * Adds what a page links to (or a sitemap lists) to the frontier: new URLs become queued rows
   * while the crawl has fewer than max_pages rows; known ones gain the link (inlinks, the first
   * few linking pages, a shallower depth). One transaction, the crawl row locked on PostgreSQL
   * so instances never exceed max_pages together.
   */
  async discover(crawlId: number, found: readonly Discovered[]): Promise<number> {
    if (found.length === 0) return 0;
    return this.db.transaction().execute(async (trx) => {
      // The few columns it needs (the row's `origins` holds whole robots.txt files).
      const query = trx.selectFrom('crawls').select(['status', 'max_pages', 'pages_found']).where('id', '=', crawlId);
      const crawl = await (this.engine === 'postgres' ? query.forUpdate() : query).executeTakeFirst();
      if (crawl?.status !== 'running') return 0;
      const added = await addToFrontier(trx, this.keepLinks, crawlId, crawl.max_pages - crawl.pages_found, [found]);
      if (added > 0) {
        await trx
          .updateTable('crawls')
          .set((eb) => ({ pages_found: eb('pages_found', '+', added), updated_at: nowTimestamp(this.clock) }))
          .where('id', '=', crawlId)
          .execute();
      }
      return added;
    });
  }

  /**
   * Takes the next pages to fetch (at most `count`, in frontier order), leased until
   * `leaseUntilMs`: the frontier's front, else one page whose worker died (its lease passed).
   * Empty when none is waiting.
   */
  async take(crawlId: number, leaseUntilMs: number, count = 1): Promise<CrawlPageRow[]> {
    // Whole ms: lease_ms is a bigint, and PostgreSQL refuses the clock's fraction as one.
    const now = Math.floor(this.clock.now());
    // One statement each (no transaction to commit): the frontier's front, else a page whose
    // worker died (its lease passed; rare, so looked for only when nothing is queued).
    const queued = await this.takeQueued(this.db, 'fetching', leaseUntilMs, crawlId, 'queued', count);
    if (queued.length > 0) return queued.sort((a, b) => a.priority - b.priority || a.id - b.id);
    return this.takeAbandoned(this.db, 'fetching', leaseUntilMs, crawlId, 'fetching', now, 1);
  }

  /** Hands taken pages back to the frontier (a worker that stops before fetching them), unless they were taken again since. */
  async release(pageIds: readonly number[], leaseUntilMs: number): Promise<void> {
    for (const list of inLists(pageIds)) {
      await this.db
        .updateTable('crawl_pages')
        .set({ state: 'queued', lease_ms: null })
        .where('id', 'in', list)
        .where('state', '=', 'fetching')
        .where('lease_ms', '=', leaseUntilMs)
        .execute();
    }
  }

  /** Rows still queued or being fetched (leased or not, locked by another worker or not). */
  async queued(crawlId: number): Promise<number> {
    const row = await this.db
      .selectFrom('crawl_pages')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('crawl_id', '=', crawlId)
      .where('state', 'in', ['queued', 'fetching'])
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /**
   * Records how taken pages ended (of one crawl or several), in one transaction, one commit for
   * all (crawl/page-writer.ts): each page's report and row, the crawls' counters, and what the
   * pages link to added to the frontier. Once per page: a page that is no longer its worker's
   * (cancelled, or re-taken after its lease) fails its lease fence, is skipped (false at its
   * place, nothing of it written, its report neither) and the others are written. The crawls' rows are
   * read first, in id order, and on PostgreSQL locked, as are the pages' rows: two instances'
   * batches take their locks in the same order, so neither waits for the other in a cycle.
   */
  async completeAll(pages: readonly PageCompletion[]): Promise<boolean[]> {
    try {
      return await this.db.transaction().execute((trx) => this.completeIn(trx, pages));
    } catch (error) {
      // A page whose fence passed the batch's reading and failed at its write (never seen; it
      // would take a writer outside the transaction): the batch is rolled back, and the caller
      // writes its pages again one by one, where the fence decides alone.
      if (error instanceof FenceLost && pages.length === 1) return [false];
      throw error;
    }
  }

  private async completeIn(trx: Transaction<Database>, pages: readonly PageCompletion[]): Promise<boolean[]> {
    const postgres = this.engine === 'postgres';
    const crawlIds = [...new Set(pages.map((p) => p.crawlId))].sort((a, b) => a - b);
    const crawlQuery = trx
      .selectFrom('crawls')
      .select(['id', 'status', 'max_pages', 'pages_found'])
      .where('id', 'in', [...inLists(crawlIds)].flat())
      .orderBy('id');
    const crawls = await (postgres ? crawlQuery.forUpdate() : crawlQuery).execute();
    const pageIds = [...new Set(pages.map((p) => p.pageId))].sort((a, b) => a - b);
    const leases = new Map<number, number>();
    for (const list of inLists(pageIds)) {
      const fenceQuery = trx
        .selectFrom('crawl_pages')
        .select(['id', 'lease_ms'])
        .where('id', 'in', list)
        .where('state', '=', 'fetching')
        .orderBy('id');
      for (const row of await (postgres ? fenceQuery.forUpdate() : fenceQuery).execute()) {
        if (row.lease_ms !== null) leases.set(row.id, Number(row.lease_ms));
      }
    }
    const moved = new Map<number, { done: number; failed: number; scoreSum: number; scored: number; links: Discovered[][] }>();
    const written: boolean[] = [];
    for (const page of pages) {
      const { outcome } = page;
      if (leases.get(page.pageId) !== page.leaseUntilMs) {
        written.push(false);
        continue;
      }
      leases.delete(page.pageId); // a page named twice is written once
      const reportId = page.report === undefined ? (outcome.report_id ?? null) : await page.report(trx);
      const changed = await this.pageDone(
        trx,
        outcome.state,
        outcome.status_code ?? null,
        // Fetched content: what a database refuses (a NUL in a title) is cleaned, or the page
        // could never be recorded and the crawl would wait for it until its time limit.
        clip(storableOrNull(outcome.redirect_to), 2048),
        reportId,
        outcome.result ?? null,
        outcome.indexable ?? 0,
        outcome.robots_disallowed ?? 0,
        outcome.html ?? 0,
        outcome.noindex ?? 0,
        outcome.mixed_content ?? 0,
        clip(storableOrNull(outcome.title), 1000),
        clip(storableOrNull(outcome.description), 2000),
        clip(storableOrNull(outcome.canonical), 2048),
        clip(storableOrNull(outcome.error), 1000),
        // JSON escapes control characters (NUL included), so the facts store as they are.
        outcome.facts ?? null,
        outcome.response_ms ?? null,
        outcome.page_text
          ? Buffer.from(outcome.page_text.buffer, outcome.page_text.byteOffset, outcome.page_text.byteLength)
          : null,
        null,
        page.pageId,
        'fetching',
        page.leaseUntilMs,
      );
      if (changed === 0) throw new FenceLost();
      const counters = moved.get(page.crawlId) ?? { done: 0, failed: 0, scoreSum: 0, scored: 0, links: [] };
      moved.set(page.crawlId, counters);
      if (outcome.state === 'done') counters.done++;
      if (outcome.state === 'failed') counters.failed++;
      if (typeof outcome.result === 'number') {
        counters.scoreSum += outcome.result;
        counters.scored++;
      }
      if (page.links && page.links.length > 0) counters.links.push([...page.links]);
      await page.also?.(trx);
      written.push(true);
    }
    // Each crawl once, in id order: what its pages link to joins the frontier, and its counters move.
    for (const crawl of crawls) {
      const counters = moved.get(crawl.id);
      if (!counters) continue;
      const added =
        crawl.status === 'running' && counters.links.length > 0
          ? await addToFrontier(trx, this.keepLinks, crawl.id, crawl.max_pages - crawl.pages_found, counters.links)
          : 0;
      await this.countPages(
        trx,
        counters.done,
        counters.failed,
        counters.scoreSum,
        counters.scored,
        added,
        nowTimestamp(this.clock),
        crawl.id,
      );
    }
    return written;
  }

  /** Ends a crawl (finished, failed or cancelled) unless it has ended already; the rows still queued are skipped. */
  async end(
    crawlId: number,
    status: Exclude<CrawlStatus, 'queued' | 'running'>,
    fields: { error?: string | null; skippedBecause: string; userId?: number },
  ): Promise<CrawlRow | undefined> {
    const now = nowTimestamp(this.clock);
    return this.db.transaction().execute(async (trx) => {
      let query = trx
        .updateTable('crawls')
        .set({
          status,
          finished_at: now,
          updated_at: now,
          // A reason may quote fetched content (a robots.txt rule): cleaned as fetched content is.
          ...(fields.error !== undefined ? { error: clip(storableOrNull(fields.error), 1000) } : {}),
        })
        .where('id', '=', crawlId)
        .where('status', 'in', ['queued', 'running']);
      if (fields.userId !== undefined) query = query.where('user_id', '=', fields.userId);
      const row = await query.returningAll().executeTakeFirst();
      if (!row) return undefined;
      await trx
        .updateTable('crawl_pages')
        .set({ state: 'skipped', error: fields.skippedBecause, lease_ms: null })
        .where('crawl_id', '=', crawlId)
        .where('state', 'in', ['queued', 'fetching'])
        .execute();
      return row;
    });
  }

  /**
   * Every page of a crawl, in discovery order, a batch at a time (issues, CSV): the rows it had
   * when the reading began. Read by the primary key between the crawl's first and last row, the
   * crawl compared after (`+crawl_id`): with an index on crawl_id, SQLite sorted every row of the
   * crawl again for each batch (a temporary B-tree), which made 100,000 rows cost seconds.
   */
  async *allPages(crawlId: number, batch = 1000): AsyncGenerator<CrawlPageRow[]> {
    const bounds = await this.db
      .selectFrom('crawl_pages')
      .select((eb) => [eb.fn.min('id').as('first'), eb.fn.max('id').as('last')])
      .where('crawl_id', '=', crawlId)
      .executeTakeFirst();
    if (bounds?.first == null || bounds.last == null) return;
    const last = Number(bounds.last);
    for (let after = Number(bounds.first) - 1; after < last; ) {
      const rows = await this.db
        .selectFrom('crawl_pages')
        .select(PAGE_COLUMNS)
        .where(sql<number>`+crawl_id`, '=', crawlId)
        .where('id', '>', after)
        .where('id', '<=', last)
        .orderBy('id')
        .limit(batch)
        .execute();
      if (rows.length === 0) return;
      yield rows;
      after = rows[rows.length - 1].id;
    }
  }

  async isInSitemap(crawlId: number, urls: readonly string[]): Promise<Set<string>> {
    const listed = new Set<string>();
    for (let i = 0; i < urls.length; i += IN_CHUNK) {
      const rows = await this.db
        .selectFrom('crawl_sitemap_urls')
        .select('url')
        .where('crawl_id', '=', crawlId)
        .where('url', 'in', urls.slice(i, i + IN_CHUNK))
        .execute();
      for (const row of rows) listed.add(row.url);
    }
    return listed;
  }

  /** The stored (deflated) visible text of these pages, by URL: the near-duplicate candidates' only. */
  async pageTexts(crawlId: number, urls: readonly string[]): Promise<Map<string, Uint8Array>> {
    const texts = new Map<string, Uint8Array>();
    for (let i = 0; i < urls.length; i += IN_CHUNK) {
      const rows = await this.db
        .selectFrom('crawl_pages')
        .select(['url', 'page_text'])
        .where('crawl_id', '=', crawlId)
        .where('url', 'in', urls.slice(i, i + IN_CHUNK))
        .where('page_text', 'is not', null)
        .execute();
      for (const row of rows) if (row.page_text) texts.set(row.url, row.page_text);
    }
    return texts;
  }

  /** The sitemap URLs no page row holds (listed, never reached: max_pages or the crawl's end). */
  async sitemapUrlsWithoutPage(crawlId: number, limit: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('crawl_sitemap_urls as s')
      .select('s.url')
      .where('s.crawl_id', '=', crawlId)
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('crawl_pages as p')
              .select('p.id')
              .whereRef('p.crawl_id', '=', 's.crawl_id')
              .whereRef('p.url', '=', 's.url'),
          ),
        ),
      )
      .limit(limit)
      .execute();
    return rows.map((r) => r.url);
  }

  async listPages(crawlId: number, limit: number, offset: number): Promise<{ total: number; rows: CrawlPageRow[] }> {
    const base = this.db.selectFrom('crawl_pages').where('crawl_id', '=', crawlId);
    const counted = await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    const total = Number(counted.n);
    if (total === 0 || offset >= total) return { total, rows: [] };
    return { total, rows: await base.select(PAGE_COLUMNS).orderBy('id').limit(limit).offset(offset).execute() };
  }

  async listIssues(
    crawlId: number,
    limit: number,
    offset: number,
    filter: IssueFilter = {},
  ): Promise<{ total: number; rows: CrawlIssueRow[] }> {
    let base = this.db.selectFrom('crawl_issues').where('crawl_id', '=', crawlId);
    if (filter.types && filter.types.length > 0) base = base.where('type', 'in', filter.types);
    if (filter.severity) base = base.where('severity', '=', filter.severity);
    const counted = await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    const total = Number(counted.n);
    if (total === 0 || offset >= total) return { total, rows: [] };
    return { total, rows: await base.selectAll().orderBy('id').limit(limit).offset(offset).execute() };
  }

  /** Every issue of a crawl, in stored order (severity, type, URL), a batch at a time (the CLI's output). */
  async *allIssues(crawlId: number, batch = 1000): AsyncGenerator<CrawlIssueRow[]> {
    for (let after = 0; ; ) {
      const rows = await this.db
        .selectFrom('crawl_issues')
        .selectAll()
        .where('crawl_id', '=', crawlId)
        .where('id', '>', after)
        .orderBy('id')
        .limit(batch)
        .execute();
      if (rows.length === 0) return;
      yield rows;
      after = rows[rows.length - 1].id;
    }
  }

  /**
   * The crawl's issues counted by type: most severe first, then the most frequent, then by type
   * name. Sorted here rather than in SQL: PostgreSQL's collation may order `_` unlike SQLite's bytes.
   */
  async issueSummary(crawlId: number): Promise<IssueCount[]> {
    const rows = await this.db
      .selectFrom('crawl_issues')
      .select(['type', 'severity', (eb) => eb.fn.countAll().as('n')])
      .where('crawl_id', '=', crawlId)
      .groupBy(['type', 'severity'])
      .execute();
    return rows
      .map((row) => ({ type: row.type, severity: row.severity, count: Number(row.n) }))
      .sort(
        (a, b) =>
          severityRank(a.severity) - severityRank(b.severity) ||
          b.count - a.count ||
          (a.type < b.type ? -1 : a.type > b.type ? 1 : 0),
      );
  }

  /**
   * Stores the site-level issues and finishes the crawl, in one transaction (a retried finish
   * replaces them), IN_CHUNK issues a statement.
   */
  async finish(crawlId: number, issues: readonly NewIssue[]): Promise<CrawlRow | undefined> {
    const now = nowTimestamp(this.clock);
    return this.db.transaction().execute(async (trx) => {
      const crawl = await this.lockCrawl(trx, crawlId);
      if (crawl?.status !== 'running') return undefined;
      await trx.deleteFrom('crawl_issues').where('crawl_id', '=', crawlId).execute();
      for (let i = 0; i < issues.length; i += IN_CHUNK) {
        await trx
          .insertInto('crawl_issues')
          .values(
            issues.slice(i, i + IN_CHUNK).map((issue) => ({
              crawl_id: crawlId,
              type: issue.type,
              severity: issue.severity,
              url: storableText(issue.url),
              detail: storableText(issue.detail),
            })),
          )
          .execute();
      }
      await trx
        .updateTable('crawl_pages')
        .set({ state: 'skipped', error: 'The crawl ended before this page was fetched.', lease_ms: null })
        .where('crawl_id', '=', crawlId)
        .where('state', 'in', ['queued', 'fetching'])
        .execute();
      return trx
        .updateTable('crawls')
        .set({ status: 'finished', issues: issues.length, finished_at: now, updated_at: now })
        .where('id', '=', crawlId)
        .returningAll()
        .executeTakeFirst();
    });
  }

  /** The crawl row, locked for the transaction on PostgreSQL (SQLite's writer lock serialises already). */
  private lockCrawl(trx: Transaction<Database>, id: number): Promise<CrawlRow | undefined> {
    const query = trx.selectFrom('crawls').selectAll().where('id', '=', id);
    return (this.engine === 'postgres' ? query.forUpdate() : query).executeTakeFirst();
  }
}
