// The durable job layer's one interface. Two implementations: a table in the embedded SQLite
// database, worked in-process (sqlite-queue.ts), and pg-boss on PostgreSQL, where many instances
// share the work (pg-boss-queue.ts). Handlers are the same on both: they call the services a
// route would, and a job that throws is retried with its type's policy, then left failed.
//
// Shared fairly: each job type belongs to a kind (model/job-kinds.ts) with slots of its own, and jobs
// carry the account they act for, so within a kind the accounts take turns.
import { createHash } from 'node:crypto';
import type { JobKind } from '../model/job-kinds.js';

export type JobState = 'queued' | 'retry' | 'running' | 'completed' | 'failed';

export interface JobPolicy {
  /** Runs after the first that a failing job gets (0: none). */
  retryLimit: number;
  /** Seconds before the first retry; with backoff, the base that doubles each time. */
  retryDelaySeconds: number;
  retryBackoff: boolean;
}

export interface JobContext {
  id: string;
  /** 1 on the first run, 2 on the first retry, … (a run cut short by a dead process counts). */
  attempt: number;
  /** Aborted when the instance shuts down past its grace period. */
  signal: AbortSignal;
}

export type JobHandler<P> = (payload: P, context: JobContext) => Promise<void>;

/** How a job type is run: its kind (whose slots it takes) and its retry policy. */
export type RegisterOptions = Partial<JobPolicy> & { kind: JobKind };

/**
 * Thrown by a handler that may not run yet (an account's hourly mail limit): the job goes back to
 * the queue until `until` (ms since the epoch) without using an attempt, and frees its slot.
 */
export class JobDeferred extends Error {
  override name = 'JobDeferred';
  constructor(
    readonly until: number,
    message: string,
  ) {
    super(message);
  }
}

export interface SendOptions {
  /**
   * Makes the job unique: a second send with the same type and key adds nothing (as long as the
   * first is kept: completed jobs are kept a day). Schedulers on every instance use it so a due
   * run is queued once.
   */
  key?: string;
  /** Not before this time (ms since the epoch). */
  startAfter?: number;
  /** The account the job acts for: accounts take turns at their kind's slots (none: a turn of its own). */
  account?: number | null;
}

export interface JobSummary {
  id: string;
  type: string;
  state: JobState;
  /** Runs started so far. */
  attempts: number;
  lastError: string | null;
  /** When it runs next (queued, retry) or ran last. */
  runAt: Date;
  createdAt: Date;
}

export interface JobQueue {
  /** Registers a job type's handler, kind and retry policy; before start(). */
  register<P>(type: string, handler: JobHandler<P>, options: RegisterOptions): void;
  /** Queues a job; false when its key is already taken. */
  send<P>(type: string, payload: P, options?: SendOptions): Promise<boolean>;
  /**
   * Starts this process's workers (a process that only sends never calls it): for every
   * registered type, or only `types` (a command that runs its own jobs and no one else's). Each
   * kind's jobs run in that kind's slots; a free slot goes to the account whose turn it is.
   */
  start(types?: readonly string[]): Promise<void>;
  /** Stops taking jobs; running ones finish (or, past the grace period, are released). */
  stop(): Promise<void>;
  /** Every job not completed (queued, waiting to retry, running) and the failed ones, oldest first. */
  list(): Promise<JobSummary[]>;
  /**
   * Runs, in this process, every registered job that is due now, until none is; returns how
   * many ran (of `types` alone when given). Tests move their clock and drain instead of sleeping.
   */
  drain(types?: readonly string[]): Promise<number>;
}

/** The policy of a type that registers none: a few quick retries. */
export const DEFAULT_POLICY: JobPolicy = { retryLimit: 3, retryDelaySeconds: 10, retryBackoff: true };

/**
 * Mails and webhook deliveries (docs/monitors-and-mail.md#mail): the first retry after 15–30 s,
 * then about 1, 2, 4 … minutes, for about 24 hours, then the job is failed.
 */
export const DELIVERY_POLICY: JobPolicy = { retryLimit: 12, retryDelaySeconds: 15, retryBackoff: true };

/**
 * Seconds before retry number `retry` (1-based), as pg-boss computes it, so both engines agree:
 * with backoff, delay × 2^retry / 2 plus up to as much again at random (jitter spreads a burst
 * of failures); without, the delay.
 */
export function retryDelaySeconds(policy: JobPolicy, retry: number, random: () => number = Math.random): number {
  if (!policy.retryBackoff) return policy.retryDelaySeconds;
  const half = (policy.retryDelaySeconds * 2 ** Math.min(16, retry)) / 2;
  return half + half * random();
}

/** A job id derived from its type and key (a UUID, as pg-boss wants), the same on every instance. */
export function keyedJobId(type: string, key: string): string {
  const hex = createHash('sha256').update(`${type}\u0000${key}`).digest('hex');
  // Shaped as a version-8 (custom) UUID with the RFC 4122 variant.
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${((Number.parseInt(hex[16], 16) & 3) | 8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** A registration's retry policy: what it names, the default for the rest. */
export function policyOf({ kind: _kind, ...policy }: RegisterOptions): JobPolicy {
  return {
    retryLimit: policy.retryLimit ?? DEFAULT_POLICY.retryLimit,
    retryDelaySeconds: policy.retryDelaySeconds ?? DEFAULT_POLICY.retryDelaySeconds,
    retryBackoff: policy.retryBackoff ?? DEFAULT_POLICY.retryBackoff,
  };
}
