// The job layer on the engine under test (SQLite's table queue, or pg-boss with
// TEST_DATABASE_URL): runs, keys, retries, failure, the list `rankscope jobs` prints, workers.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { JobsRepository } from '../../src/db/jobs-repository.js';
import { silentLog } from '../../src/jobs/log.js';
import { openJobQueue } from '../../src/jobs/open-queue.js';
import { keyedJobId, retryDelaySeconds, type JobQueue } from '../../src/jobs/queue.js';
import { fixedClock } from '../../src/time.js';
import { type TestDatabase, testDatabase, usingPostgres } from '../helpers/database.js';
import { until } from '../helpers/wait.js';

describe('job queue', () => {
  let db: TestDatabase;
  const clock = fixedClock(Date.parse('2026-05-04T10:00:00Z'));
  const queues: JobQueue[] = [];

  function queue(): JobQueue {
    const q = openJobQueue(
      db.handle,
      new JobsRepository(db.handle.db),
      { leaseSeconds: 30, concurrency: 2 },
      { clock, log: silentLog },
    );
    queues.push(q);
    return q;
  }

  before(async () => {
    db = await testDatabase();
  });
  after(async () => {
    for (const q of queues) await q.stop();
    await db.cleanup();
  });

  test('a sent job runs once with its payload', async () => {
    const q = queue();
    const seen: unknown[] = [];
    q.register<{ n: number }>('t.once', async (payload, context) => {
      seen.push(payload.n, context.attempt);
    });
    assert.equal(await q.send('t.once', { n: 7 }), true);
    assert.equal(await q.drain(), 1);
    assert.equal(await q.drain(), 0);
    assert.deepEqual(seen, [7, 1]);
    assert.deepEqual(await q.list(), [], 'a completed job is not listed');
  });

  test('a key makes a job unique', async () => {
    const q = queue();
    let runs = 0;
    q.register('t.keyed', async () => {
      runs++;
    });
    assert.equal(await q.send('t.keyed', {}, { key: 'monitor:1:2026-05-04' }), true);
    assert.equal(await q.send('t.keyed', {}, { key: 'monitor:1:2026-05-04' }), false);
    assert.equal(await q.send('t.keyed', {}, { key: 'monitor:1:2026-05-05' }), true);
    await q.drain();
    assert.equal(runs, 2);
    // Still unique once done (completed jobs keep their key for a day).
    assert.equal(await q.send('t.keyed', {}, { key: 'monitor:1:2026-05-04' }), false);
  });

  test('a failing job is retried, then failed, and listed with its error', async () => {
    const q = queue();
    const attempts: number[] = [];
    q.register(
      't.failing',
      async (_payload, context) => {
        attempts.push(context.attempt);
        throw new Error(`refused on attempt ${context.attempt}`);
      },
      { retryLimit: 2, retryDelaySeconds: 0, retryBackoff: false },
    );
    await q.send('t.failing', {});
    // Retries with no delay are due at once.
    for (let i = 0; i < 5 && attempts.length < 3; i++) await q.drain();
    assert.deepEqual(attempts, [1, 2, 3]);
    const [listed] = (await q.list()).filter((job) => job.type === 't.failing');
    assert.equal(listed.state, 'failed');
    assert.equal(listed.attempts, 3);
    assert.equal(listed.lastError, 'refused on attempt 3');
    assert.equal(await q.drain(), 0, 'a failed job does not run again');
  });

  test('queued jobs are listed with their state', async () => {
    const q = queue();
    q.register('t.later', async () => {});
    await q.send('t.later', {}, { startAfter: clock.now() + 3_600_000 });
    const listed = (await q.list()).filter((job) => job.type === 't.later');
    assert.equal(listed.length, 1);
    assert.equal(listed[0].state, 'queued');
    assert.equal(listed[0].attempts, 0);
  });

  test('started workers take due jobs without being asked', async () => {
    const q = queue();
    const done: number[] = [];
    q.register<{ n: number }>('t.worked', async ({ n }) => {
      done.push(n);
    });
    await q.start();
    for (let n = 0; n < 5; n++) await q.send('t.worked', { n });
    await until(() => done.length === 5, { what: 'five jobs done' });
    assert.deepEqual([...done].sort(), [0, 1, 2, 3, 4]);
  });

  test('retries back off: 15–30 s first for deliveries, doubling after', () => {
    const policy = { retryLimit: 12, retryDelaySeconds: 15, retryBackoff: true };
    assert.equal(
      retryDelaySeconds(policy, 1, () => 0),
      15,
    );
    assert.equal(
      retryDelaySeconds(policy, 1, () => 1),
      30,
    );
    assert.equal(
      retryDelaySeconds(policy, 2, () => 0),
      30,
    );
    assert.equal(
      retryDelaySeconds(policy, 3, () => 0),
      60,
    );
    let total = 0;
    for (let retry = 1; retry <= 12; retry++) total += retryDelaySeconds(policy, retry, () => 0.5);
    assert.ok(total > 20 * 3600 && total < 40 * 3600, `about a day of retries, got ${total / 3600} h`);
    assert.equal(retryDelaySeconds({ ...policy, retryBackoff: false }, 5), 15);
  });

  test('keyed ids are UUIDs, equal for equal keys', () => {
    const id = keyedJobId('monitor.run', '1:2026');
    assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.equal(id, keyedJobId('monitor.run', '1:2026'));
    assert.notEqual(id, keyedJobId('monitor.run', '1:2027'));
  });

  test('on the embedded queue, a retry waits for its backoff on the clock', {
    skip: usingPostgres && 'pg-boss keeps time in PostgreSQL',
  }, async () => {
    const q = queue();
    let runs = 0;
    q.register(
      't.backoff',
      async () => {
        runs++;
        if (runs === 1) throw new Error('first run fails');
      },
      { retryLimit: 3, retryDelaySeconds: 15, retryBackoff: true },
    );
    await q.send('t.backoff', {});
    await q.drain();
    assert.equal(runs, 1);
    clock.advance(14_000);
    await q.drain();
    assert.equal(runs, 1, 'not before 15 s');
    clock.advance(16_000);
    await q.drain();
    assert.equal(runs, 2, 'by 30 s');
  });
});
