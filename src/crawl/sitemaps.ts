// Sitemap bodies (sitemaps.org protocol) to the URLs they list. Pure: the crawler fetches the
// bytes through the guarded fetcher (which already undid Content-Encoding) and passes them here.
// Every input gives a result, never an exception: a hostile sitemap is `invalid`, not a crash.
import { gunzipSync } from 'node:zlib';
import { type EntityDecoderOptions, XMLParser, XMLValidator } from 'fast-xml-parser';
import { isHttp, parseUrl } from '../analysis/urls.js';

export type ParsedSitemap =
  | { kind: 'urlset'; urls: string[] }
  | { kind: 'index'; sitemaps: string[] }
  | { kind: 'invalid'; reason: string };

/** sitemaps.org: at most 50 MiB uncompressed per file. */
export const SITEMAP_MAX_BYTES = 50 * 1024 * 1024;
/** sitemaps.org: at most 50,000 URLs (or sitemaps, in an index) per file; further ones are ignored. */
export const SITEMAP_MAX_URLS = 50_000;

const invalid = (reason: string): ParsedSitemap => ({ kind: 'invalid', reason });

export function parseSitemap(body: Uint8Array): ParsedSitemap {
  try {
    return parseBytes(body);
  } catch (error) {
    // Nothing below is expected to throw; this keeps the promise if a parser version does.
    return invalid(`unreadable: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function parseBytes(body: Uint8Array): ParsedSitemap {
  let bytes = body;
  // Gzip by its magic bytes: servers send `.xml.gz` files as application/octet-stream, or as
  // gzip Content-Encoding that the fetcher has already undone, so neither name nor type tells.
  if (bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b) {
    try {
      // The cap stops a decompression bomb before it is allocated.
      bytes = gunzipSync(bytes, { maxOutputLength: SITEMAP_MAX_BYTES });
    } catch (error) {
      return (error as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE' ? tooLarge() : invalid('not valid gzip');
    }
  }
  if (bytes.length > SITEMAP_MAX_BYTES) return tooLarge();
  // sitemaps.org requires UTF-8; the decoder drops a BOM and replaces invalid bytes.
  const text = new TextDecoder('utf-8').decode(bytes);
  const start = text.trimStart();
  if (start === '') return invalid('empty');
  return start.startsWith('<') ? parseXml(text) : parsePlainText(text);
}

function tooLarge(): ParsedSitemap {
  return invalid(`larger than ${SITEMAP_MAX_BYTES / (1024 * 1024)} MiB uncompressed`);
}

/** sitemaps.org's text format: one absolute URL per line; lines that are not one are skipped. */
function parsePlainText(text: string): ParsedSitemap {
  const urls = new Urls();
  for (const line of text.split('\n')) {
    const candidate = line.trim();
    const url = candidate === '' ? null : parseUrl(candidate);
    if (url && isHttp(url) && !urls.add(candidate)) break;
  }
  return urls.size > 0 ? { kind: 'urlset', urls: urls.list() } : invalid('neither XML nor a list of URLs');
}

// The five predefined XML entities and character references, nothing else. DOCTYPE entities
// are never expanded (they stay literal text), which rules out billion-laughs and external
// entities whatever the parser's own limits are.
const PREDEFINED: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const REFERENCE = /&(?:#([0-9]{1,7})|#[xX]([0-9a-fA-F]{1,6})|(amp|lt|gt|quot|apos));/g;

function decodeReference(match: string, decimal?: string, hex?: string, name?: string): string {
  if (name !== undefined) return PREDEFINED[name];
  const code = decimal !== undefined ? Number.parseInt(decimal, 10) : Number.parseInt(hex ?? '', 16);
  const valid = code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff);
  return valid ? String.fromCodePoint(code) : match;
}

const xmlEntities: EntityDecoderOptions = {
  setExternalEntities: () => {},
  addInputEntities: () => {},
  reset: () => {},
  setXmlVersion: () => {},
  decode: (text) => (text.includes('&') ? text.replace(REFERENCE, decodeReference) : text),
};

const parser = new XMLParser({
  // `<sm:urlset xmlns:sm="…">` is the same document as `<urlset xmlns="…">`.
  removeNSPrefix: true,
  ignoreAttributes: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  // Text stays text: a numeric-looking value must not become a number.
  parseTagValue: false,
  entityDecoder: xmlEntities,
  // One <url> would otherwise come back as an object rather than a one-item array.
  isArray: (_name, jPath) => jPath === 'urlset.url' || jPath === 'sitemapindex.sitemap',
});

function parseXml(text: string): ParsedSitemap {
  // The parser is lenient (unclosed and mismatched tags pass); the validator rejects what
  // is not well-formed, as search engines do.
  const validation = XMLValidator.validate(text);
  if (validation !== true) return invalid(`malformed XML: ${validation.err.msg} (line ${validation.err.line})`);
  let document: unknown;
  try {
    document = parser.parse(text);
  } catch (error) {
    // E.g. an oversized DOCTYPE entity or a `<__proto__>` element, which the parser refuses.
    return invalid(`malformed XML: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!isRecord(document)) return invalid('no root element');
  const roots = Object.keys(document).filter((key) => key !== '#text');
  if (roots.length !== 1 || Array.isArray(document[roots[0]])) return invalid('more than one root element');
  const [root] = roots;
  if (root === 'urlset') return { kind: 'urlset', urls: locs(document.urlset, 'url') };
  if (root === 'sitemapindex') return { kind: 'index', sitemaps: locs(document.sitemapindex, 'sitemap') };
  return invalid(`unknown root element <${root}>`);
}

/** The first <loc> of each `entry` element, trimmed; blank ones dropped, duplicates kept once. */
function locs(root: unknown, entry: string): string[] {
  const urls = new Urls();
  const entries = isRecord(root) ? root[entry] : undefined;
  if (!Array.isArray(entries)) return [];
  for (const item of entries) {
    if (!isRecord(item)) continue;
    const loc = Array.isArray(item.loc) ? item.loc[0] : item.loc;
    if (typeof loc !== 'string') continue;
    const url = loc.trim();
    if (url !== '' && !urls.add(url)) break;
  }
  return urls.list();
}

/** Distinct URLs in first-seen order, at most SITEMAP_MAX_URLS. */
class Urls {
  private readonly seen = new Set<string>();

  get size(): number {
    return this.seen.size;
  }

  /** False once the list is full: the caller stops reading. */
  add(url: string): boolean {
    if (this.seen.size >= SITEMAP_MAX_URLS) return false;
    this.seen.add(url);
    return true;
  }

  list(): string[] {
    return [...this.seen];
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
