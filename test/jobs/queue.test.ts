// The job layer on the engine under test (SQLite's table queue, or pg-boss with
// TEST_DATABASE_URL): runs, keys, retries, failure, the list `rankscope jobs` prints, workers;
// each kind's own slots, accounts taking turns within a kind, a deferral that uses no attempt.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { JobsRepository } from '../../src/db/jobs-repository.js';
import { silentLog } from '../../src/jobs/log.js';
import { splitSlots } from '../../src/model/job-kinds.js';
import { openJobQueue } from '../../src/jobs/open-queue.js';
import { JobDeferred, keyedJobId, retryDelaySeconds, type JobQueue } from '../../src/jobs/queue.js';
import { fixedClock } from '../../src/time.js';
import { type TestDatabase, testDatabase, usingPostgres } from '../helpers/database.js';
import { until } from '../helpers/wait.js';

describe('job queue', () => {
  let db: TestDatabase;
  const clock = fixedClock(Date.parse('2026-05-04T10:00:00Z'));
  const queues: JobQueue[] = [];

  function queue(slots = splitSlots(4)): JobQueue {
    const q = openJobQueue(db.handle, new JobsRepository(db.handle.db), { leaseSeconds: 30, slots }, { clock, log: silentLog });
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
    q.register<{ n: number }>(
      't.once',
      async (payload, context) => {
        seen.push(payload.n, context.attempt);
      },
      { kind: 'monitor' },
    );
    assert.equal(await q.send('t.once', { n: 7 }), true);
    assert.equal(await q.drain(), 1);
    assert.equal(await q.drain(), 0);
    assert.deepEqual(seen, [7, 1]);
    assert.deepEqual(await q.list(), [], 'a completed job is not listed');
  });

  test('a key makes a job unique', async () => {
    const q = queue();
    let runs = 0;
    q.register(
      't.keyed',
      async () => {
        runs++;
      },
      { kind: 'monitor' },
    );
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
      { kind: 'monitor', retryLimit: 2, retryDelaySeconds: 0, retryBackoff: false },
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
    q.register('t.later', async () => {}, { kind: 'monitor' });
    await q.send('t.later', {}, { startAfter: clock.now() + 3_600_000 });
    const listed = (await q.list()).filter((job) => job.type === 't.later');
    assert.equal(listed.length, 1);
    assert.equal(listed[0].state, 'queued');
    assert.equal(listed[0].attempts, 0);
  });

  test('started workers take due jobs without being asked', async () => {
    const q = queue();
    const done: number[] = [];
    q.register<{ n: number }>(
      't.worked',
      async ({ n }) => {
        done.push(n);
      },
      { kind: 'monitor' },
    );
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
      { kind: 'monitor', retryLimit: 3, retryDelaySeconds: 15, retryBackoff: true },
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

  test('each kind has slots of its own: deliveries that never end leave a monitor run its slot', async () => {
    const q = queue({ webhook: 1, mail: 1, monitor: 1, crawl: 1 });
    let hanging = 0;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    q.register(
      't.hook',
      async () => {
        hanging++;
        await held;
      },
      { kind: 'webhook' },
    );
    let ran = false;
    q.register(
      't.run',
      async () => {
        ran = true;
      },
      { kind: 'monitor' },
    );
    await q.start();
    for (let i = 0; i < 3; i++) await q.send('t.hook', { i }, { account: 1 });
    await until(() => hanging === 1, { what: 'a delivery to take the webhook slot' });
    await q.send('t.run', {}, { account: 2 });
    await until(() => ran, { what: 'the monitor run, while the webhook slot stays taken' });
    assert.equal(hanging, 1, 'one webhook slot: the other deliveries wait');
    release();
    await until(() => hanging === 3, { what: 'the waiting deliveries once the slot is free' });
  });

  test('within a kind, accounts take turns: a backlog of one account does not hold back another', async () => {
    const q = queue();
    const order: number[] = [];
    q.register<{ account: number }>(
      't.turns',
      async ({ account }) => {
        order.push(account);
      },
      { kind: 'webhook' },
    );
    for (let i = 0; i < 6; i++) await q.send('t.turns', { account: 1 }, { account: 1 });
    for (let i = 0; i < 2; i++) await q.send('t.turns', { account: 2 }, { account: 2 });
    await q.send('t.turns', { account: 0 }, {});
    assert.equal(await q.drain(), 9);
    // Account 1 queued first, so it goes first; then each account with jobs waiting takes its
    // turn (none: a turn of its own); once the others are done, account 1's backlog.
    assert.deepEqual(order.slice(0, 3).sort(), [0, 1, 2]);
    assert.deepEqual(order.slice(3, 5).sort(), [1, 2]);
    assert.deepEqual(order.slice(5), [1, 1, 1, 1]);
  });

  test('a deferred job waits until its time without using an attempt, and frees its slot', async () => {
    const q = queue();
    const attempts: number[] = [];
    // pg-boss decides what is due by PostgreSQL's clock: there the hour is a real one.
    const now = () => (usingPostgres ? Date.now() : clock.now());
    q.register(
      't.deferred',
      async (_payload, context) => {
        attempts.push(context.attempt);
        if (attempts.length === 1) throw new JobDeferred(now() + 3_600_000, 'not this hour');
      },
      { kind: 'mail', retryLimit: 0 },
    );
    await q.send('t.deferred', {});
    assert.equal(await q.drain(['t.deferred']), 1);
    const [waiting] = (await q.list()).filter((job) => job.type === 't.deferred');
    assert.equal(waiting.state, 'queued');
    assert.equal(waiting.attempts, 0, 'a deferral is no attempt');
    assert.equal(waiting.lastError, 'not this hour');
    assert.ok(waiting.runAt.getTime() >= now() + 3_600_000 - 5000, 'due in an hour');
    assert.equal(await q.drain(['t.deferred']), 0, 'not before its time');
    if (usingPostgres) return; // pg-boss keeps time in PostgreSQL: the hour cannot be stepped through
    clock.advance(3_600_000);
    assert.equal(await q.drain(['t.deferred']), 1);
    assert.deepEqual(attempts, [1, 1], 'the run after the deferral is still the first attempt (retryLimit 0)');
    assert.deepEqual(
      (await q.list()).filter((job) => job.type === 't.deferred'),
      [],
    );
  });
});
