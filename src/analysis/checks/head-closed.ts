// `errors.head_closed_by` (docs/checks.md §4.1 "Head"): when a head check fails because the tag it
// wanted stands after an element that closed the head early, that element is named, so the user
// can fix the cause rather than add a tag the page already has. (stored.ts words the line, from
// each head check's `headClosedLead`.)

import type { Head, StrayHead } from '../artifacts/index.js';

/** The early closer (`<iframe>`, `#text`) when `found` finds the wanted tag among the lookups it pushed out of the head. */
export function headClosedBy(head: Head, found: (stray: StrayHead) => boolean): string | undefined {
  return head.closedBy !== null && found(head.stray) ? head.closedBy : undefined;
}
