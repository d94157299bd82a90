// At most `limit` analyses at once per instance; the rest wait in a bounded queue for at most
// `queueTimeoutMs`. A burst of creates therefore cannot exhaust sockets or memory, and a caller
// that goes away (its signal aborts) leaves the queue or stops its running analysis.

export class AnalyserBusyError extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super('The analyser is busy; try again shortly.');
  }
}

interface Waiter {
  wake(): void;
  fail(error: unknown): void;
}

export class AnalysisPool {
  private running = 0;
  private readonly queue: Waiter[] = [];

  constructor(
    readonly limit: number,
    readonly queueTimeoutMs: number,
    readonly maxQueued = limit * 32,
  ) {}

  get active(): number {
    return this.running;
  }

  get queued(): number {
    return this.queue.length;
  }

  async run<T>(task: (signal: AbortSignal) => Promise<T>, signal: AbortSignal): Promise<T> {
    signal.throwIfAborted();
    if (this.running >= this.limit) await this.waitForSlot(signal);
    else this.running++;
    try {
      return await task(signal);
    } finally {
      this.release();
    }
  }

  private waitForSlot(signal: AbortSignal): Promise<void> {
    if (this.queue.length >= this.maxQueued) return Promise.reject(new AnalyserBusyError(5));
    return new Promise<void>((resolve, reject) => {
      const leave = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        const i = this.queue.indexOf(waiter);
        if (i !== -1) this.queue.splice(i, 1);
      };
      const waiter: Waiter = {
        wake: () => {
          leave();
          resolve(); // the slot is handed over: `running` is not decremented in between
        },
        fail: (error) => {
          leave();
          reject(error);
        },
      };
      const onAbort = () => waiter.fail(signal.reason);
      const timer = setTimeout(() => waiter.fail(new AnalyserBusyError(Math.ceil(this.queueTimeoutMs / 1000) || 1)), this.queueTimeoutMs);
      signal.addEventListener('abort', onAbort, { once: true });
      this.queue.push(waiter);
    });
  }

  private release(): void {
    const next = this.queue[0];
    if (next) next.wake();
    else this.running--;
  }
}
