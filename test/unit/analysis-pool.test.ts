// The analysis pool, driven by hand: every task is a promise the test resolves, so the order of
// events is the test's, never the clock's.
import { afterEach, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { AnalyserBusyError, AnalysisPool, type AccountKey } from '../../src/reports/analysis-pool.js';

/** Lets every pending promise callback run (the pool's hand-over is a chain of microtasks). */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Runs `fn` after `ticks` microtasks (0: now). */
function afterTicks(ticks: number, fn: () => void): void {
  if (ticks === 0) fn();
  else queueMicrotask(() => afterTicks(ticks - 1, fn));
}

type Status = 'pending' | 'fulfilled' | 'rejected';

interface Submitted {
  label: string;
  done: Promise<string>;
  status: () => Status;
  /** Resolves the task (it must be running for that to end it). */
  finish(): void;
  caller: AbortController;
}

/** Every caller of a test, aborted afterwards so a failed test leaves no waiter (or timer) behind. */
const callers = new Set<AbortController>();
const abortAll = () => {
  for (const caller of callers) caller.abort(new Error('test over'));
  callers.clear();
};
afterEach(abortAll);

/**
 * Submits tasks that run until finished by hand (or until their signal aborts), records the order
 * in which they start, and checks the limits at the very moment each one starts.
 */
function driver(pool: AnalysisPool) {
  const started: string[] = [];
  /** Tasks inside their function right now, by label (a task leaves before the pool's release). */
  const running = new Map<string, string>();
  const violations: string[] = [];
  let n = 0;
  const submit = (account: AccountKey, label = `${account}${++n}`): Submitted => {
    let finish!: () => void;
    const gate = new Promise<void>((resolve) => (finish = resolve));
    const caller = new AbortController();
    callers.add(caller);
    let status: Status = 'pending';
    const done = pool.run(
      async (signal) => {
        started.push(label);
        running.set(label, String(account));
        const mine = [...running.values()].filter((a) => a === String(account)).length;
        // (a task that has just left its function still holds its slot until the pool's release)
        if (running.size > pool.limit || pool.active > pool.limit) {
          violations.push(`${label} started with ${running.size} running, active ${pool.active}, limit ${pool.limit}`);
        }
        if (mine > pool.perAccountLimit || pool.activeFor(account) > pool.perAccountLimit) {
          violations.push(
            `${label} started with ${mine} of its account running, activeFor ${pool.activeFor(account)}, cap ${pool.perAccountLimit}`,
          );
        }
        try {
          return await new Promise<string>((resolve, reject) => {
            signal.addEventListener('abort', () => reject(signal.reason), { once: true });
            void gate.then(() => resolve(label));
          });
        } finally {
          running.delete(label);
        }
      },
      caller.signal,
      account,
    );
    done.then(
      () => (status = 'fulfilled'),
      () => (status = 'rejected'),
    );
    return { label, done, status: () => status, finish, caller };
  };
  return { started, running, violations, submit };
}

test('at most `limit` tasks run at once; one account’s tasks start in the order they came', async () => {
  const pool = new AnalysisPool(2, 600_000, { perAccountLimit: 2 });
  const { started, submit } = driver(pool);
  const runs = ['a', 'b', 'c', 'd'].map((label) => submit('A', label));
  await settle();
  assert.deepEqual(started, ['a', 'b']);
  assert.deepEqual([pool.active, pool.queued], [2, 2]);
  runs[1].finish();
  assert.equal(await runs[1].done, 'b');
  await settle();
  assert.deepEqual(started, ['a', 'b', 'c']);
  for (const run of runs) run.finish();
  assert.deepEqual(await Promise.all(runs.map((r) => r.done)), ['a', 'b', 'c', 'd']);
  assert.deepEqual(started, ['a', 'b', 'c', 'd']);
  assert.deepEqual([pool.active, pool.queued], [0, 0]);
});

test('a 40-task burst from one account leaves room: another account’s task starts at once', async () => {
  const pool = new AnalysisPool(8, 600_000, { perAccountLimit: 6 });
  const { started, submit } = driver(pool);
  const burst = Array.from({ length: 40 }, () => submit('A'));
  const single = submit('B', 'B');
  await settle();
  assert.deepEqual(started, ['A1', 'A2', 'A3', 'A4', 'A5', 'A6', 'B'], 'A is held to its cap of 6; B takes the 7th slot');
  assert.deepEqual([pool.active, pool.activeFor('A'), pool.activeFor('B')], [7, 6, 1]);
  assert.deepEqual([pool.queued, pool.queuedFor('A')], [34, 34]);
  // Finish the tasks in the order they started, checking the limits after each hand-over.
  const byLabel = new Map([...burst, single].map((run) => [run.label, run]));
  for (let i = 0; i < started.length; i++) {
    const run = byLabel.get(started[i])!;
    run.finish();
    await run.done;
    await settle();
    assert.ok(pool.activeFor('A') <= 6 && pool.active <= 8, `after ${run.label}`);
  }
  assert.equal(started.length, 41);
  assert.deepEqual([pool.active, pool.queued], [0, 0]);
});

test('with every slot taken by one account, another account’s task starts at the first completion', async () => {
  const pool = new AnalysisPool(8, 600_000, { perAccountLimit: 8 });
  const { started, submit } = driver(pool);
  const burst = Array.from({ length: 40 }, () => submit('A'));
  const single = submit(2, 'B'); // numeric keys work as well as strings
  await settle();
  assert.equal(started.length, 8);
  assert.ok(!started.includes('B'));
  burst[3].finish();
  await burst[3].done;
  await settle();
  assert.deepEqual(started.slice(8), ['B'], 'the freed slot goes to B, not to A’s 9th task');
  burst[0].finish();
  await burst[0].done;
  await settle();
  assert.deepEqual(started.slice(8), ['B', 'A9'], 'then A again, in order');
  for (const run of [single, ...burst]) run.finish();
  await Promise.all([single, ...burst].map((r) => r.done));
  assert.deepEqual([pool.active, pool.queued], [0, 0]);
});

test('freed slots go round-robin across accounts; the account that just finished waits its turn', async () => {
  const pool = new AnalysisPool(1, 600_000, { perAccountLimit: 1 });
  const { started, submit } = driver(pool);
  const runs = new Map(['A1', 'A2', 'A3', 'B1', 'B2', 'C1', 'C2'].map((label) => [label, submit(label[0], label)]));
  await settle();
  assert.deepEqual(started, ['A1']);
  while (started.length < runs.size) {
    const current = runs.get(started.at(-1)!)!;
    current.finish();
    await current.done;
    await settle();
  }
  assert.deepEqual(started, ['A1', 'B1', 'C1', 'A2', 'B2', 'C2', 'A3']);
  runs.get('A3')!.finish();
  await runs.get('A3')!.done;
  assert.deepEqual([pool.active, pool.queued], [0, 0]);
});

test('an account runs at most its cap even with free slots; its next task starts when one of its own ends', async () => {
  const pool = new AnalysisPool(4, 600_000, { perAccountLimit: 2 });
  const { started, submit } = driver(pool);
  const a = [submit('A'), submit('A'), submit('A'), submit('A')];
  await settle();
  assert.deepEqual(started, ['A1', 'A2']);
  assert.deepEqual([pool.active, pool.queued], [2, 2]);
  const b = submit('B', 'B');
  await settle();
  assert.deepEqual(started, ['A1', 'A2', 'B'], 'a free slot is not held back from an account under its cap');
  b.finish();
  await b.done;
  await settle();
  assert.deepEqual(started, ['A1', 'A2', 'B'], 'B’s slot does not lift A’s cap');
  a[1].finish();
  await a[1].done;
  await settle();
  assert.deepEqual(started, ['A1', 'A2', 'B', 'A3']);
  assert.deepEqual([pool.active, pool.activeFor('A'), pool.queuedFor('A')], [2, 2, 1]);
  for (const run of a) run.finish();
  await Promise.all(a.map((r) => r.done));
  assert.deepEqual([pool.active, pool.queued], [0, 0]);
});

test('a full queue for one account refuses that account at once while others still queue; the global bound is the last resort', async () => {
  const pool = new AnalysisPool(1, 600_000, { perAccountLimit: 1, maxQueuedPerAccount: 2, maxQueued: 3 });
  const { started, submit } = driver(pool);
  const a = [submit('A'), submit('A'), submit('A')]; // one runs, two queue
  const aOverflow = submit('A', 'A-overflow');
  const b = submit('B', 'B');
  await settle();
  assert.equal(aOverflow.status(), 'rejected', 'refused at once, not after the queue timeout');
  await assert.rejects(aOverflow.done, (error) => error instanceof AnalyserBusyError && error.retryAfterSeconds === 5);
  assert.equal(b.status(), 'pending', 'B still queues');
  assert.deepEqual([pool.queued, pool.queuedFor('A'), pool.queuedFor('B')], [3, 2, 1]);
  const c = submit('C', 'C'); // C has queued nothing, but the pool-wide bound is reached
  await settle();
  assert.equal(c.status(), 'rejected');
  await assert.rejects(c.done, AnalyserBusyError);
  for (const run of [...a, b]) run.finish();
  assert.deepEqual(await Promise.all([...a, b].map((r) => r.done)), ['A1', 'A2', 'A3', 'B']);
  assert.deepEqual(started, ['A1', 'B', 'A2', 'A3']);
});

test('an aborted waiter leaves its account’s line (freeing its place) and an aborted running task frees its slot for the next account', async () => {
  const pool = new AnalysisPool(2, 600_000, { perAccountLimit: 1, maxQueuedPerAccount: 2 });
  const { started, submit } = driver(pool);
  const a1 = submit('A');
  const b1 = submit('B');
  const a2 = submit('A');
  const a3 = submit('A');
  const c1 = submit('C');
  await settle();
  assert.deepEqual(started, ['A1', 'B2']);
  const overflow = submit('A', 'A-overflow');
  await settle();
  assert.equal(overflow.status(), 'rejected', 'A’s line is full');
  assert.deepEqual([pool.queuedFor('A'), pool.queuedFor('C')], [2, 1]);

  a2.caller.abort(new Error('gone'));
  await assert.rejects(a2.done, /gone/);
  assert.deepEqual([pool.queued, pool.queuedFor('A')], [2, 1]);
  const a6 = submit('A', 'A6'); // the aborted waiter's place in A's line is free again
  await settle();
  assert.equal(a6.status(), 'pending');
  assert.equal(pool.queuedFor('A'), 2);

  b1.caller.abort(new Error('gone too'));
  await assert.rejects(b1.done, /gone too/);
  await settle();
  assert.deepEqual(started, ['A1', 'B2', 'C5'], 'B’s slot went to C (A is at its cap), not lost');
  assert.deepEqual([pool.active, pool.activeFor('B')], [2, 0]);

  a1.finish();
  await a1.done;
  await settle();
  assert.deepEqual(started, ['A1', 'B2', 'C5', 'A4'], 'A’s line kept its order without the aborted A3');
  for (const run of [a3, c1, a6]) run.finish();
  await Promise.all([a3, c1, a6].map((r) => r.done));
  assert.deepEqual(started, ['A1', 'B2', 'C5', 'A4', 'A6']);
  assert.deepEqual([pool.active, pool.queued], [0, 0]);
});

test('a waiter that times out leaves its account’s line, which accepts waiters again', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const pool = new AnalysisPool(1, 3000, { perAccountLimit: 1, maxQueuedPerAccount: 1 });
  const { started, submit } = driver(pool);
  const a1 = submit('A');
  const a2 = submit('A');
  const a3 = submit('A');
  await settle();
  assert.deepEqual([a2.status(), a3.status()], ['pending', 'rejected'], 'A’s line holds one waiter');
  t.mock.timers.tick(2999);
  await settle();
  assert.equal(a2.status(), 'pending');
  t.mock.timers.tick(1);
  await assert.rejects(a2.done, (error) => error instanceof AnalyserBusyError && error.retryAfterSeconds === 3);
  assert.deepEqual([pool.queued, pool.queuedFor('A')], [0, 0]);
  const a4 = submit('A');
  await settle();
  assert.equal(a4.status(), 'pending', 'A may queue again');
  a1.finish();
  await a1.done;
  a4.finish();
  assert.equal(await a4.done, 'A4');
  assert.deepEqual(started, ['A1', 'A4']);
  assert.deepEqual([pool.active, pool.queued], [0, 0]);
});

test('the per-account cap must lie between 1 and the limit', () => {
  assert.throws(() => new AnalysisPool(4, 1000, { perAccountLimit: 0 }), RangeError);
  assert.throws(() => new AnalysisPool(4, 1000, { perAccountLimit: 5 }), RangeError);
  assert.equal(new AnalysisPool(4, 1000, { perAccountLimit: 4 }).perAccountLimit, 4);
});

// Random interleavings of submissions, completions and aborts (several in the same turn, and a
// submission racing them), checking what the pool promises: the limit and the per-account cap at
// every task start, the queue bounds, no idle slot while an eligible waiter waits, no task
// overtaking an older one of its account, and nothing lost at the end.
test('property: slots are handed over without breaking the limits or leaving an eligible waiter behind', async () => {
  type Event =
    | { kind: 'submit'; account: number }
    | { kind: 'finish' | 'abort'; picks: number[]; racingSubmit: { account: number; ticks: number } | null };
  const account = fc.integer({ min: 0, max: 3 });
  const event: fc.Arbitrary<Event> = fc.oneof(
    { weight: 3, arbitrary: fc.record({ kind: fc.constant('submit' as const), account }) },
    {
      weight: 3,
      arbitrary: fc.record({
        kind: fc.constantFrom('finish' as const, 'finish' as const, 'abort' as const),
        picks: fc.array(fc.nat(), { minLength: 1, maxLength: 3 }),
        racingSubmit: fc.option(fc.record({ account, ticks: fc.integer({ min: 0, max: 8 }) }), { freq: 3 }),
      }),
    },
  );
  const shape = fc.integer({ min: 1, max: 4 }).chain((limit) =>
    fc.record({
      limit: fc.constant(limit),
      cap: fc.integer({ min: 1, max: limit }),
      maxQueuedPerAccount: fc.integer({ min: 1, max: 4 }),
      maxQueued: fc.integer({ min: 1, max: 8 }),
    }),
  );

  await fc.assert(
    fc.asyncProperty(
      shape,
      fc.array(event, { maxLength: 60 }),
      async ({ limit, cap, maxQueuedPerAccount, maxQueued }, events) => {
        abortAll(); // what a failed (and shrunk) run left behind
        const pool = new AnalysisPool(limit, 600_000, { perAccountLimit: cap, maxQueuedPerAccount, maxQueued });
        const { started, running, violations, submit } = driver(pool);
        const tasks: { account: number; run: Submitted }[] = [];
        const state = (task: { run: Submitted }) =>
          task.run.status() !== 'pending' ? task.run.status() : running.has(task.run.label) ? 'running' : 'queued';
        const count = (s: string, account?: number) =>
          tasks.filter((t) => (account === undefined || t.account === account) && state(t) === s).length;
        const add = (account: number, label: string) => {
          const task = { account, run: submit(account, label) };
          tasks.push(task);
          return task;
        };

        const check = (step: string) => {
          assert.deepEqual(violations, [], step);
          assert.equal(pool.active, count('running'), `${step}: active`);
          assert.equal(pool.queued, count('queued'), `${step}: queued`);
          assert.ok(pool.queued <= maxQueued, `${step}: global queue bound`);
          for (let account = 0; account < 4; account++) {
            assert.equal(pool.activeFor(account), count('running', account), `${step}: activeFor(${account})`);
            assert.equal(pool.queuedFor(account), count('queued', account), `${step}: queuedFor(${account})`);
            assert.ok(count('queued', account) <= maxQueuedPerAccount, `${step}: account ${account} queue bound`);
            if (count('running') < limit && count('queued', account) > 0) {
              assert.equal(
                count('running', account),
                cap,
                `${step}: account ${account} waits though a slot is free and it is under its cap`,
              );
            }
            // First come, first served within an account: nothing starts while an older task of the
            // same account still waits. (Two tasks admitted in the same turn may enter their
            // functions in either order: a woken waiter resumes a microtask later.)
            const mine = tasks.filter((t) => t.account === account);
            const oldestWaiting = mine.findIndex((t) => state(t) === 'queued');
            if (oldestWaiting !== -1) {
              const overtaking = mine.slice(oldestWaiting + 1).filter((t) => started.includes(t.run.label));
              assert.deepEqual(
                overtaking.map((t) => t.run.label),
                [],
                `${step}: account ${account} overtook ${mine[oldestWaiting].run.label}`,
              );
            }
          }
        };

        for (const [i, e] of events.entries()) {
          const step = `step ${i} (${JSON.stringify(e)})`;
          if (e.kind === 'submit') {
            const startable = count('running') < limit && count('running', e.account) < cap;
            const full = count('queued', e.account) >= maxQueuedPerAccount || count('queued') >= maxQueued;
            const task = add(e.account, `t${i}`);
            await settle();
            assert.equal(state(task), startable ? 'running' : full ? 'rejected' : 'queued', step);
          } else {
            const candidates = tasks.filter((t) => state(t) === 'running' || (e.kind === 'abort' && state(t) === 'queued'));
            if (candidates.length === 0) continue;
            const ended = [...new Set(e.picks.map((p) => candidates[p % candidates.length]))];
            for (const task of ended) {
              if (e.kind === 'finish') task.run.finish();
              else task.run.caller.abort(new Error('gone'));
            }
            // A submission in the same turn, `ticks` microtasks later: before, during or after the hand-over.
            if (e.racingSubmit !== null) {
              const { account, ticks } = e.racingSubmit;
              afterTicks(ticks, () => add(account, `t${i}-racing`));
            }
            await settle();
            for (const task of ended) assert.equal(state(task), e.kind === 'finish' ? 'fulfilled' : 'rejected', step);
          }
          check(step);
        }

        // Drain: finishing whatever runs must eventually run every waiter.
        while (count('running') > 0) {
          for (const task of tasks) if (state(task) === 'running') task.run.finish();
          await settle();
          check('drain');
        }
        assert.deepEqual([pool.active, pool.queued, count('queued')], [0, 0, 0]);
      },
    ),
    { numRuns: 300 },
  );
});
