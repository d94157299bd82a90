// Stats queries run a few at a time, taken in turns across websites. Each reads the database a
// bounded page at a time and yields between pages, so what waits behind it (a /health, another
// request) waits for a few pages of the queries running, never for all the queries queued: 16
// clients loading one website's share page queue behind each other, not in front of the rest,
// and another website's query gets the next free slot.
import { FairQueue } from '../limits/fair-queue.js';

export class StatsSlots {
  private running = 0;
  private readonly waiting = new FairQueue<() => void>();

  constructor(readonly limit: number) {
    if (!(Number.isInteger(limit) && limit >= 1)) throw new RangeError(`limit must be a positive integer, got ${limit}`);
  }

  get active(): number {
    return this.running;
  }

  get queued(): number {
    return this.waiting.size;
  }

  async run<T>(websiteId: number, task: () => Promise<T>): Promise<T> {
    if (this.running < this.limit) this.running++;
    else await new Promise<void>((resolve) => this.waiting.push(String(websiteId), resolve));
    try {
      return await task();
    } finally {
      // The slot goes to the next website in turn, or is freed.
      const next = this.waiting.shift(() => true);
      if (next !== undefined) next.item();
      else this.running--;
    }
  }
}
