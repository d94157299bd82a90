/**
 * PostgreSQL text cannot hold U+0000 (the driver errors), so validation keeps it out of every
 * stored column; a lookup or filter term containing it therefore matches nothing and is answered
 * without a query, on both engines alike.
 */
export function canMatchStoredText(term: string): boolean {
  return !term.includes('\u0000');
}
