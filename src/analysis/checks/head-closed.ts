// `errors.head_closed_by` (checks.md §4.1 "Head"): when a head check fails because the tag it
// wanted stands after an element that closed the head early, that element is named, so the user
// can fix the cause rather than add a tag the page already has.

import type { Artifacts, StrayHead } from '../artifacts.js';

/** The early closer (`<iframe>`, `#text`) when `found` finds the wanted tag among the lookups it pushed out of the head. */
export function headClosedBy(artifacts: Artifacts, found: (stray: StrayHead) => boolean): string | undefined {
  const closer = artifacts.headClosedBy;
  return closer !== null && found(artifacts.strayHead) ? closer : undefined;
}
