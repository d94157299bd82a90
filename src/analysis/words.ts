// Words and title words (docs/checks.md §4.3).

const WORD = /[\p{L}\p{M}\p{N}]+/gu;

const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'about after all also and any are but can for from had has have her his how into its more not our ' +
    'out over than that the their them then there these they this those was were what when where which ' +
    'who why will with you your'
  ).split(' '),
);

/** The words of a text, lower-cased, in order. */
export function wordsOf(text: string): string[] {
  return text.toLowerCase().match(WORD) ?? [];
}

const WORD_CHAR = /^[\p{L}\p{M}\p{N}]$/u;
/** Per UTF-16 unit: 1 a word character, 0 not, 2 a surrogate (decided with its pair). Built on first use. */
let unitKinds: Uint8Array | null = null;

function kinds(): Uint8Array {
  if (unitKinds === null) {
    unitKinds = new Uint8Array(0x10000);
    for (let c = 0; c < 0x10000; c++) {
      unitKinds[c] = c >= 0xd800 && c <= 0xdfff ? 2 : WORD_CHAR.test(String.fromCharCode(c)) ? 1 : 0;
    }
  }
  return unitKinds;
}

/**
 * The words (as `wordsOf` splits them) and code points of a text, without building either: one
 * pass with a table of the word characters, instead of one regular-expression match per word
 * and another scan for surrogate pairs.
 */
export function textStats(text: string): { words: number; codePoints: number } {
  const table = kinds();
  let words = 0;
  let pairs = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    let kind = table[text.charCodeAt(i)];
    if (kind === 2) {
      const cp = text.codePointAt(i)!;
      if (cp > 0xffff) {
        kind = WORD_CHAR.test(String.fromCodePoint(cp)) ? 1 : 0;
        pairs++;
        i++;
      } else kind = 0; // a lone surrogate
    }
    if (kind === 1) {
      if (!inWord) words++;
      inWord = true;
    } else inWord = false;
  }
  return { words, codePoints: text.length - pairs };
}

/**
 * An FNV-1a hash of each word of `wordsOf(text)`, in order, without building the words: one pass
 * over the lower-cased text with the word-character table (near-duplicate shingles, shingles.ts).
 */
export function wordHashes(text: string): Uint32Array {
  const table = kinds();
  const lower = text.toLowerCase();
  let out = new Uint32Array(64);
  let n = 0;
  let h = 0;
  let inWord = false;
  for (let i = 0; i < lower.length; i++) {
    const unit = lower.charCodeAt(i);
    let kind = table[unit];
    let width = 1;
    if (kind === 2) {
      const cp = lower.codePointAt(i)!;
      if (cp > 0xffff) {
        kind = WORD_CHAR.test(String.fromCodePoint(cp)) ? 1 : 0;
        width = 2;
      } else kind = 0; // a lone surrogate
    }
    if (kind === 1) {
      if (!inWord) h = 0x811c9dc5;
      h = Math.imul(h ^ unit, 0x01000193);
      if (width === 2) h = Math.imul(h ^ lower.charCodeAt(i + 1), 0x01000193);
      inWord = true;
    } else if (inWord) {
      if (n === out.length) {
        const grown = new Uint32Array(out.length * 2);
        grown.set(out);
        out = grown;
      }
      out[n++] = h >>> 0;
      inWord = false;
    }
    i += width - 1;
  }
  if (inWord) {
    if (n === out.length) {
      const grown = new Uint32Array(out.length + 1);
      grown.set(out);
      out = grown;
    }
    out[n++] = h >>> 0;
  }
  return out.subarray(0, n);
}

const WORD_CHAR_AT = /[\p{L}\p{M}\p{N}]/uy;

/** Whether a word character starts at `i` (sticky regex: no allocation). */
function wordCharAt(s: string, i: number): boolean {
  WORD_CHAR_AT.lastIndex = i;
  return i < s.length && WORD_CHAR_AT.test(s);
}

/** Whether a word character ends just before `i` (a surrogate pair is one character). */
function wordCharBefore(s: string, i: number): boolean {
  if (i <= 0) return false;
  const low = s.charCodeAt(i - 1);
  const pair = i >= 2 && low >= 0xdc00 && low <= 0xdfff && s.charCodeAt(i - 2) >= 0xd800 && s.charCodeAt(i - 2) <= 0xdbff;
  return wordCharAt(s, pair ? i - 2 : i - 1);
}

/** Above this many candidates, one pass collecting every word beats a search per candidate. */
const SEARCHES_BEFORE_ONE_PASS = 16;

/**
 * The `candidates` (lower-case words) that occur as words of `text`, in candidate order.
 * A title has a few words: each is searched with indexOf and boundary tests rather than a RegExp
 * (every new RegExp is compiled to machine code, which piled up tens of megabytes over a corpus).
 * A title with many words (a hostile one may have thousands) gets one pass over the text instead.
 */
export function presentWords(text: string, candidates: string[]): string[] {
  if (candidates.length === 0) return [];
  const lower = text.toLowerCase();
  if (candidates.length > SEARCHES_BEFORE_ONE_PASS) {
    const words = new Set(lower.match(WORD));
    return candidates.filter((word) => words.has(word));
  }
  return candidates.filter((word) => {
    for (let i = lower.indexOf(word); i !== -1; i = lower.indexOf(word, i + 1)) {
      if (!wordCharBefore(lower, i) && !wordCharAt(lower, i + word.length)) return true;
    }
    return false;
  });
}

/** Title words: ≥ 3 code points, no stop words, deduplicated, in title order. */
export function titleWordsOf(title: string | null): string[] {
  if (title === null) return [];
  const seen = new Set<string>();
  for (const w of wordsOf(title)) {
    if ([...w].length >= 3 && !STOP_WORDS.has(w)) seen.add(w);
  }
  return [...seen];
}
