// A check is one module holding everything about it, as a Lighthouse audit does: its id,
// importance, title, why it matters and how to fix it, its run over the artifacts, the one line
// that summarises a stored result, and how its value and error payload are shown. `defineCheck`
// takes all of these, typed by the schemas of its value and error payloads: a check with a
// piece missing, a run returning the wrong shape, or a view that cannot show its value does not
// compile.
//
// It is also the one place a CheckResult is assembled, so key order (`passed, importance, value,
// errors[, omitted]`), "exactly one error key" (the one addition: a head check's
// `head_closed_by`, after the main key; docs/checks.md §4.1 "Head") and the caps on what a check
// object holds (bounds.ts) hold for every check.
//
// Stored reports may be any JSON (older versions, hand-edited rows): before the typed summary or
// view sees a stored value or payload, it is checked against its schema (`Value.Check`); one
// that does not match reaches the summary as `undefined` and is shown by the generic view.

import type { Static, TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import type { Artifacts } from '../artifacts/index.js';
import { boundCheck } from '../bounds.js';
import type { AnalysisConfig } from '../config.js';
import { capsFor, type Measured } from '../size-budget.js';
import type { CheckResult, Importance, PageSnapshot } from '../types.js';
import type { ViewDescriptor, ViewFor } from './views.js';

export interface CheckContext {
  snapshot: PageSnapshot;
  artifacts: Artifacts;
  config: AnalysisConfig;
}

/** A check's error keys and the schema of each one's payload. */
export type ErrorSchemas = Record<string, TSchema>;

/** The one error of a failed check: its key and payload (and, for a head check, what closed the head). */
export type Failure<E extends ErrorSchemas> = {
  [K in keyof E & string]: { key: K; payload: Static<E[K]>; headClosedBy?: string };
}[keyof E & string];

/**
 * What a check measured: its value, and on failure the single most important error, both in
 * full (the report's caps are applied afterwards, the same way for every check).
 */
export interface Outcome<V, E extends ErrorSchemas> {
  value: V;
  failure?: Failure<E>;
  /** A configured sample size: lists keep at most this many items, the rest counted in `omitted`. */
  maxItems?: number;
}

/**
 * What the report left out, from its `omitted`: the number of items or entries cut from the
 * list or object at a path below the value (`value('Internals')`) or the error payload.
 */
export interface Cuts {
  value(...path: string[]): number;
  payload(...path: string[]): number;
}

export type Limits = AnalysisConfig['limits'];

/** A stored failure: the payload is undefined when it does not match its key's schema. */
export type StoredFailure<E extends ErrorSchemas> = {
  [K in keyof E & string]: { key: K; payload: Static<E[K]> | undefined };
}[keyof E & string];

/** A stored check object as its summary reads it. */
export interface Reading<V, E extends ErrorSchemas> {
  passed: boolean;
  /** The stored value, or undefined when it does not match the value's schema. */
  value: V | undefined;
  /** The failure, or null when the check passed or its error key is not one of this check's. */
  failure: StoredFailure<E> | null;
  /** The configured limits: a failure states the ones stored with it, a pass the current ones. */
  limits: Limits;
  cuts: Cuts;
}

export interface CheckDefinition<N extends string, VS extends TSchema, E extends ErrorSchemas> {
  /** The key in `results` (snake_case). */
  name: N;
  /**
   * Where the check stands in every `results` object: the report lists checks by ascending
   * position (docs/checks.md §5 has the table). Spaced by 10, so a new check fits between two.
   */
  position: number;
  importance: Importance;
  /** Human label, e.g. "Title tag". */
  title: string;
  /** One sentence on why the check matters. */
  why: string;
  /** One or two sentences on how to fix a failure. */
  fix: string;
  /** The schema of the value. */
  value: VS;
  /** Each error key with the schema of its payload. */
  errors: E;
  run(ctx: CheckContext): Outcome<Static<VS>, E>;
  /**
   * One line (no newline, about 140 characters at most) saying what a stored result found, e.g.
   * "Title is 81 characters; keep it between 1 and 60."; null when the parts it needs are not
   * there (the reader then says "Passed." or "Failed.").
   */
  describe(reading: Reading<Static<VS>, E>): string | null;
  view: {
    value: ViewFor<Static<VS>>;
    /** How the failure's payload is shown; null when no payload holds more than the line says. */
    error: ViewFor<Static<E[keyof E]>> | null;
  };
  /**
   * For a head check: how its `missing` line starts when `errors.head_closed_by` names the element
   * that closed the head early, e.g. "No title tag in the head" (docs/checks.md §4.1 "Head").
   */
  headClosedLead?: string;
}

/** A stored check object's parts, as read (stored.ts); every one may be any JSON. */
export interface StoredParts {
  passed: boolean;
  value: unknown;
  errorKey: string | null;
  payload: unknown;
  limits: Limits;
  cuts: Cuts;
}

/** A defined check, as the engine runs it and as stored reports are read through it. */
export interface Check<N extends string = string> {
  readonly name: N;
  readonly position: number;
  readonly importance: Importance;
  /** The keys `errors` may hold (besides a head check's `head_closed_by`). */
  readonly errorKeys: readonly string[];
  readonly title: string;
  readonly why: string;
  readonly fix: string;
  readonly headClosedLead: string | null;
  /** The full, uncut check object (for runChecks, which fits them all into the size budget). */
  measure(ctx: CheckContext): Measured<N>;
  /** The check object as a report stores it on its own: cut to REPORT_CAPS. */
  run(ctx: CheckContext): CheckResult;
  /** The one-line summary of a stored result; null when not understood. */
  summarise(stored: StoredParts): string | null;
  /** How a stored value is shown; undefined when it does not match the value's schema. */
  valueView(value: unknown): ViewDescriptor | undefined;
  /** How a stored payload is shown: null when this check shows none; undefined when key or payload is not this check's. */
  errorView(key: string, payload: unknown): ViewDescriptor | null | undefined;
}

export function defineCheck<N extends string, VS extends TSchema, E extends ErrorSchemas>(
  def: CheckDefinition<N, VS, E>,
): Check<N> {
  const { name, position, importance } = def;
  const measure = (ctx: CheckContext): Measured<N> => {
    const { value, failure, maxItems } = def.run(ctx);
    const result: CheckResult = { passed: failure === undefined, importance, value };
    if (failure !== undefined) {
      result.errors = { [failure.key]: failure.payload };
      if (failure.headClosedBy !== undefined) result.errors.head_closed_by = failure.headClosedBy;
    }
    return maxItems === undefined ? { name, result } : { name, result, maxItems };
  };
  const isErrorKey = (key: string | null): key is keyof E & string => key !== null && Object.hasOwn(def.errors, key);
  const payloadMatches = (key: keyof E & string, payload: unknown) => Value.Check(def.errors[key], payload);
  return {
    name,
    position,
    importance,
    errorKeys: Object.keys(def.errors),
    title: def.title,
    why: def.why,
    fix: def.fix,
    headClosedLead: def.headClosedLead ?? null,
    measure,
    run(ctx) {
      const { result, maxItems } = measure(ctx);
      return boundCheck(result, capsFor(0, maxItems)).result;
    },
    summarise({ passed, value, errorKey, payload, limits, cuts }) {
      const failure =
        !passed && isErrorKey(errorKey)
          ? ({ key: errorKey, payload: payloadMatches(errorKey, payload) ? payload : undefined } as StoredFailure<E>)
          : null;
      const typed = Value.Check(def.value, value) ? (value as Static<VS>) : undefined;
      return def.describe({ passed, value: typed, failure, limits, cuts });
    },
    valueView: (value) => (Value.Check(def.value, value) ? def.view.value : undefined),
    errorView(key, payload) {
      if (def.view.error === null) return null;
      return isErrorKey(key) && payloadMatches(key, payload) ? def.view.error : undefined;
    },
  };
}

/** The failure of `key` with its payload; `headClosedBy` (see head-closed.ts): undefined leaves it out. */
export function fail<K extends string, P>(
  key: K,
  payload: P,
  headClosedBy?: string,
): { key: K; payload: P; headClosedBy?: string } {
  return headClosedBy === undefined ? { key, payload } : { key, payload, headClosedBy };
}

/** A grouped value: only the non-empty groups, in the given order; `[]` when there are none. */
export function grouped<T>(groups: [string, T[]][]): Record<string, T[]> | [] {
  const present = groups.filter(([, items]) => items.length > 0);
  return present.length === 0 ? [] : Object.fromEntries(present);
}

/** Limits travel as strings, as the original sends them from its settings table (§1). */
export function limit(n: number): string {
  return String(n);
}
