// The queue on PostgreSQL: pg-boss 10 (11+ needs Node 22). Every instance on the database takes
// jobs from the same tables (SKIP LOCKED), so each job is done once; pg-boss's supervisor fails a
// job whose lease (`expireInSeconds`) ran out, and the retry policy runs it again. Its
// maintenance runs every quarter lease, so a dead process's job runs again within two leases.
import PgBoss from 'pg-boss';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { listOpenPgBossJobs } from '../db/pg-boss-jobs.js';
import {
  DEFAULT_POLICY,
  keyedJobId,
  type JobContext,
  type JobHandler,
  type JobPolicy,
  type JobQueue,
  type JobSummary,
  type SendOptions,
} from './queue.js';
import type { JobLog } from './log.js';

export interface PgBossQueueOptions {
  /** The database's connection URL; pg-boss keeps a small pool of its own. */
  url: string;
  /** The application's Kysely handle: which schema it uses decides pg-boss's. */
  db: Kysely<Database>;
  leaseSeconds: number;
  concurrency: number;
  log: JobLog;
  /** How long stop() lets running jobs finish (ms). */
  graceMs?: number;
}

interface Registration {
  handler: JobHandler<unknown>;
  policy: JobPolicy;
}

/** Idle workers look for due jobs this often (contract: a due job starts within 5 s). */
const POLL_SECONDS = 2;

export class PgBossJobQueue implements JobQueue {
  private readonly types = new Map<string, Registration>();
  private readonly abort = new AbortController();
  private boss: PgBoss | null = null;
  private opening: Promise<PgBoss> | null = null;
  private schema = 'pgboss';
  private working = false;
  /** This instance's worker ids by job type. */
  private readonly workers = new Map<string, string[]>();

  constructor(private readonly options: PgBossQueueOptions) {}

  register<P>(type: string, handler: JobHandler<P>, policy: Partial<JobPolicy> = {}): void {
    this.types.set(type, { handler: handler as JobHandler<unknown>, policy: { ...DEFAULT_POLICY, ...policy } });
  }

  async send<P>(type: string, payload: P, options: SendOptions = {}): Promise<boolean> {
    const boss = await this.open();
    const id = await boss.send(type, (payload ?? null) as object, {
      ...(options.key === undefined ? {} : { id: keyedJobId(type, options.key) }),
      ...(options.startAfter === undefined ? {} : { startAfter: new Date(options.startAfter) }),
    });
    // Idle workers of this instance start it now rather than at their next poll.
    if (id !== null && options.startAfter === undefined)
      for (const worker of this.workers.get(type) ?? []) boss.notifyWorker(worker);
    return id !== null;
  }

  async start(): Promise<void> {
    if (this.working) return;
    this.working = true;
    const boss = await this.open();
    for (const [type, registration] of this.types) {
      const ids: string[] = [];
      this.workers.set(type, ids);
      for (let i = 0; i < this.options.concurrency; i++) {
        let id = '';
        id = await boss.work<unknown>(
          type,
          { batchSize: 1, pollingIntervalSeconds: POLL_SECONDS, includeMetadata: true },
          async ([job]) => {
            try {
              await this.run(
                registration,
                job.data,
                { id: job.id, attempt: job.retryCount + 1, signal: this.abort.signal },
                type,
              );
            } finally {
              // pg-boss would wait out its polling interval; a worker that finishes a job takes
              // the next due one at once.
              boss.notifyWorker(id);
            }
          },
        );
        ids.push(id);
      }
    }
  }

  async stop(): Promise<void> {
    const boss = this.boss ?? (await this.opening?.catch(() => null));
    if (!boss) return;
    const grace = this.options.graceMs ?? 30_000;
    const deadline = setTimeout(() => this.abort.abort(new Error('the instance is shutting down')), grace);
    deadline.unref();
    // Graceful: workers finish their job; pg-boss then fails what still runs so it is retried.
    await boss.stop({ graceful: true, wait: true, timeout: grace + 5_000 });
    clearTimeout(deadline);
    this.boss = null;
    this.opening = null;
  }

  async list(): Promise<JobSummary[]> {
    const boss = await this.open();
    const rows = await listOpenPgBossJobs(boss.getDb(), this.schema);
    return rows.map((row) => ({
      id: row.id,
      type: row.name,
      state: row.state === 'created' ? 'queued' : row.state === 'active' ? 'running' : row.state === 'retry' ? 'retry' : 'failed',
      // pg-boss counts a retry when it starts it (retry_count + 1 on fetch): a job waiting to retry
      // has run retry_count + 1 times, like an active or failed one; only a created one never ran.
      attempts: row.state === 'created' ? row.retry_count : row.retry_count + 1,
      lastError: row.error,
      runAt: row.state === 'active' && row.started_on ? row.started_on : row.start_after,
      createdAt: row.created_on,
    }));
  }

  async drain(only?: readonly string[]): Promise<number> {
    const boss = await this.open();
    let ran = 0;
    for (let progress = true; progress; ) {
      progress = false;
      for (const [type, registration] of this.types) {
        if (only !== undefined && !only.includes(type)) continue;
        const [job] = await boss.fetch<unknown>(type, { batchSize: 1, includeMetadata: true });
        if (!job) continue;
        progress = true;
        ran++;
        try {
          await this.run(registration, job.data, { id: job.id, attempt: job.retryCount + 1, signal: this.abort.signal }, type);
          await boss.complete(type, job.id);
        } catch (error) {
          await boss.fail(type, job.id, { message: error instanceof Error ? error.message : String(error) });
        }
      }
    }
    return ran;
  }

  private async run(registration: Registration, payload: unknown, context: JobContext, type: string): Promise<void> {
    try {
      await registration.handler(payload, context);
    } catch (error) {
      const last = context.attempt > registration.policy.retryLimit;
      this.options.log.warn(
        { job: context.id, type, attempt: context.attempt, err: error },
        last ? 'job failed for good' : 'job failed; it will be retried',
      );
      // pg-boss records `message` as the job's output (what `rankscope jobs` shows).
      throw error instanceof Error ? error : new Error(String(error));
    }
  }

  /** Starts pg-boss once (creating its schema and our queues); sending needs it too. */
  private open(): Promise<PgBoss> {
    this.opening ??= (async () => {
      const current = (await sql<{ schema: string }>`select current_schema() as schema`.execute(this.options.db)).rows[0].schema;
      // The default schema's jobs live in pg-boss's usual `pgboss`; a database kept in a schema of
      // its own (tests, several deployments on one server) gets `<schema>_jobs` beside it.
      this.schema = current === 'public' ? 'pgboss' : `${current}_jobs`;
      const lease = this.options.leaseSeconds;
      const boss = new PgBoss({
        connectionString: this.options.url,
        schema: this.schema,
        max: 4,
        schedule: false, // schedules are ours (jobs/scheduler.ts), driven by the injectable clock
        supervise: true,
        maintenanceIntervalSeconds: Math.max(1, Math.floor(lease / 4)),
        archiveCompletedAfterSeconds: 86_400, // keys keep deduplicating for a day, as on SQLite
        archiveFailedAfterSeconds: 30 * 86_400,
        deleteAfterDays: 30,
      });
      boss.on('error', (error) => this.options.log.error({ err: error }, 'the job queue reported an error'));
      await boss.start();
      for (const [type, { policy }] of this.types) {
        const settings = {
          retryLimit: policy.retryLimit,
          retryDelay: policy.retryDelaySeconds,
          retryBackoff: policy.retryBackoff,
          expireInSeconds: lease,
        };
        await boss.createQueue(type, { name: type, policy: 'standard', ...settings });
        await boss.updateQueue(type, { name: type, policy: 'standard', ...settings });
      }
      this.boss = boss;
      return boss;
    })();
    return this.opening;
  }
}
