// Webhook deliveries: every statement on the `webhook_deliveries` table. A row is written when an
// event is published, counted at each attempt, and records the receiver's last answer.
import type { Kysely, Selectable } from 'kysely';
import type { Database, WebhookDeliveriesTable } from './schema.js';
import { nowTimestamp, systemClock, type Clock } from '../time.js';

export type DeliveryRow = Selectable<WebhookDeliveriesTable>;
export type NewDelivery = Pick<DeliveryRow, 'webhook_id' | 'event' | 'payload' | 'uuid'>;

/** The longest error text kept (the column's size). */
const MAX_ERROR_LENGTH = 1000;

export class WebhookDeliveriesRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock = systemClock,
  ) {}

  /** A page of one webhook's deliveries, newest first (the caller has checked the webhook's owner). */
  async list(webhookId: number, limit: number, offset: number): Promise<{ total: number; rows: DeliveryRow[] }> {
    const base = this.db.selectFrom('webhook_deliveries').where('webhook_id', '=', webhookId);
    const counted = await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    const total = Number(counted.n);
    if (total === 0 || offset >= total) return { total, rows: [] };
    return { total, rows: await base.selectAll().orderBy('id', 'desc').limit(limit).offset(offset).execute() };
  }

  find(id: number): Promise<DeliveryRow | undefined> {
    return this.db.selectFrom('webhook_deliveries').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** `createdAt`: the event's own time, the one its body carries. */
  create(delivery: NewDelivery, createdAt: string): Promise<DeliveryRow> {
    return this.db
      .insertInto('webhook_deliveries')
      .values({ ...delivery, attempts: 0, status_code: null, error: null, delivered_at: null, created_at: createdAt })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /** Counts an attempt before it is made (an attempt cut short still counts); the new count. */
  async countAttempt(id: number): Promise<number | undefined> {
    const row = await this.db
      .updateTable('webhook_deliveries')
      .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
      .where('id', '=', id)
      .returning('attempts')
      .executeTakeFirst();
    return row?.attempts;
  }

  async succeeded(id: number, statusCode: number): Promise<void> {
    await this.db
      .updateTable('webhook_deliveries')
      .set({ status_code: statusCode, error: null, delivered_at: nowTimestamp(this.clock) })
      .where('id', '=', id)
      .execute();
  }

  async failed(id: number, statusCode: number | null, error: string): Promise<void> {
    await this.db
      .updateTable('webhook_deliveries')
      .set({ status_code: statusCode, error: error.slice(0, MAX_ERROR_LENGTH) })
      .where('id', '=', id)
      .execute();
  }

  /**
   * Deliveries created before `before` that no attempt has touched: their job was never queued
   * (the process stopped between storing the row and queueing it), or is long overdue.
   */
  async untouched(before: string, limit: number): Promise<{ id: number; userId: number }[]> {
    const rows = await this.db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
      .select(['d.id', 'w.user_id'])
      .where('d.attempts', '=', 0)
      .where('d.delivered_at', 'is', null)
      .where('d.error', 'is', null)
      .where('d.created_at', '<', before)
      .orderBy('d.id')
      .limit(limit)
      .execute();
    return rows.map((row) => ({ id: row.id, userId: row.user_id }));
  }

  /** Deletes the deliveries created before `before` (an API timestamp); how many. */
  async pruneBefore(before: string): Promise<number> {
    const result = await this.db.deleteFrom('webhook_deliveries').where('created_at', '<', before).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
