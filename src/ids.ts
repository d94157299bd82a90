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
  return id >= 1 && id <= MAX_ID ? id : null;
}
