// Text helpers shared by the artifacts and the checks (docs/checks.md §4.1).

/** Unicode White_Space (U+00A0 and U+0085 included); JavaScript's \s differs on U+0085 and U+FEFF. */
const WHITESPACE_RUN = /[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/g;

/** Whitespace other than a lone space: text without any is already collapsed inside. */
const NEEDS_COLLAPSING =
  /[\t\n\v\f\r\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]| [\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/;

/** Runs of whitespace become one space (not trimmed); skips the replace, which allocates, when it can. */
function collapseRuns(text: string): string {
  return NEEDS_COLLAPSING.test(text) ? text.replace(WHITESPACE_RUN, ' ') : text;
}

/** Every run of whitespace becomes one space; the result is trimmed. */
export function collapse(text: string): string {
  const s = collapseRuns(text);
  const start = s.charCodeAt(0) === 32 ? 1 : 0;
  const end = s.length > start && s.charCodeAt(s.length - 1) === 32 ? s.length - 1 : s.length;
  return start === 0 && end === s.length ? s : s.slice(start, end);
}

/** Whether `s` holds only ASCII whitespace (tab, line feed, vertical tab, form feed, carriage return, space). */
function asciiWhitespaceOnly(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c !== 32 && (c < 9 || c > 13)) return false;
  }
  return true;
}

/**
 * Builds collapsed text from many pieces without a final pass over the whole: each piece is
 * collapsed as it arrives and a space is added only where the text does not already end in one.
 * (One replace over megabytes of text allocated more than the parser itself.)
 */
export class CollapsingText {
  private done: string[] = [];
  private pieces: string[] = [];
  private endsInSpace = true; // so leading whitespace is dropped

  push(text: string): void {
    // Most pieces between tags are indentation: a space, without the regular expressions.
    if (asciiWhitespaceOnly(text)) {
      if (text !== '') this.space();
      return;
    }
    let s = collapseRuns(text);
    if (this.endsInSpace && s.charCodeAt(0) === 32) s = s.slice(1);
    if (s === '') return;
    this.add(s);
    this.endsInSpace = s.charCodeAt(s.length - 1) === 32;
  }

  space(): void {
    if (this.endsInSpace) return;
    this.add(' ');
    this.endsInSpace = true;
  }

  text(): string {
    const all = this.done.join('') + this.pieces.join('');
    return this.endsInSpace && all !== '' ? all.slice(0, -1) : all;
  }

  // Pieces are joined every few thousand, so the collector traces a few large strings
  // instead of hundreds of thousands of small ones.
  private add(s: string): void {
    this.pieces.push(s);
    if (this.pieces.length === 4096) {
      this.done.push(this.pieces.join(''));
      this.pieces = [];
    }
  }
}

export function isBlank(value: string | null | undefined): boolean {
  return value == null || collapse(value) === '';
}

const SURROGATE = /[\ud800-\udfff]/;

/** Length in code points; cheaper than `[...s].length` on megabyte strings. */
export function codePointLength(s: string): number {
  if (!SURROGATE.test(s)) return s.length;
  let surrogatePairs = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = s.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        surrogatePairs++;
        i++;
      }
    }
  }
  return s.length - surrogatePairs;
}

/** ASCII whitespace, which separates the tokens of attributes such as `rel`. */
const WHITESPACE_TOKEN = /[\t\n\f\r ]+/;

/** A whitespace-separated token list, lower-cased (e.g. `rel`). */
export function tokens(value: string | null | undefined): string[] {
  if (!value) return [];
  return value.toLowerCase().split(WHITESPACE_TOKEN).filter(Boolean);
}

/** A keyword attribute value (`type`, `name`, `loading`, …): trimmed and lower-cased. */
export function keyword(value: string | null | undefined): string {
  return value == null ? '' : value.trim().toLowerCase();
}
