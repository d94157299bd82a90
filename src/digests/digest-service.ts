// Periodic digests of websites with e-mail on (docs/monitors-and-mail.md#digests). Every instance's
// scheduler runs `schedule`: for each website due this period's digest it queues a
// `digest.send` job keyed by website and period, so however many instances tick it is queued
// once. The job reads the figures from the stats (the share page's own source), queues the mail
// with a key naming website and period (a re-run queues nothing more) and records the period.
import type { AppConfig, DigestPeriod } from '../config.js';
import type { DigestTarget, DigestsRepository } from '../db/digests-repository.js';
import type { JobLog } from '../jobs/log.js';
import type { JobQueue } from '../jobs/queue.js';
import type { FeatureJobs } from '../jobs/registry.js';
import { type Delivery, MailDeliveryError, type MailService } from '../mail/mail-service.js';
import type { MailMessage } from '../mail/mail-message.js';
import type { Clock } from '../time.js';
import type { StatsService } from '../tracking/stats-service.js';
import { sharePath } from '../render/share-path.js';
import { DIGEST_TOP, type DigestFigures, type DigestList, renderDigest } from './digest-mail.js';
import { duePeriod, lastCompletePeriod, type Period, periodStartingOn, periodStartTimestamp, previousPeriod } from './periods.js';

export const DIGEST_SEND_JOB = 'digest.send';

/** Due digests are looked for when a period falls due, then at most this often (by the clock). */
const SCHEDULE_EVERY_MS = 60_000;

export interface DigestJob {
  websiteId: number;
  period: DigestPeriod;
  /** First day of the period, YYYY-MM-DD. */
  start: string;
}

export interface DigestServiceOptions {
  config: Pick<AppConfig, 'appUrl' | 'mail'>;
  repo: DigestsRepository;
  stats: StatsService;
  mail: MailService;
  jobs: JobQueue;
  clock: Clock;
  log: JobLog;
}

/** What `rankscope mail digest` did for one website. */
export interface SentDigest {
  target: DigestTarget;
  period: Period;
  /** `retried`: the mail is stored and a job tries again (an SMTP failure). */
  delivery: Delivery | { status: 'error'; message: string; retried: boolean };
}

export class DigestService {
  private lastSchedule = { at: Number.NEGATIVE_INFINITY, period: '' };

  constructor(private readonly options: DigestServiceOptions) {}

  get rhythm(): DigestPeriod {
    return this.options.config.mail.digest;
  }

  /** The `digest.send` job and the schedule that queues due digests (services.ts registers them). */
  jobs(): FeatureJobs {
    return {
      jobs: [{ type: DIGEST_SEND_JOB, kind: 'mail', run: (payload: DigestJob) => this.runJob(payload) }],
      schedules: [{ name: 'digests', run: (now) => this.schedule(now) }],
    };
  }

  /** Scheduled: queues the digest job of every website due one for the period due at `now`. */
  async schedule(now: number): Promise<void> {
    const period = duePeriod(this.rhythm, now);
    if (period.start === this.lastSchedule.period && Math.abs(now - this.lastSchedule.at) < SCHEDULE_EVERY_MS) return;
    this.lastSchedule = { at: now, period: period.start };
    const due = await this.options.repo.due(period.kind, period.start, periodStartTimestamp(period));
    for (const { id: websiteId, userId } of due) {
      await this.options.jobs.send<DigestJob>(
        DIGEST_SEND_JOB,
        { websiteId, period: period.kind, start: period.start },
        { key: digestKey(websiteId, period), account: userId },
      );
    }
  }

  /** The `digest.send` job. */
  async runJob(job: DigestJob): Promise<void> {
    const period = periodStartingOn(job.period, job.start);
    if (!period) {
      this.options.log.warn({ job }, 'a digest job names no period; nothing sent');
      return;
    }
    const target = await this.options.repo.target(job.websiteId);
    // Deleted, or e-mail turned off (or off and on again, since the period began) after it was queued.
    if (!target || !eligible(target, period)) return;
    await this.options.mail.queue(await this.compose(target, period), {
      key: `digest:${digestKey(job.websiteId, period)}`,
      account: target.website.user_id,
    });
    await this.options.repo.record(job.websiteId, period.kind, period.start);
  }

  /**
   * `rankscope mail digest`: the last complete period's digest of one website (by id) or of every
   * website with e-mail on, sent now in this process. Unknown id: undefined.
   */
  async sendLastPeriod(websiteId: number | null): Promise<{ unknown: true } | { off: DigestTarget } | { sent: SentDigest[] }> {
    let targets: DigestTarget[];
    if (websiteId !== null) {
      const target = await this.options.repo.target(websiteId);
      if (!target) return { unknown: true };
      if (target.website.email !== 1) return { off: target };
      targets = [target];
    } else {
      targets = await this.options.repo.withEmail();
    }
    const period = lastCompletePeriod(this.rhythm, this.options.clock.now());
    const sent: SentDigest[] = [];
    for (const target of targets) {
      try {
        sent.push({
          target,
          period,
          delivery: await this.options.mail.sendNow(await this.compose(target, period), target.website.user_id),
        });
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        sent.push({ target, period, delivery: { status: 'error', message, retried: error instanceof MailDeliveryError } });
      }
    }
    return { sent };
  }

  /** The digest mail of a website for a period. */
  async compose(target: DigestTarget, period: Period): Promise<MailMessage> {
    const { website } = target;
    return renderDigest({
      websiteId: website.id,
      domain: website.domain,
      privacy: website.privacy,
      recipient: target.recipient,
      shareUrl: `${this.options.config.appUrl}${sharePath('website', website.id)}`,
      period,
      figures: await this.figures(website.id, period),
    });
  }

  /** A period's figures from the rollups, as the stats API and the share page count them. */
  async figures(websiteId: number, period: Period): Promise<DigestFigures> {
    const { stats } = this.options;
    const before = previousPeriod(period);
    const sum = async (name: 'visitors' | 'pageviews', p: Period) =>
      (await stats.query({ websiteId, name, from: p.start, to: p.last })).rows.reduce((n, r) => n + r.count, 0);
    const top = async (name: 'page' | 'referrer' | 'country'): Promise<DigestList> =>
      stats.query({ websiteId, name, from: period.start, to: period.last }, DIGEST_TOP);
    const [visitors, pageviews, visitorsBefore, pageviewsBefore, pages, referrers, countries] = await Promise.all([
      sum('visitors', period),
      sum('pageviews', period),
      sum('visitors', before),
      sum('pageviews', before),
      top('page'),
      top('referrer'),
      top('country'),
    ]);
    return {
      visitors,
      pageviews,
      previous: { visitors: visitorsBefore, pageviews: pageviewsBefore },
      pages,
      referrers,
      countries,
    };
  }
}

/** Names a website's period: the digest job's key and, prefixed, its mail's. */
export function digestKey(websiteId: number, period: Period): string {
  return `${websiteId}:${period.kind}:${period.start}`;
}

/** E-mail is on, and was on when the period began: the first digest is for a whole period. */
function eligible(target: DigestTarget, period: Period): boolean {
  const since = target.website.email_since;
  return target.website.email === 1 && since !== null && since <= periodStartTimestamp(period);
}
