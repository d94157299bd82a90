// The engine in worker threads: a page's parsing and checks run in one of `size` workers, so the
// server's event loop keeps answering while a 5 MB page or a 500 KiB robots.txt is worked
// through. Each worker runs one job at a time and the queue lives here, shared fairly between
// accounts (round-robin, like the analysis pool), so one account's burst of heavy pages delays
// another account's page by at most the job in progress. A worker is a hard boundary too: its
// heap is capped (a page that needs more fails alone, as "too large or complex", instead of
// taking the process down), a job that runs past its deadline is stopped by replacing the
// worker, and a worker that a big page left with a large heap is replaced once idle, so the
// memory comes back.
import type { Worker } from 'node:worker_threads';
import { FairQueue } from '../limits/fair-queue.js';
import { startModuleWorker } from '../worker-thread.js';
import type { AnalysisConfig } from './config.js';
import type { Engine, ParsedPage } from './engine.js';
import type { PageOutline } from './outline.js';
import { FetchError } from './errors.js';
import type { PageSnapshot } from './types.js';
import type { AnalysisResult } from './results.js';

export type EngineRequest =
  | { op: 'parse'; id: number; html: string; finalUrl: string; withOutline: boolean }
  | { op: 'check'; id: number; snapshot: Omit<PageSnapshot, 'html'>; config: AnalysisConfig }
  | { op: 'drop'; id: number };

export type EngineReply = { id: number; heapBytes?: number } & (
  | { declaredIcon: string | null; outline: PageOutline | null }
  | { result: AnalysisResult }
  | { error: string }
);

export interface EnginePoolOptions {
  /** A worker's heap limit (old generation); a page that needs more fails with `too_complex`. */
  maxHeapMb?: number;
  /** A worker's young generation: small keeps its memory close to what a page needs. */
  youngHeapMb?: number;
  /** A worker whose heap grew past this is replaced once it holds no page. */
  recycleAboveMb?: number;
  /** A job (one parse, or one page's checks) running longer than this fails and its worker is replaced. */
  jobTimeoutMs?: number;
  /** Told of a worker that failed (out of memory, a crash): for the log. */
  onWorkerError?: (error: Error) => void;
}

interface Job {
  account: string;
  /** The worker that took it. */
  taken?: Slot;
  request: Exclude<EngineRequest, { op: 'drop' }>;
  resolve(reply: EngineReply): void;
  reject(error: Error): void;
}

interface Slot {
  worker: Worker;
  /** The job the worker is running: one at a time, so the queue order here is the order of work. */
  busy: Job | null;
  timer: NodeJS.Timeout | null;
  /** Checks of pages this worker parsed (they can only run here), before any new page. */
  pinned: Job[];
  /** Pages parsed and not yet checked or dropped. */
  held: Set<number>;
  /** Takes no new page; replaced once it has finished what it holds. */
  retiring: boolean;
}

const tooComplex = () => new FetchError('too_complex');

export class EnginePool implements Engine {
  /** The workers taking new pages (null: not started yet, or being replaced). */
  private readonly slots: (Slot | null)[];
  /** Retiring workers still finishing the pages they hold. */
  private readonly draining = new Set<Slot>();
  /** Pages waiting for a worker, per account. */
  private readonly waiting = new FairQueue<Job>();
  private nextId = 0;
  private closed = false;
  private readonly maxHeapMb: number;
  private readonly youngHeapMb: number;
  private readonly recycleAboveBytes: number;
  private readonly jobTimeoutMs: number;
  private readonly onWorkerError?: (error: Error) => void;
  /** Workers started so far (replacements included). */
  started = 0;

  constructor(
    readonly size: number,
    options: EnginePoolOptions = {},
  ) {
    if (!(size >= 1)) throw new RangeError('an engine pool needs at least one worker');
    this.slots = Array.from({ length: size }, () => null);
    // 128 MB: any 5 MB page (the largest fetched) needs under 96 MB, hostile ones included.
    this.maxHeapMb = options.maxHeapMb ?? 128;
    this.youngHeapMb = options.youngHeapMb ?? 4;
    this.recycleAboveBytes = (options.recycleAboveMb ?? 64) * 1024 * 1024;
    this.jobTimeoutMs = options.jobTimeoutMs ?? 60_000;
    this.onWorkerError = options.onWorkerError;
  }

  async parse(html: string, finalUrl: string, account: string | number = '', withOutline = false): Promise<ParsedPage> {
    if (this.closed) throw new Error('the engine pool is closed');
    const id = ++this.nextId;
    const key = String(account);
    const { slot, reply } = await new Promise<{ slot: Slot; reply: EngineReply }>((resolve, reject) => {
      const job: Job = {
        account: key,
        request: { op: 'parse', id, html, finalUrl, withOutline },
        resolve: (r) => resolve({ slot: job.taken!, reply: r }),
        reject,
      };
      this.waiting.push(key, job);
      this.dispatch();
    });
    let open = true;
    const release = () => {
      if (!open) return false;
      open = false;
      slot.held.delete(id);
      this.settle(slot);
      return true;
    };
    return {
      declaredIcon: 'declaredIcon' in reply ? reply.declaredIcon : null,
      outline: 'outline' in reply ? reply.outline : null,
      check: (snapshot, config) => {
        if (!open) return Promise.reject(new Error('the parsed page was discarded'));
        const { html: _html, ...rest } = snapshot;
        return new Promise<AnalysisResult>((resolve, reject) => {
          slot.pinned.push({
            account: key,
            request: { op: 'check', id, snapshot: rest, config },
            resolve: (r) => {
              release();
              if ('result' in r) resolve(r.result);
              else reject(tooComplex());
            },
            reject: (error) => {
              release();
              reject(error);
            },
          });
          this.run(slot);
        });
      },
      discard: () => {
        if (release() && !slot.retiring) slot.worker.postMessage({ op: 'drop', id } satisfies EngineRequest);
      },
    };
  }

  /** Stops every worker; waiting and running jobs fail. */
  async close(): Promise<void> {
    this.closed = true;
    const error = new Error('the engine pool was closed');
    while (this.waiting.size > 0) this.waiting.shift(() => true)!.item.reject(error);
    const all = [...this.slots.filter((s): s is Slot => s !== null), ...this.draining];
    this.slots.fill(null);
    this.draining.clear();
    await Promise.all(all.map((slot) => this.stop(slot, error)));
  }

  /** Gives every idle worker its next job, starting workers while pages wait. */
  private dispatch(): void {
    for (let i = 0; i < this.slots.length && this.waiting.size > 0; i++) {
      const slot = this.slots[i] ?? this.startSlot(i);
      this.run(slot);
    }
  }

  /** If the worker is idle: its pinned checks first (they finish pages), else the next waiting page. */
  private run(slot: Slot): void {
    if (slot.busy || this.closed) return;
    const job = slot.pinned.shift() ?? (slot.retiring ? undefined : this.waiting.shift(() => true)?.item);
    if (!job) return;
    slot.busy = job;
    job.taken = slot;
    if (job.request.op === 'parse') slot.held.add(job.request.id);
    // The only way to stop a runaway job is to stop its worker.
    slot.timer = setTimeout(() => this.retire(slot, tooComplex()), this.jobTimeoutMs);
    slot.worker.postMessage(job.request);
  }

  private startSlot(index: number): Slot {
    const worker = startModuleWorker(import.meta.url, 'engine-worker', {
      resourceLimits: { maxOldGenerationSizeMb: this.maxHeapMb, maxYoungGenerationSizeMb: this.youngHeapMb },
    });
    worker.unref();
    this.started++;
    const slot: Slot = { worker, busy: null, timer: null, pinned: [], held: new Set(), retiring: false };
    worker.on('message', (reply: EngineReply) => this.onReply(slot, reply));
    worker.on('error', (error) => {
      this.onWorkerError?.(error);
      this.retire(slot, tooComplex());
    });
    worker.on('exit', () => this.retire(slot, tooComplex()));
    this.slots[index] = slot;
    return slot;
  }

  private onReply(slot: Slot, reply: EngineReply): void {
    const job = slot.busy;
    if (!job || job.request.id !== reply.id) return;
    clearTimeout(slot.timer!);
    slot.busy = null;
    slot.timer = null;
    if (job.request.op === 'parse' && 'error' in reply) slot.held.delete(job.request.id);
    if ((reply.heapBytes ?? 0) > this.recycleAboveBytes) this.startRetiring(slot);
    if ('error' in reply) job.reject(tooComplex());
    else job.resolve(reply);
    this.settle(slot);
  }

  /** After a job or a release: replace a retiring worker that is done, else keep it working. */
  private settle(slot: Slot): void {
    if (slot.retiring && !slot.busy && slot.pinned.length === 0 && slot.held.size === 0) {
      this.draining.delete(slot);
      void this.stop(slot, tooComplex());
    } else {
      this.run(slot);
    }
    this.dispatch();
  }

  /** Takes no new page from now on; a fresh worker takes its place for those. */
  private startRetiring(slot: Slot): void {
    if (slot.retiring) return;
    slot.retiring = true;
    const index = this.slots.indexOf(slot);
    if (index !== -1) this.slots[index] = null;
    this.draining.add(slot);
  }

  /** A dead, stuck or closed worker: everything it runs or holds fails. */
  private retire(slot: Slot, error: Error): void {
    this.startRetiring(slot);
    this.draining.delete(slot);
    void this.stop(slot, error);
    this.dispatch();
  }

  private async stop(slot: Slot, error: Error): Promise<void> {
    if (slot.timer) clearTimeout(slot.timer);
    const jobs = [...(slot.busy ? [slot.busy] : []), ...slot.pinned];
    slot.busy = null;
    slot.pinned = [];
    slot.held.clear();
    for (const job of jobs) job.reject(error);
    await slot.worker.terminate();
  }
}
