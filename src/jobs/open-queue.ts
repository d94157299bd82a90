// The queue for the database in use: pg-boss on PostgreSQL, the job table on SQLite.
import type { JobSettings } from '../config.js';
import type { DatabaseHandle } from '../db/connection.js';
import type { JobsRepository } from '../db/jobs-repository.js';
import type { Clock } from '../time.js';
import type { JobLog } from './log.js';
import { PgBossJobQueue } from './pg-boss-queue.js';
import type { JobQueue } from './queue.js';
import { SqliteJobQueue } from './sqlite-queue.js';

export function openJobQueue(
  database: DatabaseHandle,
  jobsRepository: JobsRepository,
  settings: Pick<JobSettings, 'leaseSeconds' | 'slots'>,
  { clock, log }: { clock: Clock; log: JobLog },
): JobQueue {
  if (database.engine === 'postgres') {
    return new PgBossJobQueue({
      url: database.url,
      db: database.db,
      leaseSeconds: settings.leaseSeconds,
      slots: settings.slots,
      log,
    });
  }
  return new SqliteJobQueue(jobsRepository, {
    clock,
    leaseSeconds: settings.leaseSeconds,
    slots: settings.slots,
    log,
  });
}
