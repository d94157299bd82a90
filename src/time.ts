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

export function formatTimestamp(date: Date, extraMicros = 0): string {
  const iso = date.toISOString(); // 2021-05-12T10:12:32.123Z
  return `${iso.slice(0, 23)}${String(extraMicros).padStart(3, '0')}Z`;
}
