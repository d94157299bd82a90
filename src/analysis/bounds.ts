// Caps on what one check object may hold, so a hostile page cannot make a huge report: lists
// and object entries keep their first items, strings their first code points, nesting its
// first levels. Checks decide on the full data; only what is stored and shown is cut, and the
// check object says what was cut: `omitted` maps the JSON Pointer (RFC 6901) of each cut list
// or object, within the check object, to the number of items or entries left out, so listed +
// omitted is always the exact count.
//
//   {"passed": false, "importance": "medium", "value": {"Internals": [… 1,000 links]},
//    "errors": {"too_many": {"max": "150"}}, "omitted": {"/value/Internals": 99000}}
//
// A cut string keeps its first `chars` code points and ends in "…" (not counted in `omitted`).
// A container nested deeper than `depth` becomes an empty one of the same kind ([] or {}),
// with all its items counted in `omitted`: the reader still sees what was there, and how much.
// A check object with nothing cut is returned as it is, without an `omitted` key.

import type { CheckResult } from './types.js';

export interface Caps {
  /** Items kept per list, entries per object. */
  items: number;
  /** Code points kept per string (and per object key) before the "…". */
  chars: number;
  /** Levels of lists and objects kept; the root of `value` (or of an error payload) is level 1. */
  depth: number;
}

/**
 * What every stored check object is cut to. 2,048 code points hold any URL the service accepts
 * (it refuses longer ones) and any real title, heading or link text; 1,000 items hold every list
 * of corpus A (the longest: 537 links) and are 6 times the in_page_links limit, so lists that
 * fail a limit still show all a person would read; 32 levels hold any real JSON-LD (corpus A's
 * deepest value is 8 levels).
 */
export const REPORT_CAPS: Readonly<Caps> = Object.freeze({ items: 1000, chars: 2048, depth: 32 });

export const ELLIPSIS = '…';

/** `~` and `/` escaped as RFC 6901 says. */
export function pointerSegment(key: string | number): string {
  const s = String(key);
  return s.includes('~') || s.includes('/') ? s.replaceAll('~', '~0').replaceAll('/', '~1') : s;
}

/** The first `max` code points of `s` (a surrogate pair is never split). */
export function firstCodePoints(s: string, max: number): string {
  if (s.length <= max) return s; // code points ≤ UTF-16 units
  let units = 0;
  for (let points = 0; points < max && units < s.length; points++) {
    const c = s.charCodeAt(units);
    units += c >= 0xd800 && c <= 0xdbff && (s.charCodeAt(units + 1) & 0xfc00) === 0xdc00 ? 2 : 1;
  }
  return units >= s.length ? s : s.slice(0, units);
}

/** `s` cut to its first `max` code points plus "…"; `s` itself when it is not longer. */
export function cutString(s: string, max: number): string {
  const kept = firstCodePoints(s, max);
  return kept === s ? s : kept + ELLIPSIS;
}

/** Whether a string as read back was cut by these caps ("…" after more than `chars` code points). */
export function wasCut(s: string, caps: Caps = REPORT_CAPS): boolean {
  return s.length > caps.chars && s.endsWith(ELLIPSIS) && [...s].length === caps.chars + 1;
}

/** Longest JSON text of a number (e.g. -1.2345678901234567e-308). */
const MAX_NUMBER_BYTES = 24;
/** The check object's own keys and punctuation, `omitted` aside. */
const CHECK_OBJECT_BYTES = 96;

/**
 * An upper bound on the bytes of `s` as JSON: 6 per UTF-16 unit, the most any takes (\u001f, or
 * a lone surrogate as \udXXX). Loose, but free: real reports stay far below the budget with it,
 * and only reports near the budget are serialised to be measured exactly (size-budget.ts).
 */
function jsonStringBytes(s: string): number {
  return 6 * s.length + 2;
}

class Bounder {
  omitted: Record<string, number> | null = null;
  /** An upper bound on the UTF-8 bytes of the JSON of what was kept (see boundCheck). */
  bytes = CHECK_OBJECT_BYTES;
  private readonly path: (string | number)[] = [];

  constructor(private readonly caps: Caps) {}

  /** An error payload: its pointer is /errors/<key>. */
  payload(v: unknown, key: string): unknown {
    this.path.push('errors');
    const out = this.child(v, key, 1);
    this.path.pop();
    return out;
  }

  /** `v` at `segment` below the current path (the path only matters to lists and objects). */
  child(v: unknown, segment: string | number, depth: number): unknown {
    if (typeof v === 'string') return this.string(v);
    if (v === null || typeof v !== 'object') {
      this.bytes += MAX_NUMBER_BYTES;
      return v;
    }
    this.path.push(segment);
    const out = Array.isArray(v) ? this.list(v, depth) : this.object(v as Record<string, unknown>, depth);
    this.path.pop();
    return out;
  }

  private string(s: string): string {
    const kept = cutString(s, this.caps.chars);
    this.bytes += jsonStringBytes(kept);
    return kept;
  }

  private list(v: unknown[], depth: number): unknown[] {
    const keep = depth > this.caps.depth ? 0 : Math.min(v.length, this.caps.items);
    if (keep < v.length) this.record(v.length - keep);
    let out: unknown[] | null = keep < v.length ? [] : null;
    for (let i = 0; i < keep; i++) {
      const item = this.child(v[i], i, depth + 1);
      if (out === null && item !== v[i]) out = v.slice(0, i);
      out?.push(item);
    }
    this.bytes += 2 + keep;
    return out ?? v;
  }

  private object(v: Record<string, unknown>, depth: number): Record<string, unknown> {
    const keys = Object.keys(v);
    const room = depth > this.caps.depth ? 0 : this.caps.items;
    // Copied on the first change; until then no entry was left out, so `kept` equals `i`.
    let out: Record<string, unknown> | null = null;
    let kept = 0;
    // Recorded before the entries, so `omitted` lists a container before what is inside it.
    const pointer = keys.length > room ? this.record(keys.length - room) : null;
    for (let i = 0; i < keys.length && kept < room; i++) {
      const raw = keys[i];
      const key = cutString(raw, this.caps.chars);
      if (key !== raw) out ??= copyEntries(v, keys, i);
      // A cut key may equal a key kept before it: the later entry is left out.
      if (out !== null && Object.hasOwn(out, key)) continue;
      const item = this.child(v[raw], key, depth + 1);
      if (out === null && item !== v[raw]) out = copyEntries(v, keys, i);
      if (out !== null) setEntry(out, key, item);
      kept++;
      this.bytes += jsonStringBytes(key) + 2;
    }
    if (kept < keys.length) {
      if (pointer === null) this.record(keys.length - kept);
      else this.omitted![pointer] = keys.length - kept;
      out ??= copyEntries(v, keys, kept);
    }
    this.bytes += 2;
    return out ?? v;
  }

  /** Counts `left` items out of the container at the current path; returns its pointer. */
  private record(left: number): string {
    const pointer = this.path.map((s) => `/${pointerSegment(s)}`).join('');
    this.omitted ??= {};
    this.omitted[pointer] = left;
    this.bytes += jsonStringBytes(pointer) + 2 + MAX_NUMBER_BYTES;
    return pointer;
  }
}

/** A fresh object holding the first `n` entries of `v`. */
function copyEntries(v: Record<string, unknown>, keys: string[], n: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (let i = 0; i < n; i++) setEntry(out, keys[i], v[keys[i]]);
  return out;
}

/** Plain assignment, except for a "__proto__" key (JSON-LD may have one), which it would not create. */
function setEntry(out: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  else out[key] = value;
}

export interface Bounded {
  result: CheckResult;
  /** An upper bound on the UTF-8 bytes of `JSON.stringify(result)`, cheap to compute on the way. */
  maxBytes: number;
}

/**
 * The check object cut to `caps`, with `omitted` (after `errors`) when anything of a list or an
 * object was cut. `errors` keeps its one key: only its payload is cut.
 */
export function boundCheck(check: CheckResult, caps: Caps = REPORT_CAPS): Bounded {
  const b = new Bounder(caps);
  const value = b.child(check.value, 'value', 1);
  let errors = check.errors;
  if (errors !== undefined) {
    let changed = false;
    const bounded: Record<string, unknown> = {};
    for (const key of Object.keys(errors)) {
      bounded[key] = b.payload(errors[key], key);
      changed ||= bounded[key] !== errors[key];
      b.bytes += jsonStringBytes(key) + 2;
    }
    if (changed) errors = bounded;
  }
  if (b.omitted === null && value === check.value && errors === check.errors) return { result: check, maxBytes: b.bytes };
  const result: CheckResult = { passed: check.passed, importance: check.importance, value };
  if (errors !== undefined) result.errors = errors;
  if (b.omitted !== null) result.omitted = b.omitted;
  return { result, maxBytes: b.bytes };
}
