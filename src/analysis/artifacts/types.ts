// What the checks read of a page: plain data (no methods, getters or closures), computed in one
// streaming pass (collect.ts) and a resolution step (build.ts), split by concern. A check's test
// can hand it a literal.
//
// URLs are held as strings, never URL objects: a page with 100,000 links keeps one of these per
// distinct link value while the checks run, in a worker whose heap is 128 MB (engine-pool.ts).

/** A URL value from the page, resolved against the document base (docs/checks.md §4.4). */
export interface PageUrl {
  /** As reported: absolute without its fragment, or the value as written when it does not resolve. */
  url: string;
  /** The scheme with its colon (`https:`), or null when the value does not resolve. */
  scheme: string | null;
  /** The host lower-cased without one leading `www.`; '' when there is none. */
  host: string;
  /** http(s) on the final URL's host. */
  internal: boolean;
}

export interface Meta {
  /** `name`, trimmed and lower-cased ('' when absent). */
  name: string;
  /** `name` as written, for keys such as `twitter:card`. */
  rawName: string | null;
  property: string | null;
  content: string | null;
  /** `http-equiv`, trimmed and lower-cased ('' when absent). */
  httpEquiv: string;
  charset: string | null;
}

/** A `<link>` element. */
export interface HeadLink {
  /** `rel` tokens, lower-cased. */
  rel: string[];
  href: string | null;
  /** `hreflang` as written; null when absent. */
  hreflang: string | null;
}

/** Titles, metas and links that an early close of the head pushed into the body (§4.1 "Head"). */
export interface StrayHead {
  titles: string[];
  metas: Meta[];
  links: HeadLink[];
}

export interface Head {
  /** Collapsed texts of the head region's `<title>` elements outside `<svg>`. */
  titles: string[];
  /** The first title, or null when there is none or it is blank. */
  title: string | null;
  /** Title words (§4.3): ≥ 3 code points, no stop words, deduplicated, in title order. */
  titleWords: string[];
  metas: Meta[];
  links: HeadLink[];
  /** The first head `<link>` whose rel has `icon` and whose href is not blank, resolved; null if none. */
  icon: string | null;
  /** What closed the head early: `<iframe>`, or `#text` for text; null when nothing did. */
  closedBy: string | null;
  stray: StrayHead;
  /** Titles, metas and links written in the body (after `<body>` or the head's normal end): never head content. */
  body: StrayHead;
}

export interface Text {
  /** Visible text of the body (§4.2), whitespace collapsed. */
  visible: string;
  /** Words of the visible text (§4.3). */
  words: number;
  /** Code points of the visible text. */
  codePoints: number;
  /** The title words that occur among the visible text's words, in title order. */
  titleWordsFound: string[];
}

export interface DocumentFacts {
  /** Code points of the decoded HTML. */
  codePoints: number;
  /** Elements in the parsed document. */
  elements: number;
  /** Elements per lower-case tag name (a null-prototype record: read with Object.hasOwn). */
  tagCounts: Record<string, number>;
  /** `lang` of the first `<html>`, as written; null when absent. */
  lang: string | null;
  /** Trimmed non-blank `style` attributes of elements outside `<svg>`. */
  inlineStyles: string[];
  /** Attribute values that contain `@`, in document order. */
  atAttributeValues: string[];
  /** `id` values found on more than one element: the first few (document order) and how many in all. */
  duplicateIds: { names: string[]; count: number };
}

export interface Heading {
  level: number;
  /** Collapsed text. */
  text: string;
}

/** An `<a href>`. */
export interface Anchor {
  /** The href as written. */
  href: string;
  resolved: PageUrl;
  /** `target`, trimmed and lower-cased. */
  target: string;
  /** `rel` tokens, lower-cased. */
  rel: string[];
  /** Collapsed link text, cut one code point past what a report keeps. */
  text: string;
}

export interface Image {
  /** `src`, resolved; null when it is blank or absent. */
  src: PageUrl | null;
  /** The URL the image stands for (src, else its first srcset URL), resolved; null: not an image. */
  source: PageUrl | null;
  alt: string | null;
  /** The `width` and `height` attributes are both present. */
  sized: boolean;
  /** `loading="lazy"`. */
  lazy: boolean;
  /** The format of `source` (`jpg`, `webp`, `svg`, …; '' when nothing says). */
  format: string;
  /** The formats the innermost enclosing `<picture>` offers through its `<source>`s; null outside one. */
  pictureFormats: string[] | null;
}

export interface Script {
  /** `src`, resolved; null when it is blank or absent. */
  src: PageUrl | null;
  /** `type`, trimmed and lower-cased. */
  type: string;
  async: boolean;
  defer: boolean;
}

export interface Frame {
  /** `src`, resolved; null when it is blank or absent. */
  src: PageUrl | null;
  /** `loading="lazy"`. */
  lazy: boolean;
}

/** What the markup makes a browser fetch. */
export interface Resources {
  scripts: Script[];
  /** `<link rel=stylesheet>` anywhere: the href resolved, null when blank or absent. */
  stylesheets: (PageUrl | null)[];
  iframes: Frame[];
  /** `<audio src>`, `<video src>`, `<source src/srcset>`, `<object data>`, `<embed src>`, resolved. */
  media: PageUrl[];
}

/** JSON-LD text or a microdata item, in document order. */
export type SchemaSource = { kind: 'json-ld'; text: string } | { kind: 'microdata'; itemtype: string };

export interface StructuredData {
  /** Every `<meta>`, anywhere (Open Graph and Twitter tags). */
  metas: Meta[];
  sources: SchemaSource[];
}

export interface Artifacts {
  /** The final URL the page was fetched from. */
  url: string;
  document: DocumentFacts;
  head: Head;
  text: Text;
  headings: Heading[];
  links: Anchor[];
  images: Image[];
  resources: Resources;
  structuredData: StructuredData;
}
