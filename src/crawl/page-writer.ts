// Group commit for crawled pages (docs/site-audits.md, "Storage"). A page's report, its row and
// the links it adds to the frontier were one transaction each, and on SQLite each commit writes
// every b-tree page it dirtied to the write-ahead log: about 40 pages of 4 KiB per crawled page,
// the commits alone a fifth of a crawl's CPU. The crawl's workers hand each finished page here
// instead, and whatever they finish within MAX_WAIT_MS (at most MAX_PAGES) is committed in one
// transaction (CrawlsRepository.completeAll), so the pages those writes share (the frontier's
// rows and indexes, the reports' indexes) are written once a batch.
//
// Each page's promise settles when its batch has committed: true when it was written, false
// when its lease fence failed (the page is no longer its worker's). A batch the database refuses
// is written again a page at a time, so one bad page fails alone.
import type { PageCompletion } from '../db/crawls-repository.js';

/** Pages one transaction holds at most. */
export const MAX_PAGES = 100;
/** How long the first page of a batch waits for others to join it. */
export const MAX_WAIT_MS = 25;

export type CommitPages = (pages: readonly PageCompletion[]) => Promise<boolean[]>;

interface Waiting {
  page: PageCompletion;
  resolve(written: boolean): void;
  reject(error: unknown): void;
}

export class PageWriter {
  private queue: Waiting[] = [];
  private timer: NodeJS.Timeout | undefined;
  /** The queue goes as soon as no batch is being written: its first page waited long enough, or a worker waits for it. */
  private due = false;
  private writing = false;

  constructor(
    private readonly commit: CommitPages,
    private readonly options: { maxPages?: number; maxWaitMs?: number } = {},
  ) {}

  /** Queues the page; settles once its batch has committed (true: written; false: its lease fence failed). */
  write(page: PageCompletion): Promise<boolean> {
    return new Promise<boolean>((resolve, reject) => {
      this.queue.push({ page, resolve, reject });
      if (this.queue.length >= this.maxPages) this.due = true;
      else if (this.timer === undefined) {
        this.timer = setTimeout(() => {
          this.timer = undefined;
          this.due = true;
          this.next();
        }, this.options.maxWaitMs ?? MAX_WAIT_MS);
      }
      this.next();
    });
  }

  /** Commits what waits without waiting for others to join: a worker has nothing to do until its pages are written. */
  flush(): void {
    if (this.queue.length === 0) return;
    this.due = true;
    this.next();
  }

  private get maxPages(): number {
    return this.options.maxPages ?? MAX_PAGES;
  }

  private next(): void {
    if (this.writing || !this.due || this.queue.length === 0) return;
    const batch = this.queue.splice(0, this.maxPages);
    // Pages left over from a full batch have waited as long: they go next.
    if (this.queue.length === 0) {
      this.due = false;
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    this.writing = true;
    void this.run(batch).finally(() => {
      this.writing = false;
      this.next();
    });
  }

  private async run(batch: Waiting[]): Promise<void> {
    let written: boolean[];
    try {
      written = await this.commit(batch.map((w) => w.page));
    } catch (error) {
      if (batch.length === 1) {
        batch[0].reject(error);
        return;
      }
      // One page the database refuses must not lose the others: each on its own.
      for (const waiting of batch) {
        try {
          const [one] = await this.commit([waiting.page]);
          waiting.resolve(one);
        } catch (alone) {
          waiting.reject(alone);
        }
      }
      return;
    }
    for (const [i, waiting] of batch.entries()) waiting.resolve(written[i]);
  }
}

/**
 * One worker's pages waiting in the writer: it goes on fetching while they are written (so a
 * batch gathers several workers' pages, and several pages of each), waits for them before it
 * hands over or looks for more work, and fails with the first of them that failed.
 */
export class UnwrittenPages {
  private readonly pending = new Set<Promise<void>>();
  private failure: { error: unknown } | undefined;

  constructor(private readonly writer: PageWriter) {}

  get size(): number {
    return this.pending.size;
  }

  /** `written`: the page's write and what follows it (its events); its failure is thrown by the next check. */
  add(written: Promise<void>): void {
    const tracked: Promise<void> = written.then(
      () => {
        this.pending.delete(tracked);
      },
      (error: unknown) => {
        this.pending.delete(tracked);
        this.failure ??= { error };
      },
    );
    this.pending.add(tracked);
  }

  /** Waits until fewer than `limit` pages wait (a slow database holds the worker rather than its memory growing). */
  async below(limit: number): Promise<void> {
    while (this.pending.size >= limit) await Promise.race(this.pending);
    this.check();
  }

  /** Waits for every page, committed now rather than after the batch's wait. */
  async settle(): Promise<void> {
    while (this.pending.size > 0) {
      this.writer.flush();
      await Promise.all(this.pending);
    }
    this.check();
  }

  /** Throws the first failed page's error. */
  check(): void {
    if (this.failure) throw this.failure.error;
  }
}
