// Plain-language wording for the 33 checks: a label, why each matters, how to fix a failure,
// and one line saying what a stored check object found. Shared by the CLI summary and the
// HTML share pages.
//
// describeCheck reads stored reports, which may come from older versions or be any JSON at
// all, so it checks every shape it touches and falls back to a generic line; it never throws.
// Page-supplied text is cut short and stripped of control characters, so a line stays one
// line and cannot smuggle terminal escape sequences into the CLI.
//
// Counts are exact: what a report lists plus what its `omitted` says it left out (bounds.ts).

import { pointerSegment, REPORT_CAPS, wasCut } from './bounds.js';
import { DEFAULT_CONFIG, type AnalysisConfig } from './config.js';
import type { CheckName, CheckResult } from './types.js';

export interface CheckInfo {
  /** Human label, e.g. "Title tag". */
  label: string;
  /** One sentence on why the check matters. */
  about: string;
  /** One or two sentences on how to fix a failure. */
  fix: string;
}

export const CHECK_INFO: Record<CheckName, CheckInfo> = {
  title: {
    label: 'Title tag',
    about: 'The title is the headline search engines show for the page and the name of its browser tab.',
    fix: 'Give the page exactly one <title> in the <head>, describing this page in at most 60 characters.',
  },
  meta_description: {
    label: 'Meta description',
    about: 'Search engines often show the meta description as the snippet under the title in their results.',
    fix: 'Add <meta name="description" content="…"> to the <head> with a one- or two-sentence summary of the page.',
  },
  headings: {
    label: 'Headings',
    about: 'One clear h1 tells readers and search engines what the page is about; the other headings outline it.',
    fix: 'Use exactly one <h1> that names the page’s subject in different words from the title, and h2–h6 for sections.',
  },
  content_keywords: {
    label: 'Content keywords',
    about: 'Words from the title that also appear in the text confirm to search engines what the page is about.',
    fix: 'Use the main words of the title in the page’s visible text, or retitle the page to match its content.',
  },
  image_keywords: {
    label: 'Image alt text',
    about: 'Alt text describes images to screen-reader users and to search engines, which cannot see them.',
    fix: 'Add an alt attribute to every listed image describing what it shows.',
  },
  image_format: {
    label: 'Modern image formats',
    about: 'AVIF and WebP images are much smaller than JPEG, PNG or GIF at the same quality, so pages load faster.',
    fix: 'Convert the listed images to AVIF or WebP, or offer those formats through <picture> and <source>.',
  },
  in_page_links: {
    label: 'In-page links',
    about: 'A page with too many links dilutes the value passed to each and is harder for people to use.',
    fix: 'Cut the number of links: drop duplicates and move long link lists (archives, tag clouds) to their own pages.',
  },
  load_time: {
    label: 'Load time',
    about: 'Slow pages lose visitors, and page speed is a ranking signal.',
    fix: 'Speed up the server’s response: cache pages, use a CDN, and reduce the work done for each request.',
  },
  page_size: {
    label: 'Page size',
    about: 'A large HTML document takes longer to download, especially on mobile connections.',
    fix: 'Shrink the HTML: enable compression, remove inline scripts, styles and data, and paginate long content.',
  },
  http_requests: {
    label: 'HTTP requests',
    about: 'Every script, stylesheet, image and frame the page requests adds to its loading time.',
    fix: 'Combine scripts and stylesheets, lazy-load images and iframes below the fold, and remove unused resources.',
  },
  defer_javascript: {
    label: 'Deferred JavaScript',
    about: 'Scripts without defer or async stop the browser from rendering the page until they have loaded and run.',
    fix: 'Add defer (or async, for independent scripts) to the listed <script> tags, or load them as modules.',
  },
  dom_size: {
    label: 'DOM size',
    about: 'A page with very many elements uses more memory and takes longer to lay out and update.',
    fix: 'Simplify the markup: remove wrapper elements, and paginate or lazy-render long lists.',
  },
  text_compression: {
    label: 'Text compression',
    about: 'Compressing HTML with gzip or Brotli usually cuts its transfer size by 70% or more.',
    fix: 'Enable gzip or Brotli compression for HTML in the web server or CDN configuration.',
  },
  structured_data: {
    label: 'Structured data',
    about: 'Open Graph, Twitter card and Schema.org data control how the page appears in search results and when shared.',
    fix: 'Add Open Graph meta tags and a Schema.org JSON-LD block describing the page.',
  },
  meta_viewport: {
    label: 'Meta viewport',
    about: 'Without a viewport tag, phones render the page at desktop width and shrink it, and search engines rank it lower on mobile.',
    fix: 'Add <meta name="viewport" content="width=device-width, initial-scale=1"> to the <head>.',
  },
  https_encryption: {
    label: 'HTTPS encryption',
    about: 'HTTPS protects visitors’ data, browsers mark plain HTTP pages as not secure, and search engines prefer HTTPS.',
    fix: 'Install a TLS certificate (Let’s Encrypt issues them free) and redirect every HTTP URL to HTTPS.',
  },
  seo_friendly_url: {
    label: 'SEO-friendly URL',
    about: 'Short, readable URLs containing the page’s keywords are easier to share and tell search engines what the page is about.',
    fix: 'Use lower-case words from the title separated by hyphens, with no underscores, spaces or capitals, and at most two query parameters.',
  },
  language: {
    label: 'Language',
    about: 'The declared language lets search engines serve the page to the right audience and screen readers pronounce it correctly.',
    fix: 'Add a lang attribute to the <html> element, for example <html lang="en">.',
  },
  favicon: {
    label: 'Favicon',
    about: 'The favicon identifies the site in browser tabs, bookmarks and some search results.',
    fix: 'Add <link rel="icon" href="/favicon.png"> to the <head>, or serve an icon at /favicon.ico.',
  },
  content_length: {
    label: 'Content length',
    about: 'Pages with substantial text tend to rank better than thin ones for informational searches.',
    fix: 'Expand the page’s text with useful content about its subject.',
  },
  text_html_ratio: {
    label: 'Text-to-HTML ratio',
    about: 'A low share of visible text suggests heavy markup or thin content.',
    fix: 'Add text, or trim markup: inline scripts, styles, SVG and unnecessary wrapper elements.',
  },
  charset: {
    label: 'Character encoding',
    about: 'A declared encoding makes browsers display every character of the page correctly.',
    fix: 'Add <meta charset="utf-8"> at the start of the <head>, or a charset parameter to the Content-Type header.',
  },
  deprecated_html_tags: {
    label: 'Deprecated HTML tags',
    about: 'Obsolete tags such as <font> and <center> may render inconsistently and mix styling into the content.',
    fix: 'Replace the listed tags with modern markup and CSS.',
  },
  '404_page': {
    label: '404 page',
    about: 'A missing page must answer with a 404 status, or search engines may index error pages as real content.',
    fix: 'Configure the server to answer unknown URLs with status 404 (or 410), not a redirect or a 200.',
  },
  noindex: {
    label: 'Indexing allowed',
    about: 'A noindex directive keeps the page out of search results entirely.',
    fix: 'Remove noindex (and none) from the robots meta tags and the X-Robots-Tag header if the page should appear in search results.',
  },
  robots: {
    label: 'robots.txt',
    about: 'If robots.txt disallows the page, search engines will not crawl it.',
    fix: 'Remove or narrow the robots.txt rule that blocks this URL, and make sure /robots.txt answers without a server error.',
  },
  sitemap: {
    label: 'Sitemap',
    about: 'A sitemap helps search engines find every page of the site.',
    fix: 'Publish an XML sitemap and list it in robots.txt with a "Sitemap:" line.',
  },
  mixed_content: {
    label: 'Mixed content',
    about: 'Resources loaded over plain HTTP on an HTTPS page are blocked by browsers or weaken the page’s security.',
    fix: 'Load every listed resource over HTTPS.',
  },
  server_signature: {
    label: 'Server signature',
    about: 'Headers that reveal server software versions help attackers find known vulnerabilities.',
    fix: 'Hide version numbers in the Server header (e.g. server_tokens off in nginx) and remove the X-Powered-By header.',
  },
  unsafe_cross_origin_links: {
    label: 'Unsafe cross-origin links',
    about: 'A page opened with target="_blank" can redirect the page that opened it unless the link has rel="noopener".',
    fix: 'Add rel="noopener" (or rel="noreferrer") to the listed links.',
  },
  plaintext_email: {
    label: 'Plain-text e-mail addresses',
    about: 'Addresses visible in the page’s source are harvested by spam bots.',
    fix: 'Replace the listed addresses with a contact form, or obfuscate them.',
  },
  social: {
    label: 'Social links',
    about: 'Links to the site’s social profiles help visitors follow it and connect its presence across platforms.',
    fix: 'Link to the site’s profiles on social networks, for example in the footer.',
  },
  inline_css: {
    label: 'Inline CSS',
    about: 'Style attributes mix presentation into the content, bloat the HTML and cannot be cached.',
    fix: 'Move the listed style attributes into a stylesheet and use classes instead.',
  },
};

/** Human label for a check name, including names this version does not know. */
export function checkLabel(name: string): string {
  return Object.hasOwn(CHECK_INFO, name) ? CHECK_INFO[name as CheckName].label : name.replaceAll('_', ' ');
}

// ---------------------------------------------------------------------------------------------
// Formatting shared with the HTML renderer.

const INTEGER = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const DECIMAL = new Intl.NumberFormat('en-US', { maximumFractionDigits: 3 });

/** 1234 → "1,234"; fractions kept up to 3 decimals (0.412 → "0.412"). */
export function formatNumber(n: number): string {
  // Absurd magnitudes only come from corrupt data; keep them short.
  if (Math.abs(n) >= 1e12) return n.toPrecision(3);
  return (Number.isInteger(n) ? INTEGER : DECIMAL).format(n);
}

/** Bytes in decimal units, as the limits are written (330000 bytes = 330 KB). */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${formatNumber(bytes)} ${bytes === 1 ? 'byte' : 'bytes'}`;
  if (bytes < 1_000_000) {
    const kb = bytes / 1000;
    return `${kb < 100 ? kb.toFixed(1).replace(/\.0$/, '') : formatNumber(Math.round(kb))} KB`;
  }
  return `${(bytes / 1_000_000).toFixed(2).replace(/\.?0+$/, '')} MB`;
}

/** "1 image", "3 images". */
function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatNumber(n)} ${n === 1 ? one : many}`;
}

/** Page-supplied text made safe for one line: no control or format characters, at most `max` code points. */
export function oneLine(text: string, max = 60): string {
  const flat = text.replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]+/gu, ' ').replace(/\s+/g, ' ').trim();
  const chars = [...flat];
  return chars.length <= max ? flat : `${chars.slice(0, max - 1).join('').trimEnd()}…`;
}

// ---------------------------------------------------------------------------------------------
// Shape guards: a stored value may be any JSON.

type Json = unknown;

function isRecord(v: Json): v is Record<string, Json> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isNum(v: Json): v is number {
  return typeof v === 'number' && Number.isFinite(v);
}

function str(v: Json): string | null {
  return typeof v === 'string' ? v : null;
}

function strings(v: Json): string[] | null {
  return Array.isArray(v) && v.every((x) => typeof x === 'string') ? (v as string[]) : null;
}

/**
 * What the report left out, from its `omitted`: the number of items or entries cut from the
 * list or object at a path below the value (`value('Internals')`) or the error payload.
 */
interface Cuts {
  value(...path: string[]): number;
  payload(...path: string[]): number;
}

const NO_CUTS: Cuts = { value: () => 0, payload: () => 0 };

function cutsOf(omitted: Json, errorKey: string | null): Cuts {
  if (!isRecord(omitted)) return NO_CUTS;
  const at = (path: string[]) => {
    const pointer = path.map((s) => `/${pointerSegment(s)}`).join('');
    const n = Object.hasOwn(omitted, pointer) ? omitted[pointer] : 0;
    return typeof n === 'number' && Number.isSafeInteger(n) && n > 0 ? n : 0;
  };
  return {
    value: (...path) => at(['value', ...path]),
    payload: (...path) => (errorKey === null ? 0 : at(['errors', errorKey, ...path])),
  };
}

/** A list's exact length: listed plus left out. */
function countOf(items: Json[], left: number): number {
  return items.length + left;
}

/**
 * Exact entries per group of a grouped value ({group: [...]}), counting what each group left
 * out; null unless every group is an array, or when whole groups were left out (counts unknown).
 */
function groupSizes(v: Json, left: (...path: string[]) => number = () => 0): Array<[string, number]> | null {
  if (left() > 0) return null;
  if (Array.isArray(v) && v.length === 0) return [];
  if (!isRecord(v)) return null;
  const out: Array<[string, number]> = [];
  for (const [k, items] of Object.entries(v)) {
    if (!Array.isArray(items)) return null;
    out.push([k, countOf(items, left(k))]);
  }
  return out;
}

/** "36 characters"; "more than 2,048 characters" when the report cut the text. */
function lengthOf(text: string): string {
  return wasCut(text) ? `more than ${plural(REPORT_CAPS.chars, 'character')}` : plural([...text].length, 'character');
}

function sum(groups: Array<[string, number]>): number {
  return groups.reduce((n, [, c]) => n + c, 0);
}

/** A limit from an error payload ({"max": "150"}), else the configured one. */
function limit(payload: Json, key: 'min' | 'max', fallback: number): number {
  if (isRecord(payload)) {
    const raw = payload[key];
    const n = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
    if (isNum(n)) return n;
  }
  return fallback;
}

/** "a, b and c" from page text, each item shortened, at most `max` items then "and N more" (`left` not listed). */
function listing(items: string[], max = 3, each = 40, left = 0): string {
  const shown = items.slice(0, max).map((s) => oneLine(s, each));
  const rest = items.length - shown.length + left;
  if (rest > 0) return shown.length === 0 ? `${formatNumber(rest)} not listed` : `${shown.join(', ')} and ${formatNumber(rest)} more`;
  if (shown.length <= 1) return shown.join('');
  return `${shown.slice(0, -1).join(', ')} and ${shown.at(-1)}`;
}

function quote(s: string, max = 60): string {
  return `“${oneLine(s, max)}”`;
}

// ---------------------------------------------------------------------------------------------
// One line per check.

type Limits = AnalysisConfig['limits'];

/** What a check says for a given stored object; null means "shape not understood". */
type Describer = (passed: boolean, value: Json, errorKey: string | null, payload: Json, limits: Limits, cuts: Cuts) => string | null;

const HTTP_GROUP_NAMES: Record<string, [string, string]> = {
  JavaScripts: ['script', 'scripts'],
  CSS: ['stylesheet', 'stylesheets'],
  Images: ['image', 'images'],
  Iframes: ['iframe', 'iframes'],
  Media: ['media file', 'media files'],
};

function groupBreakdown(groups: Array<[string, number]>): string {
  return groups
    .filter(([, n]) => n > 0)
    .map(([g, n]) => {
      const words = Object.hasOwn(HTTP_GROUP_NAMES, g) ? HTTP_GROUP_NAMES[g] : null;
      return words ? plural(n, words[0], words[1]) : `${formatNumber(n)} ${oneLine(g, 30)}`;
    })
    .join(', ');
}

/** The parts of a URL that break the format rule of seo_friendly_url (checks.md §5.1). */
function urlFormatProblems(url: string): string[] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [];
  }
  let path = parsed.pathname;
  try {
    path = decodeURIComponent(path);
  } catch {
    // keep the raw path, as the check does
  }
  const problems: string[] = [];
  if (path.includes('_')) problems.push('underscores');
  if (path.includes(' ')) problems.push('spaces');
  if (/\p{Lu}/u.test(path)) problems.push('capital letters');
  const params = parsed.search.slice(1).split('&').filter((p) => p !== '').length;
  if (params > 2) problems.push(`${params} query parameters`);
  return problems;
}

const DESCRIBERS: Record<CheckName, Describer> = {
  title(passed, value, key, payload, limits) {
    const min = limit(payload, 'min', limits.minTitle);
    const max = limit(payload, 'max', limits.maxTitle);
    const title = str(value);
    if (key === 'missing') return 'No title tag, or it is blank.';
    if (key === 'too_many') return 'The page has more than one title tag.';
    if (title === null) return null;
    if (key === 'length') return `Title is ${lengthOf(title)}; keep it between ${min} and ${max}.`;
    return passed ? `Title is ${lengthOf(title)} (limit ${min}–${max}).` : null;
  },
  meta_description(passed, value, key) {
    if (key === 'missing') return 'No meta description.';
    const text = str(value);
    return passed && text !== null ? `Meta description is ${lengthOf(text)}.` : null;
  },
  headings(passed, value, key, _payload, _limits, cuts) {
    const groups = groupSizes(value, cuts.value);
    const h1 = groups?.find(([level]) => level === 'h1')?.[1] ?? 0;
    const others = groups ? sum(groups) - h1 : 0;
    const rest = others > 0 ? `, and ${plural(others, 'other heading')}` : '';
    if (key === 'missing') return others > 0 ? `No h1 heading (${plural(others, 'other heading')}).` : 'No headings at all.';
    if (key === 'duplicate') return 'The h1 heading repeats the page title.';
    if (key === 'too_many') return groups ? `${formatNumber(h1)} h1 headings; use exactly one.` : 'More than one h1 heading.';
    if (!passed || groups === null || h1 < 1) return null;
    const first = isRecord(value) && Array.isArray(value.h1) ? str(value.h1[0]) : null;
    return first === null ? `One h1 heading${rest}.` : `One h1 heading, ${quote(first, 50)}${rest}.`;
  },
  content_keywords(passed, value, key, payload, _limits, cuts) {
    if (key === 'missing') {
      const words = strings(payload);
      if (words === null) return 'None of the title’s words appear in the page’s text.';
      if (countOf(words, cuts.payload()) === 0) return 'No title words to look for (no title, or only short and common words).';
      return `None of the title’s words appear in the text (looked for ${listing(words, 4, 25, cuts.payload())}).`;
    }
    const found = strings(value);
    return passed && found !== null && countOf(found, cuts.value()) > 0
      ? `Title words found in the text: ${listing(found, 5, 25, cuts.value())}.`
      : null;
  },
  image_keywords(passed, _value, key, payload, _limits, cuts) {
    if (key === 'missing') {
      return Array.isArray(payload) ? `${plural(countOf(payload, cuts.payload()), 'image')} without alt text.` : 'Some images have no alt text.';
    }
    return passed ? 'Every image has alt text.' : null;
  },
  image_format(passed, value, key, payload, _limits, cuts) {
    const formats = strings(value)?.slice(0, 5).map((f) => oneLine(f, 12)) ?? [];
    const allowed = formats.length > 0 ? `${formats.join(', ')} or SVG` : 'a modern format';
    if (key === 'bad_format') {
      return Array.isArray(payload)
        ? `${plural(countOf(payload, cuts.payload()), 'image')} not in ${allowed}.`
        : `Some images are not in ${allowed}.`;
    }
    return passed ? `Every image is in ${allowed}.` : null;
  },
  in_page_links(passed, value, key, payload, limits, cuts) {
    const groups = groupSizes(value, cuts.value);
    if (groups === null) return key === 'too_many' ? `Over ${formatNumber(limit(payload, 'max', limits.maxLinks))} links.` : null;
    const total = sum(groups);
    const count = (g: string) => groups.find(([k]) => k === g)?.[1] ?? 0;
    const split = `${formatNumber(count('Internals'))} internal, ${formatNumber(count('Externals'))} external`;
    if (key === 'too_many') return `${plural(total, 'link')} (${split}); keep it at most ${formatNumber(limit(payload, 'max', limits.maxLinks))}.`;
    if (!passed) return null;
    return total === 0 ? 'No links on the page.' : `${plural(total, 'link')}: ${split}.`;
  },
  load_time(passed, value, key, payload, limits) {
    if (!isNum(value)) return null;
    const max = formatNumber(limit(payload, 'max', limits.loadTime));
    if (key === 'too_slow') return `Load time ${formatNumber(value)} s; keep it at most ${max} s.`;
    return passed ? `Load time ${formatNumber(value)} s (limit ${max} s).` : null;
  },
  page_size(passed, value, key, payload, limits) {
    if (!isNum(value)) return null;
    const max = formatBytes(limit(payload, 'max', limits.pageSize));
    if (key === 'too_large') return `Page size ${formatBytes(value)}; keep it at most ${max}.`;
    return passed ? `Page size ${formatBytes(value)} (limit ${max}).` : null;
  },
  http_requests(passed, value, key, payload, limits, cuts) {
    const groups = groupSizes(value, cuts.value);
    const max = formatNumber(limit(payload, 'max', limits.httpRequests));
    if (groups === null) return key === 'too_many' ? `Over ${max} requests.` : null;
    const total = sum(groups);
    const detail = total > 0 ? ` (${groupBreakdown(groups)})` : '';
    if (key === 'too_many') return `${plural(total, 'request')}${detail}; keep it at most ${max}.`;
    if (!passed) return null;
    return total === 0 ? 'No requests for scripts, stylesheets, images or iframes.' : `${plural(total, 'request')}${detail}.`;
  },
  defer_javascript(passed, _value, key, payload, _limits, cuts) {
    if (key === 'missing') {
      const n = Array.isArray(payload) ? countOf(payload, cuts.payload()) : 0;
      return Array.isArray(payload)
        ? `${plural(n, 'script')} without defer or async ${n === 1 ? 'blocks' : 'block'} rendering.`
        : 'Some scripts block rendering.';
    }
    return passed ? 'No render-blocking scripts.' : null;
  },
  dom_size(passed, value, key, payload, limits) {
    if (!isNum(value)) return null;
    const max = formatNumber(limit(payload, 'max', limits.maxDomNodes));
    if (key === 'too_many') return `${plural(value, 'element')}; keep it at most ${max}.`;
    return passed ? `${plural(value, 'element')} (limit ${max}).` : null;
  },
  text_compression(passed, value, key) {
    const size = isNum(value) ? ` (${formatBytes(value)} transferred)` : '';
    if (key === 'missing') return `The HTML is sent uncompressed${size}.`;
    return passed ? `The HTML is sent compressed${size}.` : null;
  },
  structured_data(passed, value, key, _payload, _limits, cuts) {
    if (key === 'missing') return 'No Open Graph, Twitter card or Schema.org data.';
    if (!passed || !isRecord(value) || cuts.value() > 0) return null;
    const parts: string[] = [];
    for (const [group, data] of Object.entries(value)) {
      const n = (Array.isArray(data) ? data.length : isRecord(data) ? Object.keys(data).length : 0) + cuts.value(group);
      if (group === 'Schema.org') parts.push(plural(n, 'Schema.org item'));
      else if (group === 'Open Graph' || group === 'Twitter') parts.push(`${plural(n, `${group} tag`)}`);
      else parts.push(oneLine(group, 30));
    }
    return parts.length > 0 ? `Found ${listing(parts, 3, 40)}.` : null;
  },
  meta_viewport(passed, value, key) {
    if (key === 'missing') return 'No meta viewport tag.';
    const text = str(value);
    return passed && text !== null ? `Viewport set to ${quote(text)}.` : null;
  },
  https_encryption(passed, _value, key) {
    if (key === 'missing') return 'Served over plain HTTP, not HTTPS.';
    return passed ? 'Served over HTTPS.' : null;
  },
  seo_friendly_url(passed, value, key) {
    if (key === 'missing') return 'No word of the URL’s host or path appears in the title.';
    if (key === 'bad_format') {
      const problems = typeof value === 'string' ? urlFormatProblems(value) : [];
      return problems.length > 0
        ? `The URL has ${listing(problems, 4)}.`
        : 'The URL has underscores, spaces, capital letters or more than 2 query parameters.';
    }
    return passed ? 'The URL is readable and contains a word from the title.' : null;
  },
  language(passed, value, key) {
    if (key === 'missing') return 'No lang attribute on the html element.';
    const lang = str(value);
    return passed && lang !== null ? `Language declared as ${quote(lang, 35)}.` : null;
  },
  favicon(passed, value, key) {
    if (key === 'missing') return 'No icon link in the head, and no icon at /favicon.ico.';
    const url = str(value);
    if (!passed || url === null) return null;
    return url.length <= 100 ? `Favicon found at ${oneLine(url, 100)}.` : 'Favicon found.';
  },
  content_length(passed, value, key, payload, limits) {
    if (!isNum(value)) return null;
    const min = formatNumber(limit(payload, 'min', limits.minWords));
    if (key === 'too_few') return `${plural(value, 'word')} of text; aim for at least ${min}.`;
    return passed ? `${plural(value, 'word')} of text (minimum ${min}).` : null;
  },
  text_html_ratio(passed, value, key, payload, limits) {
    if (!isNum(value)) return null;
    const min = formatNumber(limit(payload, 'min', limits.minTextRatio));
    if (key === 'too_small') return `Text is ${formatNumber(value)}% of the HTML; aim for at least ${min}%.`;
    return passed ? `Text is ${formatNumber(value)}% of the HTML (minimum ${min}%).` : null;
  },
  charset(passed, value, key) {
    if (key === 'missing') return 'No character encoding declared.';
    const charset = str(value);
    return passed && charset !== null ? `Character encoding declared as ${quote(charset, 35)}.` : null;
  },
  deprecated_html_tags(passed, _value, key, payload, _limits, cuts) {
    if (key === 'bad_tags') {
      // Tags left out of the report leave the total unknown.
      if (!isRecord(payload) || cuts.payload() > 0) return 'The page uses deprecated HTML tags.';
      const tags = Object.entries(payload).filter(([, n]) => isNum(n));
      const total = tags.reduce((n, [, c]) => n + (c as number), 0);
      const list = tags.map(([tag, n]) => `<${oneLine(tag, 15)}> ×${formatNumber(n as number)}`);
      return tags.length > 0 ? `${plural(total, 'deprecated tag')}: ${listing(list, 5)}.` : 'The page uses deprecated HTML tags.';
    }
    return passed ? 'No deprecated HTML tags.' : null;
  },
  '404_page'(passed, _value, key) {
    if (key === 'missing') return 'A URL that does not exist did not answer 404 or 410.';
    return passed ? 'A URL that does not exist answers 404 as it should.' : null;
  },
  noindex(passed, value, key) {
    if (key === 'missing') {
      const directive = str(value);
      return directive === null ? 'The page tells search engines not to index it.' : `Indexing blocked by ${quote(directive, 50)}.`;
    }
    return passed ? 'No noindex directive: search engines may index the page.' : null;
  },
  robots(passed, _value, key, payload) {
    if (key === 'failed') {
      const rules = strings(payload);
      if (rules && rules.length > 0) return `Blocked by robots.txt rule ${oneLine(rules[0], 60)}.`;
      return 'robots.txt could not be read (server error or no answer), so crawlers stay away.';
    }
    return passed ? 'robots.txt allows crawling this URL.' : null;
  },
  sitemap(passed, value, key, _payload, _limits, cuts) {
    if (key === 'failed') return 'No sitemap listed in robots.txt or found at /sitemap.xml.';
    const urls = strings(value);
    if (!passed || urls === null || countOf(urls, cuts.value()) === 0) return null;
    if (countOf(urls, cuts.value()) === 1 && urls[0].length <= 100) return `Sitemap found at ${oneLine(urls[0], 100)}.`;
    return `${plural(countOf(urls, cuts.value()), 'sitemap')} found.`;
  },
  mixed_content(passed, _value, key, payload, _limits, cuts) {
    if (key === 'failed') {
      const groups = groupSizes(payload, cuts.payload);
      if (groups === null || sum(groups) === 0) return 'Some resources are loaded over plain HTTP.';
      return `${plural(sum(groups), 'resource')} loaded over plain HTTP: ${groupBreakdown(groups)}.`;
    }
    return passed ? 'No resources loaded over plain HTTP.' : null;
  },
  server_signature(passed, value, key, _payload, _limits, cuts) {
    const headers = strings(value);
    const left = cuts.value();
    if (key === 'failed') {
      return headers && headers.length > 0
        ? `Headers reveal the server software: ${listing(headers, 2, 40, left)}.`
        : 'Headers reveal the server software.';
    }
    if (!passed) return null;
    return headers && headers.length > 0 ? `No version revealed (Server: ${listing(headers, 2, 40, left)}).` : 'No Server or X-Powered-By header.';
  },
  unsafe_cross_origin_links(passed, _value, key, payload, _limits, cuts) {
    if (key === 'failed') {
      const n = Array.isArray(payload) ? countOf(payload, cuts.payload()) : 0;
      return Array.isArray(payload)
        ? `${plural(n, 'external link')} ${n === 1 ? 'opens' : 'open'} a new tab without noopener.`
        : 'Some external links open a new tab without noopener.';
    }
    return passed ? 'Every link opening a new tab is safe.' : null;
  },
  plaintext_email(passed, _value, key, payload, _limits, cuts) {
    if (key === 'failed') {
      const found = strings(payload);
      const left = cuts.payload();
      return found && found.length > 0
        ? `${plural(countOf(found, left), 'e-mail address', 'e-mail addresses')} in the page: ${listing(found, 2, 40, left)}.`
        : 'E-mail addresses appear in plain text.';
    }
    return passed ? 'No e-mail addresses in plain text.' : null;
  },
  social(passed, value, key, _payload, _limits, cuts) {
    if (key === 'missing') return 'No links to social network profiles.';
    if (!passed || !isRecord(value)) return null;
    const networks = Object.keys(value);
    return networks.length > 0 ? `Links to ${listing(networks, 8, 20, cuts.value())}.` : null;
  },
  inline_css(passed, _value, key, payload, _limits, cuts) {
    if (key === 'failed') {
      if (!Array.isArray(payload)) return 'Elements use inline style attributes.';
      // The styles beyond the sample are counted in `omitted` (reports before it said "at least").
      const n = countOf(payload, cuts.payload());
      return `${plural(n, 'element')} ${n === 1 ? 'has' : 'have'} a style attribute.`;
    }
    return passed ? 'At most one element has a style attribute.' : null;
  },
};

// ---------------------------------------------------------------------------------------------
// A head check that failed because an element closed the head early (checks.md §4.1 "Head").

/** What each head check's `missing` says when `errors.head_closed_by` names the cause. */
const HEAD_CLOSED_LEADS: Partial<Record<CheckName, string>> = {
  title: 'No title tag in the head',
  meta_description: 'No meta description in the head',
  meta_viewport: 'No meta viewport tag in the head',
  charset: 'No character encoding declared in the head',
  favicon: 'No icon link in the head, and no icon at /favicon.ico',
};

/** The stored `head_closed_by` made safe (`<iframe>`, or "#text" for text); null when it is anything else. */
function headCloser(errors: Record<string, Json>): string | null {
  const closer = errors.head_closed_by;
  if (closer === '#text') return closer;
  if (typeof closer !== 'string' || !/^<[^<>]+>$/.test(closer)) return null;
  const name = oneLine(closer.slice(1, -1), 24);
  return name === '' ? null : `<${name}>`;
}

/** e.g. "…: an <iframe> closed the head early, so the tag after it counts as body content. Move …" */
function headClosedLine(lead: string, closer: string): string {
  if (closer === '#text') {
    return `${lead}: stray text closed the head early, so the tag after it counts as body content. Move the tag above the text, or remove the text.`;
  }
  const article = /^<[aeiou]/.test(closer) ? 'an' : 'a';
  return `${lead}: ${article} ${closer} closed the head early, so the tag after it counts as body content. Move the tag above the ${closer}, or move the ${closer} into the body.`;
}

/**
 * One line (no newline) saying what a stored check object found, e.g. "Title is 81 characters;
 * keep it between 1 and 60." About 140 characters at most, except that a head check whose tag an
 * early-closing element pushed out of the head also says what closed it and how to fix that
 * (up to about 260). Never throws.
 */
export function describeCheck(name: CheckName, result: CheckResult, config: AnalysisConfig = DEFAULT_CONFIG): string {
  const passed = isRecord(result) && result.passed === true;
  try {
    const errors = isRecord(result) && isRecord(result.errors) ? result.errors : null;
    const errorKey = !passed && errors ? (Object.keys(errors)[0] ?? null) : null;
    const lead = errorKey === 'missing' && Object.hasOwn(HEAD_CLOSED_LEADS, name) ? HEAD_CLOSED_LEADS[name] : undefined;
    const closer = lead !== undefined ? headCloser(errors!) : null;
    if (lead !== undefined && closer !== null) return headClosedLine(lead, closer);
    const describe = Object.hasOwn(DESCRIBERS, name) ? DESCRIBERS[name] : null;
    const value = isRecord(result) ? result.value : undefined;
    const cuts = cutsOf(isRecord(result) ? result.omitted : undefined, errorKey);
    const line = describe?.(passed, value, errorKey, errorKey ? errors![errorKey] : undefined, config.limits, cuts);
    if (line) return line;
  } catch {
    // fall through to the generic line: a stored report must always render
  }
  return passed ? 'Passed.' : 'Failed.';
}
