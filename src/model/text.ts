// Text that both engines can store. PostgreSQL's text type refuses U+0000 (the whole statement
// fails, and with it every row of its transaction); SQLite keeps it. This module is the one
// place that knows it: input a person or a client types is refused (a 422 on that field, see
// `hasUnstorableText`), content fetched or sent anonymously is cleaned (`storableText`), and a
// filter term holding it matches nothing (`canMatchStoredText`), alike on both engines.

const NUL = '\u0000';

/** Whether `text` holds a character no engine may be asked to store (a NUL). */
export function hasUnstorableText(text: string): boolean {
  return text.includes(NUL);
}

/** `text` without the characters a database refuses (fetched pages, anonymous events). */
export function storableText(text: string): string {
  return hasUnstorableText(text) ? text.replaceAll(NUL, '') : text;
}

/** `storableText` of a value that may be absent. */
export function storableOrNull(text: string | null | undefined): string | null {
  return text == null ? null : storableText(text);
}

/**
 * Validation keeps unstorable characters out of every stored column, so a lookup or filter term
 * containing one matches nothing and is answered without a query, on both engines alike.
 */
export function canMatchStoredText(term: string): boolean {
  return !hasUnstorableText(term);
}
