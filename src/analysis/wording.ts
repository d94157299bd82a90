// Wording shared by the checks' one-line summaries and the share pages: numbers, sizes, plurals,
// lists, and page-supplied text made safe for one line (no control characters, so a line stays
// one line and cannot smuggle terminal escape sequences into the CLI).

import { REPORT_CAPS, wasCut } from './bounds.js';

const INTEGER = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const DECIMAL = new Intl.NumberFormat('en-US', { maximumFractionDigits: 3 });

/** 1234 → "1,234"; fractions kept up to 3 decimals (0.412 → "0.412"). */
export function formatNumber(n: number): string {
  // Absurd magnitudes only come from corrupt data; keep them short.
  if (Math.abs(n) >= 1e12) return n.toPrecision(3);
  return (Number.isInteger(n) ? INTEGER : DECIMAL).format(n);
}

/** Bytes in decimal units, as the limits are written (330000 bytes = 330 KB). */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${formatNumber(bytes)} ${bytes === 1 ? 'byte' : 'bytes'}`;
  if (bytes < 1_000_000) {
    const kb = bytes / 1000;
    return `${kb < 100 ? kb.toFixed(1).replace(/\.0$/, '') : formatNumber(Math.round(kb))} KB`;
  }
  return `${(bytes / 1_000_000).toFixed(2).replace(/\.?0+$/, '')} MB`;
}

/** "1 image", "3 images". */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatNumber(n)} ${n === 1 ? one : many}`;
}

/** Page-supplied text made safe for one line: no control or format characters, at most `max` code points. */
export function oneLine(text: string, max = 60): string {
  const flat = text
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const chars = [...flat];
  return chars.length <= max
    ? flat
    : `${chars
        .slice(0, max - 1)
        .join('')
        .trimEnd()}…`;
}

/** “text”, made safe for one line. */
export function quote(s: string, max = 60): string {
  return `“${oneLine(s, max)}”`;
}

/** "a, b and c" from page text, each item shortened, at most `max` items then "and N more" (`left` not listed). */
export function listing(items: string[], max = 3, each = 40, left = 0): string {
  const shown = items.slice(0, max).map((s) => oneLine(s, each));
  const rest = items.length - shown.length + left;
  if (rest > 0)
    return shown.length === 0 ? `${formatNumber(rest)} not listed` : `${shown.join(', ')} and ${formatNumber(rest)} more`;
  if (shown.length <= 1) return shown.join('');
  return `${shown.slice(0, -1).join(', ')} and ${shown.at(-1)}`;
}

/** "36 characters"; "more than 2,048 characters" when the report cut the text. */
export function lengthOf(text: string): string {
  return wasCut(text) ? `more than ${plural(REPORT_CAPS.chars, 'character')}` : plural([...text].length, 'character');
}
