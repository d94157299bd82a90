// What a browser puts in the head (docs/checks.md §4.1 "Head"), decided token by token during the one
// streaming pass. htmlparser2 keeps everything between <head> and </head> inside the head, but
// the HTML5 tree-construction algorithm closes the head at the first token it cannot hold (an
// <iframe>, a <div>, stray text): what follows is body content for browsers, Google and
// Lighthouse. This follows its "before head", "in head" and "after head" insertion modes; "in
// head noscript" does not arise, since browsers (and Google) parse with scripting on, which makes
// a head <noscript> raw text.

/** Where a head-only lookup (title, meta, link) stands. */
export type Place = (typeof Place)[keyof typeof Place];
export const Place = {
  /** In the head, as a browser builds it. */
  Head: 0,
  /** After the element that closed the head early, inside the head as written: body content for a browser. */
  Stray: 1,
  Body: 2,
} as const;

// The insertion modes (plain numbers: const enums do not survive isolatedModules).
const BEFORE_HEAD = 0;
const IN_HEAD = 1;
const AFTER_HEAD = 2;
/** The head is finished: body content started, or <body> came. */
const DONE = 3;

/** The only elements the head holds; any other start tag ends it. */
const HEAD_ELEMENTS = new Set([
  'base',
  'basefont',
  'bgsound',
  'link',
  'meta',
  'noframes',
  'script',
  'style',
  'template',
  'title',
  'noscript',
]);
/**
 * Head elements whose content never ends the head: raw text for a browser (title, script, style,
 * noframes, and noscript with scripting on) or a template's inert contents. htmlparser2 parses
 * noscript, noframes and template content as markup, so it must be skipped here.
 */
const HOLDERS = new Set(['noframes', 'noscript', 'script', 'style', 'template', 'title']);
/** HTML whitespace only (U+00A0 is not HTML whitespace: `&nbsp;` ends the head). */
const HTML_WHITESPACE = /^[\t\n\f\r ]*$/;

export class HeadRegion {
  /** The element that closed the head early, as `<iframe>` (or `#text` for text); null otherwise. */
  closedBy: string | null = null;
  private mode = BEFORE_HEAD;
  /** Elements open inside a head holder, the holder included (0: not inside one). */
  private held = 0;
  /**
   * Still inside the head as the page wrote it: the first <head> element, or, before one opens,
   * everything up to the first <body>. Lookups here after an early close are Stray.
   */
  private writtenHeadOpen = true;

  /** A start tag (`implied`: htmlparser2 made it from `</p>` or `</br>`). Where the element stands. */
  startTag(name: string, implied: boolean): Place {
    if (this.held > 0) {
      this.held++;
      return Place.Head;
    }
    if (name === 'body') this.writtenHeadOpen = false;
    if (this.mode === DONE) return this.afterHead();
    // Browsers ignore these before the body: <html> only adds attributes, a second <head> nothing,
    // and a stray </p> (htmlparser2 turns it into an empty <p>) is dropped.
    if (name === 'html' || name === 'head' || (implied && name === 'p')) {
      if (name === 'head' && this.mode === BEFORE_HEAD) this.mode = IN_HEAD;
      return Place.Body;
    }
    if (name === 'body' || name === 'frameset') return this.end(null);
    // After </head> only these return to the head; <noscript> there starts the body.
    const headElement = HEAD_ELEMENTS.has(name) && !(this.mode === AFTER_HEAD && name === 'noscript');
    if (!headElement) return this.end(this.mode === AFTER_HEAD ? null : `<${name}>`);
    if (this.mode === BEFORE_HEAD) this.mode = IN_HEAD;
    if (HOLDERS.has(name)) this.held = 1;
    return Place.Head;
  }

  /** The close of an element htmlparser2 opened (every start tag gets exactly one). */
  endElement(): void {
    if (this.held > 0) this.held--;
  }

  /** An end tag as written, before the tree sees it. False once the head is finished: no more are needed. */
  endTag(name: string): boolean {
    if (this.mode === DONE) return false;
    if (this.held > 0) return true;
    // </head> ends the head (an implied one too); </body> and </html> start the body. Other end
    // tags are ignored before the body (</br> reaches startTag as an implied <br>).
    if (name === 'head') this.mode = AFTER_HEAD;
    else if (name === 'body' || name === 'html') this.end(null);
    return this.mode !== DONE;
  }

  text(text: string): void {
    if (this.held > 0 || this.mode === DONE || HTML_WHITESPACE.test(text)) return;
    this.end(this.mode === AFTER_HEAD ? null : '#text');
  }

  /** The first <head> element closed, as htmlparser2 builds the tree. */
  writtenHeadClosed(): void {
    this.writtenHeadOpen = false;
  }

  /** Ends the head; `closer` names what closed it early, null for a normal end. */
  private end(closer: string | null): Place {
    this.mode = DONE;
    this.closedBy = closer;
    return this.afterHead();
  }

  private afterHead(): Place {
    return this.closedBy !== null && this.writtenHeadOpen ? Place.Stray : Place.Body;
  }
}
