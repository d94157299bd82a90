// Recurring work: each registered task (queue the due monitor runs, the due digests) runs every
// few seconds on every instance. Tasks only queue keyed jobs (a run's key names its due time), so
// however many instances tick, each run is queued once; the queue then runs it once.
import type { Clock } from '../time.js';
import type { JobLog } from './log.js';

/** A task: given the clock's now (ms), queue whatever is due. */
export type ScheduledTask = (now: number) => Promise<void>;

/** How often tasks run: with the workers' poll, a due run starts within 5 s. */
export const TICK_MS = 2_000;

export class Scheduler {
  private readonly tasks = new Map<string, ScheduledTask>();
  private timer: NodeJS.Timeout | null = null;
  private ticking: Promise<void> | null = null;

  constructor(
    private readonly clock: Clock,
    private readonly log: JobLog,
  ) {}

  add(name: string, task: ScheduledTask): void {
    this.tasks.set(name, task);
  }

  start(intervalMs = TICK_MS): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      this.ticking ??= this.tick().finally(() => {
        this.ticking = null;
      });
    }, intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.ticking;
  }

  /** Runs every task once, now (tests call it after moving their clock). A failing task is logged. */
  async tick(): Promise<void> {
    const now = this.clock.now();
    for (const [name, task] of this.tasks) {
      try {
        await task(now);
      } catch (error) {
        this.log.error({ err: error, task: name }, 'a scheduled task failed; it runs again at the next tick');
      }
    }
  }
}
