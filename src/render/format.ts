// Formatting for people, always in UTC so a page reads the same wherever it is rendered.

const DATE_TIME = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'UTC',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});
const DAY = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', day: 'numeric', month: 'short', year: 'numeric' });

/** Milliseconds since the epoch for a stored timestamp, or null when it is not a date. */
export function parseTimestamp(value: unknown): number | null {
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  const ms = new Date(value).getTime();
  return Number.isFinite(ms) ? ms : null;
}

/** "14 Mar 2025, 09:26 UTC". */
export function formatDateTime(ms: number): string {
  return `${DATE_TIME.format(ms)} UTC`;
}

/** "14 Mar 2025" (UTC). */
export function formatDay(ms: number): string {
  return DAY.format(ms);
}

/** Machine-readable form for `<time datetime>`: "2025-03-14T09:26:53Z". */
export function isoDateTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** A stored score as shown: an integer clamped to 0–100 (null when not a number). */
export function normaliseScore(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? Math.min(100, Math.max(0, Math.round(value))) : null;
}

/** Text cut to `max` code points with an ellipsis, so one hostile value cannot bloat a page. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}

/** "30 seconds", "1 minute", "2 minutes". */
export function formatWait(seconds: number): string {
  const s = Math.max(1, Math.ceil(Number.isFinite(seconds) ? seconds : 60));
  if (s < 60) return `${s} ${s === 1 ? 'second' : 'seconds'}`;
  const m = Math.ceil(s / 60);
  return `${m} ${m === 1 ? 'minute' : 'minutes'}`;
}
