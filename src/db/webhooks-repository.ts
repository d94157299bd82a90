// An account's webhooks: every statement on the `webhooks` table. Every query an account makes is
// scoped to it; findById serves the delivery job, which starts from a delivery, not an account.
import type { Kysely, Selectable, Updateable } from 'kysely';
import type { Database, WebhooksTable } from './schema.js';
import { nowTimestamp, systemClock, type Clock } from '../time.js';

export type WebhookRow = Selectable<WebhooksTable>;
export type NewWebhook = Omit<WebhookRow, 'id' | 'created_at' | 'updated_at'>;
export type WebhookChanges = Pick<Updateable<WebhooksTable>, 'url' | 'events' | 'active'>;

export class WebhooksRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock = systemClock,
  ) {}

  /** A page of the account's webhooks, newest first. */
  async list(userId: number, limit: number, offset: number): Promise<{ total: number; rows: WebhookRow[] }> {
    const base = this.db.selectFrom('webhooks').where('user_id', '=', userId);
    const counted = await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    const total = Number(counted.n);
    if (total === 0 || offset >= total) return { total, rows: [] };
    return { total, rows: await base.selectAll().orderBy('id', 'desc').limit(limit).offset(offset).execute() };
  }

  find(userId: number, id: number): Promise<WebhookRow | undefined> {
    return this.db.selectFrom('webhooks').selectAll().where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
  }

  findById(id: number): Promise<WebhookRow | undefined> {
    return this.db.selectFrom('webhooks').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** The account's active webhooks (the caller picks those subscribed to an event). */
  active(userId: number): Promise<WebhookRow[]> {
    return this.db
      .selectFrom('webhooks')
      .selectAll()
      .where('user_id', '=', userId)
      .where('active', '=', 1)
      .orderBy('id')
      .execute();
  }

  create(webhook: NewWebhook): Promise<WebhookRow> {
    const now = nowTimestamp(this.clock);
    return this.db
      .insertInto('webhooks')
      .values({ ...webhook, created_at: now, updated_at: now })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  update(userId: number, id: number, changes: WebhookChanges): Promise<WebhookRow | undefined> {
    return this.db
      .updateTable('webhooks')
      .set({ ...changes, updated_at: nowTimestamp(this.clock) })
      .where('user_id', '=', userId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
  }

  /** Deletes the webhook and (cascade) its deliveries; a pending delivery job then finds nothing. */
  async delete(userId: number, id: number): Promise<boolean> {
    const result = await this.db.deleteFrom('webhooks').where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
