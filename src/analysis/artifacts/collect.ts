// The one streaming pass over a page (no DOM is built): regions, visible text, and every element
// a check looks at, with URLs still as written (build.ts resolves them once the document base is
// known, which a `<base href>` anywhere in the page decides). The tree is htmlparser2's
// (tree.ts), so this sees exactly what its DOM would (docs/checks.md §4.1).

import { firstCodePoints, REPORT_CAPS } from '../bounds.js';
import { HeadRegion, type Place } from '../head-region.js';
import { CollapsingText, codePointLength, collapse, keyword, tokens } from '../text.js';
import { firstSrcsetUrl } from '../urls.js';
import type { Anchor, Heading, HeadLink, Meta, PageUrl, SchemaSource } from './types.js';
import { walkTree, type Attributes } from './tree.js';

export interface RawSource {
  src: string | null;
  srcset: string | null;
  type: string | null;
}

export interface RawImage {
  src: string | null;
  srcset: string | null;
  alt: string | null;
  /** Both `width` and `height` attributes are present. */
  sized: boolean;
  loading: string | null;
  type: string | null;
  /** The sources of the innermost enclosing `<picture>` (shared by its images), or null outside one. */
  pictureSources: RawSource[] | null;
}

export interface RawScript {
  src: string | null;
  type: string;
  async: boolean;
  defer: boolean;
}

export interface RawFrame {
  src: string | null;
  loading: string;
}

/** What the pass saw, URLs as written. */
export interface Collected {
  elements: number;
  tagCounts: Record<string, number>;
  lang: string | null;
  headClosedBy: string | null;
  titles: string[];
  titlePlaces: Place[];
  metas: Meta[];
  metaPlaces: Place[];
  links: HeadLink[];
  linkPlaces: Place[];
  baseHrefs: string[];
  /** `resolved` is filled in by build.ts. */
  anchors: Anchor[];
  images: RawImage[];
  scripts: RawScript[];
  iframes: RawFrame[];
  /** Raw URLs of media elements, not blank. */
  media: string[];
  headings: Heading[];
  schemaSources: SchemaSource[];
  inlineStyles: string[];
  atAttributeValues: string[];
  /** `id` values seen on more than one element (the first DUPLICATE_IDS_NAMED) and how many. */
  duplicateIds: { names: string[]; count: number };
  visibleText: string;
}

/** Duplicate ids named per page (the rest are counted). */
export const DUPLICATE_IDS_NAMED = 10;

/** Stands in for an anchor's resolved URL until build.ts resolves it. */
export const UNRESOLVED: PageUrl = Object.freeze({ url: '', scheme: null, host: '', internal: false });

const INLINE = 'a abbr b bdi bdo cite code data del dfn em font i ins kbd mark q s samp small span strong sub sup time u var';
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

// What the pass does with an element, by tag: one map lookup per element, then a switch on a
// number (a switch on the tag name compares strings case by case).
const HTML = 1;
const HEAD = 2;
const BODY = 3;
const SVG_ROOT = 4;
const TITLE = 5;
const META = 6;
const LINK = 7;
const BASE = 8;
const A = 9;
const IMG = 10;
const PICTURE_ROOT = 11;
const SOURCE = 12;
const MEDIA_SRC = 13;
const OBJECT = 14;
const SCRIPT = 15;
const IFRAME = 16;
const HEADING = 17;
const KINDS: Record<string, number> = {
  html: HTML,
  head: HEAD,
  body: BODY,
  svg: SVG_ROOT,
  title: TITLE,
  meta: META,
  link: LINK,
  base: BASE,
  a: A,
  img: IMG,
  picture: PICTURE_ROOT,
  source: SOURCE,
  audio: MEDIA_SRC,
  video: MEDIA_SRC,
  embed: MEDIA_SRC,
  object: OBJECT,
  script: SCRIPT,
  iframe: IFRAME,
  h1: HEADING,
  h2: HEADING,
  h3: HEADING,
  h4: HEADING,
  h5: HEADING,
  h6: HEADING,
};

/**
 * The starting bits of an element by tag: inline elements (§4.2) get no space around them,
 * hidden ones no text at all; headings carry their level above bit 8, every kind above bit 12.
 * Any other tag is SPACED, of no kind.
 */
const TAG_BITS = new Map<string, number>();
for (const tag of INLINE.split(' ')) TAG_BITS.set(tag, 0);
for (const tag of HIDDEN) TAG_BITS.set(tag, HIDES);
for (const level of [1, 2, 3, 4, 5, 6]) TAG_BITS.set(`h${level}`, SPACED | (level << 8));
for (const [tag, kind] of Object.entries(KINDS)) TAG_BITS.set(tag, (TAG_BITS.get(tag) ?? SPACED) | (kind << 12));

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
    // Code points ≤ UTF-16 units: a text shorter than `max` units is whole.
    if (text.length >= max && codePointLength(text) >= max) return firstCodePoints(text, max);
    want *= 2;
  }
  return text;
}

/** Stands in for a link whose text ended before its element closed (see `case 'a'`). */
const ENDED_LINK = { text: '' };

export function collect(html: string): Collected {
  const c: Collected = {
    elements: 0,
    tagCounts: Object.create(null) as Record<string, number>,
    lang: null,
    headClosedBy: null,
    titles: [],
    titlePlaces: [],
    metas: [],
    metaPlaces: [],
    links: [],
    linkPlaces: [],
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
    duplicateIds: { names: [], count: 0 },
    visibleText: '',
  };
  // Every id seen, and whether it was seen again (a duplicate is counted once).
  const ids = new Map<string, boolean>();
  // The open elements' names and flag bits, innermost last.
  const names: string[] = [];
  const flags: number[] = [];
  const titleHolders: { text: string }[] = [];
  // For the open elements whose text is wanted (innermost last): where it goes, and where it
  // starts in the log of the text seen while any of them is open.
  const textTargets: { text: string }[] = [];
  const textStarts: number[] = [];
  const textLog: string[] = [];
  const pictures: RawSource[][] = [];
  // textTargets index of the link whose text is being read, or -1.
  let openLink = -1;
  let htmlSeen = false;
  let headSeen = false;
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

  walkTree(html, {
    openElement(name, attributes: Attributes, implied) {
      const place = head.startTag(name, implied);
      c.elements++;
      c.tagCounts[name] = (c.tagCounts[name] ?? 0) + 1;
      const bits = TAG_BITS.get(name) ?? SPACED;
      let f = bits & 0xff;
      // Spaces go outside the element's region (so <head> does not swallow them); hidden elements add none.
      if (f & SPACED) visibleSink()?.space();
      if (f & HIDES) hiddenDepth++;

      let style: string | null = null;
      let itemscope = false;
      const count = attributes.count;
      if (count > 0) {
        // In the order htmlparser2's attribute object lists them, as before.
        const order = attributes.indexed ? attributes.order() : null;
        for (let k = 0; k < count; k++) {
          const i = order === null ? k : order[k];
          const value = attributes.values[i];
          if (value.includes('@')) c.atAttributeValues.push(value);
          const key = attributes.names[i];
          if (key === 'style') style = value;
          else if (key === 'itemscope') itemscope = true;
          else if (key === 'id' && value !== '') {
            const again = ids.get(value);
            if (again === undefined) ids.set(value, false);
            else if (!again) {
              ids.set(value, true);
              if (c.duplicateIds.count++ < DUPLICATE_IDS_NAMED) c.duplicateIds.names.push(value);
            }
          }
        }
      }
      if (style !== null && svgDepth === 0 && name !== 'svg') {
        const trimmed = style.trim();
        if (trimmed !== '') c.inlineStyles.push(trimmed);
      }
      if (itemscope) {
        if (itemscopeDepth === 0) {
          const itemtype = attributes.get('itemtype');
          if (itemtype !== null) c.schemaSources.push({ kind: 'microdata', itemtype });
        }
        f |= ITEMSCOPE;
        itemscopeDepth++;
      }

      switch (bits >> 12) {
        case HTML:
          if (!htmlSeen) {
            htmlSeen = true;
            c.lang = attributes.get('lang');
          }
          break;
        case HEAD:
          if (!headSeen) {
            headSeen = true;
            f |= FIRST_HEAD;
            inFirstHead = true;
          }
          break;
        case BODY:
          if (bodyState === 'before') {
            f |= FIRST_BODY;
            bodyState = 'inside';
          }
          break;
        case SVG_ROOT:
          f |= SVG;
          svgDepth++;
          break;
        case TITLE:
          if (svgDepth === 0) {
            const entry = { text: '' };
            titleHolders.push(entry);
            c.titlePlaces.push(place);
            f |= wantText(entry);
          }
          break;
        case META: {
          const rawName = attributes.get('name');
          c.metas.push({
            name: keyword(rawName),
            rawName,
            property: attributes.get('property'),
            content: attributes.get('content'),
            httpEquiv: keyword(attributes.get('http-equiv')),
            charset: attributes.get('charset'),
          });
          c.metaPlaces.push(place);
          break;
        }
        case LINK:
          c.links.push({
            rel: tokens(attributes.get('rel')),
            href: attributes.get('href'),
            hreflang: attributes.get('hreflang'),
          });
          c.linkPlaces.push(place);
          break;
        case BASE: {
          const href = attributes.get('href');
          if (href !== null) c.baseHrefs.push(href);
          break;
        }
        case A: {
          // Browsers never nest <a> in <a> (the adoption agency algorithm closes the open one);
          // htmlparser2 does. So a link's text ends where the next <a> opens, as in a browser,
          // and each piece of text belongs to one link at most, however many stay unclosed.
          if (openLink !== -1) {
            textTargets[openLink].text = collapsedUpTo(textLog, textStarts[openLink], MAX_LINK_TEXT);
            textTargets[openLink] = ENDED_LINK;
            openLink = -1;
          }
          const href = attributes.get('href');
          if (href !== null) {
            const anchor: Anchor = {
              href,
              resolved: UNRESOLVED,
              target: keyword(attributes.get('target')),
              rel: tokens(attributes.get('rel')),
              text: '',
            };
            c.anchors.push(anchor);
            f |= wantText(anchor);
            openLink = textTargets.length - 1;
          }
          break;
        }
        case IMG:
          c.images.push({
            src: attributes.get('src'),
            srcset: attributes.get('srcset'),
            alt: attributes.get('alt'),
            sized: attributes.get('width') !== null && attributes.get('height') !== null,
            loading: attributes.get('loading'),
            type: attributes.get('type'),
            pictureSources: pictures.length > 0 ? pictures[pictures.length - 1] : null,
          });
          break;
        case PICTURE_ROOT:
          pictures.push([]);
          f |= PICTURE;
          break;
        case SOURCE: {
          const source = { src: attributes.get('src'), srcset: attributes.get('srcset'), type: attributes.get('type') };
          if (pictures.length > 0) pictures[pictures.length - 1].push(source);
          const srcset = nonBlank(source.srcset);
          const url = nonBlank(source.src) ?? (srcset !== null ? firstSrcsetUrl(srcset) : null);
          if (url !== null) c.media.push(url);
          break;
        }
        case MEDIA_SRC: {
          const src = nonBlank(attributes.get('src'));
          if (src !== null) c.media.push(src);
          break;
        }
        case OBJECT: {
          const data = nonBlank(attributes.get('data'));
          if (data !== null) c.media.push(data);
          break;
        }
        case SCRIPT: {
          const type = keyword(attributes.get('type'));
          c.scripts.push({
            src: attributes.get('src'),
            type,
            async: attributes.get('async') !== null,
            defer: attributes.get('defer') !== null,
          });
          if (type === 'application/ld+json') {
            const entry: SchemaSource = { kind: 'json-ld', text: '' };
            c.schemaSources.push(entry);
            f |= wantText(entry);
          }
          break;
        }
        case IFRAME:
          c.iframes.push({ src: attributes.get('src'), loading: keyword(attributes.get('loading')) });
          break;
        case HEADING: {
          const heading: Heading = { level: (bits >> 8) & 0xf, text: '' };
          c.headings.push(heading);
          f |= wantText(heading);
        }
      }
      names.push(name);
      flags.push(f);
    },

    text(text) {
      head.text(text);
      visibleSink()?.push(text);
      if (textTargets.length > 0) textLog.push(text);
    },

    closeElement(name) {
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

    endTag(name) {
      return head.endTag(name);
    },
  });
  c.titles = titleHolders.map((t) => t.text);
  c.headClosedBy = head.closedBy;
  c.visibleText = (bodyState === 'before' ? noBodyText : bodyText).text();
  return c;
}
