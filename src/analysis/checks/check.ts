// The shape every check module exports, and the one place a CheckResult is assembled, so key
// order (`passed, importance, value, errors`) and "exactly one error key" hold for all 33 (the one
// addition: a head check's `head_closed_by`, after the main key; checks.md §4.1 "Head").

import type { Artifacts } from '../artifacts.js';
import type { AnalysisConfig } from '../config.js';
import type { CheckName, CheckResult, Importance, PageSnapshot } from '../types.js';

export interface CheckContext {
  snapshot: PageSnapshot;
  artifacts: Artifacts;
  config: AnalysisConfig;
}

/** What a check measured: its value, and on failure the single most important error. */
export interface Outcome {
  value: unknown;
  failure?: { key: string; payload: unknown; headClosedBy?: string };
}

export interface Check {
  name: CheckName;
  importance: Importance;
  run(ctx: CheckContext): CheckResult;
}

export function defineCheck(name: CheckName, importance: Importance, measure: (ctx: CheckContext) => Outcome): Check {
  return {
    name,
    importance,
    run(ctx) {
      const { value, failure } = measure(ctx);
      if (failure === undefined) return { passed: true, importance, value };
      const errors: Record<string, unknown> = { [failure.key]: failure.payload };
      if (failure.headClosedBy !== undefined) errors.head_closed_by = failure.headClosedBy;
      return { passed: false, importance, value, errors };
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
