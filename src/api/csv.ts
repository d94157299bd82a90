// CSV as RFC 4180 writes it: CRLF line ends, and a field holding a comma, a double quote or a
// line break quoted, its quotes doubled. Every CSV the service writes (stats, crawl pages, the
// CLI's --csv) goes through here.
//
// Formula escaping (OWASP's CSV-injection rule): a text cell beginning with `=`, `+`, `-`, `@`,
// a tab or a carriage return is written with a leading `'`, so a spreadsheet shows it as text
// instead of running it (page titles, URLs and event values are chosen by whoever sent them).
// Numbers are written as they are: they are counted here, never someone's formula.

export const CSV_TYPE = 'text/csv; charset=utf-8';

const FORMULA_START = /^[=+\-@\t\r]/;

export function csvField(value: string | number): string {
  const text = typeof value === 'number' ? String(value) : FORMULA_START.test(value) ? `'${value}` : value;
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
