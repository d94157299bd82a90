// The queue on PostgreSQL: pg-boss 10 (11+ needs Node 22). Every instance on the database takes
// jobs from the same tables (SKIP LOCKED), so each job is done once. pg-boss stores, sends,
// completes, fails (with the retry policy's backoff) and archives; three statements are ours
// (db/pg-boss-jobs.ts), because pg-boss has no notion of them:
// - taking a job: of one kind's types, the account whose turn it is first (pg-boss takes the
//   oldest job of one type, so one account's backlog would hold every slot);
// - a lost lease: a job whose process died runs again at once, not after its retry backoff (that
//   is for failures), checked every quarter lease, so within two leases of the death;
// - a deferral: back to the queue until a given time without using an attempt.
import type PgBoss from 'pg-boss';
import type pg from 'pg';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import {
  deferPgBossJob,
  expirePgBossLeases,
  fetchPgBossJob,
  listOpenPgBossJobs,
  type FetchedPgBossJob,
} from '../db/pg-boss-jobs.js';
import { JOB_KINDS, type JobKind, type JobSlots } from '../model/job-kinds.js';
import { FairShare } from './fair-share.js';
import {
  JobDeferred,
  keyedJobId,
  policyOf,
  type JobContext,
  type JobHandler,
  type JobPolicy,
  type JobQueue,
  type JobSummary,
  type RegisterOptions,
  type SendOptions,
} from './queue.js';
import type { JobLog } from './log.js';

export interface PgBossQueueOptions {
  /** The database's connection URL; pg-boss keeps a small pool of its own. */
  url: string;
  /** The application's Kysely handle: which schema it uses decides pg-boss's. */
  db: Kysely<Database>;
  leaseSeconds: number;
  /** Jobs of each kind this instance runs at once. */
  slots: JobSlots;
  log: JobLog;
  /** How long stop() lets running jobs finish (ms). */
  graceMs?: number;
}

interface Registration {
  handler: JobHandler<unknown>;
  policy: JobPolicy;
  kind: JobKind;
}

/** Idle workers look for due jobs this often (a due job starts within 5 s). */
const POLL_SECONDS = 2;

/** Where a job's account rides in pg-boss's `data` (pg-boss has no column for it); removed before the handler runs. */
export const ACCOUNT_FIELD = '_account';
const LOST_LEASE = 'the process running it stopped before it finished (lease expired)';

export class PgBossJobQueue implements JobQueue {
  private readonly types = new Map<string, Registration>();
  private readonly abort = new AbortController();
  private boss: PgBoss | null = null;
  private opening: Promise<PgBoss> | null = null;
  private schema = 'pgboss';
  private pool: pg.Pool | null = null;
  private loop: Promise<void> | null = null;
  private stopping = false;
  private readonly running = new Set<Promise<void>>();
  private readonly fair = new Map<JobKind, FairShare>(JOB_KINDS.map((kind) => [kind, new FairShare()]));
  private wakeUp: (() => void) | null = null;
  /** A wake-up came while the loop was busy (no one waiting): its next idle() returns at once. */
  private woken = false;
  private lastExpiry = 0;

  constructor(private readonly options: PgBossQueueOptions) {}

  register<P>(type: string, handler: JobHandler<P>, options: RegisterOptions): void {
    this.types.set(type, { handler: handler as JobHandler<unknown>, policy: policyOf(options), kind: options.kind });
  }

  async send<P>(type: string, payload: P, options: SendOptions = {}): Promise<boolean> {
    const boss = await this.open();
    const data = withAccount(payload, options.account ?? null);
    const id = await boss.send(type, data, {
      ...(options.key === undefined ? {} : { id: keyedJobId(type, options.key) }),
      ...(options.startAfter === undefined ? {} : { startAfter: new Date(options.startAfter) }),
    });
    // This instance's idle loop takes it now rather than at its next poll.
    if (id !== null && options.startAfter === undefined) this.wake();
    return id !== null;
  }

  /**
   * One loop per instance (not pg-boss's `work()`, a poller per type and slot, each holding a
   * connection while it polls): it fetches due jobs of every type in turn into free slots, up to
   * `concurrency` at once, the same shape as the SQLite queue's loop.
   */
  async start(only?: readonly string[]): Promise<void> {
    if (this.loop) return;
    const boss = await this.open();
    this.loop = this.work(boss, only);
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.wake();
    await this.loop;
    const boss = this.boss ?? (await this.opening?.catch(() => null));
    if (!boss) return;
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, this.options.graceMs ?? 30_000)));
    await Promise.race([Promise.allSettled([...this.running]), grace]);
    clearTimeout(timer);
    if (this.running.size > 0) {
      // Past the grace period: abort what still runs; each is failed, so it is retried.
      this.abort.abort(new Error('the instance is shutting down'));
      await Promise.allSettled([...this.running]);
    }
    await boss.stop({ graceful: false, wait: true });
    await this.pool?.end();
    this.pool = null;
    this.boss = null;
    this.opening = null;
  }

  private async work(boss: PgBoss, only?: readonly string[]): Promise<void> {
    while (!this.stopping) {
      try {
        await this.expireLeases(boss);
        // The kinds' free slots are filled side by side: each fetch is a round trip, and one
        // kind's fetch must not wait for another's.
        await Promise.all(JOB_KINDS.map((kind) => this.fill(boss, kind, only)));
      } catch (error) {
        this.options.log.error({ err: error }, 'the job queue could not be read; trying again');
      }
      if (!this.stopping) await this.idle();
    }
  }

  /** Fetches jobs of `kind` into its free slots and starts them. */
  private async fill(boss: PgBoss, kind: JobKind, only?: readonly string[]): Promise<void> {
    const fair = this.fair.get(kind)!;
    while (!this.stopping && fair.total < this.options.slots[kind]) {
      const job = await this.fetch(boss, kind, only);
      if (!job) return;
      const run = this.settle(boss, kind, job).finally(() => {
        this.running.delete(run);
        this.wake(); // a finished job frees a slot: take the next due one at once
      });
      this.running.add(run);
    }
  }

  /** The next job of `kind`: the account whose turn it is here first, then its oldest due job. */
  private fetch(boss: PgBoss, kind: JobKind, only?: readonly string[]): Promise<FetchedPgBossJob | undefined> {
    const types = [...this.types]
      .filter(([type, registration]) => registration.kind === kind && (only === undefined || only.includes(type)))
      .map(([type]) => type);
    if (types.length === 0) return Promise.resolve(undefined);
    return fetchPgBossJob(boss.getDb(), this.schema, types, this.fair.get(kind)!.standings(), ACCOUNT_FIELD);
  }

  /** Jobs whose lease ran out go back to the queue now (every quarter lease; drain: always). */
  private async expireLeases(boss: PgBoss, force = false): Promise<void> {
    const now = Date.now();
    if (!force && now - this.lastExpiry < (this.options.leaseSeconds * 1000) / 4) return;
    this.lastExpiry = now;
    await expirePgBossLeases(boss.getDb(), this.schema, [...this.types.keys()], this.options.leaseSeconds, LOST_LEASE);
  }

  /** Runs one fetched job and records its outcome (a failure is retried by its queue's policy). */
  private async settle(boss: PgBoss, kind: JobKind, job: FetchedPgBossJob): Promise<void> {
    const registration = this.types.get(job.name);
    if (!registration) return;
    const fair = this.fair.get(kind)!;
    fair.started(job.account);
    try {
      await this.run(
        registration,
        withoutAccount(job.data),
        { id: job.id, attempt: job.retryCount + 1, signal: this.abort.signal },
        job.name,
      );
      await boss.complete(job.name, job.id);
    } catch (error) {
      if (error instanceof JobDeferred) {
        await deferPgBossJob(boss.getDb(), this.schema, job.name, job.id, error.until, error.message).catch((failure: unknown) =>
          this.options.log.error({ err: failure, job: job.id }, 'a deferred job could not be put back'),
        );
        return;
      }
      await boss
        .fail(job.name, job.id, { message: error instanceof Error ? error.message : String(error) })
        .catch((failure: unknown) => this.options.log.error({ err: failure, job: job.id }, 'a failed job could not be recorded'));
    } finally {
      fair.ended(job.account);
    }
  }

  /** Waits for a wake-up (a send, a finished job) or the poll interval, whichever comes first. */
  private idle(): Promise<void> {
    if (this.woken) {
      // A job finished (or one was sent) during the pass just made: look again now, not at the next poll.
      this.woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const timer = setTimeout(done, POLL_SECONDS * 1000);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wakeUp = () => {
        this.wakeUp = null;
        done();
      };
    });
  }

  private wake(): void {
    if (this.wakeUp) this.wakeUp();
    else this.woken = true;
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
    await this.expireLeases(boss, true);
    let ran = 0;
    for (let progress = true; progress; ) {
      progress = false;
      for (const kind of JOB_KINDS) {
        const job = await this.fetch(boss, kind, only);
        if (!job) continue;
        progress = true;
        ran++;
        await this.settle(boss, kind, job);
      }
    }
    return ran;
  }

  private async run(registration: Registration, payload: unknown, context: JobContext, type: string): Promise<void> {
    try {
      await registration.handler(payload, context);
    } catch (error) {
      if (error instanceof JobDeferred) throw error;
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
      // Loaded when first needed: an instance on SQLite, and every CLI command, never pays for them.
      const { default: PgBossClass } = await import('pg-boss');
      const { default: pgDriver } = await import('pg');
      // pg-boss runs its SQL on a pool this queue owns and ends itself once pg-boss has stopped.
      const pool = new pgDriver.Pool({
        connectionString: this.options.url,
        max: JOB_KINDS.reduce((sum, kind) => sum + this.options.slots[kind], 0) + 2,
        application_name: 'rankscope-jobs',
      });
      pool.on('error', (error) => this.options.log.warn({ err: error }, 'a job-queue connection failed; the pool replaces it'));
      this.pool = pool;
      const boss = new PgBossClass({
        db: { executeSql: (text: string, values?: unknown[]) => pool.query(text, values) },
        schema: this.schema,
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
          // Leases are ours (expireLeases, at one lease, re-queued at once); pg-boss's own expiry,
          // which would add the retry backoff, is only a backstop for jobs no worker looks after.
          expireInSeconds: 2 * lease,
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

/** pg-boss's `data` for a payload and its account (an object payload gains ACCOUNT_FIELD). */
function withAccount(payload: unknown, account: number | null): object {
  const data = (payload ?? null) as object;
  if (account === null || data === null || typeof data !== 'object' || Array.isArray(data)) return data;
  return { ...data, [ACCOUNT_FIELD]: account };
}

/** The handler's payload: `data` without ACCOUNT_FIELD. */
function withoutAccount(data: unknown): unknown {
  if (data === null || typeof data !== 'object' || Array.isArray(data) || !(ACCOUNT_FIELD in data)) return data;
  const { [ACCOUNT_FIELD]: _account, ...payload } = data as Record<string, unknown>;
  return payload;
}
