// Group commit: events that arrive while a batch is being written wait for the next one, and
// each batch is one transaction. A caller's promise settles only once its batch has committed,
// so a 202 is never sent for an event that a crash could still lose.
import type { StoredEvent } from './rollup.js';

export interface EventStore {
  record(events: StoredEvent[]): Promise<void>;
}

interface Pending {
  event: StoredEvent;
  resolve(): void;
  reject(error: unknown): void;
}

/** The largest batch: bounds a transaction's size and how long its events wait. */
export const MAX_BATCH = 500;

export class EventWriter {
  private queue: Pending[] = [];
  private running: Promise<void> | null = null;

  constructor(private readonly store: EventStore) {}

  write(event: StoredEvent): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ event, resolve, reject });
      // The first event of a quiet period starts a batch after the current tick, so events
      // that arrive together commit together; later ones wait for the batch in flight.
      this.running ??= new Promise<void>((done) => setImmediate(done)).then(() => this.drain());
    });
  }

  /** Resolves once every event handed over so far is written (or has failed). */
  async flush(): Promise<void> {
    while (this.running) await this.running;
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, MAX_BATCH);
        try {
          await this.store.record(batch.map((p) => p.event));
          for (const p of batch) p.resolve();
        } catch (error) {
          for (const p of batch) p.reject(error);
        }
      }
    } finally {
      this.running = null;
    }
  }
}
