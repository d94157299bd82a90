// The embedded engine's queue: jobs in the `jobs` table, worked by this process. A job is taken
// with one UPDATE … RETURNING (so two processes on one file never take the same job) under a
// lease; a process that dies leaves its lease to run out, and the job runs again. Each kind of
// job has its own slots; a free slot goes to the account whose turn it is (FairShare), which
// then gets its oldest due job of that kind.
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { JobRow, JobsRepository } from '../db/jobs-repository.js';
import type { Clock } from '../time.js';
import { JOB_KINDS, type JobKind, type JobSlots } from '../model/job-kinds.js';
import { accountKey, FairShare } from './fair-share.js';
import {
  DEFAULT_POLICY,
  JobDeferred,
  keyedJobId,
  policyOf,
  retryDelaySeconds,
  type JobContext,
  type JobHandler,
  type JobPolicy,
  type JobQueue,
  type JobSummary,
  type RegisterOptions,
  type SendOptions,
} from './queue.js';
import type { JobLog } from './log.js';

export interface SqliteQueueOptions {
  clock: Clock;
  leaseSeconds: number;
  /** Jobs of each kind this process runs at once. */
  slots: JobSlots;
  log: JobLog;
  /** How often idle workers look for due jobs (ms). A send in this process wakes them at once. */
  pollMs?: number;
  /** How long stop() lets running jobs finish before it aborts and releases them (ms). */
  graceMs?: number;
  /** Jitter source for backoff (tests pin it). */
  random?: () => number;
}

interface Registration {
  handler: JobHandler<unknown>;
  policy: JobPolicy;
  kind: JobKind;
}

/** A picked account's job may be taken by another process first: pick again this many times. */
const CLAIM_TRIES = 3;

const PRUNE_EVERY_MS = 3_600_000;

export class SqliteJobQueue implements JobQueue {
  private readonly types = new Map<string, Registration>();
  private readonly worker = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private readonly running = new Set<Promise<void>>();
  private readonly fair = new Map<JobKind, FairShare>(JOB_KINDS.map((kind) => [kind, new FairShare()]));
  private readonly abort = new AbortController();
  private started = false;
  private stopping = false;
  private wakeUp: (() => void) | null = null;
  /** A wake-up came while the loop was busy (no one waiting): its next idle() returns at once. */
  private woken = false;
  private loop: Promise<void> | null = null;
  private lastPrune = 0;

  constructor(
    private readonly repo: JobsRepository,
    private readonly options: SqliteQueueOptions,
  ) {}

  register<P>(type: string, handler: JobHandler<P>, options: RegisterOptions): void {
    this.types.set(type, { handler: handler as JobHandler<unknown>, policy: policyOf(options), kind: options.kind });
  }

  async send<P>(type: string, payload: P, options: SendOptions = {}): Promise<boolean> {
    const policy = this.types.get(type)?.policy ?? DEFAULT_POLICY;
    const now = this.options.clock.now();
    const inserted = await this.repo.insert(
      {
        id: options.key === undefined ? randomUUID() : keyedJobId(type, options.key),
        type,
        payload: JSON.stringify(payload ?? null),
        retryLimit: policy.retryLimit,
        retryDelay: policy.retryDelaySeconds,
        retryBackoff: policy.retryBackoff,
        runAt: Math.max(now, options.startAfter ?? now),
        account: options.account ?? null,
      },
      Math.floor(now),
    );
    if (inserted) this.wake();
    return inserted;
  }

  async start(types?: readonly string[]): Promise<void> {
    if (this.started) return;
    this.started = true;
    this.loop = this.work(types);
  }

  async stop(): Promise<void> {
    if (!this.started || this.stopping) return;
    this.stopping = true;
    this.wake();
    await this.loop;
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, this.options.graceMs ?? 30_000)));
    await Promise.race([Promise.allSettled([...this.running]), grace]);
    clearTimeout(timer);
    if (this.running.size > 0) {
      // Past the grace period: abort what still runs and hand it back for another process.
      this.abort.abort(new Error('the instance is shutting down'));
      await Promise.allSettled([...this.running]);
    }
    await this.repo.release(this.worker, this.options.clock.now());
  }

  async list(): Promise<JobSummary[]> {
    const rows = await this.repo.listOpen();
    return rows.map((row) => ({
      id: row.id,
      type: row.type,
      state: row.state === 'queued' && row.attempts > 0 ? 'retry' : row.state,
      attempts: row.attempts,
      lastError: row.last_error,
      runAt: new Date(Number(row.run_at)),
      createdAt: new Date(Number(row.created_at)),
    }));
  }

  async drain(types?: readonly string[]): Promise<number> {
    let ran = 0;
    await this.maintain();
    for (let progress = true; progress; ) {
      progress = false;
      for (const kind of JOB_KINDS) {
        const job = await this.claim(kind, types);
        if (!job) continue;
        await this.run(job, kind);
        progress = true;
        ran++;
      }
    }
    return ran;
  }

  private async work(types?: readonly string[]): Promise<void> {
    while (!this.stopping) {
      try {
        await this.maintain();
        for (const kind of JOB_KINDS) {
          const fair = this.fair.get(kind)!;
          while (!this.stopping && fair.total < this.options.slots[kind]) {
            const job = await this.claim(kind, types);
            if (!job) break;
            const run = this.run(job, kind).finally(() => {
              this.running.delete(run);
              this.wake(); // a finished job frees a slot: take the next due one at once
            });
            this.running.add(run);
          }
        }
      } catch (error) {
        this.options.log.error({ err: error }, 'the job queue could not be read; trying again');
      }
      if (!this.stopping) await this.idle();
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
      const timer = setTimeout(done, this.options.pollMs ?? 1000);
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

  private async maintain(): Promise<void> {
    const now = this.options.clock.now();
    await this.repo.expireLeases(now);
    if (now - this.lastPrune >= PRUNE_EVERY_MS) {
      this.lastPrune = now;
      await this.repo.prune(now);
    }
  }

  /** The next job of `kind` for this process: the due job of the account whose turn it is. */
  private async claim(kind: JobKind, only?: readonly string[]): Promise<JobRow | undefined> {
    const types = [...this.types]
      .filter(([type, registration]) => registration.kind === kind && (only === undefined || only.includes(type)))
      .map(([type]) => type);
    if (types.length === 0) return undefined;
    const fair = this.fair.get(kind)!;
    const now = this.options.clock.now();
    const candidates = (await this.repo.dueAccounts(types, now)).map((c) => ({ ...c, key: accountKey(c.account) }));
    if (candidates.length === 0) return undefined;
    for (let i = 0; i < CLAIM_TRIES && candidates.length > 0; i++) {
      const key = fair.pick(candidates.map((c) => ({ account: c.key, oldest: c.oldest })));
      const at = candidates.findIndex((c) => c.key === key);
      const [{ account }] = candidates.splice(at, 1);
      const job = await this.repo.claim(types, this.worker, now, now + this.options.leaseSeconds * 1000, account);
      if (job) return job;
    }
    // Every pick was taken by another process meanwhile: any due job then.
    return this.repo.claim(types, this.worker, now, now + this.options.leaseSeconds * 1000);
  }

  private async run(job: JobRow, kind: JobKind): Promise<void> {
    const registration = this.types.get(job.type);
    if (!registration) return; // claim() only takes registered types
    const fair = this.fair.get(kind)!;
    const account = accountKey(job.account);
    fair.started(account);
    try {
      await this.settle(job, registration);
    } finally {
      fair.ended(account);
    }
  }

  private async settle(job: JobRow, registration: Registration): Promise<void> {
    const context: JobContext = { id: job.id, attempt: job.attempts, signal: this.abort.signal };
    try {
      await registration.handler(JSON.parse(job.payload), context);
      await this.repo.complete(job.id, this.worker, this.options.clock.now());
    } catch (error) {
      if (this.abort.signal.aborted) return; // stop() releases it
      if (error instanceof JobDeferred) {
        await this.repo
          .defer(job.id, this.worker, error.until, error.message, this.options.clock.now())
          .catch((failure: unknown) => {
            this.options.log.error({ err: failure, job: job.id }, 'a deferred job could not be put back');
          });
        return;
      }
      const message = error instanceof Error ? error.message : String(error);
      const now = this.options.clock.now();
      const policy: JobPolicy = {
        retryLimit: job.retry_limit,
        retryDelaySeconds: job.retry_delay,
        retryBackoff: job.retry_backoff === 1,
      };
      const retryAt =
        job.attempts <= job.retry_limit ? now + retryDelaySeconds(policy, job.attempts, this.options.random) * 1000 : null;
      this.options.log.warn(
        { job: job.id, type: job.type, attempt: job.attempts, err: error },
        retryAt === null ? 'job failed for good' : 'job failed; it will be retried',
      );
      await this.repo.fail(job.id, this.worker, message, retryAt, now).catch((failure: unknown) => {
        this.options.log.error({ err: failure, job: job.id }, 'a failed job could not be recorded');
      });
    }
  }
}
