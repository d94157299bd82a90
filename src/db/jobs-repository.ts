// The embedded engine's job table: every statement of the SQLite queue (jobs/sqlite-queue.ts).
// Each one is a single statement, so it is atomic even when another process (a CLI command, a
// second server on the same file) works the same table.
import { sql, type Kysely } from 'kysely';
import type { Database, JobsTable } from './schema.js';

export type JobRow = JobsTable;

export interface NewJob {
  id: string;
  type: string;
  payload: string;
  retryLimit: number;
  retryDelay: number;
  retryBackoff: boolean;
  runAt: number;
  /** The account it acts for (null: none). */
  account: number | null;
}

/** Completed jobs are kept this long (their keys keep deduplicating), failed ones for 30 days. */
const KEEP_COMPLETED_MS = 24 * 3_600_000;
const KEEP_FAILED_MS = 30 * 24 * 3_600_000;

export class JobsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** False when a job with this id exists already. */
  async insert(job: NewJob, now: number): Promise<boolean> {
    const result = await this.db
      .insertInto('jobs')
      .values({
        id: job.id,
        type: job.type,
        payload: job.payload,
        state: 'queued',
        attempts: 0,
        retry_limit: job.retryLimit,
        retry_delay: job.retryDelay,
        retry_backoff: job.retryBackoff ? 1 : 0,
        run_at: job.runAt,
        account: job.account,
        locked_until: null,
        locked_by: null,
        last_error: null,
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) => oc.column('id').doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
  }

  /**
   * Jobs whose lease ran out (their process died or hung) go back to the queue, or to failed
   * when they have used every attempt.
   */
  async expireLeases(now: number): Promise<number> {
    const result = await this.db
      .updateTable('jobs')
      .set({
        state: sql`case when attempts > retry_limit then 'failed' else 'queued' end`,
        run_at: now,
        locked_until: null,
        locked_by: null,
        last_error: 'the process running it stopped before it finished (lease expired)',
        updated_at: now,
      })
      .where('state', '=', 'running')
      .where('locked_until', '<', now)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /** The accounts with a due job of these types, each with its oldest due time (null: no account). */
  async dueAccounts(types: readonly string[], now: number): Promise<{ account: number | null; oldest: number }[]> {
    if (types.length === 0) return [];
    const rows = await this.db
      .selectFrom('jobs')
      .select((eb) => ['account', eb.fn.min('run_at').as('oldest')])
      .where('state', '=', 'queued')
      .where('run_at', '<=', now)
      .where('type', 'in', types)
      .groupBy('account')
      .execute();
    return rows.map((row) => ({ account: row.account, oldest: Number(row.oldest) }));
  }

  /**
   * Takes the oldest due job of these types (of one account, when `account` is given; null: the
   * jobs of none) for `worker` until `leaseUntil`.
   */
  async claim(
    types: readonly string[],
    worker: string,
    now: number,
    leaseUntil: number,
    account?: number | null,
  ): Promise<JobRow | undefined> {
    if (types.length === 0) return undefined;
    let next = this.db
      .selectFrom('jobs')
      .select('id')
      .where('state', '=', 'queued')
      .where('run_at', '<=', now)
      .where('type', 'in', types);
    if (account !== undefined) next = account === null ? next.where('account', 'is', null) : next.where('account', '=', account);
    return this.db
      .updateTable('jobs')
      .set({ state: 'running', attempts: sql`attempts + 1`, locked_by: worker, locked_until: leaseUntil, updated_at: now })
      .where('id', '=', next.orderBy('run_at').limit(1))
      .where('state', '=', 'queued')
      .returningAll()
      .executeTakeFirst();
  }

  /** A run that may not go on yet: back to the queue until `runAt`, the attempt given back. */
  async defer(id: string, worker: string, runAt: number, reason: string, now: number): Promise<void> {
    await this.db
      .updateTable('jobs')
      .set({
        state: 'queued',
        attempts: sql`attempts - 1`,
        run_at: runAt,
        locked_by: null,
        locked_until: null,
        last_error: reason.slice(0, 2000),
        updated_at: now,
      })
      .where('id', '=', id)
      .where('locked_by', '=', worker)
      .where('state', '=', 'running')
      .execute();
  }

  /** Marks a run done; false when the job is no longer this worker's (its lease expired). */
  async complete(id: string, worker: string, now: number): Promise<boolean> {
    const result = await this.db
      .updateTable('jobs')
      .set({ state: 'completed', locked_by: null, locked_until: null, updated_at: now })
      .where('id', '=', id)
      .where('locked_by', '=', worker)
      .where('state', '=', 'running')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** A failed run: back to the queue at `retryAt`, or failed for good when retryAt is null. */
  async fail(id: string, worker: string, error: string, retryAt: number | null, now: number): Promise<void> {
    await this.db
      .updateTable('jobs')
      .set({
        state: retryAt === null ? 'failed' : 'queued',
        run_at: retryAt ?? now,
        locked_by: null,
        locked_until: null,
        last_error: error.slice(0, 2000),
        updated_at: now,
      })
      .where('id', '=', id)
      .where('locked_by', '=', worker)
      .where('state', '=', 'running')
      .execute();
  }

  /** Gives running jobs of this worker back to the queue at once (a graceful stop). */
  async release(worker: string, now: number): Promise<void> {
    await this.db
      .updateTable('jobs')
      .set({
        state: 'queued',
        attempts: sql`attempts - 1`,
        run_at: now,
        locked_by: null,
        locked_until: null,
        updated_at: now,
      })
      .where('locked_by', '=', worker)
      .where('state', '=', 'running')
      .execute();
  }

  /** Everything not completed, and the failed jobs, oldest first. */
  async listOpen(): Promise<JobRow[]> {
    return this.db.selectFrom('jobs').selectAll().where('state', '!=', 'completed').orderBy('created_at').orderBy('id').execute();
  }

  /** When the next queued job of these types is due (null: none queued). */
  async nextRunAt(types: readonly string[]): Promise<number | null> {
    if (types.length === 0) return null;
    const row = await this.db
      .selectFrom('jobs')
      .select((eb) => eb.fn.min('run_at').as('next'))
      .where('state', '=', 'queued')
      .where('type', 'in', types)
      .executeTakeFirst();
    return row?.next == null ? null : Number(row.next);
  }

  async prune(now: number): Promise<void> {
    await this.db
      .deleteFrom('jobs')
      .where((eb) =>
        eb.or([
          eb.and([eb('state', '=', 'completed'), eb('updated_at', '<', now - KEEP_COMPLETED_MS)]),
          eb.and([eb('state', '=', 'failed'), eb('updated_at', '<', now - KEEP_FAILED_MS)]),
        ]),
      )
      .execute();
  }
}
