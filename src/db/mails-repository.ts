// The `mails` table: every mail a feature queued and what became of it (mail/mail-service.ts).
// A mail is taken for sending with one conditional UPDATE (`claim`), so two processes never
// send it at once, and a mail already sent is never taken again.
import type { Kysely, Selectable } from 'kysely';
import { nowTimestamp, systemClock, type Clock } from '../time.js';
import type { Database, MailStatus, MailsTable } from './schema.js';

export type MailRow = Selectable<MailsTable>;

export interface NewMail {
  recipient: string;
  subject: string;
  text: string;
  html: string;
  key: string | null;
}

export class MailsRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock = systemClock,
  ) {}

  /** Stores a queued mail; undefined when its key is taken already (nothing is stored then). */
  async insert(mail: NewMail): Promise<MailRow | undefined> {
    const now = nowTimestamp(this.clock);
    return this.db
      .insertInto('mails')
      .values({
        ...mail,
        status: 'queued',
        attempts: 0,
        job_queued: 0,
        locked_until: null,
        last_error: null,
        smtp_response: null,
        created_at: now,
        updated_at: now,
        sent_at: null,
      })
      .onConflict((oc) => oc.column('key').doNothing())
      .returningAll()
      .executeTakeFirst();
  }

  find(id: number): Promise<MailRow | undefined> {
    return this.db.selectFrom('mails').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async markJobQueued(id: number): Promise<void> {
    await this.db.updateTable('mails').set({ job_queued: 1 }).where('id', '=', id).execute();
  }

  /**
   * Takes a mail for one SMTP attempt until `lockMs` from now: a queued mail, or one whose
   * sender stopped without a word (its lock ran out). Undefined when it is not to be sent (sent,
   * failed, in the outbox) or another process is sending it.
   */
  claim(id: number, lockMs: number): Promise<MailRow | undefined> {
    const nowMs = this.clock.now();
    const now = nowTimestamp(this.clock);
    return this.db
      .updateTable('mails')
      .set((eb) => ({
        status: 'sending',
        attempts: eb('attempts', '+', 1),
        locked_until: nowTimestamp({ now: () => nowMs + lockMs }),
        updated_at: now,
      }))
      .where('id', '=', id)
      .where((eb) => eb.or([eb('status', '=', 'queued'), eb.and([eb('status', '=', 'sending'), eb('locked_until', '<', now)])]))
      .returningAll()
      .executeTakeFirst();
  }

  async markSent(id: number, response: string): Promise<void> {
    const now = nowTimestamp(this.clock);
    await this.db
      .updateTable('mails')
      .set({
        status: 'sent',
        smtp_response: response.slice(0, 2000),
        locked_until: null,
        last_error: null,
        sent_at: now,
        updated_at: now,
      })
      .where('id', '=', id)
      .execute();
  }

  /** A failed attempt: back to `queued` for the next one, or `failed` for good. */
  async markAttemptFailed(id: number, error: string, status: Extract<MailStatus, 'queued' | 'failed'>): Promise<void> {
    await this.db
      .updateTable('mails')
      .set({ status, last_error: error.slice(0, 2000), locked_until: null, updated_at: nowTimestamp(this.clock) })
      .where('id', '=', id)
      .where('status', '=', 'sending')
      .execute();
  }

  /** Keeps a queued mail in the outbox (no SMTP_URL); false when it is not queued. */
  async moveToOutbox(id: number): Promise<boolean> {
    const result = await this.db
      .updateTable('mails')
      .set({ status: 'outbox', updated_at: nowTimestamp(this.clock) })
      .where('id', '=', id)
      .where('status', '=', 'queued')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** The outbox, oldest first. */
  outbox(): Promise<MailRow[]> {
    return this.db.selectFrom('mails').selectAll().where('status', '=', 'outbox').orderBy('created_at').orderBy('id').execute();
  }

  /**
   * Mails created before `before` that wait for a job nobody queued: their process stopped
   * between storing and queueing, or `rankscope mail` stopped while sending one.
   */
  async orphans(before: string, limit: number): Promise<number[]> {
    const now = nowTimestamp(this.clock);
    const rows = await this.db
      .selectFrom('mails')
      .select('id')
      .where('job_queued', '=', 0)
      .where('created_at', '<', before)
      .where((eb) => eb.or([eb('status', '=', 'queued'), eb.and([eb('status', '=', 'sending'), eb('locked_until', '<', now)])]))
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map((r) => r.id);
  }

  /** Deletes sent and failed mails last changed before `before` (the outbox stays). */
  async prune(before: string): Promise<number> {
    const result = await this.db
      .deleteFrom('mails')
      .where('status', 'in', ['sent', 'failed'])
      .where('updated_at', '<', before)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
