// Stats work runs a few at a time, taken in turns across websites, one website holding at most
// `perWebsite` of the slots. Each query reads the database a bounded page at a time and yields
// between pages, so what waits behind it (a /health, another request) waits for a few pages of
// the queries running, never for all the queries queued: 16 clients loading one website's share
// page queue behind each other, not in front of the rest, and another website's query finds a
// slot kept free for it.
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { FairQueue } from '../limits/fair-queue.js';

export class StatsSlots {
  private running = 0;
  private readonly runningByWebsite = new Map<string, number>();
  private readonly waiting = new FairQueue<() => void>();

  constructor(
    readonly limit: number,
    readonly perWebsite = limit,
  ) {
    if (!(Number.isInteger(limit) && limit >= 1)) throw new RangeError(`limit must be a positive integer, got ${limit}`);
    if (!(Number.isInteger(perWebsite) && perWebsite >= 1 && perWebsite <= limit)) {
      throw new RangeError(`perWebsite must be an integer from 1 to limit (${limit}), got ${perWebsite}`);
    }
  }

  get active(): number {
    return this.running;
  }

  get queued(): number {
    return this.waiting.size;
  }

  async run<T>(websiteId: number, task: () => Promise<T>): Promise<T> {
    const key = String(websiteId);
    // A free slot and under its share: now. Anyone queued then is at their share (a freed slot
    // goes to an eligible waiter), so this passes no one.
    if (this.running < this.limit && this.runningOf(key) < this.perWebsite) this.take(key);
    else await new Promise<void>((resolve) => this.waiting.push(key, resolve));
    try {
      // Each task starts in a turn of the event loop of its own: a slot handed over from a
      // finished task would otherwise start the next in the same run of promise callbacks, and
      // a queue of small queries (none of them yielding) would run end to end while /health waits.
      await yieldToEventLoop();
      return await task();
    } finally {
      this.release(key);
    }
  }

  private runningOf(key: string): number {
    return this.runningByWebsite.get(key) ?? 0;
  }

  private take(key: string): void {
    // Served now: its next waiter goes behind the other websites' (a slot taken at once counts too).
    this.waiting.moveToBack(key);
    this.running++;
    this.runningByWebsite.set(key, this.runningOf(key) + 1);
  }

  private release(key: string): void {
    this.running--;
    const left = this.runningOf(key) - 1;
    if (left > 0) this.runningByWebsite.set(key, left);
    else this.runningByWebsite.delete(key);
    // The slot goes to the next website in turn that is under its share.
    const next = this.waiting.shift((website) => this.runningOf(website) < this.perWebsite);
    if (next === undefined) return;
    this.take(next.account);
    next.item();
  }
}
