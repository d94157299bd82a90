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

/** Bytes of CSV text gathered into one part of a streamed export. */
const PART_CHARS = 64 * 1024;

/**
 * A CSV a part at a time, as a stream pulls it: the header, then the rows in parts of about
 * 64 KB. Rows are taken from `rows` only as parts are asked for, so a long export holds one part,
 * never the whole text.
 */
export function* csvParts(header: readonly string[], rows: Iterable<readonly (string | number)[]>): Generator<string> {
  let part = csvLines([header]);
  for (const fields of rows) {
    part += `${fields.map(csvField).join(',')}\r\n`;
    if (part.length >= PART_CHARS) {
      yield part;
      part = '';
    }
  }
  if (part !== '') yield part;
}
