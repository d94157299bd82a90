// Crawl-delay as the site sees it: the next request waits the delay from the previous request's
// start and from its answer, so a request slowed by opening a connection cannot bring the next
// one's arrival closer than the delay.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Pacer } from '../../src/crawl/pacer.js';

function clockAt(start: number) {
  const clock = { t: start, now: () => clock.t };
  return clock;
}

test('a request answered after 300 ms: the next may start 1 s after the answer, not after the start', async () => {
  const clock = clockAt(10_000);
  const pacer = new Pacer(1000, 0, clock.now);
  await pacer.turn();
  assert.equal(pacer.next, 11_000);
  clock.t = 10_300;
  pacer.answered();
  assert.equal(pacer.next, 11_300);
});

test('an answer within the delay of a slow start keeps the later bound', async () => {
  const clock = clockAt(10_000);
  const pacer = new Pacer(1000, 12_000, clock.now);
  clock.t = 12_000;
  await pacer.turn();
  clock.t = 12_050;
  pacer.answered();
  assert.equal(pacer.next, 13_050);
});

test('a delay learnt from robots.txt counts from when robots.txt was read', async () => {
  const clock = clockAt(10_000);
  const pacer = new Pacer(0, 0, clock.now);
  await pacer.turn();
  clock.t = 10_060;
  pacer.answered();
  assert.equal(pacer.next, 10_000, 'no delay yet: nothing to wait for');
  pacer.setDelay(1000);
  assert.equal(pacer.next, 11_060);
});

test('without a delay, answers hold nothing back', async () => {
  const clock = clockAt(10_000);
  const pacer = new Pacer(0, 0, clock.now);
  await pacer.turn();
  clock.t = 10_500;
  pacer.answered();
  assert.equal(pacer.next, 10_000);
});
