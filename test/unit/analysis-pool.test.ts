import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AnalyserBusyError, AnalysisPool } from '../../src/reports/analysis-pool.js';

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

test('at most `limit` tasks run at once; the rest wait their turn in order', async () => {
  const pool = new AnalysisPool(2, 10_000);
  const gates = [deferred(), deferred(), deferred(), deferred()];
  const started: number[] = [];
  const runs = gates.map((gate, i) =>
    pool.run(async () => {
      started.push(i);
      await gate.promise;
      return i;
    }, new AbortController().signal),
  );
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(started, [0, 1]);
  assert.deepEqual([pool.active, pool.queued], [2, 2]);
  gates[1].resolve();
  assert.equal(await runs[1], 1);
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(started, [0, 1, 2]);
  gates[0].resolve();
  gates[2].resolve();
  gates[3].resolve();
  assert.deepEqual(await Promise.all(runs), [0, 1, 2, 3]);
  assert.deepEqual([pool.active, pool.queued], [0, 0]);
});

test('a queued task gives up after the queue timeout with AnalyserBusyError', async () => {
  const pool = new AnalysisPool(1, 20);
  const gate = deferred();
  const first = pool.run(() => gate.promise, new AbortController().signal);
  await assert.rejects(pool.run(async () => 'never', new AbortController().signal), AnalyserBusyError);
  assert.equal(pool.queued, 0);
  gate.resolve();
  await first;
  assert.equal(pool.active, 0);
});

test('a full queue refuses at once', async () => {
  const pool = new AnalysisPool(1, 10_000, 1);
  const gate = deferred();
  const running = pool.run(() => gate.promise, new AbortController().signal);
  const queued = pool.run(async () => 'queued', new AbortController().signal);
  await assert.rejects(pool.run(async () => 'overflow', new AbortController().signal), AnalyserBusyError);
  gate.resolve();
  await running;
  assert.equal(await queued, 'queued');
});

test('an aborted caller leaves the queue, and a running task sees its signal abort', async () => {
  const pool = new AnalysisPool(1, 10_000);
  const runningCaller = new AbortController();
  let sawAbort = false;
  const running = pool.run(
    (signal) =>
      new Promise<void>((_resolve, reject) => {
        signal.addEventListener('abort', () => {
          sawAbort = true;
          reject(signal.reason);
        });
      }),
    runningCaller.signal,
  );
  const queuedCaller = new AbortController();
  const queued = pool.run(async () => 'never', queuedCaller.signal);
  queuedCaller.abort(new Error('gone'));
  await assert.rejects(queued, /gone/);
  assert.equal(pool.queued, 0);
  runningCaller.abort(new Error('gone too'));
  await assert.rejects(running, /gone too/);
  assert.ok(sawAbort);
  assert.equal(pool.active, 0);
});
