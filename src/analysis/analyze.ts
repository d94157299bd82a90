// The engine's entry: URL in, report out. Fetches the page and its side resources into one
// PageSnapshot (docs/checks.md §2), parses it once into artifacts, and runs every check (checks/index.ts).
//
// Order of work: the page; robots.txt and the 404 probe as soon as the final response is
// accepted on its headers, in parallel with reading, decoding and parsing the body; the
// favicon probe once the parsed page shows no declared icon; the sitemap.xml probe once
// robots.txt lists no sitemap. Nothing outlives the returned promise: the session is closed
// (tasks aborted and awaited, sockets destroyed) whether the analysis succeeds or not.
import { DEFAULT_CONFIG, type AnalysisConfig } from './config.js';
import { inProcessEngine, type Engine, type ParsedPage } from './engine.js';
import { FetchError } from './errors.js';
import type { Resolver } from './fetch/address-guard.js';
import { fetchPage } from './fetch/page.js';
import { FetchSession, isHttpUrl, type GuardHooks } from './fetch/session.js';
import { fetchRobots, probeFavicon, probeNotFound, probeSitemap } from './fetch/side-fetches.js';
import { robotsSitemapUrls } from './probes.js';
import type { NotFoundProbe, PageSnapshot, RobotsFetch, SitemapProbe } from './types.js';
import type { AnalysedPage } from './results.js';
import { MAX_URL_LENGTH } from './urls.js';
import { nowTimestamp, type Clock } from '../time.js';

export interface AnalyzeOptions {
  config?: AnalysisConfig; // default DEFAULT_CONFIG
  signal?: AbortSignal; // caller cancellation (e.g. HTTP client went away)
  resolver?: Resolver; // DNS, injectable
  clock?: Clock; // for generated_at
  /** Observes (and may veto) each connection; test-only relaxation of the address guard. */
  guard?: GuardHooks;
  /** Where parsing and the checks run: this thread by default, worker threads in the server. */
  engine?: Engine;
  /** Whose analysis this is (a shared engine takes turns between accounts). */
  account?: string | number;
  /**
   * Renders the page in a browser (docs/rendering.md): given the fetch's final URL, resolves with
   * the serialised DOM, on which the checks then run; the fetch-level figures (status, headers,
   * bytes, load time) and the side fetches stay the HTTP fetch's. Its rejection is the analysis's.
   */
  render?: PageRenderer;
}

/** The page as a browser built it: its serialised DOM. */
export type PageRenderer = (url: string, signal?: AbortSignal) => Promise<{ html: string }>;

export { MAX_URL_LENGTH } from './urls.js';

const SCHEME = /^([a-z][a-z0-9+.-]*):/i;

/** "example.com", "example.com:8080/x", "//example.com": no scheme given, so https is meant. */
function hasScheme(input: string): boolean {
  const match = SCHEME.exec(input);
  if (match === null) return false;
  // "host:8080" is a host with a port, not a scheme "host".
  return !/^\d+(?:[/?#]|$)/.test(input.slice(match[0].length));
}

/**
 * The URL to analyse. A bare `example.com` gets `https://` (docs/api.md#reports). Refused with
 * `invalid_url`: blank, longer than 2048 characters, unparsable, not http(s), without a host,
 * or with credentials (they would be sent to the site and stored in the report's url).
 * The fragment is dropped: it is never sent.
 */
export function normalizeTargetUrl(input: string): URL {
  const trimmed = input.trim();
  if (trimmed === '') throw new FetchError('invalid_url', { message: 'The address is empty.' });
  if (trimmed.length > MAX_URL_LENGTH) {
    throw new FetchError('invalid_url', { message: `The address is longer than ${MAX_URL_LENGTH} characters.` });
  }
  const candidate = hasScheme(trimmed) ? trimmed : `https://${trimmed.replace(/^\/\//, '')}`;
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    throw new FetchError('invalid_url');
  }
  if (!isHttpUrl(url) || url.hostname === '') throw new FetchError('invalid_url');
  if (url.username !== '' || url.password !== '') {
    throw new FetchError('invalid_url', { message: 'The address must not contain a user name or password.' });
  }
  url.hash = '';
  if (url.href.length > MAX_URL_LENGTH) {
    throw new FetchError('invalid_url', { message: `The address is longer than ${MAX_URL_LENGTH} characters.` });
  }
  return url;
}

/** The report's project: the final URL's host without one leading "www.". */
export function projectOf(finalUrl: string): string {
  return new URL(finalUrl).hostname.replace(/^www\./i, '');
}

export async function fetchSnapshot(
  url: string | URL,
  options: AnalyzeOptions = {},
): Promise<{ snapshot: PageSnapshot; parsed: ParsedPage }> {
  const config = options.config ?? DEFAULT_CONFIG;
  const target = normalizeTargetUrl(typeof url === 'string' ? url : url.href);
  const session = new FetchSession({ config, resolver: options.resolver, signal: options.signal, guard: options.guard });
  let parsed: ParsedPage | null = null;
  try {
    let early: { robots: Promise<RobotsFetch>; notFound: Promise<NotFoundProbe> } | undefined;
    const page = await fetchPage(session, target, {
      onAccepted: (finalUrl) => {
        early = {
          robots: session.track(fetchRobots(session, finalUrl.origin)),
          notFound: session.track(probeNotFound(session, finalUrl.origin)),
        };
      },
    });
    // fetchPage calls onAccepted before it can succeed.
    const { robots, notFound } = early!;
    const origin = page.finalUrl.origin;
    const sitemap = session.track(
      robots.then((r): Promise<SitemapProbe> => {
        const listed = 'error' in r || r.status < 200 || r.status > 299 ? [] : robotsSitemapUrls(r.body, r.url);
        return listed.length > 0 ? Promise.resolve(null) : probeSitemap(session, origin);
      }),
    );
    const finalUrl = page.finalUrl.href;
    // Rendered after the fetch succeeded (a page the fetch refuses is never opened in the browser),
    // while robots.txt and the 404 probe go on. Links resolve against the fetch's final URL.
    const html = options.render ? (await options.render(finalUrl, options.signal)).html : page.html;
    options.signal?.throwIfAborted();
    parsed = await (options.engine ?? inProcessEngine).parse(html, finalUrl, options.account);
    const favicon = parsed.declaredIcon === null ? session.track(probeFavicon(session, origin)) : null;
    const snapshot: PageSnapshot = {
      requestedUrl: target.href,
      finalUrl,
      status: page.status,
      headers: page.headers,
      wireBytes: page.wireBytes,
      html,
      charsetUsed: page.charsetUsed,
      loadTime: page.loadTime,
      robots: await robots,
      notFoundProbe: await notFound,
      faviconProbe: await favicon,
      sitemapProbe: await sitemap,
    };
    options.signal?.throwIfAborted();
    return { snapshot, parsed };
  } catch (error) {
    parsed?.discard();
    throw error;
  } finally {
    await session.close();
  }
}

/** Fetches and analyses one page. Rejects with FetchError, or with the reason of an aborted `signal`. */
export async function analyzeUrl(url: string | URL, options: AnalyzeOptions = {}): Promise<AnalysedPage> {
  const config = options.config ?? DEFAULT_CONFIG;
  const { snapshot, parsed } = await fetchSnapshot(url, options);
  const { result, results } = await parsed.check(snapshot, config);
  return {
    url: snapshot.finalUrl,
    project: projectOf(snapshot.finalUrl),
    result,
    results,
    generated_at: nowTimestamp(options.clock),
  };
}
