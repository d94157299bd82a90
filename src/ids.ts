// The one reading of a database id in a path (API routes and share pages alike).

/** Ids are PostgreSQL `integer`s: 1 … 2³¹−1. */
const MAX_ID = 2_147_483_647;
const DIGITS = /^[0-9]{1,10}$/;

/**
 * A path id: plain decimal digits within range (leading zeros allowed, as a database comparing
 * the text with an integer column reads them), else null — which callers answer like an
 * unknown id, never with a validation error.
 */
export function parseId(raw: string): number | null {
  if (!DIGITS.test(raw)) return null;
  const id = Number(raw);
  return isIdInRange(id) ? id : null;
}

/** Whether an integer can be an id at all (a body field naming a resource: anything else names none). */
export function isIdInRange(n: number): boolean {
  return Number.isInteger(n) && n >= 1 && n <= MAX_ID;
}
