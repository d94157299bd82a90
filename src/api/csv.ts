// CSV as RFC 4180 writes it: CRLF line ends, and a field holding a comma, a double quote or a
// line break quoted, its quotes doubled. Nothing else is changed (no formula escaping), so every
// value reads back exactly as it was counted.

export const CSV_TYPE = 'text/csv; charset=utf-8';

export function csvField(value: string | number): string {
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** A header line and one line per row, each line ending in CRLF. */
export function toCsv(header: readonly string[], rows: readonly (readonly (string | number)[])[]): string {
  return csvLines([header, ...rows]);
}

/** One line per row, each ending in CRLF (to write a long CSV a part at a time). */
export function csvLines(rows: readonly (readonly (string | number)[])[]): string {
  return rows.map((fields) => `${fields.map(csvField).join(',')}\r\n`).join('');
}
