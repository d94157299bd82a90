// Mail for every feature (docs/monitors-and-mail.md#mail): `queue` stores the mail and queues a
// `mail.send` job; the job sends it by SMTP, or, without SMTP_URL, keeps it in the outbox.
//
// Each mail is sent once: a job takes the row with a conditional UPDATE (mails-repository.ts
// `claim`), so a re-run, a second instance or the CLI finds it taken or sent and sends nothing.
// None is lost: a failed attempt is retried with DELIVERY_POLICY (about 24 hours) and the row
// ends `failed` with the last attempt; a mail whose job was never queued (its process stopped in
// between) is queued by the sweep, which every instance's scheduler runs.
//
// Shared fairly: a mail belongs to an account, and at most MAIL_PER_HOUR mails go to one account
// in any hour (sent, or kept in the outbox). Past it the mail's job waits (JobDeferred) until the
// oldest of that hour's mails is an hour old: none is dropped, and the slot goes to other mail.
import type { MailSettings } from '../config.js';
import type { MailRow, MailsRepository, OverLimit } from '../db/mails-repository.js';
import type { JobLog } from '../jobs/log.js';
import { DELIVERY_POLICY, JobDeferred, type JobContext, type JobQueue } from '../jobs/queue.js';
import type { FeatureJobs } from '../jobs/registry.js';
import { nowTimestamp, type Clock } from '../time.js';
import type { MailMessage, Mailer } from './mail-message.js';
import { SEND_DEADLINE_MS, SmtpSender } from './smtp.js';

export const MAIL_SEND_JOB = 'mail.send';

export interface MailJob {
  mailId: number;
}

/** What became of one delivery. */
export type Delivery =
  | { status: 'sent'; response: string }
  | { status: 'outbox' }
  /** Nothing was done: the mail is gone, or already sent, failed or in the outbox. */
  | { status: 'skipped'; current: MailRow['status'] | 'missing' }
  /** Not yet: the account has had MAIL_PER_HOUR mails in the last hour; it may go at `until`. */
  | { status: 'waiting'; until: number };

/** Thrown when one SMTP attempt failed (the message is safe to show: no credentials). */
export class MailDeliveryError extends Error {
  override name = 'MailDeliveryError';
}

/** A row is held for one attempt this long: past every timeout of a send. */
const CLAIM_MS = SEND_DEADLINE_MS * 5;
/** A mail without a job for this long is taken to be orphaned, and gets one. */
const ORPHAN_AFTER_MS = 10 * 60_000;
/** Sent and failed mails are kept this long (the outbox is kept). */
const KEEP_MS = 30 * 86_400_000;
const SWEEP_EVERY_MS = 60_000;
const PRUNE_EVERY_MS = 3_600_000;

export interface MailServiceOptions {
  settings: MailSettings;
  repo: MailsRepository;
  jobs: JobQueue;
  clock: Clock;
  log: JobLog;
}

export class MailService implements Mailer {
  private readonly smtp: SmtpSender | null;
  private lastSweep = Number.NEGATIVE_INFINITY;
  private lastPrune = Number.NEGATIVE_INFINITY;

  constructor(private readonly options: MailServiceOptions) {
    const { smtpUrl, from } = options.settings;
    this.smtp = smtpUrl === null ? null : new SmtpSender(smtpUrl, from);
  }

  /** Whether SMTP_URL is set (without it every mail goes to the outbox). */
  get canSend(): boolean {
    return this.smtp !== null;
  }

  /** Where mail goes, without credentials (null: the outbox). */
  get target(): string | null {
    return this.smtp?.target ?? null;
  }

  async queue(message: MailMessage, options: { key?: string; account?: number | null } = {}): Promise<void> {
    await this.enqueue(message, options.key ?? null, options.account ?? null);
  }

  /** Stores the mail and queues its job; returns the row, or undefined when the key was taken. */
  async enqueue(message: MailMessage, key: string | null, account: number | null = null): Promise<MailRow | undefined> {
    const row = await this.options.repo.insert({ ...fields(message), key, user_id: account });
    if (!row) return undefined;
    try {
      await this.queueJob(row.id, account);
    } catch (error) {
      // Stored is enough: the sweep queues its job (ORPHAN_AFTER_MS).
      this.options.log.warn({ err: error, mail: row.id }, 'a mail was stored but its job could not be queued yet');
    }
    return row;
  }

  /**
   * Stores the mail and sends it at once in this process (the CLI): no job runs unless this
   * attempt fails, and then one retries it with the usual policy. Throws MailDeliveryError then.
   */
  async sendNow(message: MailMessage, account: number | null = null): Promise<Delivery> {
    const row = await this.options.repo.insert({ ...fields(message), key: null, user_id: account });
    if (!row) throw new Error('the mail could not be stored');
    try {
      // An operator's command: sent now, not held back by MAIL_PER_HOUR (it counts, though).
      return await this.deliver(row.id, false, { perHour: null });
    } catch (error) {
      await this.queueJob(row.id, account, this.options.clock.now() + DELIVERY_POLICY.retryDelaySeconds * 1000).catch(() => {});
      throw error;
    }
  }

  /** The `mail.send` job and the sweep (services.ts registers them). */
  jobs(): FeatureJobs {
    return {
      jobs: [
        {
          type: MAIL_SEND_JOB,
          kind: 'mail',
          policy: DELIVERY_POLICY,
          run: (payload: MailJob, context) => this.runJob(payload, context),
        },
      ],
      schedules: [{ name: 'mail.sweep', run: (now) => this.sweep(now) }],
    };
  }

  /**
   * The `mail.send` job: the last of its attempts leaves the mail `failed` when it fails; past
   * the account's hourly limit the job waits (it uses no attempt).
   */
  async runJob(payload: MailJob, context: JobContext): Promise<void> {
    const outcome = await this.deliver(payload.mailId, context.attempt > DELIVERY_POLICY.retryLimit);
    if (outcome.status === 'sent') this.options.log.info({ mail: payload.mailId, response: outcome.response }, 'mail sent');
    if (outcome.status === 'waiting') {
      throw new JobDeferred(
        outcome.until,
        `waiting: the account has had MAIL_PER_HOUR (${this.options.settings.perHour}) mails this hour`,
      );
    }
  }

  /**
   * One delivery attempt of a stored mail. Without SMTP_URL the mail goes to the outbox. A
   * failed attempt puts it back in the queue (`failed` when `final`) and throws. A mail whose
   * account has reached `perHour` (MAIL_PER_HOUR unless said) stays queued: `waiting`.
   */
  async deliver(
    mailId: number,
    final: boolean,
    { perHour = this.options.settings.perHour } = {} as { perHour?: number | null },
  ): Promise<Delivery> {
    const { repo } = this.options;
    const current = await repo.find(mailId);
    if (!current) return { status: 'skipped', current: 'missing' };
    if (current.status === 'sent' || current.status === 'failed' || current.status === 'outbox') {
      return { status: 'skipped', current: current.status };
    }
    if (!this.smtp) {
      const moved = await repo.moveToOutbox(mailId, { perHour });
      if (isOverLimit(moved)) return { status: 'waiting', until: moved.until };
      if (moved) return { status: 'outbox' };
      const now = await repo.find(mailId);
      return { status: 'skipped', current: now?.status ?? 'missing' };
    }
    const row = await repo.claim(mailId, CLAIM_MS, { perHour });
    if (isOverLimit(row)) return { status: 'waiting', until: row.until };
    if (!row) {
      const now = await repo.find(mailId);
      if (now?.status === 'sending') throw new MailDeliveryError('another process is sending this mail');
      return { status: 'skipped', current: now?.status ?? 'missing' };
    }
    try {
      const { response } = await this.smtp.send(message(row));
      await repo.markSent(mailId, response);
      return { status: 'sent', response };
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      await repo.markAttemptFailed(mailId, reason, final ? 'failed' : 'queued');
      throw new MailDeliveryError(reason);
    }
  }

  /** Sends a mail now without storing it (`rankscope mail test`); the server's answer. */
  async sendTest(message: MailMessage): Promise<string> {
    if (!this.smtp) throw new MailDeliveryError('SMTP_URL is not set');
    try {
      return (await this.smtp.send(message)).response;
    } catch (error) {
      throw new MailDeliveryError(error instanceof Error ? error.message : String(error));
    }
  }

  /** The mails kept without SMTP_URL, oldest first. */
  outbox(): Promise<MailRow[]> {
    return this.options.repo.outbox();
  }

  /** Scheduled on every instance, each minute: queues the jobs of orphaned mails; prunes old ones hourly. */
  async sweep(now: number): Promise<void> {
    if (Math.abs(now - this.lastSweep) < SWEEP_EVERY_MS) return;
    this.lastSweep = now;
    const { repo } = this.options;
    const before = nowTimestamp({ now: () => now - ORPHAN_AFTER_MS });
    for (const { id, user_id } of await repo.orphans(before, 100)) await this.queueJob(id, user_id);
    if (now - this.lastPrune >= PRUNE_EVERY_MS) {
      this.lastPrune = now;
      await repo.prune(nowTimestamp({ now: () => now - KEEP_MS }));
    }
  }

  close(): void {
    this.smtp?.close();
  }

  /** One job per mail (keyed by its id, in its account's turn), then the row records that it has one. */
  private async queueJob(mailId: number, account: number | null, startAfter?: number): Promise<void> {
    await this.options.jobs.send<MailJob>(
      MAIL_SEND_JOB,
      { mailId },
      { key: String(mailId), account, ...(startAfter === undefined ? {} : { startAfter }) },
    );
    await this.options.repo.markJobQueued(mailId);
  }
}

function fields(message: MailMessage) {
  return { recipient: message.to, subject: message.subject, text: message.text, html: message.html };
}

function message(row: MailRow): MailMessage {
  return { to: row.recipient, subject: row.subject, text: row.text, html: row.html };
}

function isOverLimit(value: unknown): value is OverLimit {
  return typeof value === 'object' && value !== null && 'overLimit' in value;
}
