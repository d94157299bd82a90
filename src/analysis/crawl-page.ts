// The engine's side of a site crawl (src/crawl/). A crawl shares what the analysis of one page
// would fetch for its origin (robots.txt, the 404 probe, /favicon.ico, /sitemap.xml) between all
// the pages of that origin, and fetches each page with one request, following no redirect (a
// redirect is a page of its own in the crawl). So every request a crawl makes is one of these
// calls, made when the crawl's per-host gate says so (`beforeRequest`).
import { DEFAULT_CONFIG } from './config.js';
import { inProcessEngine } from './engine.js';
import { FetchError } from './errors.js';
import { ACCEPT_ENCODING, parseContentEncoding, readBody } from './fetch/body.js';
import { fetchCrawlAnswer } from './fetch/page.js';
import { discardBody, FetchSession } from './fetch/session.js';
import { fetchRobots, probeFavicon, probeNotFound, probeSitemap } from './fetch/side-fetches.js';
import type { PageOutline } from './outline.js';
import { jsChanges, type JsChanges } from './render-diff.js';
import { projectOf, type AnalyzeOptions } from './analyze.js';
import { robotsSitemapUrls } from './probes.js';
import type { FaviconProbe, FetchFailureReason, NotFoundProbe, RobotsFetch, SitemapProbe } from './types.js';
import type { AnalysedPage } from './results.js';
import { nowTimestamp } from '../time.js';

/** What every page of one origin shares (plain data: a crawl stores it for its other instances). */
export interface OriginResources {
  robots: RobotsFetch;
  notFound: NotFoundProbe;
  favicon: Exclude<FaviconProbe, null>;
  /** null when robots.txt lists a sitemap (as for a single analysis). */
  sitemap: SitemapProbe;
}

export interface CrawlFetchOptions extends AnalyzeOptions {
  /** Awaited before each request starts: the crawl's per-host gate (concurrency, Crawl-delay). */
  beforeRequest?: () => Promise<void>;
  /** Called once each request has its answer (or failed): Crawl-delay also counts from there. */
  afterRequest?: () => void;
  /** Called with robots.txt as soon as it is read, before the origin's other requests (its Crawl-delay paces them). */
  afterRobots?: (robots: RobotsFetch) => void;
  /**
   * A session to fetch through and leave open (openCrawlSession): one crawl worker's pages then
   * share its keep-alive connection instead of opening one each. Without it, a session of
   * its own is opened and closed.
   */
  session?: FetchSession;
}

/** A fetch session for a crawl worker, closed by the caller; its signal ends every fetch in it. */
export function openCrawlSession(options: CrawlFetchOptions = {}): FetchSession {
  return sessionFor(options);
}

export type CrawlAnswer =
  | {
      kind: 'page';
      status: number;
      page: AnalysedPage;
      outline: PageOutline;
      /** Milliseconds from the request to the response's headers. */
      headersMs: number;
      /** The `Link: <…>; rel="canonical"` header's URLs, resolved. */
      headerCanonicals: string[];
      /** The checks and the outline read the DOM the browser built (`render` given, and it rendered). */
      rendered: boolean;
      /** With `render`: why the page could not be rendered (its raw HTML was analysed instead); else null. */
      renderError: string | null;
      /** A rendered page: what its scripts changed against the raw HTML; else null. */
      js: JsChanges | null;
    }
  | { kind: 'other'; status: number; location: string | null; contentType: string | null; headersMs: number }
  | { kind: 'failed'; reason: FetchFailureReason; message: string };

/** One request of a crawl, made when its gate says so; the gate hears when it is answered. */
async function paced<T>(options: CrawlFetchOptions, request: () => Promise<T>): Promise<T> {
  await options.beforeRequest?.();
  try {
    return await request();
  } finally {
    options.afterRequest?.();
  }
}

function sessionFor(options: CrawlFetchOptions): FetchSession {
  return new FetchSession({
    config: options.config ?? DEFAULT_CONFIG,
    resolver: options.resolver,
    signal: options.signal,
    guard: options.guard,
  });
}

/** robots.txt, the 404 probe, /favicon.ico and (when robots.txt lists none) /sitemap.xml: one request at a time. */
export async function fetchOriginResources(origin: string, options: CrawlFetchOptions = {}): Promise<OriginResources> {
  const session = sessionFor(options);
  try {
    const robots = await paced(options, () => fetchRobots(session, origin));
    options.afterRobots?.(robots);
    const notFound = await paced(options, () => probeNotFound(session, origin));
    const favicon = await paced(options, () => probeFavicon(session, origin));
    const listed =
      'error' in robots || robots.status < 200 || robots.status > 299 ? [] : robotsSitemapUrls(robots.body, robots.url);
    let sitemap: SitemapProbe = null;
    if (listed.length === 0) {
      sitemap = await paced(options, () => probeSitemap(session, origin));
    }
    options.signal?.throwIfAborted();
    return { robots, notFound, favicon, sitemap };
  } finally {
    await session.close();
  }
}

/**
 * One page of a crawl: a single GET. An HTML 2xx answer is analysed (every check, with the
 * origin's shared resources) and outlined (links, canonical); anything else is reported as it
 * answered. Never rejects but with the signal's reason.
 *
 * With `render` (a rendered crawl, docs/rendering.md) an HTML page is then loaded in the browser
 * at its URL (one more turn of the gate): the checks and the outline read the DOM it built, the
 * fetch-level figures stay the GET's, and the raw HTML is outlined too, for what the scripts
 * changed. A page the browser cannot render is analysed from its raw HTML, with the reason.
 */
export async function crawlPage(url: string, resources: OriginResources, options: CrawlFetchOptions = {}): Promise<CrawlAnswer> {
  const config = options.config ?? DEFAULT_CONFIG;
  const engine = options.engine ?? inProcessEngine;
  const session = options.session ?? sessionFor(options);
  try {
    const answer = await paced(options, () => fetchCrawlAnswer(session, new URL(url)));
    if (!('html' in answer)) return { kind: 'other', ...answer };
    const finalUrl = answer.finalUrl.href;
    let html = answer.html;
    let renderError: string | null = null;
    let rawOutline: PageOutline | null = null;
    const render = options.render;
    if (render) {
      try {
        html = (await paced(options, () => render(finalUrl, options.signal))).html;
      } catch (error) {
        if (options.signal?.aborted) throw options.signal.reason;
        renderError = error instanceof Error ? error.message : String(error);
      }
      if (renderError === null) {
        // The raw HTML's outline alone: its checks never run.
        const raw = await engine.parse(answer.html, finalUrl, options.account, true);
        raw.discard();
        rawOutline = raw.outline;
      }
    }
    const parsed = await engine.parse(html, finalUrl, options.account, true);
    const { result, results } = await parsed.check(
      {
        requestedUrl: url,
        finalUrl,
        status: answer.status,
        headers: answer.headers,
        wireBytes: answer.wireBytes,
        html,
        charsetUsed: answer.charsetUsed,
        loadTime: answer.loadTime,
        robots: resources.robots,
        notFoundProbe: resources.notFound,
        // As a single analysis would: /favicon.ico counts only when the page declares no icon.
        faviconProbe: parsed.declaredIcon === null ? resources.favicon : null,
        sitemapProbe: resources.sitemap,
      },
      config,
    );
    const outline = parsed.outline ?? { links: [], canonical: null, images: [], hreflang: [], crawl: null, view: null };
    const rendered = render !== undefined && renderError === null;
    return {
      kind: 'page',
      status: answer.status,
      page: { url: finalUrl, project: projectOf(finalUrl), result, results, generated_at: nowTimestamp(options.clock) },
      outline,
      headersMs: answer.headersMs,
      headerCanonicals: linkHeaderCanonicals(answer.headers.link ?? [], finalUrl),
      rendered,
      renderError,
      js: rendered ? compared(rawOutline, outline) : null,
    };
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason;
    if (error instanceof FetchError) {
      // An answer that proved not to be HTML only once read (no Content-Type) is still an answer.
      return { kind: 'failed', reason: error.reason, message: error.message };
    }
    return { kind: 'failed', reason: 'network', message: error instanceof Error ? error.message : String(error) };
  } finally {
    if (session !== options.session) await session.close();
  }
}

/** What the scripts changed, when both sides were outlined. */
function compared(raw: PageOutline | null, rendered: PageOutline): JsChanges | null {
  if (raw?.view == null || rendered.view === null) return null;
  return jsChanges({ ...raw, view: raw.view }, { ...rendered, view: rendered.view });
}

/**
 * The URLs of `Link:` header values whose rel names `canonical` (RFC 8288), resolved against the
 * page. A value is a comma-separated list of `<URI>; param=value` links; a comma inside `<…>` or
 * a quoted string does not end one.
 */
export function linkHeaderCanonicals(values: readonly string[], base: string): string[] {
  const found: string[] = [];
  for (const value of values) {
    for (const link of splitLinks(value)) {
      const match = /^\s*<([^>]*)>(.*)$/s.exec(link);
      if (!match) continue;
      const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^;\s]+))/i.exec(match[2]);
      const tokens = (rel?.[1] ?? rel?.[2] ?? '').toLowerCase().split(/\s+/);
      if (!tokens.includes('canonical')) continue;
      try {
        const url = new URL(match[1].trim(), base);
        url.hash = '';
        if (!found.includes(url.href)) found.push(url.href);
      } catch {
        // an unresolvable target names nothing
      }
    }
  }
  return found;
}

function splitLinks(value: string): string[] {
  const links: string[] = [];
  let start = 0;
  let inUri = false;
  let inQuote = false;
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (inQuote) {
      if (c === '\\') i++;
      else if (c === '"') inQuote = false;
    } else if (inUri) {
      if (c === '>') inUri = false;
    } else if (c === '<') inUri = true;
    else if (c === '"') inQuote = true;
    else if (c === ',') {
      links.push(value.slice(start, i));
      start = i + 1;
    }
  }
  links.push(value.slice(start));
  return links;
}

export type SitemapBytes = { url: string; status: number; bytes: Uint8Array } | { url: string; error: string };

/** A sitemap's bytes (Content-Encoding undone, at most `maxBytes`), through the same guard; redirects followed. */
export async function fetchSitemapBytes(url: string, maxBytes: number, options: CrawlFetchOptions = {}): Promise<SitemapBytes> {
  const session = sessionFor(options);
  const { request } = session.config;
  try {
    return await paced(options, () =>
      session.withDeadline(request.timeoutMs, async (signal) => {
        const final = await session.get(new URL(url), {
          signal,
          maxRedirects: request.sideMaxRedirects,
          headers: { 'user-agent': request.userAgent, accept: '*/*', 'accept-encoding': ACCEPT_ENCODING },
        });
        const status = final.response.statusCode;
        if (status < 200 || status > 299) {
          await discardBody(final.response.body);
          return { url, status, bytes: new Uint8Array() };
        }
        const codings = parseContentEncoding(final.response.headers['content-encoding']);
        const { bytes } = await readBody(final.response.body, codings, {
          maxBytes,
          overflow: 'fail',
          maxRatio: request.maxCompressionRatio,
          ratioAfterBytes: request.ratioGuardAfterBytes,
        });
        return { url, status, bytes };
      }),
    );
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason;
    return { url, error: error instanceof Error ? error.message : String(error) };
  } finally {
    await session.close();
  }
}
