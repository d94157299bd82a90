// Crawl-delay: each request starts at least `delayMs` after the previous one started and after
// its answer came. Counting from the answer too is what keeps the site's view polite: a request
// that opens a connection reaches the site later than it started, so two starts 1 s apart can
// arrive less than 1 s apart; an answer always comes after its request arrived. Under a delay a
// crawl has one worker (one request at a time), so the pacer of that worker is the host's; a
// worker handing over to its next job passes `nextAt` on (the job's start time).
export class Pacer {
  constructor(
    private delayMs: number,
    private nextAt = 0,
    private readonly now: () => number = Date.now,
  ) {}

  /** When the last request started (ms since the epoch); null before the first. */
  private lastStart: number | null = null;

  /** A delay learnt mid-way (from robots.txt, once answered) also holds back the request after the last one. */
  setDelay(ms: number): void {
    this.delayMs = ms;
    if (this.lastStart !== null) this.nextAt = Math.max(this.nextAt, this.now() + ms);
  }

  /** The last request has its answer (or failed): the next one waits the delay from now too. */
  answered(): void {
    if (this.delayMs > 0) this.nextAt = Math.max(this.nextAt, this.now() + this.delayMs);
  }

  /** When the next request may start (ms since the epoch). */
  get next(): number {
    return this.nextAt;
  }

  /** Waits for the next request's turn, then takes it. */
  async turn(signal?: AbortSignal): Promise<void> {
    const wait = this.nextAt - this.now();
    if (wait > 0) await sleep(wait, signal);
    signal?.throwIfAborted();
    this.lastStart = this.now();
    this.nextAt = this.lastStart + this.delayMs;
  }
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
