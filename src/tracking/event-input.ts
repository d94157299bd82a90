// The body of POST /api/event: Plausible's Events API, with long or short keys. Parsing never
// throws: a malformed body gives field errors for the 400. Every text read has its NUL
// characters removed first (storableText): an anonymous event is cleaned, never refused for
// them, and validation and the website lookup see the text that will be stored.
import type { FieldErrors } from '../api/errors.js';
import { storableText } from '../db/text.js';

export const MAX_EVENT_BODY = 8 * 1024;
const MAX_NAME = 120;
const MAX_URL = 2048;
const MAX_PROPS = 30;
const MAX_PROP_KEY = 64;
const MAX_PROP_VALUE = 512;

export interface EventInput {
  name: string;
  url: URL;
  domain: string | null;
  website: number | null;
  referrer: string | null;
  props: Record<string, string | number> | null;
  screenWidth: number | null;
  screenHeight: number | null;
  language: string | null;
}

export type ParsedEvent = { ok: true; event: EventInput } | { ok: false; errors: FieldErrors };

const KEYS = {
  name: ['name', 'n'],
  url: ['url', 'u'],
  domain: ['domain', 'd'],
  website: ['website', 'w'],
  referrer: ['referrer', 'r'],
  props: ['props', 'p'],
  screen_width: ['screen_width', 'sw'],
  screen_height: ['screen_height', 'sh'],
  language: ['language', 'l'],
} as const;

type Field = keyof typeof KEYS;

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
  const read = (field: Field): unknown => {
    for (const key of KEYS[field]) {
      const value = source[key];
      if (value !== undefined && value !== null) return typeof value === 'string' ? storableText(value) : value;
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
  const integer = (field: Field, min: number, max: number): number | null => {
    const value = read(field);
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
  const website = integer('website', 1, 2 ** 31 - 1);
  const referrer = text_('referrer', MAX_URL);
  const screenWidth = integer('screen_width', 1, 100_000);
  const screenHeight = integer('screen_height', 1, 100_000);
  const language = text_('language', 35);
  if (language !== null && !/^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/.test(language)) {
    fail('language', 'The language must be a language tag such as en-US.');
  }
  const props = readProps(read('props'), (message) => fail('props', message));

  if (Object.keys(errors).length > 0 || name === null || url === null) return { ok: false, errors };
  return {
    ok: true,
    event: {
      name,
      url,
      domain: domain?.trim().toLowerCase() || null,
      website,
      referrer,
      props,
      screenWidth,
      screenHeight,
      language: language === null ? null : canonicalLanguage(language),
    },
  };
}

/** `{props: {…}}` (Plausible's form) or the props themselves: at most 30 string or number values. */
function readProps(value: unknown, fail: (message: string) => void): Record<string, string | number> | null {
  if (value === undefined) return null;
  if (typeof value === 'string') {
    // Plausible's script sends props as a JSON string.
    try {
      value = JSON.parse(value);
    } catch {
      fail('The props must be an object.');
      return null;
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    fail('The props must be an object.');
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
    if (typeof v === 'number' && Number.isFinite(v)) props[key] = v;
    else if (typeof v === 'string' && v.length <= MAX_PROP_VALUE) props[key] = storableText(v);
    else {
      fail(`The props values must be strings of at most ${MAX_PROP_VALUE} characters or numbers.`);
      return null;
    }
  }
  return Object.keys(props).length === 0 ? null : props;
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
