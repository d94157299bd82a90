// The date range of a website share page (docs/share-pages.md): the last 30 days,
// today included, unless `?from=&to=` names a usable range. A page never answers an error for
// its query: an unusable range falls back to the default and says so.
import type { Clock } from '../time.js';

/** Days shown by default, today included. */
export const DEFAULT_RANGE_DAYS = 30;
/** The longest range a page shows, in days, both ends included (a leap year). */
export const MAX_RANGE_DAYS = 366;

const DAY_MS = 86_400_000;
const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

export interface StatsRange {
  /** Inclusive UTC days, YYYY-MM-DD. */
  from: string;
  to: string;
  /** Whether a range was asked for and could not be used (the default is shown instead). */
  fellBack: boolean;
}

/** The UTC day of a moment, YYYY-MM-DD. */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** `day` moved by `days` (negative: earlier). */
export function addDays(day: string, days: number): string {
  return utcDay(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS);
}

/** A real calendar day written YYYY-MM-DD (2026-02-30 is not one), or null. */
export function parseDay(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const text = value.trim();
  if (!DAY_PATTERN.test(text)) return null;
  const ms = Date.parse(`${text}T00:00:00Z`);
  return Number.isFinite(ms) && utcDay(ms) === text ? text : null;
}

/** Days from `from` to `to`, both included. */
export function daysInRange(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;
}

/** The last `days` days, today (by the clock, UTC) included. */
export function lastDays(clock: Clock, days: number): { from: string; to: string } {
  const to = utcDay(clock.now());
  return { from: addDays(to, -(days - 1)), to };
}

/**
 * The range asked for by `from` and `to` (query values, anything): both must be days, with
 * to ≥ from and at most MAX_RANGE_DAYS days. Neither given: the default, quietly; anything
 * else unusable: the default, with `fellBack` set.
 */
export function statsRange(query: { from?: unknown; to?: unknown }, clock: Clock): StatsRange {
  const asked = (v: unknown) => v !== undefined && v !== null && v !== '';
  const fallback = lastDays(clock, DEFAULT_RANGE_DAYS);
  if (!asked(query.from) && !asked(query.to)) return { ...fallback, fellBack: false };
  const from = parseDay(query.from);
  const to = parseDay(query.to);
  if (from === null || to === null || to < from || daysInRange(from, to) > MAX_RANGE_DAYS) return { ...fallback, fellBack: true };
  return { from, to, fellBack: false };
}
