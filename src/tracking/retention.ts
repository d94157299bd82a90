// Pruning, hourly: raw events past ANALYTICS_RETENTION_DAYS (rollups stay, so the stats do not
// change), and the salts and visitor rows of days before yesterday (so a salt lives about
// 48 hours, and a visitor cannot be followed across days: docs/analytics.md).
import type { AnalyticsRepository } from '../db/analytics-repository.js';
import type { JobQueue } from '../jobs/queue.js';
import type { FeatureJobs } from '../jobs/registry.js';
import { type Clock, formatTimestamp } from '../time.js';

const DAY_MS = 24 * 60 * 60 * 1000;

export const ANALYTICS_PRUNE_JOB = 'analytics.prune';

export async function pruneAnalytics(repo: AnalyticsRepository, retentionDays: number | null, clock: Clock): Promise<number> {
  const now = clock.now();
  await repo.pruneDays(new Date(now - DAY_MS).toISOString().slice(0, 10));
  if (retentionDays === null) return 0;
  return repo.pruneEvents(formatTimestamp(new Date(now - retentionDays * DAY_MS), 0));
}

export interface AnalyticsJobsOptions {
  analytics: AnalyticsRepository;
  retentionDays: number | null;
  jobs: Pick<JobQueue, 'send'>;
  clock: Clock;
}

/**
 * The pruning job and its schedule: every instance ticks, and the hour's key makes one pruning
 * an hour for all the instances on the database (the first tick after a start queues the
 * hour's, unless another instance has). Housekeeping has no kind of its own: it takes a turn at
 * the webhook slots, as the deliveries' pruning does; each run is a moment's work.
 */
export function analyticsJobs({ analytics, retentionDays, jobs, clock }: AnalyticsJobsOptions): FeatureJobs {
  return {
    jobs: [
      {
        type: ANALYTICS_PRUNE_JOB,
        kind: 'webhook',
        run: async () => {
          await pruneAnalytics(analytics, retentionDays, clock);
        },
      },
    ],
    schedules: [
      {
        name: 'analytics.prune',
        run: async (now) => {
          await jobs.send(ANALYTICS_PRUNE_JOB, {}, { key: `analytics:${new Date(now).toISOString().slice(0, 13)}` });
        },
      },
    ],
  };
}
