// Monitor run times: creation time plus whole periods, calendar months clamped to the month's
// last day, never drifting, and missed periods skipped.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addPeriods, nextRunAfter } from '../../src/model/schedule.js';

const T = 'T10:15:30.123456Z';

test('a period after: 1 day, 7 days, 1 calendar month; the time of day (microseconds too) is kept', () => {
  assert.equal(addPeriods(`2026-03-10${T}`, 'daily', 1), `2026-03-11${T}`);
  assert.equal(addPeriods(`2026-03-10${T}`, 'weekly', 1), `2026-03-17${T}`);
  assert.equal(addPeriods(`2026-03-10${T}`, 'monthly', 1), `2026-04-10${T}`);
  // across month and year ends
  assert.equal(addPeriods(`2026-12-31${T}`, 'daily', 1), `2027-01-01${T}`);
  assert.equal(addPeriods(`2026-12-29${T}`, 'weekly', 1), `2027-01-05${T}`);
  assert.equal(addPeriods(`2026-12-15${T}`, 'monthly', 1), `2027-01-15${T}`);
});

test('month ends: 31 January + 1 month is the last day of February (28, or 29 in a leap year)', () => {
  assert.equal(addPeriods(`2026-01-31${T}`, 'monthly', 1), `2026-02-28${T}`);
  assert.equal(addPeriods(`2028-01-31${T}`, 'monthly', 1), `2028-02-29${T}`);
  assert.equal(addPeriods(`2026-03-31${T}`, 'monthly', 1), `2026-04-30${T}`);
  assert.equal(addPeriods(`2026-08-31${T}`, 'monthly', 1), `2026-09-30${T}`);
  // counted from the anchor, so the 31st comes back where the month has one
  assert.equal(addPeriods(`2026-01-31${T}`, 'monthly', 2), `2026-03-31${T}`);
  assert.equal(addPeriods(`2026-01-31${T}`, 'monthly', 3), `2026-04-30${T}`);
  assert.equal(addPeriods(`2026-01-31${T}`, 'monthly', 12), `2027-01-31${T}`);
  // 29 February + 1 year of months
  assert.equal(addPeriods(`2028-02-29${T}`, 'monthly', 12), `2029-02-28${T}`);
});

test('the next run after a time: the first of the schedule strictly later, at least one period after creation', () => {
  const created = `2026-01-31${T}`;
  assert.equal(nextRunAfter(created, 'monthly', created), `2026-02-28${T}`);
  // exactly at a run time: the one after it
  assert.equal(nextRunAfter(created, 'monthly', `2026-02-28${T}`), `2026-03-31${T}`);
  // a microsecond before a run time: that run time
  assert.equal(nextRunAfter(created, 'monthly', '2026-02-28T10:15:30.123455Z'), `2026-02-28${T}`);
  assert.equal(nextRunAfter(created, 'monthly', '2026-02-28T10:15:30.123457Z'), `2026-03-31${T}`);
});

test('a backlog is skipped: months of missed daily runs give the next future one, not the first missed', () => {
  const created = `2026-01-01${T}`;
  assert.equal(nextRunAfter(created, 'daily', '2026-06-15T00:00:00.000000Z'), `2026-06-15${T}`);
  assert.equal(nextRunAfter(created, 'daily', '2026-06-15T12:00:00.000000Z'), `2026-06-16${T}`);
  // weekly: 2026-01-01 is a Thursday; the first Thursday-at-10:15 after 15 June is 18 June
  assert.equal(nextRunAfter(created, 'weekly', '2026-06-15T12:00:00.000000Z'), `2026-06-18${T}`);
  assert.equal(nextRunAfter(created, 'monthly', '2027-03-20T00:00:00.000000Z'), `2027-04-01${T}`);
  // a time before the creation still gives one period after it
  assert.equal(nextRunAfter(created, 'weekly', '2025-01-01T00:00:00.000000Z'), `2026-01-08${T}`);
});

test('every answer is later than the time asked about and on the schedule (exhaustive over two years of days)', () => {
  for (const frequency of ['daily', 'weekly', 'monthly'] as const) {
    for (const anchorDay of ['2026-01-29', '2026-01-30', '2026-01-31', '2026-02-28']) {
      const anchor = `${anchorDay}${T}`;
      const schedule = new Set(Array.from({ length: 800 }, (_, k) => addPeriods(anchor, frequency, k + 1)));
      for (let d = 0; d < 730; d += 3) {
        const after = new Date(Date.parse('2026-01-01T00:00:00Z') + d * 86_400_000 + 37_000_000)
          .toISOString()
          .replace('Z', '000Z');
        const next = nextRunAfter(anchor, frequency, after);
        assert.ok(next > after, `${frequency} ${anchor} after ${after}: ${next}`);
        assert.ok(schedule.has(next), `${frequency} ${anchor} after ${after}: ${next} is on the schedule`);
        const earlier = [...schedule].filter((s) => s > after && s < next);
        assert.deepEqual(earlier, [], `${frequency} ${anchor} after ${after}: nothing between`);
      }
    }
  }
});
