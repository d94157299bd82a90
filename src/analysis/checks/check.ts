// The shape every check module exports, and the one place a CheckResult is assembled, so key
// order (`passed, importance, value, errors[, omitted]`), "exactly one error key" (the one
// addition: a head check's `head_closed_by`, after the main key; checks.md §4.1 "Head") and the
// caps on what a check object holds (bounds.ts) hold for all 33.

import type { Artifacts } from '../artifacts.js';
import { boundCheck } from '../bounds.js';
import type { AnalysisConfig } from '../config.js';
import { capsFor, type Measured } from '../size-budget.js';
import type { CheckName, CheckResult, Importance, PageSnapshot } from '../types.js';

export interface CheckContext {
  snapshot: PageSnapshot;
  artifacts: Artifacts;
  config: AnalysisConfig;
}

/**
 * What a check measured: its value, and on failure the single most important error, both in
 * full (the report's caps are applied afterwards, the same way for every check).
 */
export interface Outcome {
  value: unknown;
  failure?: { key: string; payload: unknown; headClosedBy?: string };
  /** A configured sample size: lists keep at most this many items, the rest counted in `omitted`. */
  maxItems?: number;
}

export interface Check {
  name: CheckName;
  importance: Importance;
  /** The full, uncut check object (for runChecks, which fits all 33 into the size budget). */
  measure(ctx: CheckContext): Measured;
  /** The check object as a report stores it on its own: cut to REPORT_CAPS. */
  run(ctx: CheckContext): CheckResult;
}

export function defineCheck(name: CheckName, importance: Importance, measure: (ctx: CheckContext) => Outcome): Check {
  const full = (ctx: CheckContext): Measured => {
    const { value, failure, maxItems } = measure(ctx);
    const result: CheckResult = { passed: failure === undefined, importance, value };
    if (failure !== undefined) {
      result.errors = { [failure.key]: failure.payload };
      if (failure.headClosedBy !== undefined) result.errors.head_closed_by = failure.headClosedBy;
    }
    return maxItems === undefined ? { name, result } : { name, result, maxItems };
  };
  return {
    name,
    importance,
    measure: full,
    run(ctx) {
      const { result, maxItems } = full(ctx);
      return boundCheck(result, capsFor(0, maxItems)).result;
    },
  };
}

/** `headClosedBy`: see head-closed.ts; undefined leaves it out. */
export function fail(key: string, payload: unknown = null, headClosedBy?: string): Outcome['failure'] {
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
