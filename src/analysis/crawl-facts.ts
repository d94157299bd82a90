// What a site crawl records of each page for its issue catalogue (docs/audit-issues.md), taken
// from the artifacts the checks already read: the page is not parsed again, and every list is
// bounded so that a crawl of 100,000 pages keeps its rows in memory for the issue pass.
import { createHash } from 'node:crypto';
import { deflateRawSync } from 'node:zlib';
import type { Artifacts, HeadLink, Meta } from './artifacts/index.js';
import { encodeSignature, minhashSignature, shingles } from './shingles.js';

/** Items named per list (an issue's detail names at most 10); the rest are counted. */
export const FACTS_NAMED = 10;
/** hreflang alternates kept per page (international sets rarely pass 30). */
export const FACTS_HREFLANG = 30;
/** Canonical URLs kept per page. */
const FACTS_CANONICALS = 5;
/** A named value (an image URL, an id) is cut to this many UTF-16 units: it only names. */
const NAME_CHARS = 200;
/** Pages with fewer words are never near-duplicates: no signature, no stored text. */
export const NEAR_DUPLICATE_MIN_WORDS = 100;
/** The visible text kept (deflated) for the exact Jaccard of near-duplicate candidates. */
export const KEPT_TEXT_CHARS = 100_000;

/** A bounded list: the first FACTS_NAMED items and how many there were. */
export interface Named {
  names: string[];
  count: number;
}

export interface Hreflang {
  /** As written, trimmed. */
  lang: string;
  /** Resolved against the page, without fragment. */
  href: string;
}

/** Plain data (JSON), stored with the page's row. */
export interface PageFacts {
  /** `<title>` elements in the head. */
  titles: number;
  /** `<meta name=description>` elements in the head. */
  descriptions: number;
  /** An `<h1>` with text. */
  h1: boolean;
  /** The first heading-order fault ("h2 → h4", "the first heading is an h2"); null when none. */
  headingFault: string | null;
  /** Words of the visible text (as content_length counts them). */
  words: number;
  /** SHA-256 of the visible text (whitespace collapsed, case kept), first 16 bytes, base64. */
  textHash: string;
  /** MinHash signature of the word 5-shingles (base64), for pages of NEAR_DUPLICATE_MIN_WORDS words or more. */
  signature: string | null;
  /** Distinct canonical URLs of the page's `<link rel=canonical>` head tags, resolved. */
  canonicals: string[];
  /** hreflang alternates of the head's `<link rel=alternate hreflang>`, the first FACTS_HREFLANG. */
  hreflang: Hreflang[];
  /** `<html lang>` as written; null when absent. */
  lang: string | null;
  /** The first head-only element outside the head, and why; null when none. */
  metaInBody: string | null;
  /** The first fault of the page's JSON-LD; null when none. */
  structuredData: string | null;
  duplicateIds: Named;
  /** `<img>` elements without `alt`, named by their URL. */
  imagesWithoutAlt: Named;
  /** `<img>` elements without both `width` and `height`. */
  imagesWithoutSize: Named;
  /** `<a href>` elements. */
  links: number;
  /** Links to the site's own host with rel nofollow (their URLs). */
  nofollowLinks: Named;
  /** On an https page: links to http: URLs. */
  httpLinks: Named;
  /** At least one `<a href>` to an http(s) URL. */
  linksOut: boolean;
}

/** The page's facts, and its visible text deflated when it may be a near-duplicate (else null). */
export interface CrawlFacts {
  facts: PageFacts;
  text: Uint8Array | null;
}

function named(): Named {
  return { names: [], count: 0 };
}

function add(list: Named, name: string): void {
  if (list.count++ < FACTS_NAMED) list.names.push(name.length > NAME_CHARS ? `${name.slice(0, NAME_CHARS - 1)}…` : name);
}

function resolved(href: string | null, base: string): string | null {
  if (href === null || href.trim() === '') return null;
  try {
    const url = new URL(href.trim(), base);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    url.hash = '';
    return url.href;
  } catch {
    return null;
  }
}

const HEAD_ONLY_METAS = new Set(['description', 'robots', 'viewport']);

/** The first title, meta or link of `lookups` that belongs in the head, named as a tag. */
function headOnlyTag(lookups: { titles: string[]; metas: Meta[]; links: HeadLink[] }): string | null {
  if (lookups.titles.length > 0) return '<title>';
  const meta = lookups.metas.find((m) => HEAD_ONLY_METAS.has(m.name));
  if (meta) return `<meta name="${meta.name}">`;
  const link = lookups.links.find((l) => l.rel.includes('canonical') || l.rel.includes('alternate'));
  if (link) return `<link rel="${link.rel.includes('canonical') ? 'canonical' : 'alternate'}">`;
  return null;
}

function metaInBody(artifacts: Artifacts): string | null {
  const { head } = artifacts;
  const stray = headOnlyTag(head.stray);
  if (stray !== null && head.closedBy !== null) {
    const closer = head.closedBy === '#text' ? 'text' : head.closedBy;
    return `${stray} stands after ${closer}, which closed the head.`;
  }
  const body = headOnlyTag(head.body);
  return body === null ? null : `${body} stands in the body.`;
}

function headingFault(artifacts: Artifacts): string | null {
  const { headings } = artifacts;
  if (headings.length === 0) return null;
  if (headings[0].level !== 1) return `The first heading is an h${headings[0].level}.`;
  for (let i = 1; i < headings.length; i++) {
    const from = headings[i - 1].level;
    const to = headings[i].level;
    if (to > from + 1) return `h${from} → h${to}.`;
  }
  return null;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The first fault of the page's JSON-LD blocks, or null. */
function structuredDataFault(artifacts: Artifacts): string | null {
  let block = 0;
  for (const source of artifacts.structuredData.sources) {
    if (source.kind !== 'json-ld') continue;
    block++;
    let value: unknown;
    try {
      value = JSON.parse(source.text);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      return `JSON-LD block ${block} is not valid JSON (${reason.slice(0, NAME_CHARS)}).`;
    }
    const tops = Array.isArray(value) ? value : [value];
    for (const top of tops) {
      if (!isObject(top)) continue;
      if (Array.isArray(top['@graph'])) {
        for (const member of top['@graph']) {
          if (isObject(member) && !('@type' in member)) return `JSON-LD block ${block}: a member of @graph has no @type.`;
        }
      } else if (!('@type' in top)) {
        return `JSON-LD block ${block}: a top-level object has no @type.`;
      }
    }
  }
  return null;
}

export function crawlFacts(artifacts: Artifacts): CrawlFacts {
  const { head, text, url } = artifacts;

  const canonicals: string[] = [];
  const hreflang: Hreflang[] = [];
  for (const link of head.links) {
    if (link.rel.includes('canonical')) {
      const href = resolved(link.href, url);
      if (href !== null && !canonicals.includes(href) && canonicals.length < FACTS_CANONICALS) canonicals.push(href);
    }
    if (link.rel.includes('alternate') && link.hreflang !== null && hreflang.length < FACTS_HREFLANG) {
      const href = resolved(link.href, url);
      if (href !== null) hreflang.push({ lang: link.hreflang.trim(), href });
    }
  }

  const imagesWithoutAlt = named();
  const imagesWithoutSize = named();
  for (const image of artifacts.images) {
    const name = image.source?.url ?? '(an image without src)';
    if (image.alt === null) add(imagesWithoutAlt, name);
    if (!image.sized) add(imagesWithoutSize, name);
  }

  const https = url.startsWith('https:');
  const nofollowLinks = named();
  const httpLinks = named();
  let linksOut = false;
  for (const anchor of artifacts.links) {
    const { scheme, internal } = anchor.resolved;
    if (scheme === 'http:' || scheme === 'https:') linksOut = true;
    if (internal && anchor.rel.includes('nofollow')) add(nofollowLinks, anchor.resolved.url);
    if (https && scheme === 'http:') add(httpLinks, anchor.resolved.url);
  }

  let signature: string | null = null;
  let kept: Uint8Array | null = null;
  if (text.words >= NEAR_DUPLICATE_MIN_WORDS) {
    const visible = text.visible.length > KEPT_TEXT_CHARS ? text.visible.slice(0, KEPT_TEXT_CHARS) : text.visible;
    signature = encodeSignature(minhashSignature(shingles(visible)));
    kept = deflateRawSync(visible, { level: 1 });
  }

  return {
    facts: {
      titles: head.titles.length,
      descriptions: head.metas.filter((m) => m.name === 'description').length,
      h1: artifacts.headings.some((h) => h.level === 1 && h.text !== ''),
      headingFault: headingFault(artifacts),
      words: text.words,
      textHash: createHash('sha256').update(text.visible).digest().subarray(0, 16).toString('base64'),
      signature,
      canonicals,
      hreflang,
      lang: artifacts.document.lang,
      metaInBody: metaInBody(artifacts),
      structuredData: structuredDataFault(artifacts),
      duplicateIds: artifacts.document.duplicateIds,
      imagesWithoutAlt,
      imagesWithoutSize,
      links: artifacts.links.length,
      nofollowLinks,
      httpLinks,
      linksOut,
    },
    text: kept,
  };
}
