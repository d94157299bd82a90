// The link checks of a crawl (docs/external-links.md): once its pages are done, `crawl.links`
// workers check each distinct URL the pages refer to on other hosts (links, hreflang targets) and
// every image, then the crawl's finish is queued. A worker is a job like a page worker: it takes a
// URL under a lease (crawl-links-repository.ts: at most CRAWL_MAX_EXTERNAL a crawl, 2 at once per
// host), checks it through the analyser's guarded fetch (HEAD, else a short GET), records the
// answer, and hands over to its next job after a turn, so accounts take turns at the crawl slots
// and a dead worker's URL is taken again. CRAWL_CONCURRENCY workers, one request at a time each;
// under a Crawl-delay one, paced for the site's own host (its images).
import { openCrawlSession, type CrawlFetchOptions } from '../../analysis/crawl-page.js';
import type { AnalysisConfig } from '../../analysis/config.js';
import { checkTarget } from '../../analysis/fetch/target-check.js';
import type { FetchSession } from '../../analysis/fetch/session.js';
import type { CrawlSettings } from '../../config.js';
import type { CrawlLinksRepository } from '../../db/crawl-links-repository.js';
import type { CrawlRow, CrawlsRepository } from '../../db/crawls-repository.js';
import type { JobLog } from '../../jobs/log.js';
import type { JobContext, JobQueue } from '../../jobs/queue.js';
import type { Clock } from '../../time.js';
import { Pacer, sleep } from '../pacer.js';
import { inScope, siteHostOf } from '../scope.js';

export const CRAWL_LINKS = 'crawl.links';
/** Checks at once to any one host. */
export const CHECKS_PER_HOST = 2;
/** A worker's turn at a crawl slot (as a page worker's), then its next job waits its account's turn. */
const TURN_MS = 1000;
/** How often a worker looks again while the hosts left are busy or other workers' checks are under way. */
const IDLE_POLL_MS = 100;
/** How often a worker reads the crawl's status (a cancel on another instance). */
const STATUS_EVERY_MS = 500;
/** A worker that failed carries on in a new job this much later. */
const RETRY_MS = 5000;

export interface LinksJob {
  crawl: number;
  slot: number;
  seq: number;
  /** Under a Crawl-delay: when the next request to the site's host may start (ms since the epoch). */
  nextAt?: number;
}

export interface LinkCheckerDeps {
  links: CrawlLinksRepository;
  crawls: Pick<CrawlsRepository, 'findById' | 'status'>;
  jobs: JobQueue;
  clock: Clock;
  log: JobLog;
  settings: CrawlSettings;
  analysis: Omit<CrawlFetchOptions, 'signal' | 'account' | 'beforeRequest' | 'afterRequest'> & { config: AnalysisConfig };
  leaseMs: number;
  /** Runs `work` under a signal that the job's own and a cancel of the crawl both abort (the crawl service's). */
  working: (id: number, jobSignal: AbortSignal, work: (signal: AbortSignal) => Promise<void>) => Promise<void>;
  queueFinish: (crawl: CrawlRow) => Promise<void>;
}

export class LinkChecker {
  constructor(private readonly deps: LinkCheckerDeps) {}

  /** The crawl's pages are done: its link workers start (keyed: however many page workers get here), or its finish when it checks nothing. */
  async begin(crawl: CrawlRow): Promise<void> {
    if (crawl.external !== 1) return this.deps.queueFinish(crawl);
    const workers = crawl.delay_ms > 0 ? 1 : this.deps.settings.concurrency;
    for (let slot = 0; slot < workers; slot++) {
      await this.deps.jobs.send<LinksJob>(
        CRAWL_LINKS,
        { crawl: crawl.id, slot, seq: 0 },
        { key: `${crawl.id}:links:${slot}:0`, account: crawl.user_id },
      );
    }
  }

  async run(job: LinksJob, context: Pick<JobContext, 'signal'>): Promise<void> {
    const crawl = await this.deps.crawls.findById(job.crawl);
    if (crawl?.status !== 'running') return;
    const handOverAt = Date.now() + Math.min(TURN_MS, this.deps.leaseMs / 2);
    await this.deps.working(crawl.id, context.signal, async (signal) => {
      const pacer = new Pacer(crawl.delay_ms, job.nextAt ?? 0, Date.now);
      // One session for the worker's checks: checks of one host share its keep-alive connection.
      const session = openCrawlSession({ ...this.deps.analysis, signal });
      try {
        await this.work(crawl, job, handOverAt, { pacer, session, signal });
      } catch (error) {
        if (signal.aborted) throw error;
        // As a page worker: one failure (the database away for a moment) must not end the
        // checks; the URL it held is taken again once its lease has passed.
        this.deps.log.warn({ err: error, crawl: crawl.id, slot: job.slot }, 'a crawl link worker failed; it goes on shortly');
        await this.next(crawl, job, pacer, this.deps.clock.now() + RETRY_MS);
      } finally {
        await session.close();
      }
    });
  }

  private async work(
    crawl: CrawlRow,
    job: LinksJob,
    handOverAt: number,
    { pacer, session, signal }: { pacer: Pacer; session: FetchSession; signal: AbortSignal },
  ): Promise<void> {
    const { links, settings } = this.deps;
    const site = siteHostOf(crawl.url);
    let statusReadAt = 0;
    for (;;) {
      signal.throwIfAborted();
      if (Date.now() >= statusReadAt) {
        if ((await this.deps.crawls.status(crawl.id)) !== 'running') return;
        statusReadAt = Date.now() + STATUS_EVERY_MS;
      }
      if (crawl.deadline_ms !== null && this.deps.clock.now() >= Number(crawl.deadline_ms)) {
        await this.deps.queueFinish(crawl);
        return;
      }
      if (Date.now() >= handOverAt) {
        await this.next(crawl, job, pacer);
        return;
      }
      const leaseUntil = Math.floor(this.deps.clock.now()) + this.deps.leaseMs;
      const taken = await links.take(crawl.id, leaseUntil, { cap: settings.maxExternal, perHost: CHECKS_PER_HOST });
      if (taken === 'none') {
        await this.deps.queueFinish(crawl);
        return;
      }
      if (taken === 'wait') {
        await sleep(IDLE_POLL_MS, signal);
        continue;
      }
      // The site's own host (its images) keeps its Crawl-delay.
      const own = inScope(taken.url, site);
      if (own) await pacer.turn(signal);
      let result: Awaited<ReturnType<typeof checkTarget>>;
      try {
        result = await checkTarget(session, taken.url, { userAgent: this.deps.analysis.config.request.userAgent });
      } finally {
        if (own) pacer.answered();
      }
      await links.record(crawl.id, taken.url, leaseUntil, {
        status_code: result.statusCode,
        final_status: result.finalStatus,
        final_url: result.finalUrl,
        error: result.error,
        bytes: result.bytes,
      });
    }
  }

  private async next(crawl: CrawlRow, job: LinksJob, pacer: Pacer, startAfter?: number): Promise<void> {
    const next: LinksJob = { crawl: crawl.id, slot: job.slot, seq: job.seq + 1, nextAt: pacer.next };
    await this.deps.jobs.send<LinksJob>(CRAWL_LINKS, next, {
      key: `${crawl.id}:links:${job.slot}:${next.seq}`,
      account: crawl.user_id,
      ...(startAfter === undefined ? {} : { startAfter }),
    });
  }
}
