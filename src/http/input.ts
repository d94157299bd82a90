// Request input the way Laravel clients expect it (docs/laravel.md §3b, §6): PHP's form
// parsing, body over query string, strings trimmed (passwords excepted), empty strings as null.

import type { FastifyInstance } from 'fastify';

export type RawValue = string | number | boolean | null | RawValue[] | { [key: string]: RawValue };
export type Input = Record<string, RawValue>;

/** PHP's max_input_vars: pairs past this are ignored, as PHP does. */
export const MAX_INPUT_VARS = 1000;

/** A form or query component as PHP's urldecode reads it (`+` is a space). */
export function decodeComponent(s: string): string {
  const plus = s.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(plus);
  } catch {
    // PHP's urldecode keeps malformed escapes as written and decodes the rest.
    return plus.replace(/%([0-9a-fA-F]{2})/g, (m, hex: string) => {
      try {
        return decodeURIComponent(m);
      } catch {
        return String.fromCharCode(parseInt(hex, 16));
      }
    });
  }
}

/** The parameter a decoded key sets: `a[]` and `a[x]` set `a`; `.` and space become `_` (PHP). */
export function baseName(decodedKey: string): string {
  const bracket = decodedKey.indexOf('[');
  return (bracket > 0 ? decodedKey.slice(0, bracket) : decodedKey).replace(/[. ]/g, '_');
}

/**
 * `a=1&b=2` as PHP's parse_str reads it: a repeated key keeps the last value, `k[]=v` or
 * `k[x]=v` make an array/object (which the validator then refuses for scalar fields), and
 * `.` or space in a name become `_`.
 */
export function parseFormEncoded(text: string): Input {
  const out: Input = Object.create(null);
  let count = 0;
  for (const pair of text.split('&')) {
    if (pair === '') continue;
    if (++count > MAX_INPUT_VARS) break;
    const eq = pair.indexOf('=');
    const rawKey = decodeComponent(eq === -1 ? pair : pair.slice(0, eq));
    const value = eq === -1 ? '' : decodeComponent(pair.slice(eq + 1));
    const bracket = rawKey.indexOf('[');
    const name = baseName(rawKey);
    if (name === '' || name === '__proto__') continue;
    if (bracket > 0) {
      const existing = out[name];
      const list = Array.isArray(existing) ? existing : [];
      list.push(value);
      out[name] = list;
    } else {
      out[name] = value;
    }
  }
  return out;
}

/** Fields kept exactly as sent (a password may begin or end with a space). */
export const UNTRIMMED = new Set(['password', 'password_confirmation', 'current_password', 'new_password']);

function normalizeValue(key: string, value: RawValue): RawValue {
  if (typeof value === 'string') {
    const v = UNTRIMMED.has(key) ? value : value.trim();
    return v === '' ? null : v;
  }
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : null;
  return value;
}

/** Form bodies parsed as PHP does; JSON accepted too (an empty JSON body is an empty input); nothing else (415). */
export function registerBodyParsers(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, parseFormEncoded(body as string));
  });
  app.addContentTypeParser(/^application\/([\w.+-]+\+)?json$/, { parseAs: 'string' }, (_req, body, done) => {
    const text = (body as string).trim();
    if (text === '') return done(null, {});
    try {
      done(null, JSON.parse(text));
    } catch {
      done(Object.assign(new Error('invalid JSON'), { statusCode: 400, code: 'FST_ERR_CTP_INVALID_JSON_BODY' }), undefined);
    }
  });
}

/** Merges the query string and the body (the body wins), then trims and nulls empty strings. */
export function requestInput(query: unknown, body: unknown): Input {
  const merged: Input = Object.create(null);
  for (const source of [query, body]) {
    if (source === null || typeof source !== 'object' || Array.isArray(source)) continue;
    for (const [key, value] of Object.entries(source as Input)) merged[key] = normalizeValue(key, value);
  }
  return merged;
}
