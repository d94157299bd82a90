// Site audits at work (docs/site-audits.md). A crawl is three kinds of job:
//
// - `crawl.start`: the crawl starts running if its account has fewer than MAX_RUNNING_CRAWLS
//   running (else it stays queued, and the end of one of the account's crawls starts the oldest
//   queued one); then the start origin's shared fetches (robots.txt, the 404 probe, the favicon
//   and sitemap probes), the politeness settings they imply, the start page, the sitemaps' URLs
//   (at most 10 × max_pages, at least 1,000; the rest counted); then one `crawl.slot` job per
//   worker the host allows.
// - `crawl.slot`: takes the frontier's next page, fetches and analyses it (one request), records
//   it and what it links to, and goes on; after SLOT_TURN_MS (at most half a job lease) it hands
//   over to its next job, so other accounts' crawl jobs get their turn at the crawl slots, no job
//   outlives its lease, and a dead worker's slot is picked up again. The number of workers is the
//   host's concurrency: at most CRAWL_CONCURRENCY requests at once, whichever instances run them;
//   under a Crawl-delay one worker, paced.
// - `crawl.finish`: once nothing is queued or being fetched, the site-level issues, then
//   `finished` and the crawl.finished event. Keyed by the crawl: queued once.
//
// Every job carries the crawl's account, so accounts take turns at the crawl slots. Everything a
// crawl knows is in the database (crawls-repository.ts), so it survives restarts; a sweep every
// minute starts a queued crawl whose start was lost with its process, and finishes a crawl
// whose workers are gone past its time limit.
import type { FetchSession } from '../analysis/fetch/session.js';
import {
  crawlPage,
  openCrawlSession,
  fetchOriginResources,
  fetchSitemapBytes,
  type CrawlAnswer,
  type CrawlFetchOptions,
  type OriginResources,
} from '../analysis/crawl-page.js';
import { fetchFailureMessage } from '../analysis/errors.js';
import { compileRobots, crawlDelayFor, sitemapUrls as robotsSitemapUrls, type CompiledRobots } from '../analysis/robots.js';
import type { AnalysisConfig } from '../analysis/config.js';
import { crawlResource } from '../resources/crawl.js';
import type { CrawlSettings } from '../config.js';
import type {
  CrawlPageRow,
  CrawlRow,
  CrawlsRepository,
  Discovered,
  PageCompletion,
  PageOutcome,
} from '../db/crawls-repository.js';
import type { CrawlLinksRepository } from '../db/crawl-links-repository.js';
import type { EventSink } from '../model/events.js';
import type { JobLog } from '../jobs/log.js';
import type { JobContext, JobQueue } from '../jobs/queue.js';
import type { FeatureJobs } from '../jobs/registry.js';
import { AnalyserBusyError, type AnalysisPool } from '../reports/analysis-pool.js';
import type { ReportService } from '../reports/report-service.js';
import { nowTimestamp, type Clock } from '../time.js';
import { refusedTarget, type TargetGuard } from '../webhooks/target.js';
import { CRAWL_LINKS, LinkChecker, type LinksJob } from './link-checks/link-checker.js';
import { pageTargets } from './link-checks/targets.js';
import { checkedTargets } from './link-checks/checked-targets.js';
import { PageWriter, UnwrittenPages } from './page-writer.js';
import { Pacer, sleep } from './pacer.js';
import { crawlUrl, inScope, siteHostOf } from './scope.js';
import { inflateRawSync } from 'node:zlib';
import type { PageFacts } from '../analysis/crawl-facts.js';
import type { JsChanges } from '../analysis/render-diff.js';
import { decodeSignature, shingleHashes } from '../analysis/shingles.js';
import type { PageIssueFacts } from './issues/catalogue-issues.js';
import { encodeLinkHashes } from './issues/link-hashes.js';
import { confirmSome, type NearDuplicate } from './issues/near-duplicates.js';
import { SiteIssuePass, type CrawledPage } from './site-issues.js';
import { parseSitemap } from './sitemaps.js';

export const CRAWL_START = 'crawl.start';
export const CRAWL_SLOT = 'crawl.slot';
export const CRAWL_FINISH = 'crawl.finish';
/** Every job type of a crawl (the crawl CLI works these alone). */
export const CRAWL_JOB_TYPES = [CRAWL_START, CRAWL_SLOT, CRAWL_LINKS, CRAWL_FINISH] as const;

/** robots.txt groups a crawl obeys (merged), else `*`. */
export const ROBOTS_TOKENS = ['Rankscope', 'RankscopeBot'] as const;
/** Crawl-delay is honoured up to this many seconds. */
export const MAX_CRAWL_DELAY_SECONDS = 10;
/** Sitemap files read per crawl (indexes included). */
const MAX_SITEMAPS = 50;
/**
 * Sitemap URLs a crawl keeps: 10 × max_pages, at least 1,000 (a 1-page crawl of a site listing
 * 50,000 URLs must not write 50,000 rows); the rest are counted (`sitemap_urls_unkept`).
 */
export function sitemapUrlCap(maxPages: number): number {
  return Math.max(1000, 10 * maxPages);
}
/**
 * A sitemap file is read up to 10 MiB (decoded; 50,000 URLs take about 5 MB): its parse runs on
 * the event loop, and 50 MiB (the protocol's ceiling) would hold it for seconds.
 */
const SITEMAP_READ_BYTES = 10 * 1024 * 1024;
/** How often an idle worker looks again while another still fetches pages that may add links. */
const IDLE_POLL_MS = 100;
/** A page worker that failed carries on in a new job this much later. */
const SLOT_RETRY_MS = 5000;
/** How often a page worker reads the crawl's status (a cancel on another instance). */
const STATUS_EVERY_MS = 500;
/**
 * A page worker's turn at a crawl slot: past it (checked between pages) it hands over to its next
 * job, which waits its account's turn, so another account's crawl waits for a slot about this
 * long plus a page, not for the whole crawl. Short against a page; a handover costs a job.
 */
export const SLOT_TURN_MS = 1000;
/** How often the sweep looks for queued crawls whose start was lost, and crawls past their time. */
const SWEEP_EVERY_MS = 60_000;
/** Sitemap URLs stored per statement batch before the event loop turns. */
const SITEMAP_SLICE = 2000;
/**
 * A page worker's pages waiting to be written at most: past it, it waits for the writer (a slow
 * database holds the worker, not more of its pages in memory).
 */
const MAX_UNWRITTEN = 50;
/** Pages a worker takes at once (see workOn). */
const TAKE_AHEAD = 4;
/** Near-duplicate representatives confirmed per reading of stored text (each with up to 3 partners). */
const CONFIRM_SLICE = 250;

export interface CrawlJob {
  crawl: number;
}
export interface SlotJob extends CrawlJob {
  slot: number;
  seq: number;
  /** Under a Crawl-delay: when the next request may start (ms since the epoch). */
  nextAt?: number;
}

export interface NewCrawlRequest {
  url: string;
  max_pages: number;
  sitemap: 0 | 1;
  /** 0: no request to other hosts and no image check (docs/external-links.md); default 1. */
  external?: 0 | 1;
  /** 1: render each HTML page in Chromium (docs/rendering.md); default 0. */
  render?: 0 | 1;
}

export interface CrawlServiceDeps {
  crawls: CrawlsRepository;
  /** What the pages refer to on other hosts, and their images: checked after the pages. */
  links: CrawlLinksRepository;
  reports: ReportService;
  pool: AnalysisPool;
  jobs: JobQueue;
  events: EventSink;
  clock: Clock;
  log: JobLog;
  settings: CrawlSettings;
  /** The analyser's options (config, resolver, guard hooks, engine). */
  analysis: Omit<CrawlFetchOptions, 'signal' | 'account' | 'beforeRequest' | 'afterRequest'> & { config: AnalysisConfig };
  /** The address check a start URL passes before anything is queued (the analyser's guard). */
  guard: TargetGuard;
  /** JOB_LEASE_SECONDS in ms: a slot hands over by half of it; a page's lease is one. */
  leaseMs: number;
  /**
   * The instance's browser, for rendered crawls (docs/rendering.md): the page's DOM, in the
   * account's turn between accounts. Without it a rendered crawl's pages are analysed raw.
   */
  render?: (url: string, account: number, signal?: AbortSignal) => Promise<{ html: string }>;
}

/** Pages a worker took and has not fetched yet, under one lease. */
interface TakenAhead {
  pages: CrawlPageRow[];
  leaseUntil: number;
}

/** A visited page: what to record of it, and what to do once it is recorded (true: written). */
interface Visited {
  page: PageCompletion;
  after?: (written: boolean) => Promise<void>;
}

/** An origin's shared fetches and its robots rules, compiled once per job. */
interface Origin {
  resources: OriginResources;
  robots:
    | { allowAll: true }
    | { allowAll: false; disallowAll: true; why: string }
    | { allowAll: false; disallowAll: false; rules: CompiledRobots };
}

export class CrawlService {
  /** This instance's work on each crawl, aborted at once by a cancel. */
  private readonly local = new Map<number, Set<AbortController>>();
  private lastSweep = Number.NEGATIVE_INFINITY;
  private readonly linkChecks: LinkChecker;
  /** Every page worker's finished pages, committed a batch at a time (page-writer.ts). */
  private readonly writer: PageWriter;

  constructor(private readonly deps: CrawlServiceDeps) {
    this.writer = new PageWriter((pages) => deps.crawls.completeAll(pages));
    this.linkChecks = new LinkChecker({
      ...deps,
      working: (id, jobSignal, work) => this.working(id, jobSignal, work),
      queueFinish: (crawl) => this.queueFinish(crawl),
    });
  }

  /** The crawl jobs and the sweep (services.ts registers them). */
  jobs(): FeatureJobs {
    return {
      // A start or finish that fails (the database away) is retried; a slot's failure too, and
      // its pages stay leased until then, then are taken again.
      jobs: [
        { type: CRAWL_START, kind: 'crawl', run: (payload: CrawlJob, context) => this.start(payload.crawl, context) },
        { type: CRAWL_SLOT, kind: 'crawl', run: (payload: SlotJob, context) => this.slot(payload, context) },
        { type: CRAWL_LINKS, kind: 'crawl', run: (payload: LinksJob, context) => this.linkChecks.run(payload, context) },
        { type: CRAWL_FINISH, kind: 'crawl', run: (payload: CrawlJob) => this.finish(payload.crawl) },
      ],
      schedules: [{ name: 'crawls.sweep', run: (now) => this.sweep(now) }],
    };
  }

  /** Null when the start URL may be crawled; otherwise why not (DNS, the address guard). */
  refusedStart(url: string): Promise<string | null> {
    return refusedTarget(url, this.deps.guard);
  }

  /** Stores a queued crawl and queues its start. */
  async create(account: number, request: NewCrawlRequest): Promise<CrawlRow> {
    const crawl = await this.deps.crawls.create({
      user_id: account,
      url: request.url,
      project: siteHostOf(request.url),
      max_pages: request.max_pages,
      sitemap: request.sitemap,
      external: request.external ?? 1,
      render: request.render ?? 0,
    });
    await this.deps.jobs.send<CrawlJob>(CRAWL_START, { crawl: crawl.id }, { key: String(crawl.id), account });
    return crawl;
  }

  /**
   * Stops a queued or running crawl: no fetch of this instance starts after this returns (its
   * work is aborted now); other instances stop before their next page. Undefined when the
   * account has no such crawl; the crawl unchanged when it had ended already.
   */
  async cancel(account: number, id: number): Promise<CrawlRow | undefined> {
    const crawl = await this.deps.crawls.find(account, id);
    if (!crawl) return undefined;
    // By the row's id: the route's `id` is the path segment's text (IdParams), which keys no
    // entry of `local` (a Map of numbers), so no work was aborted and fetches went on after
    // the answer. Aborted again once the crawl has ended: a slot job that started meanwhile
    // (and took a page before the end) registered after the first abort.
    this.abortLocal(crawl.id, 'The crawl was cancelled.');
    const ended = await this.deps.crawls.end(crawl.id, 'cancelled', {
      userId: account,
      skippedBecause: 'The crawl was cancelled.',
    });
    this.abortLocal(crawl.id, 'The crawl was cancelled.');
    if (ended) await this.startNext(account, crawl.id);
    return ended ?? (await this.deps.crawls.find(account, crawl.id));
  }

  /**
   * After one of the account's crawls ended (`ended`): its oldest queued crawl starts, when the
   * account has room. Keyed by both, so however many instances see the end, one start job.
   */
  private async startNext(account: number, ended: number): Promise<void> {
    try {
      const next = await this.deps.crawls.nextToStart(account, this.deps.settings.maxRunningPerAccount);
      if (next === undefined) return;
      await this.deps.jobs.send<CrawlJob>(CRAWL_START, { crawl: next }, { key: `${next}:after:${ended}`, account });
    } catch (error) {
      // The sweep starts it within a minute.
      this.deps.log.warn({ err: error, account, ended }, 'the next queued crawl could not be started yet');
    }
  }

  /**
   * Scheduled on every instance, each minute: starts each account's oldest queued crawl that has
   * waited a minute with room to run (its start job was lost with a process, or an end was),
   * takes over a start that stopped before queueing the page workers, and finishes running
   * crawls two leases past their time limit (their workers are gone).
   */
  async sweep(now: number): Promise<void> {
    if (Math.abs(now - this.lastSweep) < SWEEP_EVERY_MS) return;
    this.lastSweep = now;
    const { crawls, jobs, settings } = this.deps;
    const minute = Math.floor(now / SWEEP_EVERY_MS);
    const before = nowTimestamp({ now: () => now - SWEEP_EVERY_MS });
    for (const { id, user_id } of await crawls.stalledQueued(settings.maxRunningPerAccount, before, 100)) {
      await jobs.send<CrawlJob>(CRAWL_START, { crawl: id }, { key: `${id}:sweep:${minute}`, account: user_id });
    }
    // Admitted two leases ago and its workers never queued: its start job is gone (a stop that
    // handed it back, a job failed for good); a new start takes it over.
    const stale = nowTimestamp({ now: () => now - 2 * this.deps.leaseMs });
    for (const { id, user_id } of await crawls.startsUnfinished(stale, 100)) {
      await jobs.send<CrawlJob>(CRAWL_START, { crawl: id }, { key: `${id}:resume:${minute}`, account: user_id });
    }
    for (const { id, user_id } of await crawls.overdue(now - 2 * this.deps.leaseMs, 100)) {
      await jobs.send<CrawlJob>(CRAWL_FINISH, { crawl: id }, { key: `${id}:overdue:${minute}`, account: user_id });
    }
  }

  // ---- crawl.start ----

  async start(id: number, context: Pick<JobContext, 'signal' | 'attempt'>): Promise<void> {
    let crawl = await this.deps.crawls.findById(id);
    if (crawl?.status === 'queued') {
      const deadline = wholeMs(this.deps.clock.now()) + this.deps.settings.timeLimitSeconds * 1000;
      // No room (MAX_RUNNING_CRAWLS running, or an older one queued): it stays queued, and the
      // end of one of the account's crawls (or the sweep) queues its start again.
      if (!(await this.deps.crawls.admit(id, crawl.user_id, this.deps.settings.maxRunningPerAccount, deadline))) return;
      crawl = await this.deps.crawls.findById(id);
      if (crawl?.status !== 'running') return;
    } else if (crawl?.status === 'running') {
      if (crawl.workers_queued === 1) return; // started: nothing left for a start to do
      // A start whose process stopped part-way (this job retried, or another start job for a
      // crawl whose own was lost): every step below is idempotent (rows and sitemap URLs are
      // unique, slot jobs keyed), so it carries on. Not a first run within a lease of the crawl's
      // admission, though: that is a second start job (an end and the sweep both queued one)
      // while the first is at work.
      const admittedAt = Date.parse(crawl.started_at ?? '');
      if (context.attempt === 1 && this.deps.clock.now() - admittedAt < this.deps.leaseMs) return;
    } else {
      return;
    }
    const running = crawl;
    await this.working(id, context.signal, async (signal) => {
      const pacer = new Pacer(running.delay_ms, 0, Date.now);
      const startOrigin = new URL(running.url).origin;
      let resources = (JSON.parse(running.origins) as Record<string, OriginResources>)[startOrigin];
      if (!resources) {
        // The delay applies from robots.txt on: the 404, favicon and sitemap probes that follow
        // it are requests like any other.
        resources = await fetchOriginResources(startOrigin, {
          ...this.fetchOptions(running, signal, pacer),
          afterRobots: (robots) => pacer.setDelay(crawlDelayMs(robots)),
        });
        const delayMs = crawlDelayMs(resources.robots);
        pacer.setDelay(delayMs);
        const configured = await this.deps.crawls.configure(id, {
          slots: delayMs > 0 ? 1 : this.deps.settings.concurrency,
          delay_ms: delayMs,
          origins: JSON.stringify({ [startOrigin]: resources }),
        });
        if (!configured) return;
      }
      const crawl = running;
      const options = this.fetchOptions(crawl, signal, pacer);
      await this.deps.crawls.discover(id, [{ url: crawl.url, depth: 0, from: null }]);
      if (crawl.sitemap === 1) await this.readSitemaps({ ...crawl, status: 'running' }, resources, options);
      const current = await this.deps.crawls.findById(id);
      if (current?.status !== 'running') return;
      for (let slot = 0; slot < current.slots; slot++) {
        await this.deps.jobs.send<SlotJob>(
          CRAWL_SLOT,
          { crawl: id, slot, seq: 0, nextAt: pacer.next },
          { key: `${id}:${slot}:0`, account: crawl.user_id },
        );
      }
      await this.deps.crawls.markWorkersQueued(id);
    });
  }

  /** The sitemaps of robots.txt (on the site), else /sitemap.xml; indexes followed. Their URLs wait in crawl_sitemap_urls. */
  private async readSitemaps(crawl: CrawlRow, resources: OriginResources, options: CrawlFetchOptions): Promise<void> {
    const site = siteHostOf(crawl.url);
    const listed =
      'error' in resources.robots || !isSuccess(resources.robots.status)
        ? []
        : robotsSitemapUrls(resources.robots.body, resources.robots.url);
    // Without Sitemap: lines, /sitemap.xml; the start origin's probe already asked for it, so a
    // site without one (the probe answered other than 2xx, or nothing) costs no second request.
    const probe = resources.sitemap;
    const probed = probe !== null && !('error' in probe) && isSuccess(probe.status);
    const queue = listed.length > 0 ? listed : probed ? [new URL('/sitemap.xml', crawl.url).href] : [];
    const seen = new Set<string>();
    const cap = sitemapUrlCap(crawl.max_pages);
    // A retried start counts what its first run kept.
    let kept = await this.deps.crawls.countSitemapUrls(crawl.id);
    let unkept = 0;
    let found = false;
    while (queue.length > 0 && seen.size < MAX_SITEMAPS && kept < cap) {
      const next = crawlUrl(queue.shift()!);
      // Only the site's own sitemaps: another host's would be a fetch the crawl has no business making.
      if (next === null || seen.has(next) || !inScope(next, site)) continue;
      seen.add(next);
      const fetched = await fetchSitemapBytes(next, SITEMAP_READ_BYTES, options);
      if ('error' in fetched || !isSuccess(fetched.status)) continue;
      const parsed = parseSitemap(fetched.bytes);
      if (parsed.kind === 'index') {
        found = true;
        queue.push(...parsed.sitemaps);
      } else if (parsed.kind === 'urlset') {
        found = true;
        const urls = parsed.urls.map((u) => crawlUrl(u)).filter((u): u is string => u !== null && inScope(u, site));
        const room = cap - kept;
        unkept += Math.max(0, urls.length - room);
        // A slice at a time, the event loop turning between (a file lists up to 50,000 URLs).
        const keep = urls.slice(0, room);
        for (let i = 0; i < keep.length; i += SITEMAP_SLICE) {
          kept += await this.deps.crawls.addSitemapUrls(crawl.id, keep.slice(i, i + SITEMAP_SLICE));
          await breathe();
        }
      }
    }
    if (found) await this.deps.crawls.setSitemapFound(crawl.id);
    if (unkept > 0) {
      await this.deps.crawls.countUnkeptSitemapUrls(crawl.id, unkept);
      this.deps.log.info({ crawl: crawl.id, kept, unkept }, 'sitemap URLs past the crawl’s cap were counted, not kept');
    }
  }

  // ---- crawl.slot ----

  async slot(job: SlotJob, context: Pick<JobContext, 'signal'>): Promise<void> {
    const crawl = await this.deps.crawls.findById(job.crawl);
    if (crawl?.status !== 'running') return;
    const handOverAt = Date.now() + Math.min(SLOT_TURN_MS, this.deps.leaseMs / 2);
    await this.working(crawl.id, context.signal, async (signal) => {
      const pacer = new Pacer(crawl.delay_ms, job.nextAt ?? 0, Date.now);
      const origins = new Map<string, Origin>();
      // One session for the worker's pages: their requests share a keep-alive connection.
      const session = openCrawlSession({ ...this.deps.analysis, signal });
      try {
        await this.work(crawl, job, handOverAt, { pacer, origins, session, signal });
      } catch (error) {
        if (signal.aborted) throw error; // a cancel or a shutdown: working() decides
        // A page worker must not die of one failure (the database away for a moment, a report
        // that could not be stored): the crawl would go on with fewer workers, or stall with
        // none. It hands over to its next job a little later instead; the page it held is taken
        // again once its lease has passed, and CRAWL_TIME_LIMIT ends a crawl that keeps failing.
        this.deps.log.warn({ err: error, crawl: crawl.id, slot: job.slot }, 'a crawl page worker failed; it goes on shortly');
        const next: SlotJob = { crawl: crawl.id, slot: job.slot, seq: job.seq + 1, nextAt: pacer.next };
        await this.deps.jobs.send<SlotJob>(CRAWL_SLOT, next, {
          key: `${crawl.id}:${job.slot}:${next.seq}`,
          startAfter: this.deps.clock.now() + SLOT_RETRY_MS,
          account: crawl.user_id,
        });
      } finally {
        await session.close();
      }
    });
  }

  private async work(
    crawl: CrawlRow,
    job: SlotJob,
    handOverAt: number,
    worker: { pacer: Pacer; origins: Map<string, Origin>; session: FetchSession; signal: AbortSignal },
  ): Promise<void> {
    // The worker's pages wait in the page writer while it fetches the next: each stays
    // `fetching` until its batch commits, so queued() counts it and no worker finishes the crawl
    // early. Before the worker hands over, looks for more work or stops, they are written.
    const unwritten = new UnwrittenPages(this.writer);
    const ahead: TakenAhead = { pages: [], leaseUntil: 0 };
    try {
      await this.workOn(crawl, job, handOverAt, worker, unwritten, ahead);
      await unwritten.settle();
    } finally {
      // Stopped by a failure or a cancel: the pages already analysed are written all the same,
      // and those taken but not fetched go back to the frontier.
      await unwritten.settle().catch(() => {});
      await this.release(ahead).catch(() => {});
    }
  }

  private async release(ahead: TakenAhead): Promise<void> {
    const ids = ahead.pages.map((page) => page.id);
    ahead.pages = [];
    if (ids.length > 0) await this.deps.crawls.release(ids, ahead.leaseUntil);
  }

  private async workOn(
    crawl: CrawlRow,
    job: SlotJob,
    handOverAt: number,
    worker: { pacer: Pacer; origins: Map<string, Origin>; session: FetchSession; signal: AbortSignal },
    unwritten: UnwrittenPages,
    ahead: TakenAhead,
  ): Promise<void> {
    const { pacer, signal } = worker;
    let statusReadAt = 0;
    for (;;) {
      signal.throwIfAborted();
      unwritten.check();
      // A cancel on this instance aborts `signal` at once; one on another instance shows here,
      // read at most every STATUS_EVERY_MS.
      if (Date.now() >= statusReadAt) {
        if ((await this.deps.crawls.status(crawl.id)) !== 'running') return;
        statusReadAt = Date.now() + STATUS_EVERY_MS;
      }
      if (crawl.deadline_ms !== null && this.deps.clock.now() >= crawl.deadline_ms) {
        await unwritten.settle();
        await this.queueFinish(crawl);
        return;
      }
      if (Date.now() >= handOverAt) {
        await unwritten.settle();
        const next: SlotJob = { crawl: crawl.id, slot: job.slot, seq: job.seq + 1, nextAt: pacer.next };
        await this.deps.jobs.send<SlotJob>(CRAWL_SLOT, next, {
          key: `${crawl.id}:${job.slot}:${next.seq}`,
          account: crawl.user_id,
        });
        return;
      }
      // Pages are taken a few at a time (one statement and one commit for them), fetched one at
      // a time; those left when the worker stops go back to the frontier. One at a time under a
      // Crawl-delay or rendering, where a page takes seconds, and never past half their lease.
      if (ahead.pages.length > 0 && this.deps.clock.now() > ahead.leaseUntil - this.deps.leaseMs / 2) {
        await this.release(ahead);
      }
      if (ahead.pages.length === 0) {
        ahead.leaseUntil = wholeMs(this.deps.clock.now()) + this.deps.leaseMs;
        const count = crawl.delay_ms === 0 && Number(crawl.render) !== 1 ? TAKE_AHEAD : 1;
        ahead.pages = await this.deps.crawls.take(crawl.id, ahead.leaseUntil, count);
      }
      const page = ahead.pages.shift();
      if (page) {
        const { page: completion, after } = await this.visit(crawl, page, ahead.leaseUntil, worker);
        const written = this.writer.write(completion);
        unwritten.add(after ? written.then(after) : written.then(() => {}));
        await unwritten.below(MAX_UNWRITTEN);
        continue;
      }
      // Nothing waiting, and this worker's own pages may add links once written.
      if (unwritten.size > 0) {
        await unwritten.settle();
        continue;
      }
      // Nothing waiting: another worker's page may still add links; else the sitemap-only
      // URLs (never linked) get their turn; else the crawl is done. Any row still queued or
      // being fetched counts, not only the leased ones: on PostgreSQL take() skips a row another
      // worker is taking right now, so a miss with the start page still queued would finish the
      // crawl before its first page.
      if ((await this.deps.crawls.queued(crawl.id)) > 0) {
        // Another worker's pages may wait in this instance's writer: written now, not after the batch's wait.
        this.writer.flush();
        await sleep(IDLE_POLL_MS, signal);
        continue;
      }
      const unlinked = await this.deps.crawls.sitemapUrlsWithoutPage(crawl.id, 500);
      if (
        unlinked.length > 0 &&
        (await this.deps.crawls.discover(
          crawl.id,
          unlinked.map((url) => ({ url, depth: null, from: null })),
        )) > 0
      ) {
        continue;
      }
      // The pages are done: the link checks, then the finish.
      await this.linkChecks.begin(crawl);
      return;
    }
  }

  /**
   * One page: robots, one request, the analysis; what to record of it (its report, its row, its
   * links), which the page writer commits with other pages, and what to do once it is written.
   */
  private async visit(
    crawl: CrawlRow,
    page: CrawlPageRow,
    leaseUntil: number,
    {
      pacer,
      origins,
      session,
      signal,
    }: { pacer: Pacer; origins: Map<string, Origin>; session: FetchSession; signal: AbortSignal },
  ): Promise<Visited> {
    const ended = (outcome: PageOutcome, after?: Visited['after']): Visited => ({
      page: { crawlId: crawl.id, pageId: page.id, leaseUntilMs: leaseUntil, outcome },
      after,
    });
    const url = new URL(page.url);
    const origin = await this.originOf(crawl, url.origin, origins, pacer, signal);
    // A start page without an answer ends the crawl, once its row says why.
    const failStartAfter = (reason: string) => (page.depth === 0 ? () => this.failStart(crawl, reason) : undefined);
    // robots.txt got no answer at all (the address guard refused the host, or the host is down):
    // the page would get none either. A failed fetch saying why (pages_failed counts them),
    // rather than a row skipped because an unreachable robots.txt disallows everything.
    if ('error' in origin.resources.robots) {
      const message = fetchFailureMessage(origin.resources.robots.error);
      return ended({ state: 'failed', error: message }, failStartAfter(message));
    }
    const blocked = disallowedBy(origin, page.url);
    if (blocked !== null) {
      return ended({ state: 'skipped', robots_disallowed: 1, error: blocked }, failStartAfter(blocked));
    }
    const answer = await this.analyse(crawl, page.url, origin.resources, { pacer, session, signal });
    const site = siteHostOf(crawl.url);
    if (answer.kind === 'failed') {
      const answered = answer.reason === 'not_html';
      return ended(
        { state: answered ? 'done' : 'failed', status_code: answered ? 200 : null, error: answer.message },
        answered ? undefined : failStartAfter(answer.message),
      );
    }
    if (answer.kind === 'other') {
      const redirect = answer.status >= 300 && answer.status < 400 ? answer.location : null;
      const target = redirect === null ? null : crawlUrl(redirect);
      const error =
        answer.status >= 200 && answer.status < 300 ? `Not an HTML page (${answer.contentType ?? 'no Content-Type'}).` : null;
      const follow = target !== null && inScope(target, site) ? [{ url: target, depth: page.depth ?? 0, from: page.url }] : [];
      const visited = ended({
        state: 'done',
        status_code: answer.status,
        redirect_to: target,
        error,
        response_ms: answer.headersMs,
      });
      visited.page.links = follow;
      return visited;
    }
    const results = answer.page.results;
    const noindex = results.noindex?.passed === false;
    const canonical = answer.outline.canonical === null ? null : crawlUrl(answer.outline.canonical);
    const indexable = answer.status === 200 && !noindex && (canonical === null || canonical === page.url);
    // The report, the page done and its links queued in one transaction (the page writer's):
    // a worker finding nothing queued or in flight in between would finish the crawl early.
    const depth = (page.depth ?? 0) + 1;
    let recorded: { publish: () => Promise<void> } | undefined;
    const links: Discovered[] = [];
    for (const href of answer.outline.links) {
      const target = crawlUrl(href);
      if (target !== null && target !== page.url && inScope(target, site)) links.push({ url: target, depth, from: page.url });
    }
    // What the page refers to on other hosts, and its images: recorded with the page, checked after the pages.
    const targets = crawl.external === 1 ? pageTargets(answer.outline, site) : [];
    const visited = ended(
      {
        state: 'done',
        status_code: answer.status,
        result: answer.page.result,
        html: 1,
        indexable: indexable ? 1 : 0,
        noindex: noindex ? 1 : 0,
        mixed_content: results.mixed_content?.passed === false ? 1 : 0,
        title: stringValue(results.title?.value),
        description: stringValue(results.meta_description?.value),
        canonical,
        facts: storedFacts(answer, links),
        response_ms: answer.headersMs,
        error: answer.renderError === null ? null : `Not rendered: ${answer.renderError} Its raw HTML was analysed.`,
        page_text: answer.outline.crawl?.text ?? null,
      },
      // Events go out once the report is committed (and not for a page that was no longer ours).
      async (written) => {
        if (written) await recorded?.publish();
      },
    );
    visited.page.links = links;
    visited.page.report = async (trx) => {
      const written = await this.deps.reports.recordAnalysedIn(trx, crawl.user_id, answer.page, answer.rendered);
      recorded = written;
      return written.report.id;
    };
    if (targets.length > 0) visited.page.also = (trx) => this.deps.links.discoverIn(trx, crawl.id, page.url, targets);
    return visited;
  }

  /** The page through the instance's analysis pool, taking turns with API requests and other crawls. */
  private async analyse(
    crawl: CrawlRow,
    url: string,
    resources: OriginResources,
    { pacer, session, signal }: { pacer: Pacer; session: FetchSession; signal: AbortSignal },
  ): Promise<CrawlAnswer> {
    for (;;) {
      try {
        return await this.deps.pool.run(
          (slotSignal) => crawlPage(url, resources, { ...this.fetchOptions(crawl, slotSignal, pacer), session }),
          signal,
          crawl.user_id,
        );
      } catch (error) {
        // Every analysis slot stayed busy past the queue timeout: the page keeps its lease; try again shortly.
        if (!(error instanceof AnalyserBusyError)) throw error;
        await sleep(1000, signal);
      }
    }
  }

  /** An origin's shared fetches: the crawl's cache, else fetched now (one request at a time, paced) and cached for the other workers. */
  private async originOf(
    crawl: CrawlRow,
    origin: string,
    cache: Map<string, Origin>,
    pacer: Pacer,
    signal: AbortSignal,
  ): Promise<Origin> {
    const known = cache.get(origin);
    if (known) return known;
    const stored = (JSON.parse((await this.deps.crawls.findById(crawl.id))?.origins ?? '{}') as Record<string, OriginResources>)[
      origin
    ];
    const resources = stored ?? (await fetchOriginResources(origin, this.fetchOptions(crawl, signal, pacer)));
    if (!stored) await this.deps.crawls.saveOrigin(crawl.id, origin, resources);
    const compiled: Origin = { resources, robots: robotsOf(resources) };
    cache.set(origin, compiled);
    return compiled;
  }

  private async failStart(crawl: CrawlRow, reason: string): Promise<void> {
    const ended = await this.deps.crawls.end(crawl.id, 'failed', {
      error: reason,
      skippedBecause: 'The start page could not be fetched.',
    });
    if (ended) await this.startNext(crawl.user_id, crawl.id);
  }

  private async queueFinish(crawl: CrawlRow): Promise<void> {
    await this.deps.jobs.send<CrawlJob>(CRAWL_FINISH, { crawl: crawl.id }, { key: String(crawl.id), account: crawl.user_id });
  }

  // ---- crawl.finish ----

  async finish(id: number): Promise<void> {
    const crawl = await this.deps.crawls.findById(id);
    if (crawl?.status !== 'running') return;
    // The rows are read twice, never held (site-issues.ts, SiteIssuePass): first what one row's
    // rules look up of another, then each row's own rules.
    const pass = new SiteIssuePass(crawl.sitemap_found === 1);
    const rowIds: number[] = [];
    for await (const batch of this.deps.crawls.allPages(id)) {
      for (const row of batch) {
        rowIds.push(row.id);
        pass.index(crawledPage(row));
      }
      await breathe();
    }
    // Near-duplicate candidates (MinHash buckets) are confirmed on their exact shingle sets,
    // rebuilt from the stored text of those pages alone, a slice of the plan at a time.
    const tries = [...pass.plan().tries];
    const found = new Map<string, NearDuplicate>();
    for (let i = 0; i < tries.length; i += CONFIRM_SLICE) {
      const slice = tries.slice(i, i + CONFIRM_SLICE);
      const shingles = new Map<string, Uint32Array>();
      const needed = [...new Set(slice.flatMap(([url, others]) => [url, ...others]))];
      for (const [url, text] of await this.deps.crawls.pageTexts(id, needed)) {
        shingles.set(url, shingleHashes(inflateRawSync(text).toString('utf8')));
      }
      confirmSome(found, slice, shingles);
      await breathe();
    }
    pass.nearDuplicates(found);
    // The URLs left unchecked (CRAWL_MAX_EXTERNAL, the time limit) are counted on the crawl; the
    // checked ones join the issue pass.
    await this.deps.links.settle(id);
    for await (const batch of checkedTargets(this.deps.links, id)) for (const target of batch) pass.checked(target);
    // The same rows again (a row added since, by a worker still finishing, is left out as the first reading left it).
    let at = 0;
    for await (const batch of this.deps.crawls.allPages(id)) {
      for (const row of batch) {
        if (row.id !== rowIds[at]) continue;
        at++;
        pass.check(crawledPage(row, false));
      }
      await breathe();
    }
    const issues = pass.issues();
    const finished = await this.deps.crawls.finish(id, issues);
    if (!finished) return;
    this.deps.log.info({ crawl: id, pages: finished.pages_found, issues: issues.length }, 'crawl finished');
    await this.startNext(finished.user_id, id);
    await this.deps.events.publish(finished.user_id, 'crawl.finished', crawlResource(finished));
  }

  // ---- helpers ----

  private fetchOptions(crawl: CrawlRow, signal: AbortSignal, pacer: Pacer): CrawlFetchOptions {
    const render = Number(crawl.render) === 1 ? this.deps.render : undefined;
    return {
      ...this.deps.analysis,
      signal,
      account: crawl.user_id,
      beforeRequest: () => pacer.turn(signal),
      afterRequest: () => pacer.answered(),
      ...(render ? { render: (url: string, s?: AbortSignal) => render(url, crawl.user_id, s) } : {}),
    };
  }

  /** Runs `work` with a signal that the job's own and a cancel of this crawl both abort. */
  private async working(id: number, jobSignal: AbortSignal, work: (signal: AbortSignal) => Promise<void>): Promise<void> {
    const controller = new AbortController();
    const onJobAbort = () => controller.abort(jobSignal.reason);
    jobSignal.addEventListener('abort', onJobAbort, { once: true });
    const set = this.local.get(id) ?? new Set<AbortController>();
    this.local.set(id, set);
    set.add(controller);
    try {
      await work(controller.signal);
    } catch (error) {
      // A cancel ends the work quietly; a shutdown lets the job layer retry it.
      if (controller.signal.aborted && !jobSignal.aborted) return;
      throw error;
    } finally {
      jobSignal.removeEventListener('abort', onJobAbort);
      set.delete(controller);
      if (set.size === 0) this.local.delete(id);
    }
  }

  private abortLocal(id: number, reason: string): void {
    for (const controller of this.local.get(id) ?? []) controller.abort(new Error(reason));
  }
}

/**
 * Lets the event loop turn between batches of a long pass: SQLite answers synchronously, so a
 * finish over 100,000 rows was one task of seconds, during which a server answered nothing and
 * V8's collector tasks never ran (the heap grew to twice what a pass with these pauses takes).
 */
function breathe(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * The clock in whole milliseconds, for the times a crawl stores (deadline_ms, lease_ms): the
 * system clock has microseconds, and PostgreSQL refuses a fraction in a bigint column, so on
 * PostgreSQL every crawl.start failed (and was retried) and no crawl ever started.
 */
function wholeMs(ms: number): number {
  return Math.floor(ms);
}

/** robots.txt's Crawl-delay for our groups (else `*`) in ms, capped; 0 without one. */
function crawlDelayMs(robots: OriginResources['robots']): number {
  const body = 'error' in robots || !isSuccess(robots.status) ? '' : robots.body;
  return Math.round(Math.min(MAX_CRAWL_DELAY_SECONDS, crawlDelayFor(body, ROBOTS_TOKENS) ?? 0) * 1000);
}

function isSuccess(status: number): boolean {
  return status >= 200 && status <= 299;
}

function stringValue(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

/** RFC 9309: a 4xx robots.txt allows everything; a 5xx or no answer disallows everything. */
function robotsOf(resources: OriginResources): Origin['robots'] {
  const robots = resources.robots;
  if ('error' in robots) {
    return { allowAll: false, disallowAll: true, why: `robots.txt could not be fetched (${fetchFailureMessage(robots.error)})` };
  }
  if (robots.status >= 500) return { allowAll: false, disallowAll: true, why: `robots.txt answered HTTP ${robots.status}` };
  if (!isSuccess(robots.status)) return { allowAll: true };
  return { allowAll: false, disallowAll: false, rules: compileRobots(robots.body, ROBOTS_TOKENS) };
}

/** Why robots.txt keeps the crawl from `url`, or null when it may fetch it. */
function disallowedBy(origin: Origin, url: string): string | null {
  const robots = origin.robots;
  if (robots.allowAll) return null;
  if (robots.disallowAll) return `Not fetched: ${robots.why}, which RFC 9309 reads as disallowing the whole site.`;
  const pattern = robots.rules.blockingPattern(url);
  return pattern === null ? null : `Disallowed by robots.txt (Disallow: ${pattern}).`;
}

/**
 * A page's facts as its row stores them: the Link header's canonicals beside, every URL
 * normalised like row URLs; on a rendered crawl, what the page's scripts changed.
 */
interface StoredFacts extends PageFacts {
  headerCanonicals: string[];
  js?: JsChanges;
  /** The site's URLs it links to, hashed: redirecting_link names every page that links to a redirect. */
  linkHashes?: string;
}

function storedFacts(answer: Extract<CrawlAnswer, { kind: 'page' }>, links: readonly Discovered[]): string | null {
  const facts = answer.outline.crawl?.facts;
  if (!facts) return null;
  const normalised = (urls: readonly string[]) => [...new Set(urls.map((url) => crawlUrl(url)).filter((url) => url !== null))];
  const stored: StoredFacts = {
    ...facts,
    canonicals: normalised(facts.canonicals),
    hreflang: facts.hreflang.flatMap((a) => {
      const href = crawlUrl(a.href);
      return href === null ? [] : [{ lang: a.lang, href }];
    }),
    headerCanonicals: normalised(answer.headerCanonicals),
    ...(answer.js ? { js: answer.js } : {}),
    linkHashes: encodeLinkHashes(links.map((link) => link.url)),
  };
  return JSON.stringify(stored);
}

function issueFacts(json: string | null, signature: boolean): PageIssueFacts | null {
  if (json === null) return null;
  const stored = JSON.parse(json) as StoredFacts;
  return { ...stored, signature: stored.signature === null || !signature ? null : decodeSignature(stored.signature) };
}

/**
 * A stored page row as the issue pass reads it (exported for bench/crawl-issues.ts); without
 * `signature`, the MinHash signature is left undecoded (null), as only the first reading uses it.
 */
export function crawledPage(row: CrawlPageRow, signature = true): CrawledPage {
  return {
    url: row.url,
    state: row.state === 'done' ? 'done' : row.state === 'failed' ? 'failed' : 'skipped',
    status: row.status_code,
    redirectTo: row.redirect_to,
    robotsDisallowed: row.robots_disallowed === 1,
    html: row.html === 1,
    title: row.title,
    description: row.description,
    noindex: row.noindex === 1,
    canonical: row.canonical,
    inSitemap: row.in_sitemap === 1,
    linkedFrom: JSON.parse(row.linked_from) as string[],
    inlinks: row.inlinks,
    mixedContent: row.mixed_content === 1,
    depth: row.depth,
    responseMs: row.response_ms,
    error: row.error,
    facts: issueFacts(row.facts, signature),
  };
}
