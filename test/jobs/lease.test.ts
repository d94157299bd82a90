// A job whose process is killed with SIGKILL runs again after its lease (within two leases of the
// death: docs/postgresql-and-jobs.md), and a graceful stop finishes or releases running jobs.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { migrateToLatest, type DatabaseHandle } from '../../src/db/connection.js';
import { JobsRepository } from '../../src/db/jobs-repository.js';
import { silentLog } from '../../src/jobs/log.js';
import { splitSlots } from '../../src/model/job-kinds.js';
import { openJobQueue } from '../../src/jobs/open-queue.js';
import type { JobQueue } from '../../src/jobs/queue.js';
import { SqliteJobQueue } from '../../src/jobs/sqlite-queue.js';
import { fixedClock, systemClock } from '../../src/time.js';
import { type ProcessDatabase, processDatabase, testDatabase, usingPostgres } from '../helpers/database.js';
import { until } from '../helpers/wait.js';

const POLICY = { retryLimit: 3, retryDelaySeconds: 0, retryBackoff: false };

describe('leases', () => {
  let pdb: ProcessDatabase;
  let handle: DatabaseHandle;
  const queues: JobQueue[] = [];

  before(async () => {
    pdb = await processDatabase();
    handle = await pdb.open();
    await migrateToLatest(handle);
  });
  after(async () => {
    for (const q of queues) await q.stop();
    await handle.close();
    await pdb.cleanup();
  });

  /**
   * A worker process takes a job of `type` and is killed with SIGKILL; this process then works
   * the queue. Resolves with the attempts it saw and, on PostgreSQL, how long after the death the
   * job ran again (SQLite's lease is on the injected clock, stepped through here).
   */
  async function killedMidJob(type: string, policy: { retryLimit: number; retryDelaySeconds: number; retryBackoff: boolean }) {
    // pg-boss keeps time in PostgreSQL, so there the test waits for real; SQLite's lease is on our clock.
    const lease = usingPostgres ? 5 : 30;
    const clock = fixedClock(Date.now());
    const queue = openJobQueue(
      handle,
      new JobsRepository(handle.db),
      { leaseSeconds: lease, slots: splitSlots(4) },
      {
        clock: usingPostgres ? systemClock : clock,
        log: silentLog,
      },
    );
    queues.push(queue);
    const attempts: number[] = [];
    queue.register(type, async (_payload, context) => void attempts.push(context.attempt), { kind: 'monitor', ...policy });
    await queue.send(type, { n: 1 });

    const child = spawn(process.execPath, ['--import', 'tsx', 'test/fixtures/jobs/hanging-worker.ts'], {
      env: {
        ...process.env,
        DATABASE_URL: pdb.databaseUrl,
        JOB_LEASE_SECONDS: String(lease),
        JOB_TYPE: type,
        RETRY_DELAY_SECONDS: String(policy.retryDelaySeconds),
      },
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const exited = new Promise((resolve) => child.on('close', resolve));
    await until(() => output.includes('started 1'), { what: `the worker to take the job (${output})` });
    child.kill('SIGKILL');
    await exited;
    const killedAt = Date.now();

    if (usingPostgres) {
      await queue.start();
      await until(() => attempts.length > 0, { timeoutMs: 4 * lease * 1000, what: 'the job to run again' });
      const seconds = (Date.now() - killedAt) / 1000;
      assert.ok(seconds <= 2 * lease + 2, `ran again ${seconds.toFixed(1)} s after the death (lease ${lease} s)`);
    } else {
      clock.set(killedAt + lease * 1000 - 1000);
      assert.equal(await queue.drain(), 0, 'not while the lease holds');
      assert.equal((await queue.list())[0].state, 'running');
      clock.set(killedAt + lease * 1000 + 1000);
      assert.equal(await queue.drain(), 1, 'once the lease ran out');
    }
    assert.deepEqual(attempts, [2], 'the run cut short counts as the first attempt');
    // On PostgreSQL the handler's return is recorded by pg-boss a moment after it ran.
    if (usingPostgres) await until(async () => (await queue.list()).length === 0, { what: 'the job recorded as done' });
    assert.deepEqual(await queue.list(), []);
    await queue.stop();
  }

  test('a job whose process was killed with SIGKILL runs again after its lease', async () => {
    await killedMidJob('t.lease', POLICY);
  });

  test('a killed job runs again within two leases whatever its retry backoff (that is for failures, not a lost lease)', async () => {
    // A monitor run's policy: retries 2–4 minutes after a failure.
    await killedMidJob('t.lease.backoff', { retryLimit: 2, retryDelaySeconds: 120, retryBackoff: true });
  });

  test('a graceful stop lets a running job finish', async () => {
    const db = await testDatabase();
    try {
      const queue = openJobQueue(
        db.handle,
        new JobsRepository(db.handle.db),
        { leaseSeconds: 30, slots: splitSlots(4) },
        {
          clock: systemClock,
          log: silentLog,
        },
      );
      let release!: () => void;
      let finished = false;
      queue.register(
        't.slow',
        async () => {
          await new Promise<void>((resolve) => (release = resolve));
          finished = true;
        },
        { kind: 'monitor' },
      );
      await queue.start();
      await queue.send('t.slow', {});
      await until(() => release !== undefined, { what: 'the job to start' });
      const stopping = queue.stop();
      setTimeout(() => release(), 100);
      await stopping;
      assert.equal(finished, true);
      assert.deepEqual(await queue.list(), [], 'completed, not left running');
      await queue.stop(); // list() after a stop opens pg-boss again
    } finally {
      await db.cleanup();
    }
  });

  test('past the grace period, a graceful stop aborts the job and hands it back without using an attempt', {
    skip: usingPostgres && 'pg-boss fails a job its stop cuts short (it is retried)',
  }, async () => {
    const db = await testDatabase();
    try {
      const queue = new SqliteJobQueue(new JobsRepository(db.handle.db), {
        clock: systemClock,
        leaseSeconds: 30,
        slots: splitSlots(4),
        log: silentLog,
        graceMs: 50,
      });
      let started = false;
      queue.register(
        't.stuck',
        async (_payload, context) => {
          started = true;
          await new Promise((_resolve, reject) => context.signal.addEventListener('abort', () => reject(context.signal.reason)));
        },
        { kind: 'monitor' },
      );
      await queue.start();
      await queue.send('t.stuck', {});
      await until(() => started, { what: 'the job to start' });
      await queue.stop();
      const [job] = await queue.list();
      assert.equal(job.state, 'queued');
      assert.equal(job.attempts, 0);
    } finally {
      await db.cleanup();
    }
  });
});
