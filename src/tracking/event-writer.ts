// Group commit: events that arrive while a batch is being written wait for the next one, and
// each batch is one transaction. A caller's promise settles only once its batch has committed,
// so a 202 is never sent for an event that a crash could still lose. An event the store could
// not store fails alone: the store names it, and the rest of its batch is acknowledged.
import type { BatchFailure } from '../db/batch-isolation.js';
import type { EventStore } from '../db/event-store.js';
import type { StoredEvent } from '../model/rollup.js';

interface Pending {
  event: StoredEvent;
  resolve(): void;
  reject(error: unknown): void;
}

/** The largest batch: bounds a transaction's size and how long its events wait. */
export const MAX_BATCH = 500;
/**
 * With several batches at once, a batch leaves when it holds this many events, or at the end of
 * the tick (wrk, 50 connections: 8 gave about 4 % fewer events/s, 32 no more).
 */
export const PIPELINED_BATCH = 16;

export class EventWriter {
  private queue: Pending[] = [];
  private inFlight = 0;
  private scheduled = false;
  private readonly batchesAtOnce: number;
  private idle: (() => void)[] = [];

  constructor(private readonly store: EventStore) {
    this.batchesAtOnce = Math.max(1, store.batchesAtOnce ?? 1);
  }

  write(event: StoredEvent): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ event, resolve, reject });
      // With every batch slot taken, the event leaves with the next batch once one is free.
      if (this.inFlight >= this.batchesAtOnce) return;
      if (this.batchesAtOnce > 1 && this.queue.length >= PIPELINED_BATCH) this.send();
      else this.schedule();
    });
  }

  /** Resolves once every event handed over so far is written (or has failed). */
  flush(): Promise<void> {
    if (this.queue.length === 0 && this.inFlight === 0 && !this.scheduled) return Promise.resolve();
    return new Promise<void>((resolve) => this.idle.push(resolve));
  }

  /**
   * The first event of a quiet period starts a batch after the current tick, so events that
   * arrive together commit together.
   */
  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      if (this.inFlight < this.batchesAtOnce) this.send();
      this.settleIdle();
    });
  }

  private send(): void {
    const batch = this.queue.splice(0, MAX_BATCH);
    if (batch.length === 0) return;
    this.inFlight += 1;
    let recorded: Promise<BatchFailure[]>;
    try {
      recorded = this.store.record(batch.map((p) => p.event));
    } catch (error) {
      recorded = Promise.reject(error); // a store that throws at once fails this batch only
    }
    recorded
      .then(
        (failures) => {
          const failed = new Map<number, Error>();
          for (const f of failures) failed.set(f.index, f.error);
          batch.forEach((p, i) => {
            const error = failed.get(i);
            if (error === undefined) p.resolve();
            else p.reject(error);
          });
        },
        (error: unknown) => {
          for (const p of batch) p.reject(error);
        },
      )
      .finally(() => {
        this.inFlight -= 1;
        // Events that waited for a free slot go at once, together.
        if (this.queue.length > 0) this.send();
        this.settleIdle();
      });
  }

  private settleIdle(): void {
    if (this.queue.length > 0 || this.inFlight > 0 || this.scheduled) return;
    const waiting = this.idle;
    this.idle = [];
    for (const resolve of waiting) resolve();
  }
}
