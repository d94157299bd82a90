// Stats work a few at a time, in turns across websites: a crowd on one website's share page
// never holds every slot, and the event loop gets a turn before each task.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { StatsSlots } from '../../src/tracking/stats-slots.js';
import { until } from '../helpers/wait.js';

/** Tasks that run until released, recording who runs. */
function harness(slots: StatsSlots) {
  const running = new Map<number, number>();
  let most = 0;
  const releases: (() => void)[] = [];
  const started: string[] = [];
  const task = (websiteId: number, label: string) =>
    slots.run(websiteId, async () => {
      started.push(label);
      running.set(websiteId, (running.get(websiteId) ?? 0) + 1);
      most = Math.max(
        most,
        [...running.values()].reduce((a, b) => a + b, 0),
      );
      await new Promise<void>((resolve) => releases.push(resolve));
      running.set(websiteId, running.get(websiteId)! - 1);
      return label;
    });
  return { running, started, releases, task, most: () => most };
}

test('at most `limit` at once; one website at most `perWebsite`, so another website starts at once', async () => {
  const slots = new StatsSlots(4, 3);
  const h = harness(slots);
  const crowd = Array.from({ length: 10 }, (_, i) => h.task(1, `a${i}`));
  await until(() => h.started.length === 3, { what: 'three of website 1' });
  assert.equal(slots.queued, 7, 'the rest of website 1 waits though a slot is free');
  const other = h.task(2, 'b0');
  await until(() => h.started.includes('b0'), { what: 'website 2 to start' });
  assert.equal(slots.active, 4);
  // Finishing everything: never more than 4 at once, never more than 3 of website 1.
  while (h.started.length < 11 || h.releases.length > 0) {
    await until(() => h.releases.length > 0, { what: 'a task to release' });
    h.releases.shift()!();
    assert.ok((h.running.get(1) ?? 0) <= 3);
    await new Promise((r) => setImmediate(r));
  }
  assert.deepEqual(
    await Promise.all(crowd),
    Array.from({ length: 10 }, (_, i) => `a${i}`),
  );
  assert.equal(await other, 'b0');
  assert.equal(h.most(), 4);
  assert.equal(slots.active, 0);
});

test('a freed slot goes to the website served least recently', async () => {
  const slots = new StatsSlots(1);
  const h = harness(slots);
  const all = [h.task(1, 'a0'), h.task(1, 'a1'), h.task(1, 'a2'), h.task(2, 'b0'), h.task(3, 'c0')];
  for (let i = 0; i < all.length; i++) {
    await until(() => h.releases.length === 1, { what: `task ${i}` });
    h.releases.shift()!();
  }
  await Promise.all(all);
  assert.deepEqual(h.started, ['a0', 'b0', 'c0', 'a1', 'a2']);
});

test('a task starts in a turn of the event loop of its own, after what was already waiting for one', async () => {
  const slots = new StatsSlots(2);
  const order: string[] = [];
  setImmediate(() => order.push('waiting I/O'));
  await slots.run(1, async () => {
    order.push('task');
  });
  assert.deepEqual(order, ['waiting I/O', 'task']);
});
