// Timestamps in the API's form: UTC, six fractional digits, trailing Z (Carbon's toJSON()).

/** Now, with the microseconds the clock has (performance.now() is sub-millisecond). */
export function nowTimestamp(): string {
  const ms = performance.timeOrigin + performance.now();
  const whole = Math.floor(ms);
  const micros = Math.floor((ms - whole) * 1000);
  return formatTimestamp(new Date(whole), micros);
}

export function formatTimestamp(date: Date, extraMicros = 0): string {
  const iso = date.toISOString(); // 2021-05-12T10:12:32.123Z
  return `${iso.slice(0, 23)}${String(extraMicros).padStart(3, '0')}Z`;
}
