// What the page's scripts changed: its raw HTML against the DOM Chromium built from it, for a
// rendered crawl's changed-by-JS issues (docs/rendering.md, docs/audit-issues.md). Each side is
// outlined in the thread that parsed it (`pageView` beside the links and canonical); the
// comparison keeps only what differs, bounded, so it can be stored with the page's facts.
import type { Artifacts } from './artifacts/index.js';
import { lastMetaContent } from './checks/meta.js';
import { blockingMeta } from './checks/noindex.js';
import type { Named } from './crawl-facts.js';
import { collapse } from './text.js';

/** What the comparison reads of one side, besides the outline's links and canonical. */
export interface PageView {
  /** The first head title (the title check's value); null when none or blank. */
  title: string | null;
  /** The last non-blank meta description, collapsed (the meta_description check's value). */
  description: string | null;
  /** The first `<h1>` with text. */
  h1: string | null;
  /** A robots or googlebot meta tag says noindex or none (the header is the fetch's: the same on both sides). */
  noindex: boolean;
  /** Words of the visible text (as content_length counts them). */
  words: number;
}

export function pageView(artifacts: Artifacts): PageView {
  const description = lastMetaContent(artifacts.head.metas, 'description');
  return {
    title: artifacts.head.title,
    description: description === null ? null : collapse(description),
    h1: artifacts.headings.find((h) => h.level === 1 && h.text !== '')?.text ?? null,
    noindex: blockingMeta(artifacts.head.metas) !== null,
    words: artifacts.text.words,
  };
}

/** One value in the raw HTML and in the rendered DOM. */
export interface Changed<T> {
  raw: T;
  rendered: T;
}

/** The differences a rendered crawl stores per page (plain data, JSON); an absent field did not change. */
export interface JsChanges {
  title?: Changed<string | null>;
  description?: Changed<string | null>;
  h1?: Changed<string | null>;
  canonical?: Changed<string | null>;
  noindex?: Changed<boolean>;
  /** Links (`<a href>` targets) of the rendered DOM the raw HTML lacks: the first few named, all counted. */
  links?: Named;
  /** Words of the visible text on each side (always kept: content_only_rendered compares them). */
  words: Changed<number>;
}

/** One side of the comparison: what the crawl's outline of the page holds. */
export interface ComparedSide {
  links: readonly string[];
  canonical: string | null;
  view: PageView;
}

/** Links named per page (an issue's detail names at most 10). */
const NAMED = 10;
/** A kept value is cut to this many UTF-16 units: it only names (compared whole before). */
const VALUE_CHARS = 200;

function cut(value: string | null): string | null {
  return value === null || value.length <= VALUE_CHARS ? value : `${value.slice(0, VALUE_CHARS - 1)}…`;
}

/** What differs between the raw HTML's outline and the rendered DOM's. */
export function jsChanges(raw: ComparedSide, rendered: ComparedSide): JsChanges {
  const changes: JsChanges = { words: { raw: raw.view.words, rendered: rendered.view.words } };
  const text = (key: 'title' | 'description' | 'h1') => {
    if (raw.view[key] !== rendered.view[key]) changes[key] = { raw: cut(raw.view[key]), rendered: cut(rendered.view[key]) };
  };
  text('title');
  text('description');
  text('h1');
  if (raw.canonical !== rendered.canonical) changes.canonical = { raw: cut(raw.canonical), rendered: cut(rendered.canonical) };
  if (raw.view.noindex !== rendered.view.noindex) changes.noindex = { raw: raw.view.noindex, rendered: rendered.view.noindex };
  const before = new Set(raw.links);
  const added: Named = { names: [], count: 0 };
  for (const link of rendered.links) {
    if (before.has(link)) continue;
    if (added.count++ < NAMED) added.names.push(cut(link)!);
  }
  if (added.count > 0) changes.links = added;
  return changes;
}
