// The registry: every check module in this folder (registry.generated.ts, written by
// scripts/check-registry.mjs), in report order. Adding a check is adding its module, with
// defineCheck (title.ts is a small one to copy) and a `position`: nothing here is edited.

import type { Check } from './define-check.js';
import { CHECK_MODULES } from './registry.generated.js';

export type { Check, CheckContext } from './define-check.js';

/** The name of every check, a key of `results`. */
export type CheckName = (typeof CHECK_MODULES)[number]['name'];

/** Checks in report order: by ascending position. Two checks at one position or with one name are a mistake, refused. */
export function inReportOrder<C extends Check>(checks: readonly C[]): readonly C[] {
  const ordered = [...checks].sort((a, b) => a.position - b.position);
  for (const [i, check] of ordered.entries()) {
    const before = ordered[i - 1];
    if (before?.position === check.position) {
      throw new Error(`checks ${before.name} and ${check.name} are both at position ${check.position}`);
    }
    if (ordered.findIndex((c) => c.name === check.name) !== i) throw new Error(`two checks are named ${check.name}`);
  }
  return ordered;
}

export const CHECKS: readonly Check<CheckName>[] = inReportOrder<Check<CheckName>>(CHECK_MODULES);

/** The checks' names in report order: the keys of every `results` object. */
export const CHECK_NAMES: readonly CheckName[] = CHECKS.map((check) => check.name);

const BY_NAME = new Map<string, Check<CheckName>>(CHECKS.map((check) => [check.name, check]));

/** The check of that name; undefined for names this version does not know (stored reports may hold any). */
export function findCheck(name: string): Check<CheckName> | undefined {
  return BY_NAME.get(name);
}
