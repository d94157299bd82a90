// The `mails` table: every mail a feature queued and what became of it (mail/mail-service.ts).
// A mail is taken for sending with one conditional UPDATE (`claim`), so two processes never
// send it at once, and a mail already sent is never taken again. An account's mails in the last
// hour are counted in the same transaction as the take (the account's row locked on PostgreSQL),
// so instances together never pass MAIL_PER_HOUR.
import { sql, type ExpressionBuilder, type Expression, type Kysely, type Selectable, type SqlBool } from 'kysely';
import { nowTimestamp, systemClock, type Clock } from '../time.js';
import type { Database, DatabaseEngine, MailStatus, MailsTable } from './schema.js';

export type MailRow = Selectable<MailsTable>;

export interface NewMail {
  recipient: string;
  subject: string;
  text: string;
  html: string;
  key: string | null;
  /** The account the mail is for (null: none, e.g. `rankscope mail test`); counted per hour. */
  user_id: number | null;
}

/** An account's hourly limit: how many mails per hour (null: none applies). */
export interface HourlyLimit {
  perHour: number | null;
}

/** A take refused by the hourly limit: not before `until` (ms since the epoch). */
export interface OverLimit {
  overLimit: true;
  until: number;
}

const HOUR_MS = 3_600_000;

type UnderLimit = (eb: ExpressionBuilder<Database, 'mails'>) => Expression<SqlBool>;

export class MailsRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock = systemClock,
    private readonly engine: DatabaseEngine = 'sqlite',
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
   * failed, in the outbox) or another process is sending it; `overLimit` when its account has
   * had `perHour` mails in the last hour (sent, kept in the outbox, or being sent).
   */
  claim(id: number, lockMs: number, limit: HourlyLimit = { perHour: null }): Promise<MailRow | OverLimit | undefined> {
    return this.limited(id, limit, (db, nowMs, underLimit) => {
      const now = nowTimestamp({ now: () => nowMs });
      return db
        .updateTable('mails')
        .set((eb) => ({
          status: 'sending',
          attempts: eb('attempts', '+', 1),
          locked_until: nowTimestamp({ now: () => nowMs + lockMs }),
          updated_at: now,
        }))
        .where('id', '=', id)
        .where((eb) => eb.or([eb('status', '=', 'queued'), eb.and([eb('status', '=', 'sending'), eb('locked_until', '<', now)])]))
        .where(underLimit)
        .returningAll()
        .executeTakeFirst();
    });
  }

  /**
   * Runs `take` (one conditional UPDATE of the mail, which must also hold `underLimit`: fewer
   * than `perHour` of its account's mails in the hour before now) and, when it took nothing
   * because of the limit, says until when. One statement is atomic on SQLite; on PostgreSQL the
   * account's row is locked first in the same transaction, so two instances never both take the
   * last mail of an hour.
   */
  private async limited<T>(
    id: number,
    { perHour }: HourlyLimit,
    take: (db: Kysely<Database>, nowMs: number, underLimit: UnderLimit) => Promise<T | undefined>,
  ): Promise<T | OverLimit | undefined> {
    const nowMs = this.clock.now();
    const since = nowTimestamp({ now: () => nowMs - HOUR_MS });
    const now = nowTimestamp({ now: () => nowMs });
    // The mails an account's hour counts: sent or kept in the hour before now, or being sent.
    const counted = (db: Kysely<Database>) =>
      db
        .selectFrom('mails as c')
        .where((eb) =>
          eb.or([
            eb.and([eb('c.status', 'in', ['sent', 'outbox']), eb('c.sent_at', '>', since)]),
            eb.and([eb('c.status', '=', 'sending'), eb('c.locked_until', '>=', now)]),
          ]),
        );
    const underLimit: UnderLimit = (eb) =>
      perHour === null
        ? sql<SqlBool>`1 = 1`
        : eb.or([
            eb('mails.user_id', 'is', null),
            eb(
              counted(this.db)
                .select((c) => c.fn.countAll().as('n'))
                .where('c.user_id', '=', eb.ref('mails.user_id'))
                .where('c.id', '!=', eb.ref('mails.id')),
              '<',
              perHour,
            ),
          ]);
    const run = async (db: Kysely<Database>) => {
      if (this.engine === 'postgres' && perHour !== null) {
        await db
          .selectFrom('users')
          .select('id')
          .where('id', '=', (eb) => eb.selectFrom('mails').select('user_id').where('id', '=', id))
          .forUpdate()
          .executeTakeFirst();
      }
      const taken = await take(db, nowMs, underLimit);
      if (taken !== undefined || perHour === null) return taken;
      const mail = await db.selectFrom('mails').select('user_id').where('id', '=', id).executeTakeFirst();
      if (mail?.user_id == null) return undefined;
      const hour = await counted(db)
        .select((eb) => [eb.fn.countAll().as('n'), eb.fn.min('c.sent_at').as('oldest')])
        .where('c.user_id', '=', mail.user_id)
        .where('c.id', '!=', id)
        .executeTakeFirstOrThrow();
      if (Number(hour.n) < perHour) return undefined; // not the limit: sent, gone, or another's
      // Mails being sent have no sent_at yet: with only those counted, look again in a minute.
      const oldest = hour.oldest == null ? Number.NaN : Date.parse(String(hour.oldest));
      const until = Number.isNaN(oldest) ? nowMs + 60_000 : Math.max(nowMs + 1000, oldest + HOUR_MS);
      return { overLimit: true as const, until };
    };
    return this.engine === 'postgres' ? this.db.transaction().execute(run) : run(this.db);
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

  /**
   * Keeps a queued mail in the outbox (no SMTP_URL), counted in its account's hour as a sent
   * one is (sent_at); false when it is not queued; `overLimit` as for `claim`.
   */
  async moveToOutbox(id: number, limit: HourlyLimit = { perHour: null }): Promise<boolean | OverLimit> {
    const moved = await this.limited(id, limit, async (db, nowMs, underLimit) => {
      const now = nowTimestamp({ now: () => nowMs });
      const row = await db
        .updateTable('mails')
        .set({ status: 'outbox', sent_at: now, updated_at: now })
        .where('id', '=', id)
        .where('status', '=', 'queued')
        .where(underLimit)
        .returning('id')
        .executeTakeFirst();
      return row === undefined ? undefined : true;
    });
    return moved ?? false;
  }

  /** The outbox, oldest first. */
  outbox(): Promise<MailRow[]> {
    return this.db.selectFrom('mails').selectAll().where('status', '=', 'outbox').orderBy('created_at').orderBy('id').execute();
  }

  /**
   * Mails created before `before` that wait for a job nobody queued: their process stopped
   * between storing and queueing, or `rankscope mail` stopped while sending one.
   */
  async orphans(before: string, limit: number): Promise<{ id: number; user_id: number | null }[]> {
    const now = nowTimestamp(this.clock);
    return this.db
      .selectFrom('mails')
      .select(['id', 'user_id'])
      .where('job_queued', '=', 0)
      .where('created_at', '<', before)
      .where((eb) => eb.or([eb('status', '=', 'queued'), eb.and([eb('status', '=', 'sending'), eb('locked_until', '<', now)])]))
      .orderBy('id')
      .limit(limit)
      .execute();
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
