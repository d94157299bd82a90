// The periods a digest covers (docs/monitors-and-mail.md#digests), as pure functions of a moment:
// a UTC day, an ISO week (Monday 00:00 UTC to the next Monday) or a calendar month. A period's
// digest is due from 06:00 UTC on the first day after it (the Monday for a week, the 1st for a
// month, the next day for a day), so the day's last events have long been counted.
import type { DigestPeriod } from '../config.js';

export interface Period {
  kind: DigestPeriod;
  /** First UTC day of the period, YYYY-MM-DD. */
  start: string;
  /** Last UTC day of the period (included), YYYY-MM-DD. */
  last: string;
  /** First UTC day after the period, YYYY-MM-DD. */
  end: string;
}

const DAY_MS = 86_400_000;

/** Hours after a period ends before its digest is due (06:00 UTC). */
export const SEND_HOUR_UTC = 6;

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const dayMs = (day: string) => Date.parse(`${day}T00:00:00Z`);
const addDays = (day: string, days: number) => dayOf(dayMs(day) + days * DAY_MS);

function monthStart(year: number, month: number): string {
  return dayOf(Date.UTC(year, month, 1));
}

/** The period of this kind that contains the moment `ms`. */
export function periodContaining(kind: DigestPeriod, ms: number): Period {
  const day = dayOf(ms);
  let start: string;
  let end: string;
  if (kind === 'daily') {
    start = day;
    end = addDays(day, 1);
  } else if (kind === 'weekly') {
    const weekday = (new Date(dayMs(day)).getUTCDay() + 6) % 7; // Monday 0 … Sunday 6 (ISO)
    start = addDays(day, -weekday);
    end = addDays(start, 7);
  } else {
    const date = new Date(dayMs(day));
    start = monthStart(date.getUTCFullYear(), date.getUTCMonth());
    end = monthStart(date.getUTCFullYear(), date.getUTCMonth() + 1);
  }
  return { kind, start, last: addDays(end, -1), end };
}

/** The period just before `period` (a month's is the calendar month before, whatever its length). */
export function previousPeriod(period: Period): Period {
  return periodContaining(period.kind, dayMs(period.start) - 1);
}

/** The latest period that has ended by `now` (what `rankscope mail digest` sends). */
export function lastCompletePeriod(kind: DigestPeriod, now: number): Period {
  return previousPeriod(periodContaining(kind, now));
}

/** The period whose scheduled digest is due at `now`: the latest one that ended ≥ 6 hours ago. */
export function duePeriod(kind: DigestPeriod, now: number): Period {
  return lastCompletePeriod(kind, now - SEND_HOUR_UTC * 3_600_000);
}

/** The period of this kind starting on `start` (YYYY-MM-DD), or null when no such period starts that day. */
export function periodStartingOn(kind: DigestPeriod, start: string): Period | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(start) || !Number.isFinite(dayMs(start))) return null;
  const period = periodContaining(kind, dayMs(start));
  return period.start === start ? period : null;
}

/** The moment a period starts, in the stored timestamp form (compared with `websites.email_since`). */
export function periodStartTimestamp(period: Period): string {
  return `${period.start}T00:00:00.000000Z`;
}
