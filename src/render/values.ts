// A check's value (and the list its error carries) rendered for people, by the view each check
// names (src/analysis/checks/views.ts): headings as an outline, links and images as lists,
// structured data as nested property lists, long lists collapsed. Nothing here knows a check.
//
// Stored values may be any JSON: the engine checks a stored value against its check's schema
// before naming the check's view (otherwise the generic JSON view takes over), and every view
// still checks the shape it reads and answers `undefined` when it does not recognise it.
//
// A report lists at most so many items per list (its `omitted` counts the rest, by JSON
// Pointer): lists say how many more the report did not list, and counts include them.

import { pointerSegment } from '../analysis/bounds.js';
import type { Shown, StoredCheck } from '../analysis/checks/stored.js';
import type { ItemView, ViewDescriptor } from '../analysis/checks/views.js';
import { formatNumber } from '../analysis/wording.js';
import { html, safeHref, type HtmlValue, type SafeHtml } from './html.js';
import { truncate } from './format.js';

export interface ValueContext {
  /** The report's URL: a value that merely repeats it is not shown again. */
  pageUrl: string;
  /** The one-line description already shown: a value it states in full is not repeated. */
  described: string;
}

/** What the report left out of the list or object at one place (from its `omitted`), and below it. */
interface Left {
  count(): number;
  at(segment: string | number): Left;
}

const NOTHING_LEFT: Left = { count: () => 0, at: () => NOTHING_LEFT };

function leftOf(omitted: Record<string, unknown>, pointer: string): Left {
  return {
    count() {
      const n = Object.hasOwn(omitted, pointer) ? omitted[pointer] : 0;
      return typeof n === 'number' && Number.isSafeInteger(n) && n > 0 ? n : 0;
    },
    at: (segment) => leftOf(omitted, `${pointer}/${pointerSegment(segment)}`),
  };
}

/** null: nothing worth showing; undefined: shape not recognised. `left`: what the report did not list of `data`. */
type View = (data: unknown, ctx: ValueContext, left: Left) => SafeHtml | null | undefined;

const VISIBLE_ITEMS = 10;
/** Lists up to this long are shown whole: "Show 2 more" would save nothing. */
const COLLAPSE_OVER = 12;
/** Beyond this, items are counted but not rendered, to keep pages light. */
const MAX_ITEMS = 250;
const MAX_TEXT = 500;
const MAX_URL = 300;
const MAX_DEPTH = 4;

const EXTERNAL_REL = 'nofollow noopener noreferrer';

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isEmpty(v: unknown): boolean {
  return v === null || v === undefined || (Array.isArray(v) && v.length === 0) || (isRecord(v) && Object.keys(v).length === 0);
}

/** Empty, and the report left nothing out of it either. */
function isNothing(v: unknown, left: Left): boolean {
  return isEmpty(v) && left.count() === 0;
}

function notListed(n: number): SafeHtml {
  return n > 0 ? html`<p class="muted not-listed">…and ${formatNumber(n)} more not listed in the report.</p>` : html``;
}

const muted = (text: string) => html`<span class="muted">${text}</span>`;

// ---------------------------------------------------------------------------------------------
// Building blocks

/** A URL as a link when it is http(s), else as text: `javascript:` and friends are never links. */
function urlView(url: unknown): SafeHtml {
  const text = truncate(String(url), MAX_URL);
  const href = safeHref(url);
  return href ? html`<a class="url" href="${href}" rel="${EXTERNAL_REL}">${text}</a>` : html`<span class="url">${text}</span>`;
}

/**
 * A list showing its first items and collapsing the rest into <details>, which needs no script;
 * `unlisted`: items the report itself left out.
 */
function itemList(
  items: readonly unknown[],
  render: (item: unknown, index: number) => HtmlValue,
  noun: string,
  cls = 'items',
  unlisted = 0,
): SafeHtml {
  const rendered = items.slice(0, MAX_ITEMS).map((item, i) => html`<li>${render(item, i)}</li>`);
  const head = rendered.length > COLLAPSE_OVER ? rendered.slice(0, VISIBLE_ITEMS) : rendered;
  const rest = rendered.slice(head.length);
  const omitted = items.length - rendered.length;
  return html`${head.length > 0 ? html`<ul class="${cls}">${head}</ul>` : ''}${
    rest.length > 0
      ? html`<details><summary>Show ${formatNumber(rest.length)} more ${noun}</summary><ul class="${cls}">${rest}</ul></details>`
      : ''
  }${omitted > 0 ? html`<p class="muted">…and ${formatNumber(omitted)} more not shown.</p>` : ''}${notListed(unlisted)}`;
}

function group(title: string | null, body: HtmlValue): SafeHtml {
  return html`<div class="value-group">${title ? html`<h4>${title}</h4>` : ''}${body}</div>`;
}

/** Renders one list item; `left`: what the report did not list of it. */
type Item = (item: unknown, left: Left) => SafeHtml;

const textItem: Item = (item, left) => (typeof item === 'string' ? html`${truncate(item, MAX_TEXT)}` : jsonView(item, 1, left));

const codeItem: Item = (item, left) =>
  typeof item === 'string' ? html`<code>${truncate(item, MAX_TEXT)}</code>` : jsonView(item, 1, left);

const urlItem: Item = (item, left) => (typeof item === 'string' ? urlView(item) : jsonView(item, 1, left));

/** A list of `items` at `left`, each rendered with `item`. */
function listOf(items: readonly unknown[], item: Item, noun: string, left: Left, cls = 'items'): SafeHtml {
  return itemList(items, (x, i) => item(x, left.at(i)), noun, cls, left.count());
}

/** `{url, text}` as the page's text (or a placeholder) above its URL. */
function linkItem(emptyText: string): Item {
  return (item, left) => {
    if (!isRecord(item)) return textItem(item, left);
    const text = typeof item.text === 'string' ? item.text.trim() : '';
    return html`<span class="item-text">${text ? truncate(text, MAX_TEXT) : muted(emptyText)}</span><span class="item-url">${urlView(item.url)}</span>`;
  };
}

/** Generic, readable rendering of any JSON: objects as property lists, arrays as lists. */
function jsonView(v: unknown, depth = 0, left: Left = NOTHING_LEFT): SafeHtml {
  if (v === null || v === undefined) return muted('none');
  if (typeof v === 'string') return safeHref(v) ? urlView(v) : html`${truncate(v, MAX_TEXT)}`;
  if (typeof v === 'number') return html`${formatNumber(v)}`;
  if (typeof v === 'boolean') return html`${v ? 'yes' : 'no'}`;
  if (depth >= MAX_DEPTH) return muted('…');
  if (Array.isArray(v)) {
    if (isNothing(v, left)) return muted('none');
    if (v.every((x) => typeof x === 'string' && x.length <= 40 && !safeHref(x)))
      return listOf(v, textItem, 'items', left, 'chips');
    return listOf(v, (x, at) => jsonView(x, depth + 1, at), 'items', left);
  }
  if (isRecord(v)) {
    const entries = Object.entries(v);
    if (isNothing(v, left)) return muted('none');
    const props = (list: Array<[string, unknown]>) =>
      html`<dl class="props">${list.map(([k, x]) => html`<dt>${truncate(k, 100)}</dt><dd>${jsonView(x, depth + 1, left.at(k))}</dd>`)}</dl>`;
    const shown = entries.slice(0, MAX_ITEMS);
    const unlisted = notListed(left.count());
    if (shown.length <= COLLAPSE_OVER) return html`${shown.length > 0 ? props(shown) : ''}${unlisted}`;
    const rest = shown.slice(VISIBLE_ITEMS);
    return html`${props(shown.slice(0, VISIBLE_ITEMS))}<details><summary>Show ${formatNumber(rest.length)} more properties</summary>${props(rest)}</details>${
      entries.length > shown.length
        ? html`<p class="muted">…and ${formatNumber(entries.length - shown.length)} more not shown.</p>`
        : ''
    }${unlisted}`;
  }
  return muted('unreadable value');
}

// ---------------------------------------------------------------------------------------------
// Views by shape

/** A string shown as a quote, unless the description already says it. */
const textView: View = (v, ctx) => {
  if (v === null) return null;
  if (typeof v !== 'string') return undefined;
  if (v.trim() === '' || ctx.described.includes(v)) return null;
  return html`<p class="value-text">${truncate(v, MAX_TEXT)}</p>`;
};

/** A URL, unless it is the page itself or the description already says it. */
const urlValueView: View = (v, ctx) => {
  if (v === null) return null;
  if (typeof v !== 'string') return undefined;
  if (v === ctx.pageUrl || ctx.described.includes(v)) return null;
  return html`<p>${urlView(v)}</p>`;
};

function listView(
  caption: string | null,
  noun: string,
  item: Item,
  { skipIfDescribed = false }: { skipIfDescribed?: boolean } = {},
): View {
  return (v, ctx, left) => {
    if (isNothing(v, left)) return null;
    if (!Array.isArray(v)) return undefined;
    if (skipIfDescribed && left.count() === 0 && v.every((x) => typeof x === 'string' && ctx.described.includes(x))) return null;
    return group(caption, listOf(v, item, noun, left));
  };
}

function chipsView(caption: string | null, { skipIfDescribed = false }: { skipIfDescribed?: boolean } = {}): View {
  return (v, ctx, left) => {
    if (isNothing(v, left)) return null;
    if (!Array.isArray(v)) return undefined;
    if (skipIfDescribed && left.count() === 0 && v.every((x) => typeof x === 'string' && ctx.described.includes(x))) return null;
    return group(caption, listOf(v, textItem, 'words', left, 'chips'));
  };
}

/** `{group: [...]}` with a caption per known group, counting what the report did not list. */
function groupsView(captions: Record<string, readonly [string, string]>, item: Item): View {
  return (v, _ctx, left) => {
    if (isNothing(v, left)) return null;
    if (!isRecord(v) || !Object.values(v).every(Array.isArray)) return isEmpty(v) ? notListed(left.count()) : undefined;
    return html`${Object.entries(v).map(([name, list]) => {
      const [caption, noun] = Object.hasOwn(captions, name) ? captions[name] : [name, 'items'];
      const items = list as unknown[];
      const at = left.at(name);
      return group(`${caption} (${formatNumber(items.length + at.count())})`, listOf(items, item, noun, at));
    })}${notListed(left.count())}`;
  };
}

const headingsView: View = (v, _ctx, left) => {
  if (isNothing(v, left)) return null;
  if (!isRecord(v) || !Object.values(v).every(Array.isArray)) return isEmpty(v) ? notListed(left.count()) : undefined;
  const levels = Object.keys(v).sort((a, b) =>
    (/^h[1-6]$/.test(a) ? a : `z${a}`).localeCompare(/^h[1-6]$/.test(b) ? b : `z${b}`),
  );
  const rows = levels.flatMap((level) => (v[level] as unknown[]).map((text, i) => [level, text, i] as const));
  // One outline for all levels: what each level left out is counted together at its end.
  const unlisted = levels.reduce((n, level) => n + left.at(level).count(), left.count());
  return itemList(
    rows,
    (row) => {
      const [level, text, i] = row as readonly [string, unknown, number];
      const known = /^h[1-6]$/.test(level);
      const label =
        typeof text === 'string'
          ? text.trim()
            ? truncate(text, MAX_TEXT)
            : muted('(empty)')
          : jsonView(text, 2, left.at(level).at(i));
      return html`<span class="${known ? `level-${level[1]}` : ''}"><span class="tag">${truncate(level.toUpperCase(), 10)}</span>${label}</span>`;
    },
    'headings',
    'outline',
    unlisted,
  );
};

const structuredView: View = (v, _ctx, left) => {
  if (isNothing(v, left)) return null;
  if (!isRecord(v)) return undefined;
  return html`${Object.entries(v).map(([name, data]) => group(name, jsonView(data, 1, left.at(name))))}${notListed(left.count())}`;
};

const tagCountsView: View = (v, ctx, left) => {
  if (!isRecord(v)) return undefined;
  const tags = Object.entries(v);
  if (left.count() === 0 && tags.every(([tag]) => ctx.described.includes(`<${tag}>`))) return null;
  return itemList(
    tags,
    (t) => {
      const [tag, count] = t as [string, unknown];
      return html`<code>&lt;${truncate(tag, 40)}&gt;</code> × ${typeof count === 'number' ? formatNumber(count) : jsonView(count, 2, left.at(tag))}`;
    },
    'tags',
    'chips',
    left.count(),
  );
};

function itemOf(view: ItemView): Item {
  switch (view.kind) {
    case 'text':
      return textItem;
    case 'code':
      return codeItem;
    case 'url':
      return urlItem;
    case 'link':
      return linkItem(view.emptyText);
  }
}

/** The view a check named for its value or error payload. */
function viewOf(view: ViewDescriptor): View {
  switch (view.kind) {
    // The one-line summary states it (a number, a verdict, or the error's own list).
    case 'none':
      return () => null;
    case 'text':
      return textView;
    case 'url':
      return urlValueView;
    case 'list':
      return listView(view.caption, view.noun, itemOf(view.item), { skipIfDescribed: view.skipIfDescribed });
    case 'chips':
      return chipsView(view.caption, { skipIfDescribed: view.skipIfDescribed });
    case 'groups':
      return groupsView(view.captions, itemOf(view.item));
    case 'outline':
      return headingsView;
    case 'properties':
      return structuredView;
    case 'counts':
      return tagCountsView;
  }
}

/** Falls back to the generic view, with a caption, when there is no view or it does not recognise the data. */
function show(shown: Shown, ctx: ValueContext, left: Left): SafeHtml | null {
  const out = shown.view === null ? undefined : viewOf(shown.view)(shown.data, ctx, left);
  if (out !== undefined) return out;
  return isNothing(shown.data, left) ? null : group(shown.caption, jsonView(shown.data, 0, left));
}

/** The evidence block of one check (its value, and its error's list), or null when there is none. */
export function renderCheckValue(stored: StoredCheck, ctx: ValueContext): SafeHtml | null {
  const { omitted } = stored;
  const leftAt = (pointer: string) => (omitted ? leftOf(omitted, pointer) : NOTHING_LEFT);
  const parts: SafeHtml[] = [];
  for (const shown of stored.error === null ? [stored.value] : [stored.value, stored.error]) {
    const out = show(shown, ctx, leftAt(shown.pointer));
    if (out) parts.push(out);
  }
  return parts.length > 0 ? html`<div class="check-value">${parts}</div>` : null;
}
