// Reading the final response's headers (names are lower-case, every value kept).

import type { HeaderMap } from './types.js';

export function headerValues(headers: HeaderMap, name: string): string[] {
  return headers[name] ?? [];
}

/** The `charset` parameter of a Content-Type-like value: trimmed, unquoted, lower-cased; null if none. */
export function charsetParam(value: string): string | null {
  const m = /charset\s*=\s*("[^"]*"?|'[^']*'?|[^;]*)/i.exec(value);
  if (!m) return null;
  const label = unquote(m[1].trim()).trim().toLowerCase();
  return label === '' ? null : label;
}

export function unquote(s: string): string {
  const first = s[0];
  if (first === '"' || first === "'") {
    const end = s.endsWith(first) && s.length > 1 ? s.length - 1 : s.length;
    return s.slice(1, end);
  }
  return s;
}

/** The media type of a Content-Type value, lower-cased, without parameters. */
export function mediaType(value: string | null): string {
  return value === null ? '' : value.split(';')[0].trim().toLowerCase();
}
