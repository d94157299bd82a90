// Time for the whole service: one injectable clock (tests move it; production reads the system
// clock), and timestamps in the API's form: UTC, six fractional digits, trailing Z (Carbon's
// toJSON()).

export interface Clock {
  /** Milliseconds since the epoch, with the sub-millisecond fraction the clock has. */
  now(): number;
}

/** The system clock, with microseconds (performance.now() is sub-millisecond). */
export const systemClock: Clock = { now: () => performance.timeOrigin + performance.now() };

/** A clock that stands still until moved: for tests. */
export function fixedClock(start: number | Date): Clock & { set(ms: number | Date): void; advance(ms: number): void } {
  let current = typeof start === 'number' ? start : start.getTime();
  return {
    now: () => current,
    set: (ms) => (current = typeof ms === 'number' ? ms : ms.getTime()),
    advance: (ms) => (current += ms),
  };
}

/** Now, in the API's timestamp form. */
export function nowTimestamp(clock: Clock = systemClock): string {
  const ms = clock.now();
  const whole = Math.floor(ms);
  const micros = Math.floor((ms - whole) * 1000);
  return formatTimestamp(new Date(whole), micros);
}

/** The last millisecond formatted: events arriving together share it (toISOString is not cheap). */
let lastMs = Number.NaN;
let lastIso = '';

export function formatTimestamp(date: Date, extraMicros = 0): string {
  const ms = date.getTime();
  if (ms !== lastMs) {
    lastIso = date.toISOString().slice(0, 23); // 2021-05-12T10:12:32.123
    lastMs = ms;
  }
  return `${lastIso}${extraMicros < 10 ? `00${extraMicros}` : extraMicros < 100 ? `0${extraMicros}` : extraMicros}Z`;
}

/** The UTC day of a moment (ms since the epoch), YYYY-MM-DD. */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
