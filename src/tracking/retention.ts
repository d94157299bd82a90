// Pruning, hourly and at start: raw events past ANALYTICS_RETENTION_DAYS (rollups stay, so the
// stats do not change), and the salts and visitor rows of days before yesterday (docs/analytics.md:
// salts are deleted after 48 h, so a visitor cannot be followed across days).
import type { FastifyInstance } from 'fastify';
import type { AnalyticsRepository } from '../db/analytics-repository.js';
import { type Clock, formatTimestamp } from '../time.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const EVERY_MS = 60 * 60 * 1000;

export async function pruneAnalytics(repo: AnalyticsRepository, retentionDays: number | null, clock: Clock): Promise<number> {
  const now = clock.now();
  await repo.pruneDays(new Date(now - DAY_MS).toISOString().slice(0, 10));
  if (retentionDays === null) return 0;
  return repo.pruneEvents(formatTimestamp(new Date(now - retentionDays * DAY_MS), 0));
}

export function scheduleAnalyticsPruning(
  app: FastifyInstance,
  repo: AnalyticsRepository,
  retentionDays: number | null,
  clock: Clock,
): void {
  const run = () =>
    pruneAnalytics(repo, retentionDays, clock).catch((error) => app.log.warn({ err: error }, 'analytics pruning failed'));
  let timer: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    void run();
    timer = setInterval(run, EVERY_MS);
    timer.unref();
  });
  app.addHook('onClose', async () => clearInterval(timer));
}
