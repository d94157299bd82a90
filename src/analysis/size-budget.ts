// The size budget of a report's `results`: after every check object is cut to REPORT_CAPS,
// the serialised results must still fit RESULTS_BUDGET_BYTES. When they do not, the largest
// check object is cut again with the next, smaller caps, and so on until they fit. Each cut
// starts from the check's full result, so `omitted` stays exact whatever the level.

import { boundCheck, REPORT_CAPS, type Caps } from './bounds.js';
import type { CheckResult } from './types.js';

/**
 * 1 MiB: a page with 100,000 links stores well under 2 MB, a list of 100 reports stays in the
 * tens of megabytes at worst, and real reports are far below it (corpus A's largest is 79 KB).
 */
export const RESULTS_BUDGET_BYTES = 1024 * 1024;

/**
 * Successively smaller caps. The last keeps no item and no character: a check object is then a
 * couple of hundred bytes at most, so all the checks fit any budget above about 10 KB. Small checks
 * (a title, a limit) are never cut below REPORT_CAPS: 33 of them at their largest (about 12 KB
 * each) fit the budget, so a check of that size is never the largest one while the budget is exceeded.
 */
export const SHRINK_LEVELS: readonly Readonly<Caps>[] = [
  REPORT_CAPS,
  { items: 200, chars: 1024, depth: 16 },
  { items: 50, chars: 256, depth: 8 },
  { items: 10, chars: 64, depth: 4 },
  { items: 0, chars: 0, depth: 0 },
];

/** A check's full result, and the most items it lists per list (a configured sample), if any. */
export interface Measured<N extends string = string> {
  name: N;
  result: CheckResult;
  maxItems?: number;
}

export function capsFor(level: number, maxItems?: number): Caps {
  const caps = SHRINK_LEVELS[level];
  return maxItems === undefined || maxItems >= caps.items ? caps : { ...caps, items: maxItems };
}

function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value));
}

/** The bounded check objects, keyed by name in the given order, within `budget` bytes of JSON. */
export function fitResults<N extends string>(
  measured: readonly Measured<N>[],
  budget: number = RESULTS_BUDGET_BYTES,
): Record<N, CheckResult> {
  const levels = measured.map(() => 0);
  const bounded = measured.map((m) => boundCheck(m.result, capsFor(0, m.maxItems)));
  // `{"name":…,…}` around the check objects.
  const frame = 2 + measured.reduce((n, m) => n + jsonBytes(m.name) + 1, 0) + Math.max(0, measured.length - 1);
  // The usual case: an upper bound computed on the way shows the results fit; nothing is serialised.
  if (frame + bounded.reduce((n, b) => n + b.maxBytes, 0) > budget) {
    const sizes = bounded.map((b) => jsonBytes(b.result));
    let total = frame + sizes.reduce((n, s) => n + s, 0);
    while (total > budget) {
      let largest = -1;
      for (let i = 0; i < measured.length; i++) {
        if (levels[i] < SHRINK_LEVELS.length - 1 && (largest === -1 || sizes[i] > sizes[largest])) largest = i;
      }
      if (largest === -1) break; // every check at the last level: only a budget of a few KB gets here
      const m = measured[largest];
      bounded[largest] = boundCheck(m.result, capsFor(++levels[largest], m.maxItems));
      const size = jsonBytes(bounded[largest].result);
      total += size - sizes[largest];
      sizes[largest] = size;
    }
  }
  const results = {} as Record<N, CheckResult>;
  for (const [i, m] of measured.entries()) results[m.name] = bounded[i].result;
  return results;
}
