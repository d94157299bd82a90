// When a monitor runs: its creation time plus whole periods (1 day, 7 days, 1 calendar month),
// computed on the stored timestamp text so the time of day, microseconds included, never moves.
// Every run time is counted from the creation time, not from the run before: a monthly monitor
// created on 31 January runs on 28 (or 29) February, then on 31 March, never drifting to the
// 28th. UTC has no daylight saving, so a day is always 24 hours.

export type MonitorFrequency = 'daily' | 'weekly' | 'monthly';

export const FREQUENCIES = ['daily', 'weekly', 'monthly'] as const satisfies readonly MonitorFrequency[];

const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})(T\d{2}:\d{2}:\d{2}\.\d{6}Z)$/;
const DAY_MS = 86_400_000;

interface Parts {
  year: number;
  /** 0-based. */
  month: number;
  day: number;
  /** "THH:MM:SS.ffffffZ" */
  time: string;
}

function parse(timestamp: string): Parts {
  const m = TIMESTAMP.exec(timestamp);
  if (!m) throw new Error(`not a stored timestamp: ${timestamp}`);
  return { year: Number(m[1]), month: Number(m[2]) - 1, day: Number(m[3]), time: m[4] };
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');

function format(date: Date, time: string): string {
  return `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1, 2)}-${pad(date.getUTCDate(), 2)}${time}`;
}

const daysInMonth = (year: number, month: number) => new Date(Date.UTC(year, month + 1, 0)).getUTCDate();

/** `anchor` plus `count` periods. A month later is the same day of the month, or the month's last day when it has none. */
export function addPeriods(anchor: string, frequency: MonitorFrequency, count: number): string {
  const { year, month, day, time } = parse(anchor);
  if (frequency === 'monthly') {
    const target = new Date(Date.UTC(year, month + count, 1));
    const last = daysInMonth(target.getUTCFullYear(), target.getUTCMonth());
    target.setUTCDate(Math.min(day, last));
    return format(target, time);
  }
  const days = frequency === 'weekly' ? 7 * count : count;
  return format(new Date(Date.UTC(year, month, day + days)), time);
}

/**
 * The first run time of the schedule anchored at `anchor` that is later than `after` (at least
 * one period after the anchor). Missed periods are skipped, never returned one by one.
 */
export function nextRunAfter(anchor: string, frequency: MonitorFrequency, after: string): string {
  const a = parse(anchor);
  const b = parse(after);
  // An estimate at or a little below the answer, then whole periods up.
  let count: number;
  if (frequency === 'monthly') {
    count = (b.year - a.year) * 12 + (b.month - a.month) - 1;
  } else {
    const days = Math.floor((Date.UTC(b.year, b.month, b.day) - Date.UTC(a.year, a.month, a.day)) / DAY_MS);
    count = Math.floor(days / (frequency === 'weekly' ? 7 : 1)) - 1;
  }
  count = Math.max(1, count);
  let next = addPeriods(anchor, frequency, count);
  while (next <= after) next = addPeriods(anchor, frequency, ++count);
  return next;
}
