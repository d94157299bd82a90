// Monitors at work: the scheduled task that queues due runs, the run job (re-analyse the report,
// record it, compare with the history item before) and the notify job (the alert mail and the
// `monitor.alert` event). Routes create and change monitors through the repository; everything
// that runs goes through here.
//
// Two jobs rather than one: a run analyses the page and adds a history item, which must not
// happen twice because a mail could not be queued. So a run that deserves an alert queues a
// notify job keyed by its history item, and that job alone retries the mail and the event.
import type { MonitorRow, MonitorsRepository } from '../db/monitors-repository.js';
import { passedChecksOf, type ReportHistoryRepository } from '../db/report-history-repository.js';
import type { ReportsRepository } from '../db/reports-repository.js';
import type { EventSink } from '../model/events.js';
import type { JobLog } from '../jobs/log.js';
import type { JobContext, JobPolicy, JobQueue } from '../jobs/queue.js';
import type { FeatureJobs } from '../jobs/registry.js';
import type { Mailer } from '../mail/mail-message.js';
import type { ReportService } from '../reports/report-service.js';
import { nowTimestamp, type Clock } from '../time.js';
import { monitorResource } from '../resources/monitor.js';
import { reportObject } from '../resources/report.js';
import { checkTitle, compareRuns, type CheckChange } from './alert.js';
import { alertMail } from './alert-mail.js';
import { nextRunAfter } from '../model/schedule.js';

export const MONITOR_RUN = 'monitor.run';
export const MONITOR_NOTIFY = 'monitor.notify';

/**
 * A run whose page cannot be analysed (down, timing out) is tried twice more, about 2–4 and
 * 4–8 minutes later, then left failed until its next period; `rankscope jobs` lists it.
 */
export const MONITOR_RUN_POLICY: JobPolicy = { retryLimit: 2, retryDelaySeconds: 120, retryBackoff: true };

export interface MonitorRunPayload {
  monitorId: number;
  /** The scheduled time this run is for; absent for a run queued by POST /monitors/{id}/run. */
  due?: string;
}

export interface MonitorNotifyPayload {
  monitorId: number;
  reportId: number;
  /**
   * The run job's id (the same on each of its retries): the alert mail is keyed by it, so a run
   * that is retried (and records another history item) still sends one mail. Absent on payloads
   * queued before it was added: their history item keys the mail.
   */
  runId?: string;
  /** The history item the run recorded (the alert's identity: one mail per item). */
  historyId: number;
  generatedAt: string;
  previousGeneratedAt: string;
  before: number;
  after: number;
  changes: CheckChange[];
  scoreDropped: boolean;
  highRegressions: string[];
}

/** Due monitors are read this many at a time. */
const DUE_BATCH = 100;

export interface MonitorServiceDeps {
  monitors: MonitorsRepository;
  reports: ReportsRepository;
  history: ReportHistoryRepository;
  reportService: ReportService;
  jobs: JobQueue;
  mailer: Mailer;
  events: EventSink;
  clock: Clock;
  log: JobLog;
  /** APP_URL: the base of the links in alert mails. */
  appUrl: string;
}

const timestampAt = (ms: number) => nowTimestamp({ now: () => ms });

export class MonitorService {
  constructor(private readonly deps: MonitorServiceDeps) {}

  /** The run and notify jobs and the scheduled task that queues due runs (services.ts registers them). */
  jobs(): FeatureJobs {
    return {
      jobs: [
        {
          type: MONITOR_RUN,
          kind: 'monitor',
          policy: MONITOR_RUN_POLICY,
          run: (payload: MonitorRunPayload, context) => this.run(payload, context),
        },
        { type: MONITOR_NOTIFY, kind: 'monitor', run: (payload: MonitorNotifyPayload) => this.notify(payload) },
      ],
      schedules: [
        {
          name: 'monitors.due',
          run: async (now) => {
            await this.queueDue(now);
          },
        },
      ],
    };
  }

  /** POST /monitors/{id}/run: a run now, outside the schedule (which it leaves as it is). */
  async queueRun(monitor: MonitorRow): Promise<void> {
    await this.deps.jobs.send<MonitorRunPayload>(MONITOR_RUN, { monitorId: monitor.id }, { account: monitor.user_id });
  }

  /**
   * The scheduled task: queues a run of every monitor due at `nowMs`, keyed by the monitor and
   * its due time (however many instances tick, one job), then moves its next run to the first
   * time of its rhythm after now (periods missed while nothing ran are skipped, not run one by
   * one). The move is a compare-and-set on the due time, so instances agree.
   */
  async queueDue(nowMs: number): Promise<number> {
    const { monitors, jobs } = this.deps;
    const now = timestampAt(nowMs);
    let queued = 0;
    for (;;) {
      const due = await monitors.due(now, DUE_BATCH);
      for (const monitor of due) {
        const at = monitor.next_run_at;
        // Queued before it is moved: an instance that dies in between leaves it due, and the
        // next tick's send finds the key taken and only moves it.
        const run = { monitorId: monitor.id, due: at };
        if (await jobs.send<MonitorRunPayload>(MONITOR_RUN, run, { key: `${monitor.id}@${at}`, account: monitor.user_id })) {
          queued++;
        }
        await monitors.advance(monitor.id, at, nextRunAfter(monitor.created_at, monitor.frequency, now));
      }
      // Every monitor read was moved past now (by us or another instance): the next read sees the rest.
      if (due.length < DUE_BATCH) return queued;
    }
  }

  /**
   * The run job: re-analyses the report as `results=1` does, rendered when the monitor's
   * `render` is 1 (a history item is recorded with it), sets last_run_at and last_result, and
   * compares with the history item before. A page that cannot be analysed (or rendered) records
   * nothing but last_run_at, and the job throws to be retried.
   */
  async run(payload: MonitorRunPayload, context: JobContext): Promise<void> {
    const { monitors, reports, history, reportService, jobs, log } = this.deps;
    const monitor = await monitors.findWithOwner(payload.monitorId);
    if (!monitor) return; // deleted (or its report was) since it was queued
    const report = await reports.find(monitor.user_id, monitor.report_id);
    if (!report) return;
    let outcome: Awaited<ReturnType<ReportService['rerun']>>;
    try {
      outcome = await reportService.rerun(report, context.signal, { render: monitor.render === 1 });
    } catch (error) {
      await monitors.recordRun(monitor.id);
      throw error;
    }
    if (!outcome) return; // the report was deleted during the analysis
    await monitors.recordRun(monitor.id, outcome.report.result);
    const previous = await history.before(report.id, outcome.history.id);
    if (!previous) return;
    const comparison = compareRuns(
      { result: previous.result, passedChecks: passedChecksOf(previous) },
      { result: outcome.report.result, results: JSON.parse(String(outcome.report.results)) as unknown },
      monitor.alert_drop,
    );
    if (!comparison.alert) return;
    log.info(
      { monitor: monitor.id, report: report.id, before: comparison.before, after: comparison.after },
      'monitor run: alert',
    );
    await jobs.send<MonitorNotifyPayload>(
      MONITOR_NOTIFY,
      {
        monitorId: monitor.id,
        reportId: report.id,
        runId: context.id,
        historyId: outcome.history.id,
        generatedAt: outcome.history.generated_at,
        previousGeneratedAt: previous.generated_at,
        before: comparison.before,
        after: comparison.after,
        changes: comparison.changes,
        scoreDropped: comparison.scoreDropped,
        highRegressions: comparison.highRegressions,
      },
      { key: String(outcome.history.id), account: monitor.user_id },
    );
  }

  /**
   * The notify job: the alert mail to the account's e-mail when the monitor's `email` is 1 (keyed
   * by the history item, so a retry never sends it twice), and the `monitor.alert` event (for
   * webhooks, whatever `email` says).
   */
  async notify(payload: MonitorNotifyPayload): Promise<void> {
    const { monitors, reports, mailer, events, appUrl } = this.deps;
    const monitor = await monitors.findWithOwner(payload.monitorId);
    if (!monitor) return;
    const report = await reports.find(monitor.user_id, payload.reportId);
    if (!report) return;
    if (monitor.email === 1) {
      const message = alertMail({
        to: monitor.owner_email,
        appUrl,
        report: { id: report.id, url: report.url, privacy: report.privacy },
        monitor,
        comparison: payload,
        previousGeneratedAt: payload.previousGeneratedAt,
        generatedAt: payload.generatedAt,
      });
      const key = payload.runId === undefined ? `monitor.alert:${payload.historyId}` : `monitor.alert:run:${payload.runId}`;
      await mailer.queue(message, { key, account: monitor.user_id });
    }
    await events.publish(monitor.user_id, 'monitor.alert', {
      monitor: monitorResource(monitor),
      report: reportObject(report),
      changes: payload.changes.map((c) => ({
        id: c.id,
        title: checkTitle(c.id),
        passed_before: c.passed_before,
        passed: c.passed,
      })),
    });
  }
}
