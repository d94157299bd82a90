// Monitors: scheduled re-runs of a report (src/monitors/). Owner-scoped reads and writes for the
// API; unscoped ones for the scheduler and the run job, which act for whichever account owns it.
import type { Kysely, Selectable } from 'kysely';
import type { MonitorFrequency } from '../model/schedule.js';
import type { Database, MonitorsTable, Toggle } from './schema.js';
import { nowTimestamp, systemClock, type Clock } from '../time.js';
import { addPeriods, nextRunAfter } from '../model/schedule.js';

export type MonitorRow = Selectable<MonitorsTable>;

export interface NewMonitor {
  user_id: number;
  report_id: number;
  frequency: MonitorFrequency;
  alert_drop: number;
  email: Toggle;
  /** 1: each run renders the page in Chromium; 0 by default. */
  render?: Toggle;
}

export interface MonitorChanges {
  frequency?: MonitorFrequency;
  alert_drop?: number;
  email?: Toggle;
  render?: Toggle;
}

/** A monitor with its owner's e-mail address (where alerts go). */
export type MonitorWithOwner = MonitorRow & { owner_email: string };

export class MonitorsRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock = systemClock,
  ) {}

  /** A page of the account's monitors, newest first. */
  async list(userId: number, limit: number, offset: number): Promise<{ total: number; rows: MonitorRow[] }> {
    const base = this.db.selectFrom('monitors').where('user_id', '=', userId);
    const counted = await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    const total = Number(counted.n);
    if (total === 0 || offset >= total) return { total, rows: [] };
    return { total, rows: await base.selectAll().orderBy('id', 'desc').limit(limit).offset(offset).execute() };
  }

  find(userId: number, id: number): Promise<MonitorRow | undefined> {
    return this.db.selectFrom('monitors').selectAll().where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
  }

  /** The monitor with this id whoever owns it, and the owner's e-mail (the run job). */
  findWithOwner(id: number): Promise<MonitorWithOwner | undefined> {
    return this.db
      .selectFrom('monitors')
      .innerJoin('users', 'users.id', 'monitors.user_id')
      .selectAll('monitors')
      .select('users.email as owner_email')
      .where('monitors.id', '=', id)
      .executeTakeFirst();
  }

  /**
   * A new monitor (its first run one period after its creation), unless the account already has
   * `max`: then null. Counted and inserted in one transaction that first locks the account's row,
   * so creates sent at once (on any number of instances, on either engine) cannot all pass the
   * count before any of them inserts.
   */
  create(monitor: NewMonitor, max: number): Promise<MonitorRow | null> {
    return this.db.transaction().execute(async (trx) => {
      // A write that changes nothing, for its lock: PostgreSQL holds the row until the commit,
      // and SQLite makes the transaction the one writer at once.
      await trx
        .updateTable('users')
        .set((eb) => ({ updated_at: eb.ref('updated_at') }))
        .where('id', '=', monitor.user_id)
        .execute();
      const counted = await trx
        .selectFrom('monitors')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('user_id', '=', monitor.user_id)
        .executeTakeFirstOrThrow();
      if (Number(counted.n) >= max) return null;
      return this.insert(trx, monitor);
    });
  }

  private insert(db: Kysely<Database>, monitor: NewMonitor): Promise<MonitorRow> {
    const now = nowTimestamp(this.clock);
    return db
      .insertInto('monitors')
      .values({
        ...monitor,
        last_run_at: null,
        next_run_at: addPeriods(now, monitor.frequency, 1),
        last_result: null,
        created_at: now,
        updated_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /**
   * Changes settings. A new frequency moves the next run to the first time of the new rhythm
   * (counted from the creation time, like every run time) after now: changing it runs nothing now.
   */
  async update(current: MonitorRow, changes: MonitorChanges): Promise<MonitorRow | undefined> {
    const now = nowTimestamp(this.clock);
    const rescheduled =
      changes.frequency !== undefined && changes.frequency !== current.frequency
        ? { next_run_at: nextRunAfter(current.created_at, changes.frequency, now) }
        : {};
    return this.db
      .updateTable('monitors')
      .set({ ...changes, ...rescheduled, updated_at: now })
      .where('user_id', '=', current.user_id)
      .where('id', '=', current.id)
      .returningAll()
      .executeTakeFirst();
  }

  async delete(userId: number, id: number): Promise<boolean> {
    const result = await this.db.deleteFrom('monitors').where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Monitors whose next run is due at `now`, oldest due first. */
  due(now: string, limit: number): Promise<MonitorRow[]> {
    return this.db
      .selectFrom('monitors')
      .selectAll()
      .where('next_run_at', '<=', now)
      .orderBy('next_run_at')
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  /**
   * Moves the next run from `due` to `next`, only if it is still `due` (compare-and-set): of
   * several instances that saw the same due run, one moves it; a change made meanwhile stands.
   */
  async advance(id: number, due: string, next: string): Promise<boolean> {
    const result = await this.db
      .updateTable('monitors')
      .set({ next_run_at: next })
      .where('id', '=', id)
      .where('next_run_at', '=', due)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** A run happened: when, and its score (left as it was when the run could not analyse the page). */
  async recordRun(id: number, lastResult?: number): Promise<void> {
    await this.db
      .updateTable('monitors')
      .set({ last_run_at: nowTimestamp(this.clock), ...(lastResult === undefined ? {} : { last_result: lastResult }) })
      .where('id', '=', id)
      .execute();
  }
}
