// `rankscope jobs`: every job not completed (queued, waiting to retry, running) and the failed
// ones, one per line: type, state, attempts, last error message (docs/cli.md).
import type { AppConfig } from '../config.js';
import { silentLog } from '../jobs/log.js';
import type { JobSummary } from '../jobs/queue.js';
import { buildServices } from '../services.js';
import { withDatabase } from './database.js';
import type { CliIo } from './io.js';

export async function runJobs(config: AppConfig, args: string[], io: CliIo): Promise<number> {
  if (args.length > 0) {
    io.stderr.write('usage: rankscope jobs\n');
    return 2;
  }
  const jobs = await withDatabase(config, async (database) => {
    const services = buildServices({ config, database, log: silentLog, engineWorkers: false });
    try {
      return await services.jobs.list();
    } finally {
      await services.close();
    }
  });
  io.stdout.write(formatJobs(jobs));
  return 0;
}

/** Columns padded to their widest value; the error last, on one line. */
export function formatJobs(jobs: JobSummary[]): string {
  if (jobs.length === 0) return 'No jobs are queued, running or failed.\n';
  const rows = jobs.map((job) => [
    job.type,
    job.state,
    `${job.attempts} ${job.attempts === 1 ? 'attempt' : 'attempts'}`,
    job.runAt.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    (job.lastError ?? '').replace(/\s+/g, ' ').trim(),
  ]);
  const widths = [0, 1, 2, 3].map((i) => Math.max(...rows.map((row) => row[i].length)));
  return rows
    .map((row) =>
      `${row
        .slice(0, 4)
        .map((cell, i) => cell.padEnd(widths[i]))
        .join('  ')}  ${row[4]}`.trimEnd(),
    )
    .join('\n')
    .concat('\n');
}
