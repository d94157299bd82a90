// The composition root: every repository and service of one instance, built once and shared by
// the HTTP app, the job workers and the CLI, so a route, a job and a command do the same thing
// through the same code.
import type { AppConfig } from './config.js';
import { analyze, EnginePool, type AnalyzeOptions } from './index.js';
import type { DatabaseHandle } from './db/connection.js';
import { AnalyticsRepository } from './db/analytics-repository.js';
import { CrawlsRepository } from './db/crawls-repository.js';
import { CrawlLinksRepository } from './db/crawl-links-repository.js';
import { DigestsRepository } from './db/digests-repository.js';
import { JobsRepository } from './db/jobs-repository.js';
import { MailsRepository } from './db/mails-repository.js';
import { MonitorsRepository } from './db/monitors-repository.js';
import { ReportHistoryRepository } from './db/report-history-repository.js';
import { ReportsRepository } from './db/reports-repository.js';
import { UsersRepository } from './db/users-repository.js';
import { SessionsRepository } from './db/sessions-repository.js';
import { WebhookDeliveriesRepository } from './db/webhook-deliveries-repository.js';
import { WebhooksRepository } from './db/webhooks-repository.js';
import { WebsitesRepository } from './db/websites-repository.js';
import { systemResolver } from './analysis/fetch/address-guard.js';
import type { EventSink } from './model/events.js';
import { openJobQueue } from './jobs/open-queue.js';
import type { JobQueue } from './jobs/queue.js';
import { registerJobs } from './jobs/registry.js';
import type { JobLog } from './jobs/log.js';
import { Scheduler } from './jobs/scheduler.js';
import { DigestService } from './digests/digest-service.js';
import { MailService } from './mail/mail-service.js';
import type { Mailer } from './mail/mail-message.js';
import { MonitorService } from './monitors/monitor-service.js';
import { CrawlService } from './crawl/crawl-service.js';
import { Renderer } from './browser/renderer.js';
import { AnalysisPool } from './reports/analysis-pool.js';
import { ReportService, type PageAnalyser } from './reports/report-service.js';
import { systemClock, type Clock } from './time.js';
import { analyticsJobs } from './tracking/retention.js';
import { StatsService } from './tracking/stats-service.js';
import { WebhookService } from './webhooks/webhook-service.js';

export interface Repositories {
  users: UsersRepository;
  websites: WebsitesRepository;
  reports: ReportsRepository;
  analytics: AnalyticsRepository;
  webhooks: WebhooksRepository;
  webhookDeliveries: WebhookDeliveriesRepository;
  monitors: MonitorsRepository;
  history: ReportHistoryRepository;
  crawls: CrawlsRepository;
  crawlLinks: CrawlLinksRepository;
  sessions: SessionsRepository;
}

export interface ServiceOptions {
  config: AppConfig;
  database: DatabaseHandle;
  log: JobLog;
  clock?: Clock;
  /** Tests only: a DNS resolver and connection hooks for the analyser (production uses the system's). */
  analysisHooks?: Pick<AnalyzeOptions, 'resolver' | 'guard'>;
  /** Parse pages in worker threads (the server); the CLI analyses in its own thread. */
  engineWorkers?: boolean;
  /** Tests only: a Mailer that records what would be sent, in place of the instance's. */
  mail?: Mailer;
  /** Tests only: an EventSink that records what is published, in place of the instance's. */
  events?: EventSink;
}

export interface Services {
  config: AppConfig;
  database: DatabaseHandle;
  clock: Clock;
  log: JobLog;
  repos: Repositories;
  /** The instance's analysis slots, shared fairly by account (every analysis goes through it). */
  analysisPool: AnalysisPool;
  reports: ReportService;
  stats: StatsService;
  /** Webhooks: their targets' address check and their deliveries (a job). */
  webhooks: WebhookService;
  /** Scheduled re-runs of reports: the due-run task, the run and alert jobs. */
  monitors: MonitorService;
  /** Site audits: the start, page-worker and finish jobs. */
  crawls: CrawlService;
  /** Headless Chromium behind the address guard (docs/rendering.md); started on the first rendered page. */
  renderer: Renderer;
  /** Where services publish what happened to an account's resources (the webhooks). */
  events: EventSink;
  /** Durable jobs: monitor runs, digests, mails, webhook deliveries. */
  jobs: JobQueue;
  /** Every mail goes through it: stored, then sent by a job (or kept in the outbox without SMTP_URL). */
  mail: MailService;
  /** Periodic traffic digests of websites with e-mail on. */
  digests: DigestService;
  /** Recurring work (due monitors, digests): every instance ticks, keyed jobs make each run once. */
  scheduler: Scheduler;
  /** Starts this instance's job workers and schedules (the server; tests drain instead). */
  startWorkers(): Promise<void>;
  /** Stops schedules and workers, then the engine's threads; the database stays open. */
  close(): Promise<void>;
}

export function buildServices({
  config,
  database,
  log,
  clock = systemClock,
  analysisHooks,
  engineWorkers = true,
  ...given
}: ServiceOptions): Services {
  const repos: Repositories = {
    users: new UsersRepository(database.db, clock),
    websites: new WebsitesRepository(database.db, clock),
    reports: new ReportsRepository(database.db, database.engine, clock),
    analytics: new AnalyticsRepository(database.db, database.engine, clock, config.analytics.maxValues),
    webhooks: new WebhooksRepository(database.db, clock),
    webhookDeliveries: new WebhookDeliveriesRepository(database.db, clock),
    monitors: new MonitorsRepository(database.db, clock),
    history: new ReportHistoryRepository(database.db),
    crawls: new CrawlsRepository(database.db, database.engine, clock),
    crawlLinks: new CrawlLinksRepository(database.db, database.engine, clock),
    sessions: new SessionsRepository(database.db),
  };
  const analysisPool = new AnalysisPool(config.analysisConcurrency, config.analysisQueueTimeoutMs, {
    perAccountLimit: config.analysisConcurrencyPerAccount,
  });
  const engine =
    engineWorkers && config.analysisWorkers > 0
      ? new EnginePool(config.analysisWorkers, {
          onWorkerError: (error) => log.warn({ err: error }, 'an analysis worker failed; it was replaced'),
        })
      : undefined;
  const jobs = openJobQueue(database, new JobsRepository(database.db), config.jobs, { clock, log });
  const scheduler = new Scheduler(clock, log);
  // The analyser's address guard: a webhook may POST, and a crawl start, only where a report may fetch.
  const guard = {
    policy: {
      allowPrivateAddresses: config.analysis.request.allowPrivateAddresses,
      treatAsPublic: analysisHooks?.guard?.treatAsPublic,
    },
    resolver: analysisHooks?.resolver ?? systemResolver,
    hooks: analysisHooks?.guard,
  };
  // The browser reaches only what the analyser's fetch may: the same policy, resolver and test hooks.
  const renderer = new Renderer({
    executablePath: config.render.chromiumPath,
    concurrency: config.render.concurrency,
    timeoutMs: config.render.timeoutSeconds * 1000,
    maxBytes: config.analysis.request.maxBodyBytes,
    userAgent: config.analysis.request.userAgent,
    policy: guard.policy,
    resolver: guard.resolver,
    hooks: guard.hooks,
    log,
  });
  const analysePage: PageAnalyser = (url, signal, account, { render = false } = {}) =>
    analyze(url, {
      ...analysisHooks,
      config: config.analysis,
      signal,
      engine,
      account,
      clock,
      ...(render ? { render: (target, s) => renderer.render(target, { account, signal: s }) } : {}),
    });
  const webhooks = new WebhookService({
    webhooks: repos.webhooks,
    deliveries: repos.webhookDeliveries,
    jobs,
    clock,
    log,
    guard,
    version: config.version,
  });
  const events: EventSink = given.events ?? webhooks;
  const reports = new ReportService(repos.reports, analysisPool, analysePage, events);
  const stats = new StatsService(repos.analytics, { clock, cacheBytes: config.analytics.statsCacheMb * 1024 * 1024 });

  const mail = new MailService({
    settings: config.mail,
    repo: new MailsRepository(database.db, clock, database.engine),
    jobs,
    clock,
    log,
  });
  const digests = new DigestService({
    config,
    repo: new DigestsRepository(database.db, clock),
    stats,
    mail,
    jobs,
    clock,
    log,
  });
  // Tests may hand in a recording mailer; everything else gets the MailService.
  const mailer: Mailer = given.mail ?? mail;
  const monitors = new MonitorService({
    monitors: repos.monitors,
    reports: repos.reports,
    history: repos.history,
    reportService: reports,
    jobs,
    mailer,
    events,
    clock,
    log,
    appUrl: config.appUrl,
  });
  const crawls = new CrawlService({
    crawls: repos.crawls,
    links: repos.crawlLinks,
    reports,
    pool: analysisPool,
    jobs,
    events,
    clock,
    log,
    settings: config.crawl,
    analysis: { ...analysisHooks, config: config.analysis, engine, clock },
    guard,
    leaseMs: config.jobs.leaseSeconds * 1000,
    render: (url, account, signal) => renderer.render(url, { account, signal }),
  });
  // Every feature's job types and scheduled tasks, registered here and nowhere else (the
  // scheduler runs its tasks in this order).
  registerJobs(jobs, scheduler, [
    webhooks.jobs(),
    mail.jobs(),
    digests.jobs(),
    monitors.jobs(),
    crawls.jobs(),
    analyticsJobs({ analytics: repos.analytics, retentionDays: config.analytics.retentionDays, jobs, clock }),
  ]);

  return {
    config,
    database,
    clock,
    log,
    repos,
    analysisPool,
    reports,
    stats,
    webhooks,
    monitors,
    crawls,
    renderer,
    events,
    jobs,
    mail,
    digests,
    scheduler,
    async startWorkers() {
      await jobs.start();
      scheduler.start();
    },
    async close() {
      await scheduler.stop();
      // Also when never started: a send or a drain opens pg-boss, whose pool would keep the process alive.
      await jobs.stop();
      mail.close();
      await engine?.close();
      await renderer.close();
    },
  };
}
