// The body of POST /api/event: Plausible's Events API, with long or short keys, read the way
// Plausible's own trackers send it (plausible-tracker, @plausible-analytics/tracker, the script
// tag) so that they work unchanged: `w` is their window width, never a website id; props come
// as an object or a JSON string; `h`, `$`, `i: false` (interactive) and their other keys are
// accepted. Parsing never throws: a malformed body gives field errors for the 400. Every text
// read has its NUL characters removed first (storableText): an anonymous event is cleaned, never
// refused for them, and validation and the website lookup see the text that will be stored.
import type { FieldErrors } from '../http/errors.js';
import { storableText } from '../model/text.js';

export const MAX_EVENT_BODY = 8 * 1024;
const MAX_NAME = 120;
const MAX_URL = 2048;
const MAX_PROPS = 30;
export const MAX_PROP_KEY = 64;
const MAX_PROP_VALUE = 512;

export interface EventInput {
  name: string;
  url: URL;
  /** The listed domains (Plausible's rollups send several, comma-separated), lower-cased, each once. */
  domains: string[];
  website: number | null;
  referrer: string | null;
  props: Record<string, string | number> | null;
  screenWidth: number | null;
  screenHeight: number | null;
  language: string | null;
  /** Plausible's `h`: the page uses hash routing, so the URL's fragment is part of the page. */
  hashRouting: boolean;
}

export type ParsedEvent = { ok: true; event: EventInput } | { ok: false; errors: FieldErrors };

/**
 * Each field's keys, the first one present wins. `m` is the props key of Plausible's older
 * script ("meta"); `w` is the window width Plausible's trackers send.
 */
const KEYS = {
  name: ['name', 'n'],
  url: ['url', 'u'],
  domain: ['domain', 'd'],
  website: ['website', 'i'],
  referrer: ['referrer', 'r'],
  props: ['props', 'p', 'm'],
  screen_width: ['screen_width', 'sw', 'w'],
  screen_height: ['screen_height', 'sh'],
  language: ['language', 'l'],
} as const;

type Field = keyof typeof KEYS;

/** Every key the body is read by: the fields' keys, `h`, and revenue (accepted, not read). */
export const EVENT_BODY_KEYS: readonly string[] = [...Object.values(KEYS).flat(), 'h', 'revenue', '$'];

/** `text`: the raw body (JSON sent as application/json or, by sendBeacon, text/plain). */
export function parseEventBody(text: string): ParsedEvent {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { ok: false, errors: { body: ['The body must be a JSON object.'] } };
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { ok: false, errors: { body: ['The body must be a JSON object.'] } };
  }
  const source = body as Record<string, unknown>;
  const errors: FieldErrors = {};
  const fail = (field: Field, message: string) => {
    errors[field] ??= [];
    errors[field].push(message);
  };
  const read = (field: Field, keys: readonly string[] = KEYS[field]): unknown => {
    for (const key of keys) {
      const value = source[key];
      // `i: false` is @plausible-analytics/tracker's "not interactive" flag, not a website id.
      if (value === undefined || value === null || (key === 'i' && typeof value === 'boolean')) continue;
      return typeof value === 'string' ? storableText(value) : value;
    }
    return undefined;
  };
  const text_ = (field: Field, max: number, required = false): string | null => {
    const value = read(field);
    if (value === undefined || value === '') {
      if (required) fail(field, `The ${field} field is required.`);
      return null;
    }
    if (typeof value !== 'string') {
      fail(field, `The ${field} must be a string.`);
      return null;
    }
    if (value.length > max) {
      fail(field, `The ${field} must not be greater than ${max} characters.`);
      return null;
    }
    return value;
  };
  const integer = (field: Field, min: number, max: number, value = read(field)): number | null => {
    if (value === undefined || value === '') return null;
    const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < min || n > max) {
      fail(field, `The ${field} must be an integer between ${min} and ${max}.`);
      return null;
    }
    return n;
  };

  const name = text_('name', MAX_NAME, true);
  const rawUrl = text_('url', MAX_URL, true);
  let url: URL | null = null;
  if (rawUrl !== null) {
    url = parseUrl(rawUrl);
    if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') {
      fail('url', 'The url must be an absolute http or https URL.');
      url = null;
    }
  }
  const domain = text_('domain', 255);
  // Rankscope's tracker sent the website id as `w` (a string, beside `sw`) before it moved to
  // `i`; a copy of it cached by a browser (a day at most) is still read that way. Plausible's
  // trackers never send `sw`, and send `w` as a number.
  const legacy =
    source.i === undefined && source.website === undefined && source.sw !== undefined && typeof source.w === 'string';
  const website = integer('website', 1, 2 ** 31 - 1, read('website', legacy ? ['w'] : KEYS.website));
  const referrer = text_('referrer', MAX_URL);
  // 0 is a width a page can report (a hidden frame): unknown, not an error.
  const screenWidth =
    integer('screen_width', 0, 100_000, read('screen_width', legacy ? ['screen_width', 'sw'] : KEYS.screen_width)) || null;
  const screenHeight = integer('screen_height', 0, 100_000) || null;
  const language = text_('language', 35);
  if (language !== null && !/^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/.test(language)) {
    fail('language', 'The language must be a language tag such as en-US.');
  }
  const props = readProps(read('props'), (message) => fail('props', message));

  // `revenue`|`$` (Plausible's revenue goals) is accepted and not read: nothing stores it.

  if (Object.keys(errors).length > 0 || name === null || url === null) return { ok: false, errors };
  return {
    ok: true,
    event: {
      name,
      url,
      domains: domain === null ? [] : domainList(domain),
      website,
      referrer,
      props,
      screenWidth,
      screenHeight,
      language: language === null ? null : canonicalLanguage(language),
      hashRouting: source.h === 1 || source.h === true || source.h === '1',
    },
  };
}

/** `a.com, B.com,a.com` → ['a.com', 'b.com']: Plausible's rollups list several domains. */
function domainList(text: string): string[] {
  const domains = new Set<string>();
  for (const part of text.split(',')) {
    const domain = part.trim().toLowerCase();
    if (domain !== '') domains.add(domain);
  }
  return [...domains];
}

/**
 * Custom properties: an object, or a JSON string of one (Plausible's trackers send that, as `p`
 * or the older `m`), of at most MAX_PROPS entries. Strings and numbers are kept, booleans as
 * `true`/`false`; any other value (null, an object, a list) and an empty string are dropped
 * alone, never the event. A string over MAX_PROP_VALUE characters is cut (an outbound link's
 * long URL still counts).
 */
function readProps(value: unknown, fail: (message: string) => void): Record<string, string | number> | null {
  if (value === undefined) return null;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      fail('The props must be an object or a JSON string of one.');
      return null;
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    fail('The props must be an object or a JSON string of one.');
    return null;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length > MAX_PROPS) {
    fail(`The props must not have more than ${MAX_PROPS} items.`);
    return null;
  }
  const props: Record<string, string | number> = {};
  for (const [sent, v] of entries) {
    const key = storableText(sent);
    if (key.length > MAX_PROP_KEY || (key.length === 0 && sent.length === 0)) {
      fail(`The props keys must be 1 to ${MAX_PROP_KEY} characters.`);
      return null;
    }
    if (key.length === 0) continue; // a key of NULs only: that prop alone is dropped
    if (typeof v === 'number')
      props[key] = v; // JSON has no NaN or Infinity
    else if (typeof v === 'boolean') props[key] = String(v);
    else if (typeof v === 'string') {
      const text = cut(storableText(v), MAX_PROP_VALUE);
      if (text !== '') props[key] = text;
    }
  }
  return Object.keys(props).length === 0 ? null : props;
}

/** The first `max` UTF-16 units of `text`, never half of a surrogate pair. */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}

/** `en-us` → `en-US`, `EN` → `en`: the form browsers report. */
function canonicalLanguage(tag: string): string {
  const [primary, ...rest] = tag.split('-');
  return [primary.toLowerCase(), ...rest.map((part) => (part.length === 2 ? part.toUpperCase() : part.toLowerCase()))].join('-');
}

/** new URL(text), or null: one parse (URL.canParse then new URL parsed twice). */
export function parseUrl(text: string): URL | null {
  try {
    return new URL(text);
  } catch {
    return null;
  }
}
