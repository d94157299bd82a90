// One way to add background work: a feature describes its job types and its scheduled tasks as
// one FeatureJobs value (a service's `jobs()`, or a function of the feature's), and the
// composition root hands every feature's to registerJobs, the one place they reach the queue
// and the scheduler.
import type { JobKind } from '../model/job-kinds.js';
import type { JobContext, JobPolicy, JobQueue } from './queue.js';
import type { ScheduledTask, Scheduler } from './scheduler.js';

/** A job type: its name, the kind whose slots it takes, its handler and its retry policy. */
export interface JobType<P = unknown> {
  type: string;
  kind: JobKind;
  /** What it leaves out is DEFAULT_POLICY's; anything that talks to another server takes DELIVERY_POLICY. */
  policy?: Partial<JobPolicy>;
  /** Calls the same service a route would. (A method, so a list holds handlers of any payload.) */
  run(payload: P, context: JobContext): Promise<void>;
}

/** Recurring work: run every tick on every instance, so it only queues keyed jobs (one per due run). */
export interface ScheduledWork {
  name: string;
  run: ScheduledTask;
}

/** Everything a feature runs in the background. */
export interface FeatureJobs {
  jobs: readonly JobType[];
  schedules: readonly ScheduledWork[];
}

/**
 * Registers every feature's job types with the queue and its scheduled tasks with the scheduler
 * (in the order given: the scheduler runs its tasks in that order each tick). Before the queue
 * starts. A name given twice is a mistake that would silently replace a handler: it throws.
 */
export function registerJobs(queue: JobQueue, scheduler: Scheduler, features: readonly FeatureJobs[]): void {
  const types = new Set<string>();
  const schedules = new Set<string>();
  for (const feature of features) {
    for (const job of feature.jobs) {
      if (types.has(job.type)) throw new Error(`job type ${job.type} is registered twice`);
      types.add(job.type);
      queue.register(job.type, (payload, context) => job.run(payload, context), { kind: job.kind, ...job.policy });
    }
    for (const schedule of feature.schedules) {
      if (schedules.has(schedule.name)) throw new Error(`scheduled task ${schedule.name} is registered twice`);
      schedules.add(schedule.name);
      scheduler.add(schedule.name, schedule.run);
    }
  }
}
