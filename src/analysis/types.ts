// Shapes shared by the engine, the CLI and the API. The engine itself is pure: it knows
// nothing of HTTP servers or databases.

export type Importance = 'high' | 'medium' | 'low';

/** One entry of `results`: keys in this order; `errors` only on failure, with exactly one key (a head check may add `head_closed_by` after it). */
export interface CheckResult {
  passed: boolean;
  importance: Importance;
  value: unknown;
  errors?: Record<string, unknown>;
  /**
   * Only when the report cut something (bounds.ts): the JSON Pointer of each cut list or object
   * within this check object → the number of items or entries left out.
   */
  omitted?: Record<string, number>;
}

/** Response headers, lower-cased names, every value kept (multi-valued headers stay apart). */
export type HeaderMap = Record<string, string[]>;

/** Why a fetch failed; `message` is user-facing. */
export type FetchFailureReason =
  | 'invalid_url'
  | 'dns'
  | 'refused'
  | 'timeout'
  | 'tls'
  | 'too_large'
  | 'not_html'
  | 'blocked_address'
  | 'too_many_redirects'
  | 'bad_status'
  | 'bad_encoding'
  | 'network'
  | 'too_complex';

export type SideFetchOutcome<T> = T | { error: FetchFailureReason };

/** robots.txt: status and (for 2xx) the first 500 KiB of its text. */
export type RobotsFetch = SideFetchOutcome<{ url: string; status: number; body: string }>;
/** The 404 probe: its URL and final status after redirects (body not read). */
export type NotFoundProbe = { url: string; status: number } | { url: string; error: FetchFailureReason };
/** /favicon.ico: null when the page declares an icon (then it is not fetched). */
export type FaviconProbe = SideFetchOutcome<{ status: number; contentType: string | null }> | null;
/** /sitemap.xml: null when robots.txt lists a sitemap. `bodyStart`: first bytes as text. */
export type SitemapProbe = SideFetchOutcome<{
  url: string;
  status: number;
  contentType: string | null;
  bodyStart: string;
}> | null;

/**
 * Everything fetched for one report. Every check is a pure function of this plus the config,
 * so checks can be tested from literals.
 */
export interface PageSnapshot {
  requestedUrl: string;
  /** The URL that finally answered, without its fragment. */
  finalUrl: string;
  status: number;
  /** The final response's headers. */
  headers: HeaderMap;
  /** Body bytes on the wire: after de-chunking, before content decoding. */
  wireBytes: number;
  /** The decoded document. */
  html: string;
  /** The encoding used to decode `html` (a WHATWG encoding name, e.g. "utf-8", "windows-1252"). */
  charsetUsed: string;
  /** Seconds from the first request to the last body byte, 3 decimals. */
  loadTime: number;
  robots: RobotsFetch;
  notFoundProbe: NotFoundProbe;
  faviconProbe: FaviconProbe;
  sitemapProbe: SitemapProbe;
}
