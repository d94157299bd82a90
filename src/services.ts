// The composition root: every repository and service of one instance, built once and shared by
// the HTTP app, the job workers and the CLI, so a route, a job and a command do the same thing
// through the same code.
import type { AppConfig } from './config.js';
import { analyze, EnginePool, type AnalyzeOptions } from './index.js';
import type { DatabaseHandle } from './db/connection.js';
import { AnalyticsRepository } from './db/analytics-repository.js';
import { JobsRepository } from './db/jobs-repository.js';
import { MonitorsRepository } from './db/monitors-repository.js';
import { ReportHistoryRepository } from './db/report-history-repository.js';
import { ReportsRepository } from './db/reports-repository.js';
import { UsersRepository } from './db/users-repository.js';
import { WebsitesRepository } from './db/websites-repository.js';
import { openJobQueue } from './jobs/open-queue.js';
import type { JobQueue } from './jobs/queue.js';
import type { JobLog } from './jobs/log.js';
import { Scheduler } from './jobs/scheduler.js';
import { noEvents, type EventSink } from './events.js';
import type { Mailer } from './mail/mail-message.js';
import { pendingMailer } from './mail/pending.js';
import { MonitorService } from './monitors/monitor-service.js';
import { AnalysisPool } from './reports/analysis-pool.js';
import { ReportService, type PageAnalyser } from './reports/report-service.js';
import { systemClock, type Clock } from './time.js';
import { StatsService } from './tracking/stats-service.js';

export interface Repositories {
  users: UsersRepository;
  websites: WebsitesRepository;
  reports: ReportsRepository;
  analytics: AnalyticsRepository;
  monitors: MonitorsRepository;
  history: ReportHistoryRepository;
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
  /** Scheduled re-runs of reports: the due-run task, the run and alert jobs. */
  monitors: MonitorService;
  /** Where every feature hands its mails (stored, then sent by a job or kept in the outbox). */
  mail: Mailer;
  /** What happened to an account's resources, for webhooks. */
  events: EventSink;
  /** Durable jobs: monitor runs, digests, mails, webhook deliveries. */
  jobs: JobQueue;
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
    analytics: new AnalyticsRepository(database.db, database.engine, clock),
    monitors: new MonitorsRepository(database.db, clock),
    history: new ReportHistoryRepository(database.db),
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
  const analysePage: PageAnalyser = (url, signal, account) =>
    analyze(url, { ...analysisHooks, config: config.analysis, signal, engine, account, clock });
  const reports = new ReportService(repos.reports, analysisPool, analysePage);
  const stats = new StatsService(repos.analytics);
  const jobs = openJobQueue(database, new JobsRepository(database.db), config.jobs, { clock, log });
  const scheduler = new Scheduler(clock, log);
  // TEMPORARY until the mail service and webhooks are merged: the real MailService replaces
  // pendingMailer (which throws 'mail service not wired'), the webhooks' sink replaces noEvents.
  const mail: Mailer = pendingMailer;
  const mailer: Mailer = given.mail ?? mail;
  const events: EventSink = given.events ?? noEvents;
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
  monitors.register(jobs, scheduler);

  return {
    config,
    database,
    clock,
    log,
    repos,
    analysisPool,
    reports,
    stats,
    monitors,
    mail: mailer,
    events,
    jobs,
    scheduler,
    async startWorkers() {
      await jobs.start();
      scheduler.start();
    },
    async close() {
      await scheduler.stop();
      await jobs.stop(); // also a queue only sent to or drained (pg-boss opens its pool on first use)
      await engine?.close();
    },
  };
}
