// Background work is added one way: a feature describes its job types and scheduled tasks
// (FeatureJobs), and registerJobs, called once by services.ts, hands them to the queue and
// the scheduler. Nothing else in src/ registers a job type, adds a scheduled task or runs a timer
// of its own for recurring work.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { silentLog } from '../../src/jobs/log.js';
import { DELIVERY_POLICY, type JobHandler, type JobQueue, type RegisterOptions } from '../../src/jobs/queue.js';
import { type FeatureJobs, registerJobs } from '../../src/jobs/registry.js';
import { Scheduler } from '../../src/jobs/scheduler.js';
import { fixedClock } from '../../src/time.js';

function recordingQueue() {
  const registered: { type: string; options: RegisterOptions; handler: JobHandler<unknown> }[] = [];
  const queue = {
    register: (type: string, handler: JobHandler<unknown>, options: RegisterOptions) => {
      registered.push({ type, options, handler });
    },
  } as unknown as JobQueue;
  return { queue, registered };
}

test('registerJobs registers every feature’s job types (kind, policy, handler) and its tasks, in order', async () => {
  const { queue, registered } = recordingQueue();
  const scheduler = new Scheduler(fixedClock(0), silentLog);
  const ran: string[] = [];
  const features: FeatureJobs[] = [
    {
      jobs: [
        {
          type: 'a.send',
          kind: 'mail',
          policy: DELIVERY_POLICY,
          run: async (payload: { n: number }) => void ran.push(`a${payload.n}`),
        },
      ],
      schedules: [{ name: 'a.due', run: async () => void ran.push('a.due') }],
    },
    {
      jobs: [{ type: 'b.run', kind: 'monitor', run: async () => void ran.push('b') }],
      schedules: [{ name: 'b.due', run: async () => void ran.push('b.due') }],
    },
  ];
  registerJobs(queue, scheduler, features);
  assert.deepEqual(
    registered.map(({ type, options }) => ({ type, options })),
    [
      { type: 'a.send', options: { kind: 'mail', ...DELIVERY_POLICY } },
      { type: 'b.run', options: { kind: 'monitor' } },
    ],
  );
  await registered[0].handler({ n: 1 }, { id: 'x', attempt: 1, signal: new AbortController().signal });
  await scheduler.tick();
  assert.deepEqual(ran, ['a1', 'a.due', 'b.due']);
});

test('a job type or a task registered twice is refused', () => {
  const job = { type: 't', kind: 'crawl' as const, run: async () => {} };
  const task = { name: 's', run: async () => {} };
  assert.throws(
    () =>
      registerJobs(recordingQueue().queue, new Scheduler(fixedClock(0), silentLog), [
        { jobs: [job], schedules: [] },
        { jobs: [job], schedules: [] },
      ]),
    /job type t is registered twice/,
  );
  assert.throws(
    () => registerJobs(recordingQueue().queue, new Scheduler(fixedClock(0), silentLog), [{ jobs: [], schedules: [task, task] }]),
    /scheduled task s is registered twice/,
  );
});

test('nothing in src/ but jobs/registry.ts registers a job type or a task, and no feature runs a timer of its own', () => {
  // The source files themselves (the suite may run compiled copies of the tests: npm test runs from the repo root).
  const src = resolve('src');
  const files = (readdirSync(src, { recursive: true }) as string[]).filter((f) => f.endsWith('.ts')).map((f) => join(src, f));
  assert.ok(files.length > 100, `found only ${files.length} source files in ${src}`);
  const problems: string[] = [];
  for (const file of files) {
    const path = relative(src, file).replaceAll('\\', '/');
    const source = readFileSync(file, 'utf8');
    if (path !== 'jobs/registry.ts' && /\b(jobs|queue)\.register\s*(<[^>]*>)?\(|\bscheduler\??\.add\(/.test(source)) {
      problems.push(`${path} registers work outside registerJobs`);
    }
    // The scheduler's tick; the server's query-statistics refresh, which each instance does for its own connection.
    if (!['jobs/scheduler.ts', 'cli/serve.ts'].includes(path) && /\bsetInterval\(/.test(source)) {
      problems.push(`${path} runs a timer: recurring work is a scheduled task`);
    }
  }
  assert.deepEqual(problems, []);
});
