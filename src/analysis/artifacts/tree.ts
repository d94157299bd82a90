// The element tree of a page as htmlparser2's Parser builds it, streamed from its Tokenizer
// without the Parser: the same tree rules (implied closes, void elements, foreign content, the
// `</p>` and `</br>` quirks), in the same order of events, but attributes are kept in two
// reusable arrays instead of a fresh object per element (the Parser took about a seventh of the
// engine's time on corpus A, mostly building those objects, and their garbage cost more).
//
// The tree is capped at 512 levels, as Chromium caps it: before a 513th level would open, the
// innermost element is closed (a 5 MB page of nested <div>s otherwise costs O(depth) per
// element). Real pages stay far below: corpus A's deepest is 51.
//
// Every end tag as written is also reported (`endTag`): a stray `</head>` or `</html>` that
// closes nothing still moves a browser's tree construction on (docs/checks.md §4.1 "Head").
//
// The Tokenizer reads one character per step. Where it only waits for a character (in text,
// for `<` or `&`; in a quoted attribute value, for the quote or `&`; in scripts, styles and
// comments, for `<` or `-`; in a name, for its end), the steps in between do nothing, so
// SkippingTokenizer jumps there, with a native `indexOf` where it can: the same events, and
// about half the Tokenizer's time on corpus A.
// test/analysis/tree.test.ts holds the events to htmlparser2's own.

import { type QuoteType, Tokenizer, type TokenizerCallbacks } from 'htmlparser2';

export const MAX_TREE_DEPTH = 512;

/** The attributes of the element being opened; valid only during `openElement`. */
export class Attributes {
  names: string[] = [];
  values: string[] = [];
  count = 0;
  /** Whether a name may be an array index ("0", "12"): plain objects list those first (see `order`). */
  indexed = false;
  /** Name → position, once an element has many attributes (a hostile tag may have thousands). */
  private positions: Map<string, number> | null = null;

  /** The value of the first attribute of that (lower-case) name, or null. */
  get(name: string): string | null {
    if (this.positions !== null) {
      const at = this.positions.get(name);
      return at === undefined ? null : this.values[at];
    }
    for (let i = 0; i < this.count; i++) if (this.names[i] === name) return this.values[i];
    return null;
  }

  /**
   * The positions in the order a plain object's keys would have (htmlparser2 hands one over):
   * array indices first, by value. Only needed when `indexed`; otherwise it is 0…count-1.
   */
  order(): number[] {
    const all = Array.from({ length: this.count }, (_, i) => i);
    if (!this.indexed) return all;
    const index = (i: number) =>
      ARRAY_INDEX.test(this.names[i]) && Number(this.names[i]) < 4294967295 ? Number(this.names[i]) : -1;
    const numbered = all.filter((i) => index(i) !== -1).sort((a, b) => index(a) - index(b));
    return [...numbered, ...all.filter((i) => index(i) === -1)];
  }

  /** @internal The first of duplicate names wins, as in htmlparser2. */
  add(name: string, value: string): void {
    // htmlparser2 assigns into a plain object, where "__proto__" creates nothing.
    if (name === '__proto__' || this.get(name) !== null) return;
    this.names[this.count] = name;
    this.values[this.count] = value;
    if (this.positions !== null) this.positions.set(name, this.count);
    else if (this.count === MANY_ATTRIBUTES) this.positions = new Map(this.names.slice(0, this.count + 1).map((n, i) => [n, i]));
    this.count++;
    const first = name.charCodeAt(0);
    if (first >= 48 && first <= 57) this.indexed = true;
  }

  /** @internal */
  clear(): void {
    this.count = 0;
    this.indexed = false;
    this.positions = null;
  }
}

/** The Tokenizer internals touched here (htmlparser2 10: private in its typings). */
interface TokenizerInternals {
  buffer: string;
  index: number;
  offset: number;
  stateText(c: number): void;
  handleInAttributeValue(c: number, quote: number): void;
  fastForwardTo(c: number): boolean;
  stateInTagName(c: number): void;
  stateInAttributeName(c: number): void;
  stateInClosingTagName(c: number): void;
}

const LT = 0x3c;
const AMP = 0x26;
const SLASH = 0x2f;
const GT = 0x3e;
const EQ = 0x3d;

/** HTML whitespace, as the Tokenizer reads it. */
function isSpace(c: number): boolean {
  return c === 32 || c === 10 || c === 9 || c === 12 || c === 13;
}
const endsTagName = (c: number) => c === SLASH || c === GT || isSpace(c);
const endsAttributeName = (c: number) => c === EQ || endsTagName(c);
const endsClosingTagName = (c: number) => c === GT || isSpace(c);

class SkippingTokenizer extends Tokenizer {
  /** Where the next `&` is, at or after the current position; -1 before the first look. */
  nextAmp = -1;
}

const base = Tokenizer.prototype as unknown as TokenizerInternals;
const skipping = SkippingTokenizer.prototype as unknown as TokenizerInternals & { nextAmp: number };

/** Moves the tokenizer to just before the next `stop` character or `&` (the main loop steps onto it). */
function skipTo(t: TokenizerInternals & { nextAmp: number }, stop: string): void {
  const from = t.index - t.offset + 1;
  const buffer = t.buffer;
  if (t.nextAmp < from) {
    const amp = buffer.indexOf('&', from);
    t.nextAmp = amp === -1 ? buffer.length : amp;
  }
  const at = buffer.indexOf(stop, from);
  t.index = Math.min(at === -1 ? buffer.length : at, t.nextAmp) - 1 + t.offset;
}

skipping.stateText = function (this: TokenizerInternals & { nextAmp: number }, c: number) {
  if (c === LT || c === AMP) base.stateText.call(this, c);
  else skipTo(this, '<'); // nothing happens on any other character
};

skipping.handleInAttributeValue = function (this: TokenizerInternals & { nextAmp: number }, c: number, quote: number) {
  if (c === quote || c === AMP) base.handleInAttributeValue.call(this, c, quote);
  else skipTo(this, String.fromCharCode(quote));
};

/** Moves the tokenizer to just before the next character that `stops` (in a name: a few characters on). */
function skipWhile(t: TokenizerInternals, stops: (c: number) => boolean): void {
  const buffer = t.buffer;
  let i = t.index - t.offset + 1;
  while (i < buffer.length && !stops(buffer.charCodeAt(i))) i++;
  t.index = i - 1 + t.offset;
}

skipping.stateInTagName = function (this: TokenizerInternals, c: number) {
  if (endsTagName(c)) base.stateInTagName.call(this, c);
  else skipWhile(this, endsTagName);
};

skipping.stateInAttributeName = function (this: TokenizerInternals, c: number) {
  if (endsAttributeName(c)) base.stateInAttributeName.call(this, c);
  else skipWhile(this, endsAttributeName);
};

skipping.stateInClosingTagName = function (this: TokenizerInternals, c: number) {
  if (endsClosingTagName(c)) base.stateInClosingTagName.call(this, c);
  else skipWhile(this, endsClosingTagName);
};

skipping.fastForwardTo = function (this: TokenizerInternals, c: number) {
  const at = this.buffer.indexOf(String.fromCharCode(c), this.index - this.offset + 1);
  this.index = (at === -1 ? this.buffer.length - 1 : at) + this.offset;
  return at !== -1;
};

const ARRAY_INDEX = /^(?:0|[1-9]\d*)$/;
const MANY_ATTRIBUTES = 16;
const NO_ATTRIBUTES = new Attributes();

export interface TreeHandler {
  /** `implied`: htmlparser2 made the element from `</p>` or `</br>`. */
  openElement(name: string, attributes: Attributes, implied: boolean): void;
  /** `implied`: closed by something other than its own end tag. */
  closeElement(name: string, implied: boolean): void;
  text(text: string): void;
  /**
   * Every end tag as written, lower-cased, before the tree sees it, until it returns false
   * (reading the name costs a little on every end tag).
   */
  endTag?(name: string): boolean;
}

// htmlparser2 10's tree rules (Parser.ts), in HTML mode.
const P = new Set(['p']);
const FORM = new Set(['input', 'option', 'optgroup', 'select', 'button', 'datalist', 'textarea']);
const TABLE_SECTIONS = new Set(['thead', 'tbody']);
const DD_DT = new Set(['dd', 'dt']);
const RT_RP = new Set(['rt', 'rp']);
const OPEN_IMPLIES_CLOSE = new Map<string, Set<string>>([
  ['tr', new Set(['tr', 'th', 'td'])],
  ['th', new Set(['th'])],
  ['td', new Set(['thead', 'th', 'td'])],
  ['body', new Set(['head', 'link', 'script'])],
  ['li', new Set(['li'])],
  ...['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((t): [string, Set<string>] => [t, P]),
  ...['select', 'input', 'output', 'button', 'datalist', 'textarea'].map((t): [string, Set<string>] => [t, FORM]),
  ['option', new Set(['option'])],
  ['optgroup', new Set(['optgroup', 'option'])],
  ['dd', DD_DT],
  ['dt', DD_DT],
  ...[
    'address',
    'article',
    'aside',
    'blockquote',
    'details',
    'div',
    'dl',
    'fieldset',
    'figcaption',
    'figure',
    'footer',
    'form',
    'header',
    'hr',
    'main',
    'nav',
    'ol',
    'pre',
    'section',
    'table',
    'ul',
  ].map((t): [string, Set<string>] => [t, P]),
  ['rt', RT_RP],
  ['rp', RT_RP],
  ['tbody', TABLE_SECTIONS],
  ['tfoot', TABLE_SECTIONS],
]);
const VOID = new Set([
  'area',
  'base',
  'basefont',
  'br',
  'col',
  'command',
  'embed',
  'frame',
  'hr',
  'img',
  'input',
  'isindex',
  'keygen',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
]);
const FOREIGN = new Set(['math', 'svg']);
const HTML_INTEGRATION = new Set(['mi', 'mo', 'mn', 'ms', 'mtext', 'annotation-xml', 'foreignobject', 'desc', 'title']);

/**
 * The names of common elements and attributes as constant strings: a name read from the page is
 * swapped for its constant, so the sets, maps and comparisons it meets later compare pointers.
 */
const NAMES = new Set(
  (
    'a abbr address area article aside audio b base bdi bdo blockquote body br button canvas caption center cite code ' +
    'col colgroup data datalist dd del details dfn dialog div dl dt em embed fieldset figcaption figure font footer form ' +
    'frame frameset h1 h2 h3 h4 h5 h6 head header hgroup hr html i iframe img input ins kbd label legend li link main map ' +
    'mark math menu meta meter nav noscript object ol optgroup option output p param picture pre progress q rp rt ruby s ' +
    'samp script section select slot small source span strike strong style sub summary sup svg table tbody td template ' +
    'textarea tfoot th thead time title tr track u ul var video wbr path g use defs symbol circle rect line polygon ' +
    'href src srcset alt rel name content property charset http-equiv lang type loading target itemscope itemtype ' +
    'itemprop defer async class id width height role tabindex sizes media crossorigin integrity referrerpolicy ' +
    'aria-label aria-hidden onclick value placeholder for action method xmlns viewbox d fill stroke'
  ).split(' '),
);

/** An ASCII capital as its small letter. */
function foldCase(c: number): number {
  return c >= 0x41 && c <= 0x5a ? c + 0x20 : c;
}

/** A hash of an ASCII name, folding case; -1 when it has a character beyond ASCII. */
function foldedHash(html: string, start: number, end: number): number {
  let h = end - start;
  for (let i = start; i < end; i++) {
    const c = html.charCodeAt(i);
    if (c > 0x7f) return -1;
    h = (Math.imul(h, 31) + foldCase(c)) | 0;
  }
  return h;
}

// The common names in an open-addressing table by hash, so a name read from the page is looked
// up in place: no string is cut out of the page for it, and none is hashed by the engine.
const SLOTS = 1024;
const TABLE: (string | undefined)[] = new Array<string | undefined>(SLOTS).fill(undefined);
const HASHES = new Int32Array(SLOTS);
for (const name of NAMES) {
  const h = foldedHash(name, 0, name.length);
  let i = h & (SLOTS - 1);
  while (TABLE[i] !== undefined) i = (i + 1) & (SLOTS - 1);
  TABLE[i] = name;
  HASHES[i] = h;
}

/** The tag or attribute name at html[start, end), lower-cased; a common one as its constant. */
function nameAt(html: string, start: number, end: number): string {
  const h = foldedHash(html, start, end);
  if (h !== -1) {
    const length = end - start;
    for (let i = h & (SLOTS - 1), name = TABLE[i]; name !== undefined; i = (i + 1) & (SLOTS - 1), name = TABLE[i]) {
      if (HASHES[i] !== h || name.length !== length) continue;
      let k = 0;
      while (k < length && foldCase(html.charCodeAt(start + k)) === name.charCodeAt(k)) k++;
      if (k === length) return name;
    }
  }
  return html.slice(start, end).toLowerCase();
}

/** Streams the tree of `html` to `handler`, in htmlparser2's order of events. */
export function walkTree(html: string, handler: TreeHandler): void {
  // Open elements, innermost last; foreign-content flags likewise (htmlparser2 keeps both innermost first).
  const stack: string[] = [];
  const foreign: boolean[] = [false];
  const attributes = new Attributes();
  let tagname = '';
  let attribname = '';
  let attribvalue = '';
  let watchEndTags = handler.endTag !== undefined;

  const openTag = (name: string) => {
    while (stack.length >= MAX_TREE_DEPTH) handler.closeElement(stack.pop()!, true);
    // Flags are pushed like elements but popped only by end tags: keep the innermost ones.
    if (foreign.length > MAX_TREE_DEPTH) foreign.splice(0, foreign.length - MAX_TREE_DEPTH);
    tagname = name;
    const closes = OPEN_IMPLIES_CLOSE.get(name);
    if (closes !== undefined) {
      while (stack.length > 0 && closes.has(stack[stack.length - 1])) handler.closeElement(stack.pop()!, true);
    }
    if (!VOID.has(name)) {
      stack.push(name);
      if (FOREIGN.has(name)) foreign.push(true);
      else if (HTML_INTEGRATION.has(name)) foreign.push(false);
    }
    attributes.clear();
  };
  const endOpenTag = (implied: boolean) => {
    handler.openElement(tagname, attributes, implied);
    if (VOID.has(tagname)) handler.closeElement(tagname, true);
    tagname = '';
  };
  const closeCurrentTag = (openImplied: boolean) => {
    const name = tagname;
    endOpenTag(openImplied);
    if (stack.length > 0 && stack[stack.length - 1] === name) {
      handler.closeElement(name, !openImplied);
      stack.pop();
    }
  };

  const callbacks: TokenizerCallbacks = {
    ontext(start, end) {
      handler.text(html.slice(start, end));
    },
    ontextentity(codePoint) {
      handler.text(String.fromCodePoint(codePoint));
    },
    onopentagname(start, end) {
      openTag(nameAt(html, start, end));
    },
    onopentagend() {
      endOpenTag(false);
    },
    onselfclosingtag() {
      // Only foreign content (svg, math) honours "/>" in HTML.
      if (foreign[foreign.length - 1]) closeCurrentTag(false);
      else endOpenTag(false);
    },
    onclosetag(start, end) {
      const name = nameAt(html, start, end);
      if (watchEndTags) watchEndTags = handler.endTag!(name);
      if (FOREIGN.has(name) || HTML_INTEGRATION.has(name)) foreign.pop();
      if (!VOID.has(name)) {
        const at = stack.lastIndexOf(name);
        if (at !== -1) {
          for (let i = stack.length - 1; i >= at; i--) handler.closeElement(stack.pop()!, i !== at);
        } else if (name === 'p') {
          openTag('p');
          closeCurrentTag(true);
        }
      } else if (name === 'br') {
        handler.openElement('br', NO_ATTRIBUTES, true);
        handler.closeElement('br', false);
      }
    },
    onattribname(start, end) {
      attribname = nameAt(html, start, end);
    },
    onattribdata(start, end) {
      attribvalue += html.slice(start, end);
    },
    onattribentity(codePoint) {
      attribvalue += String.fromCodePoint(codePoint);
    },
    onattribend(_quote: QuoteType) {
      attributes.add(attribname, attribvalue);
      attribvalue = '';
    },
    onend() {
      for (let i = stack.length - 1; i >= 0; i--) handler.closeElement(stack[i], true);
    },
    // Comments, CDATA (a comment in HTML), doctypes and processing instructions carry nothing we read.
    oncdata() {},
    oncomment() {},
    ondeclaration() {},
    onprocessinginstruction() {},
  };
  const tokenizer = new SkippingTokenizer({ decodeEntities: true }, callbacks);
  tokenizer.write(html);
  tokenizer.end();
}
