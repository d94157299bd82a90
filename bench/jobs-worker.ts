// One bench/jobs instance: the product's queue (openJobQueue) on DATABASE_URL with a no-op job
// type, as `rankscope serve` runs its workers. Prints `ready` once it works. With BARE_QUEUE=1
// it is the baseline instead: JOB_CONCURRENCY loops of a minimal SKIP LOCKED queue over plain pg
// (take a row, then mark it done: the two statements any durable queue needs per job).
import pg from 'pg';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/connection.js';
import { JobsRepository } from '../src/db/jobs-repository.js';
import { JOB_KINDS } from '../src/model/job-kinds.js';
import { openJobQueue } from '../src/jobs/open-queue.js';
import { systemClock } from '../src/time.js';

const config = loadConfig();
if (process.env.BARE_QUEUE === '1') await bare();
const database = await openDatabase(config.databaseUrl, { poolSize: 2 });
const queue = openJobQueue(database, new JobsRepository(database.db), config.jobs, {
  clock: systemClock,
  log: { info() {}, warn() {}, error: (o, m) => console.error(m, o) },
});
for (const kind of JOB_KINDS) queue.register(`bench.noop.${kind}`, async () => {}, { kind });
await queue.start();
process.stdout.write('ready\n');
const stop = async () => {
  await queue.stop();
  await database.close();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());

async function bare(): Promise<never> {
  const pool = new pg.Pool({ connectionString: config.databaseUrl, max: config.jobs.concurrency });
  let stopping = false;
  process.on('SIGTERM', () => {
    stopping = true;
  });
  process.stdout.write('ready\n');
  const loop = async () => {
    while (!stopping) {
      const taken = await pool.query(
        `update bare_jobs set state = 'active', started_at = clock_timestamp()
         where id = (select id from bare_jobs where state = 'queued' order by id for update skip locked limit 1)
         returning id, payload`,
      );
      if (taken.rowCount === 0) {
        await new Promise((r) => setTimeout(r, 50));
        continue;
      }
      await pool.query(`update bare_jobs set state = 'done', done_at = clock_timestamp() where id = $1`, [taken.rows[0].id]);
    }
  };
  await Promise.all(Array.from({ length: config.jobs.concurrency }, loop));
  await pool.end();
  process.exit(0);
}
