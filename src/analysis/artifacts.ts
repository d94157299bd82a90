// Everything the checks read from the page, computed in ONE streaming pass of htmlparser2
// (no DOM is built): regions, visible text, the elements each check looks at, and resolved URLs.
// The parser's tree rules (implied closes, void elements, raw-text elements) are the same as its
// DOM's, so this sees exactly the tree htmlparser2's DOM would (checks.md §4.1).

import { firstCodePoints, REPORT_CAPS } from './bounds.js';
import { HeadRegion, Place } from './head-region.js';
import { depthCappedParser } from './html-parser.js';
import { CollapsingText, codePointLength, collapse, keyword, tokens } from './text.js';
import { countWords, presentWords, titleWordsOf } from './words.js';
import { firstSrcsetUrl, hostKey, isHttp, parseUrl, withoutFragment } from './urls.js';

export interface SourceInfo {
  src: string | null;
  srcset: string | null;
  type: string | null;
}

export interface ImageInfo {
  src: string | null;
  srcset: string | null;
  alt: string | null;
  loading: string | null;
  type: string | null;
  /** The sources of the innermost enclosing `<picture>`, or null outside one. */
  pictureSources: SourceInfo[] | null;
}

export interface MetaInfo {
  /** `name`, trimmed and lower-cased ('' when absent). */
  name: string;
  /** `name` as written, for keys such as `twitter:card`. */
  rawName: string | null;
  property: string | null;
  content: string | null;
  httpEquiv: string;
  charset: string | null;
}

export interface LinkInfo {
  rel: string[];
  href: string | null;
}

export interface AnchorInfo {
  href: string;
  target: string;
  rel: string[];
  /** Collapsed link text. */
  text: string;
}

export interface ScriptInfo {
  src: string | null;
  type: string;
  async: boolean;
  defer: boolean;
}

export interface FrameInfo {
  src: string | null;
  loading: string;
}

export interface HeadingInfo {
  level: number;
  text: string;
}

/**
 * What the checks need of a resolved URL value. Plain strings, not the URL object: a page with
 * 100,000 links keeps one of these per distinct link while the checks run.
 */
export interface LinkTarget {
  /** The scheme with its colon (`https:`), or null when the value does not resolve. */
  protocol: string | null;
  /** The resolved path, or null when the value does not resolve. */
  pathname: string | null;
  /** As reported: absolute without fragment, or the value as written. */
  reported: string;
  /** The host lower-cased without one leading `www.`; '' when there is none. */
  host: string;
  /** http(s) on the final URL's host (§4.4). */
  internal: boolean;
}

/** Titles, metas and links that an early close of the head pushed into the body. */
export interface StrayHead {
  titles: string[];
  metas: MetaInfo[];
  links: LinkInfo[];
}

/** JSON-LD text or a microdata item, in document order (structured_data). */
export type SchemaSource = { kind: 'json-ld'; text: string } | { kind: 'microdata'; itemtype: string };

export interface Artifacts {
  finalUrl: string;
  /** The decoded document. */
  html: string;
  /** Number of elements in the parsed document. */
  elementCount: number;
  /** Elements per (lower-case) tag name. */
  tagCounts: ReadonlyMap<string, number>;
  /** `lang` of the first `<html>`, as written; null when absent. */
  htmlLang: string | null;
  /** Head region (§4.1): collapsed texts of the `<title>` elements outside `<svg>`. */
  titles: string[];
  /** Head region `<meta>` elements. */
  headMetas: MetaInfo[];
  /** Head region `<link>` elements. */
  headLinks: LinkInfo[];
  /** What closed the head early (§4.1 "Head"): `<iframe>`, or `#text` for text; null when it was not. */
  headClosedBy: string | null;
  /** The head lookups after that element, inside the head as written: body content for a browser. */
  strayHead: StrayHead;
  /** Every `<meta>`, anywhere. */
  metas: MetaInfo[];
  /** Every `<link>`, anywhere. */
  links: LinkInfo[];
  anchors: AnchorInfo[];
  images: ImageInfo[];
  scripts: ScriptInfo[];
  iframes: FrameInfo[];
  /** Raw URLs of `<audio src>`, `<video src>`, `<source src/srcset>`, `<object data>`, `<embed src>`. */
  media: string[];
  headings: HeadingInfo[];
  schemaSources: SchemaSource[];
  /** Trimmed non-blank `style` attributes of elements outside `<svg>`. */
  inlineStyles: string[];
  /** Attribute values that contain `@`, in document order (plaintext_email). */
  atAttributeValues: string[];
  /** Visible text of the body (§4.2), collapsed. */
  visibleText: string;
  readonly visibleWordCount: number;
  /** The given lower-case words that occur among the visible text's words, in the given order. */
  visibleWordsAmong(candidates: string[]): string[];
  /** The title check's value: the first title, or null when there is none or it is blank. */
  title: string | null;
  readonly titleWords: string[];
  readonly htmlCodePoints: number;
  /** Absolute URL without fragment; the raw value when it does not resolve (§4.4). */
  resolve(raw: string): string;
  /** Everything the link checks want to know about a URL value, computed once per distinct value. */
  target(raw: string): LinkTarget;
}

const INLINE =
  'a abbr b bdi bdo cite code data del dfn em font i ins kbd mark q s samp small span strong sub sup time u var';
/** Elements whose whole subtree is left out of visible text. */
const HIDDEN = ['script', 'style', 'noscript', 'template', 'svg'];

// Per open element, a bit set (no object per element: the 5 MB page has 130k elements).
const HIDES = 1;
const SVG = 2;
const ITEMSCOPE = 4;
const PICTURE = 8;
const SPACED = 16;
const FIRST_HEAD = 32;
const FIRST_BODY = 64;
const WANTS_TEXT = 128;

/**
 * The starting bits of an element by tag: inline elements (§4.2) get no space around them,
 * hidden ones no text at all; headings carry their level above bit 8. Any other tag is SPACED.
 * One map lookup per element instead of several.
 */
const TAG_BITS = new Map<string, number>([
  ...INLINE.split(' ').map((tag): [string, number] => [tag, 0]),
  ...HIDDEN.map((tag): [string, number] => [tag, HIDES]),
  ...[1, 2, 3, 4, 5, 6].map((level): [string, number] => [`h${level}`, SPACED | (level << 8)]),
]);

interface Collected {
  elementCount: number;
  tagCounts: Map<string, number>;
  htmlLang: string | null;
  headSeen: boolean;
  headClosedBy: string | null;
  titles: { text: string; place: Place }[];
  metas: (MetaInfo & { place: Place })[];
  links: (LinkInfo & { place: Place })[];
  baseHrefs: string[];
  anchors: AnchorInfo[];
  images: ImageInfo[];
  scripts: ScriptInfo[];
  iframes: FrameInfo[];
  media: string[];
  headings: HeadingInfo[];
  schemaSources: SchemaSource[];
  inlineStyles: string[];
  atAttributeValues: string[];
  visibleText: string;
}

function attr(attribs: Record<string, string>, name: string): string | null {
  return Object.prototype.hasOwnProperty.call(attribs, name) ? attribs[name] : null;
}

function nonBlank(value: string | null): string | null {
  return value !== null && value.trim() !== '' ? value : null;
}

/**
 * How much of a heading's or title's raw text is read. Sane pages never come near it; it bounds
 * pages that nest hundreds of headings, where every element's text holds all the text after it.
 */
const MAX_ELEMENT_TEXT = 32 * 1024;

/**
 * A link's text is read until it is one code point longer than a report keeps (REPORT_CAPS):
 * enough for the report to cut it and show that it did, and no more, however many links a page has.
 */
const MAX_LINK_TEXT = REPORT_CAPS.chars + 1;

/** log[from…] joined, stopping once `max` characters are reached. */
function joinUpTo(log: string[], from: number, max: number): string {
  let length = 0;
  let end = from;
  while (end < log.length && length < max) length += log[end++].length;
  const joined = log.slice(from, end).join('');
  return joined.length > max ? joined.slice(0, max) : joined;
}

/**
 * log[from…] collapsed, reading only until the collapsed text reaches `max` code points.
 * Whitespace collapses, so how much raw text that takes is not known in advance: it is read in
 * doubling steps. (The collapse of a prefix is a prefix of the collapse of the whole.)
 */
function collapsedUpTo(log: string[], from: number, max: number): string {
  let end = from;
  let want = max;
  let read = 0;
  let text = '';
  while (end < log.length) {
    while (end < log.length && read < want) read += log[end++].length;
    text = collapse(log.slice(from, end).join(''));
    if (codePointLength(text) >= max) return firstCodePoints(text, max);
    want *= 2;
  }
  return text;
}

/** Stands in for a link whose text ended before its element closed (see `case 'a'`). */
const ENDED_LINK = { text: '' };

function collect(html: string): Collected {
  const c: Collected = {
    elementCount: 0,
    tagCounts: new Map(),
    htmlLang: null,
    headSeen: false,
    headClosedBy: null,
    titles: [],
    metas: [],
    links: [],
    baseHrefs: [],
    anchors: [],
    images: [],
    scripts: [],
    iframes: [],
    media: [],
    headings: [],
    schemaSources: [],
    inlineStyles: [],
    atAttributeValues: [],
    visibleText: '',
  };
  // The open elements, innermost last: names and flag bits.
  const names: string[] = [];
  const flags: number[] = [];
  // For the open elements whose text is wanted (innermost last): where it goes, and where it
  // starts in the log of the text seen while any of them is open.
  const textTargets: { text: string }[] = [];
  const textStarts: number[] = [];
  const textLog: string[] = [];
  const pictures: SourceInfo[][] = [];
  // textTargets index of the link whose text is being read, or -1.
  let openLink = -1;
  let htmlSeen = false;
  let hiddenDepth = 0;
  let svgDepth = 0;
  let itemscopeDepth = 0;
  let inFirstHead = false;
  const head = new HeadRegion();
  let bodyState: 'before' | 'inside' | 'after' = 'before';
  const bodyText = new CollapsingText();
  // Text outside the first head before any body: the body region if no <body> ever opens.
  const noBodyText = new CollapsingText();
  /** Where visible text goes now, or null (hidden subtree, head, after the body). */
  const visibleSink = (): CollapsingText | null => {
    if (hiddenDepth > 0) return null;
    if (bodyState === 'inside') return bodyText;
    return bodyState === 'before' && !inFirstHead ? noBodyText : null;
  };
  const wantText = (target: { text: string }): number => {
    textTargets.push(target);
    textStarts.push(textLog.length);
    return WANTS_TEXT;
  };

  const parser = depthCappedParser({
    onopentag(name, attribs, implied) {
      const place = head.startTag(name, implied);
      c.elementCount++;
      c.tagCounts.set(name, (c.tagCounts.get(name) ?? 0) + 1);
      const bits = TAG_BITS.get(name) ?? SPACED;
      let f = bits & 0xff;
      // Spaces go outside the element's region (so <head> does not swallow them); hidden elements add none.
      if (f & SPACED) visibleSink()?.space();
      if (f & HIDES) hiddenDepth++;

      let style: string | null = null;
      let itemscope = false;
      for (const key in attribs) {
        const value = attribs[key];
        if (value.includes('@')) c.atAttributeValues.push(value);
        if (key === 'style') style = value;
        else if (key === 'itemscope') itemscope = true;
      }
      if (style !== null && svgDepth === 0 && name !== 'svg' && style.trim() !== '') {
        c.inlineStyles.push(style.trim());
      }
      if (itemscope) {
        if (itemscopeDepth === 0) {
          const itemtype = attr(attribs, 'itemtype');
          if (itemtype !== null) c.schemaSources.push({ kind: 'microdata', itemtype });
        }
        f |= ITEMSCOPE;
        itemscopeDepth++;
      }

      switch (name) {
        case 'html':
          if (!htmlSeen) {
            htmlSeen = true;
            c.htmlLang = attr(attribs, 'lang');
          }
          break;
        case 'head':
          if (!c.headSeen) {
            c.headSeen = true;
            f |= FIRST_HEAD;
            inFirstHead = true;
          }
          break;
        case 'body':
          if (bodyState === 'before') {
            f |= FIRST_BODY;
            bodyState = 'inside';
          }
          break;
        case 'svg':
          f |= SVG;
          svgDepth++;
          break;
        case 'title':
          if (svgDepth === 0) {
            const entry = { text: '', place };
            c.titles.push(entry);
            f |= wantText(entry);
          }
          break;
        case 'meta':
          c.metas.push({
            name: keyword(attr(attribs, 'name')),
            rawName: attr(attribs, 'name'),
            property: attr(attribs, 'property'),
            content: attr(attribs, 'content'),
            httpEquiv: keyword(attr(attribs, 'http-equiv')),
            charset: attr(attribs, 'charset'),
            place,
          });
          break;
        case 'link':
          c.links.push({ rel: tokens(attr(attribs, 'rel')), href: attr(attribs, 'href'), place });
          break;
        case 'base':
          if (attr(attribs, 'href') !== null) c.baseHrefs.push(attribs.href);
          break;
        case 'a': {
          // Browsers never nest <a> in <a> (the adoption agency algorithm closes the open one);
          // htmlparser2 does. So a link's text ends where the next <a> opens, as in a browser,
          // and each piece of text belongs to one link at most, however many stay unclosed.
          if (openLink !== -1) {
            textTargets[openLink].text = collapsedUpTo(textLog, textStarts[openLink], MAX_LINK_TEXT);
            textTargets[openLink] = ENDED_LINK;
            openLink = -1;
          }
          const href = attr(attribs, 'href');
          if (href !== null) {
            const anchor: AnchorInfo = {
              href,
              target: keyword(attr(attribs, 'target')),
              rel: tokens(attr(attribs, 'rel')),
              text: '',
            };
            c.anchors.push(anchor);
            f |= wantText(anchor);
            openLink = textTargets.length - 1;
          }
          break;
        }
        case 'img':
          c.images.push({
            src: attr(attribs, 'src'),
            srcset: attr(attribs, 'srcset'),
            alt: attr(attribs, 'alt'),
            loading: attr(attribs, 'loading'),
            type: attr(attribs, 'type'),
            pictureSources: pictures.length > 0 ? pictures[pictures.length - 1] : null,
          });
          break;
        case 'picture':
          pictures.push([]);
          f |= PICTURE;
          break;
        case 'source': {
          const source = { src: attr(attribs, 'src'), srcset: attr(attribs, 'srcset'), type: attr(attribs, 'type') };
          if (pictures.length > 0) pictures[pictures.length - 1].push(source);
          const srcset = nonBlank(source.srcset);
          const url = nonBlank(source.src) ?? (srcset !== null ? firstSrcsetUrl(srcset) : null);
          if (url !== null) c.media.push(url);
          break;
        }
        case 'audio':
        case 'video':
        case 'embed': {
          const src = nonBlank(attr(attribs, 'src'));
          if (src !== null) c.media.push(src);
          break;
        }
        case 'object': {
          const data = nonBlank(attr(attribs, 'data'));
          if (data !== null) c.media.push(data);
          break;
        }
        case 'script': {
          const type = keyword(attr(attribs, 'type'));
          c.scripts.push({
            src: attr(attribs, 'src'),
            type,
            async: attr(attribs, 'async') !== null,
            defer: attr(attribs, 'defer') !== null,
          });
          if (type === 'application/ld+json') {
            const entry: SchemaSource = { kind: 'json-ld', text: '' };
            c.schemaSources.push(entry);
            f |= wantText(entry);
          }
          break;
        }
        case 'iframe':
          c.iframes.push({ src: attr(attribs, 'src'), loading: keyword(attr(attribs, 'loading')) });
          break;
        default: {
          const level = bits >> 8;
          if (level !== 0) {
            const heading: HeadingInfo = { level, text: '' };
            c.headings.push(heading);
            f |= wantText(heading);
          }
        }
      }
      names.push(name);
      flags.push(f);
    },

    ontext(text) {
      head.text(text);
      visibleSink()?.push(text);
      if (textTargets.length > 0) textLog.push(text);
    },

    onclosetag(name) {
      // An unfinished tag at the very end of input is closed without having been opened.
      if (names.length === 0 || names[names.length - 1] !== name) return;
      names.pop();
      head.endElement();
      const f = flags.pop()!;
      if (f & HIDES) hiddenDepth--;
      if (f & SVG) svgDepth--;
      if (f & ITEMSCOPE) itemscopeDepth--;
      if (f & PICTURE) pictures.pop();
      if (f & FIRST_HEAD) {
        inFirstHead = false;
        head.writtenHeadClosed();
      }
      if (f & FIRST_BODY) bodyState = 'after';
      if (f & SPACED) visibleSink()?.space();
      if (f & WANTS_TEXT) {
        const start = textStarts.pop()!;
        const target = textTargets.pop()!;
        if (textTargets.length === openLink) openLink = -1;
        // JSON-LD is parsed as written (a script holds one text, nothing nests in it); every
        // other element text is collapsed, and read only so far (MAX_LINK_TEXT, MAX_ELEMENT_TEXT).
        if (name === 'script') target.text = textLog.slice(start).join('');
        else if (name === 'a') target.text = target === ENDED_LINK ? '' : collapsedUpTo(textLog, start, MAX_LINK_TEXT);
        else target.text = collapse(joinUpTo(textLog, start, MAX_ELEMENT_TEXT));
        if (textTargets.length === 0) textLog.length = 0;
      }
    },

    onendtag(name) {
      return head.endTag(name);
    },
  });
  parser.end(html);
  c.headClosedBy = head.closedBy;
  c.visibleText = (bodyState === 'before' ? noBodyText : bodyText).text();
  return c;
}

/** One shared string per common scheme rather than one per link. */
const PROTOCOLS = new Map(['http:', 'https:', 'mailto:', 'tel:', 'javascript:', 'data:', 'ftp:'].map((p) => [p, p]));
const canonicalProtocol = (protocol: string) => PROTOCOLS.get(protocol) ?? protocol;

export function buildArtifacts(html: string, finalUrl: string): Artifacts {
  const c = collect(html);
  const page = parseUrl(finalUrl);
  const pageHost = page ? hostKey(page.hostname) : null;
  // The document base: the first <base href> that resolves, else the page itself.
  let base: URL | null = page;
  for (const href of c.baseHrefs) {
    const resolved = page && parseUrl(href, page);
    if (resolved) {
      base = resolved;
      break;
    }
  }
  const placed = <T extends { place: Place }>(items: T[], place: Place) => items.filter((i) => i.place === place);
  const titles = placed(c.titles, Place.Head).map((t) => t.text);
  const title = titles.length > 0 && titles[0] !== '' ? titles[0] : null;

  let wordCount: number | undefined;
  let titleWords: string[] | undefined;
  let htmlCodePoints: number | undefined;

  // Several checks look at the same links, and pages repeat them: resolve each distinct value once.
  const targets = new Map<string, LinkTarget>();
  const target = (raw: string): LinkTarget => {
    let t = targets.get(raw);
    if (t === undefined) {
      const url = parseUrl(raw, base);
      const host = url ? hostKey(url.hostname) : '';
      t = {
        protocol: url ? canonicalProtocol(url.protocol) : null,
        pathname: url ? url.pathname : null,
        reported: url ? withoutFragment(url) : raw,
        host,
        internal: url !== null && pageHost !== null && isHttp(url) && host === pageHost,
      };
      targets.set(raw, t);
    }
    return t;
  };

  return {
    finalUrl,
    html,
    elementCount: c.elementCount,
    tagCounts: c.tagCounts,
    htmlLang: c.htmlLang,
    titles,
    headMetas: placed(c.metas, Place.Head),
    headLinks: placed(c.links, Place.Head),
    headClosedBy: c.headClosedBy,
    strayHead: {
      titles: placed(c.titles, Place.Stray).map((t) => t.text),
      metas: placed(c.metas, Place.Stray),
      links: placed(c.links, Place.Stray),
    },
    metas: c.metas,
    links: c.links,
    anchors: c.anchors,
    images: c.images,
    scripts: c.scripts,
    iframes: c.iframes,
    media: c.media,
    headings: c.headings,
    schemaSources: c.schemaSources,
    inlineStyles: c.inlineStyles,
    atAttributeValues: c.atAttributeValues,
    visibleText: c.visibleText,
    get visibleWordCount() {
      return (wordCount ??= countWords(c.visibleText));
    },
    visibleWordsAmong(candidates) {
      return presentWords(c.visibleText, candidates);
    },
    title,
    get titleWords() {
      return (titleWords ??= titleWordsOf(title));
    },
    get htmlCodePoints() {
      return (htmlCodePoints ??= codePointLength(html));
    },
    resolve: (raw) => target(raw).reported,
    target,
  };
}
