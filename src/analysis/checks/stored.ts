// Reading a stored check object for people: its label, its one-line summary, why it matters and
// how to fix it, and which view shows its value and error payload. Shared by the CLI summary and
// the share pages.
//
// Stored reports may come from older versions or be any JSON at all: every part is read through
// the check's schemas (define-check.ts), anything else falls back to a generic line or view, and
// nothing here throws. Counts are exact: what a report lists plus what its `omitted` says it
// left out (bounds.ts).

import { pointerSegment } from '../bounds.js';
import { DEFAULT_CONFIG, type AnalysisConfig } from '../config.js';
import { oneLine } from '../wording.js';
import type { Check, Cuts } from './define-check.js';
import { findCheck } from './index.js';
import type { ViewDescriptor } from './views.js';

type Json = unknown;

function isRecord(v: Json): v is Record<string, Json> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const NO_CUTS: Cuts = { value: () => 0, payload: () => 0 };

function cutsOf(omitted: Json, errorKey: string | null): Cuts {
  if (!isRecord(omitted)) return NO_CUTS;
  const at = (path: string[]) => {
    const pointer = path.map((s) => `/${pointerSegment(s)}`).join('');
    const n = Object.hasOwn(omitted, pointer) ? omitted[pointer] : 0;
    return typeof n === 'number' && Number.isSafeInteger(n) && n > 0 ? n : 0;
  };
  return {
    value: (...path) => at(['value', ...path]),
    payload: (...path) => (errorKey === null ? 0 : at(['errors', errorKey, ...path])),
  };
}

/** Human label for a check name, including names this version does not know. */
export function checkLabel(name: string): string {
  return findCheck(name)?.title ?? name.replaceAll('_', ' ');
}

// A head check that failed because an element closed the head early (docs/checks.md §4.1 "Head").

/** The stored `head_closed_by` made safe (`<iframe>`, or "#text" for text); null when it is anything else. */
function headCloser(errors: Record<string, Json>): string | null {
  const closer = errors.head_closed_by;
  if (closer === '#text') return closer;
  if (typeof closer !== 'string' || !/^<[^<>]+>$/.test(closer)) return null;
  const name = oneLine(closer.slice(1, -1), 24);
  return name === '' ? null : `<${name}>`;
}

/** e.g. "…: an <iframe> closed the head early, so the tag after it counts as body content. Move …" */
function headClosedLine(lead: string, closer: string): string {
  if (closer === '#text') {
    return `${lead}: stray text closed the head early, so the tag after it counts as body content. Move the tag above the text, or remove the text.`;
  }
  const article = /^<[aeiou]/.test(closer) ? 'an' : 'a';
  return `${lead}: ${article} ${closer} closed the head early, so the tag after it counts as body content. Move the tag above the ${closer}, or move the ${closer} into the body.`;
}

/** The parts of a stored check object, read without trusting any of them. */
function partsOf(result: Json) {
  const record = isRecord(result) ? result : null;
  const passed = record !== null && record.passed === true;
  const errors = record !== null && isRecord(record.errors) ? record.errors : null;
  const errorKey = !passed && errors ? (Object.keys(errors)[0] ?? null) : null;
  return { record, passed, errors, errorKey };
}

function lineOf(check: Check | undefined, result: Json, config: AnalysisConfig): string {
  const { record, passed, errors, errorKey } = partsOf(result);
  try {
    const lead = errorKey === 'missing' ? check?.headClosedLead : null;
    const closer = lead ? headCloser(errors!) : null;
    if (lead && closer !== null) return headClosedLine(lead, closer);
    const line = check?.summarise({
      passed,
      value: record?.value,
      errorKey,
      payload: errorKey ? errors![errorKey] : undefined,
      limits: config.limits,
      cuts: cutsOf(record?.omitted, errorKey),
    });
    if (line) return line;
  } catch {
    // fall through to the generic line: a stored report must always render
  }
  return passed ? 'Passed.' : 'Failed.';
}

/**
 * One line (no newline) saying what a stored check object found, e.g. "Title is 81 characters;
 * keep it between 1 and 60." About 140 characters at most, except that a head check whose tag an
 * early-closing element pushed out of the head also says what closed it and how to fix that
 * (up to about 260). Never throws.
 */
export function describeCheck(name: string, result: Json, config: AnalysisConfig = DEFAULT_CONFIG): string {
  return lineOf(findCheck(name), result, config);
}

/** Part of a stored check object to show, with the view that shows it. */
export interface Shown {
  /** The check's view; null for the generic view of any JSON. */
  view: ViewDescriptor | null;
  /** For the generic view: what the part is. */
  caption: string;
  data: Json;
  /** Its JSON Pointer within the check object, where `omitted` counts what the report cut. */
  pointer: string;
}

export interface StoredCheck {
  /** Whether this version knows the check. */
  known: boolean;
  label: string;
  passed: boolean;
  line: string;
  why: string | null;
  fix: string | null;
  value: Shown;
  /** The failure's payload; null when there is nothing to show beyond the line. */
  error: Shown | null;
  /** The stored `omitted`, when it is an object. */
  omitted: Record<string, Json> | null;
}

/** Everything the share page shows of one stored check object. Never throws. */
export function readStoredCheck(name: string, result: Json, config: AnalysisConfig = DEFAULT_CONFIG): StoredCheck {
  const check = findCheck(name);
  const { record, passed, errors } = partsOf(result);
  const value = record?.value;
  let error: Shown | null = null;
  if (record?.passed !== true && errors !== null) {
    const [key] = Object.keys(errors);
    const payload = key === undefined ? null : errors[key];
    // Limits ({"max": "150"}) are stated by the line.
    const isLimit = isRecord(payload) && Object.keys(payload).every((k) => k === 'min' || k === 'max');
    const view = key === undefined ? null : check === undefined ? undefined : check.errorView(key, payload);
    if (!isLimit && key !== undefined && view !== null) {
      error = { view: view ?? null, caption: 'Details', data: payload, pointer: `/errors/${pointerSegment(key)}` };
    }
  }
  return {
    known: check !== undefined,
    label: check?.title ?? checkLabel(name),
    passed,
    line: lineOf(check, result, config),
    why: check?.why ?? null,
    fix: check?.fix ?? null,
    value: { view: check?.valueView(value) ?? null, caption: 'Value', data: value, pointer: '/value' },
    error,
    omitted: record !== null && isRecord(record.omitted) ? record.omitted : null,
  };
}
