// Where the analytics writer (tracking/event-writer.ts) hands its batches: the repository, or
// the SQLite write thread (analytics-write-thread.ts).
import type { BatchFailure } from './batch-isolation.js';
import type { StoredEvent } from '../model/rollup.js';

export interface EventStore {
  /**
   * Stores the batch; resolves once it has committed, with the events it did not store (by index:
   * each stands alone, the others are stored), or rejects when none is stored.
   */
  record(events: StoredEvent[]): Promise<BatchFailure[]>;
  /**
   * How many batches the store takes at once (default 1: the next batch forms while one
   * commits). A store that commits on another thread, in order (the SQLite write thread), takes
   * a few: a batch then goes as soon as it holds PIPELINED_BATCH events, and commits while this
   * thread reads the next requests, instead of every client waiting for one batch of them all.
   */
  readonly batchesAtOnce?: number;
}
