// The analytics write thread. On an embedded SQLite file the server's event batches commit on a
// worker thread with a connection of its own: a batch's commit (its rows, then its pages into
// the write-ahead log, now and then a checkpoint) was about a third of what an event cost the
// event loop, which meanwhile answered nothing. The thread runs the very statements record()
// runs (sqliteRecorder), one batch after another in the order sent; a caller's promise settles
// once its batch has committed, with the events the database refused (stored apart from the
// others, which are committed), or once it has failed whole. Another connection's write (the main thread's, or
// another process's) waits for the batch in progress under busy_timeout, as it would for a
// second process. PostgreSQL and in-memory SQLite keep record() in process.
import type { Worker } from 'node:worker_threads';
import type { EventStore } from './event-store.js';
import type { StoredEvent } from '../model/rollup.js';
import { startModuleWorker } from '../worker-thread.js';
import { type AnalyticsRepository, DEFAULT_MAX_VALUES } from './analytics-repository.js';
import type { BatchFailure } from './batch-isolation.js';
import { type DatabaseHandle, sqliteFileOf } from './connection.js';

export type WriteRequest = { op: 'write'; id: number; events: StoredEvent[] } | { op: 'close' };
/** `failed`: the events not stored, by index, and why; `error`: the whole batch failed. */
export type WriteReply = { id: number; failed?: [index: number, message: string][]; error?: string };
export interface WriteThreadData {
  file: string;
  maxValues: number;
}

export interface ClosableEventStore extends EventStore {
  /** Gets ready to write now (the thread starts), so the first batch does not wait for it. */
  warmUp(): void;
  /** Ends the store once what it was given is written (the thread closes its connection). */
  close(): Promise<void>;
}

/** Where the server's collector writes: the write thread on a SQLite file, else the repository. */
export function analyticsEventStore(database: DatabaseHandle, analytics: AnalyticsRepository): ClosableEventStore {
  if (database.engine === 'sqlite') {
    const file = sqliteFileOf(database.url);
    if (file !== ':memory:') return new AnalyticsWriteThread(file, analytics.maxValues);
  }
  return { record: (events) => analytics.record(events), warmUp: () => {}, close: async () => {} };
}

interface Waiter {
  resolve(failures: BatchFailure[]): void;
  reject(error: Error): void;
}

interface Running {
  worker: Worker;
  /** Batches sent to this worker and not answered yet. */
  waiting: Map<number, Waiter>;
}

export class AnalyticsWriteThread implements ClosableEventStore {
  /**
   * One batch commits while up to three wait in the thread; with all four out, new events
   * gather into one batch for the next free slot (wrk, 50 connections: 2 slots gave about 5 %
   * fewer events/s than 4; 8 or 16, no more than 4).
   */
  readonly batchesAtOnce = 4;
  private running: Running | null = null;
  private nextId = 1;
  private closed = false;

  constructor(
    private readonly file: string,
    private readonly maxValues = DEFAULT_MAX_VALUES,
  ) {}

  record(events: StoredEvent[]): Promise<BatchFailure[]> {
    if (events.length === 0) return Promise.resolve([]);
    if (this.closed) return Promise.reject(new Error('the analytics write thread is closed'));
    const running = this.running ?? this.start();
    const id = this.nextId++;
    return new Promise<BatchFailure[]>((resolve, reject) => {
      if (running.waiting.size === 0) running.worker.ref();
      running.waiting.set(id, { resolve, reject });
      running.worker.postMessage({ op: 'write', id, events } satisfies WriteRequest);
    });
  }

  warmUp(): void {
    if (!this.closed) this.running ??= this.start();
  }

  async close(): Promise<void> {
    this.closed = true;
    const running = this.running;
    if (!running) return;
    // Batches are answered in order, so the close comes after every batch sent before it.
    await new Promise<void>((resolve) => {
      running.worker.once('exit', () => resolve());
      running.worker.ref();
      running.worker.postMessage({ op: 'close' } satisfies WriteRequest);
    });
  }

  /** A new worker; one that fails (a crash, out of memory) fails its batches and the next batch starts another. */
  private start(): Running {
    const worker = startModuleWorker(import.meta.url, 'analytics-write-worker', {
      workerData: { file: this.file, maxValues: this.maxValues } satisfies WriteThreadData,
    });
    const running: Running = { worker, waiting: new Map() };
    worker.on('message', (reply: WriteReply) => {
      const waiter = running.waiting.get(reply.id);
      if (!waiter) return;
      running.waiting.delete(reply.id);
      if (running.waiting.size === 0 && !this.closed) worker.unref();
      if (reply.error !== undefined) waiter.reject(new Error(reply.error));
      else waiter.resolve((reply.failed ?? []).map(([index, message]) => ({ index, error: new Error(message) })));
    });
    const stopped = (error: Error) => {
      if (this.running === running) this.running = null;
      for (const waiter of running.waiting.values()) waiter.reject(error);
      running.waiting.clear();
    };
    worker.on('error', stopped);
    worker.on('exit', (code) => stopped(new Error(`the analytics write thread stopped (exit code ${code})`)));
    // The thread keeps the process alive only while it holds a batch: a process that never
    // closes the store (a test, a one-off command) is still free to exit when it is idle.
    worker.unref();
    this.running = running;
    return running;
  }
}
