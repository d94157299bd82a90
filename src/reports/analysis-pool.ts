// At most `limit` analyses at once per instance, shared fairly between accounts. A burst of creates
// therefore cannot exhaust sockets or memory, and one account's burst cannot starve the others:
// - an account runs at most `perAccountLimit` analyses, so a few slots stay free for the others;
// - waiters queue per account and a freed slot goes round-robin to the next account that has a
//   waiter and is under its cap; the account that just finished waits its turn behind the others;
// - the queue is bounded per account (that account alone gets AnalyserBusyError) and globally (a
//   last resort), and a waiter gives up after `queueTimeoutMs`;
// - a caller that goes away (its signal aborts) leaves the queue or stops its running analysis.
import { FairQueue } from '../limits/fair-queue.js';

export class AnalyserBusyError extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super('The analyser is busy; try again shortly.');
  }
}

/** Whose analysis it is: an account id. 1 and '1' are the same account. */
export type AccountKey = string | number;

export interface PoolBounds {
  /** Analyses one account may run at once (1 … limit). */
  perAccountLimit: number;
  /** Waiters per account before that account is refused at once; limit × 8 by default. */
  maxQueuedPerAccount?: number;
  /** Waiters in all before anyone is refused at once; limit × 32 by default (a last resort). */
  maxQueued?: number;
}

/** Retry-After, in seconds, when a queue is full. */
const FULL_QUEUE_RETRY_AFTER = 5;

export class AnalysisPool {
  readonly perAccountLimit: number;
  readonly maxQueuedPerAccount: number;
  readonly maxQueued: number;
  private running = 0;
  private readonly runningByAccount = new Map<string, number>();
  /** Each waiter is the function that hands it a slot. */
  private readonly waiters = new FairQueue<() => void>();

  /** `limit` analyses run at once; a waiter gives up after `queueTimeoutMs` with AnalyserBusyError. */
  constructor(
    readonly limit: number,
    readonly queueTimeoutMs: number,
    bounds: PoolBounds,
  ) {
    this.perAccountLimit = bounds.perAccountLimit;
    this.maxQueuedPerAccount = bounds.maxQueuedPerAccount ?? limit * 8;
    this.maxQueued = bounds.maxQueued ?? limit * 32;
    if (!(Number.isInteger(limit) && limit >= 1)) throw new RangeError(`limit must be a positive integer, got ${limit}`);
    if (!(Number.isInteger(this.perAccountLimit) && this.perAccountLimit >= 1 && this.perAccountLimit <= limit)) {
      throw new RangeError(`perAccountLimit must be an integer between 1 and limit (${limit}), got ${this.perAccountLimit}`);
    }
  }

  get active(): number {
    return this.running;
  }

  get queued(): number {
    return this.waiters.size;
  }

  activeFor(account: AccountKey): number {
    return this.runningByAccount.get(String(account)) ?? 0;
  }

  queuedFor(account: AccountKey): number {
    return this.waiters.sizeOf(String(account));
  }

  async run<T>(task: (signal: AbortSignal) => Promise<T>, signal: AbortSignal, account: AccountKey): Promise<T> {
    signal.throwIfAborted();
    const key = String(account);
    // Free slot and under its cap: start now. Anyone queued then is at their cap (release()
    // hands every freed slot to an eligible waiter), so this jumps no one's turn.
    if (this.running < this.limit && this.activeFor(key) < this.perAccountLimit) {
      this.running++;
      this.countRunning(key, +1);
    } else {
      await this.waitForSlot(key, signal);
    }
    try {
      return await task(signal);
    } finally {
      this.release(key);
    }
  }

  private waitForSlot(key: string, signal: AbortSignal): Promise<void> {
    if (this.waiters.sizeOf(key) >= this.maxQueuedPerAccount || this.waiters.size >= this.maxQueued) {
      return Promise.reject(new AnalyserBusyError(FULL_QUEUE_RETRY_AFTER));
    }
    return new Promise<void>((resolve, reject) => {
      const settle = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
      };
      // release() has already counted the slot as this waiter's and taken it out of the queue.
      const wake = () => {
        settle();
        resolve();
      };
      const giveUp = (error: unknown) => {
        settle();
        this.waiters.remove(key, wake);
        reject(error);
      };
      const onAbort = () => giveUp(signal.reason);
      const timer = setTimeout(
        () => giveUp(new AnalyserBusyError(Math.ceil(this.queueTimeoutMs / 1000) || 1)),
        this.queueTimeoutMs,
      );
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(key, wake);
    });
  }

  private release(key: string): void {
    this.countRunning(key, -1);
    this.waiters.moveToBack(key); // the account that just finished lets the others go first
    const next = this.waiters.shift((account) => this.activeFor(account) < this.perAccountLimit);
    if (next) {
      // Hand the slot over: `running` is not decremented in between, so nobody can slip in.
      this.countRunning(next.account, +1);
      next.item();
    } else {
      this.running--;
    }
  }

  private countRunning(key: string, delta: 1 | -1): void {
    const n = (this.runningByAccount.get(key) ?? 0) + delta;
    if (n === 0) this.runningByAccount.delete(key);
    else this.runningByAccount.set(key, n);
  }
}
