// Fetching the page itself (docs/checks.md §2): one deadline for the whole redirect chain and the
// body, acceptance (2xx, HTML), the decoded-size cap, charset decoding and the timings.
import { performance } from 'node:perf_hooks';
import type { IncomingHttpHeaders } from 'node:http';
import { parseMIMEType } from 'undici';
import { FetchError } from '../errors.js';
import type { HeaderMap } from '../types.js';
import { ACCEPT_ENCODING, parseContentEncoding, readBody } from './body.js';
import { decodeHtml } from './charset.js';
import { CookieJar } from './cookies.js';
import { discardBody, firstHeader, type FetchSession } from './session.js';

export interface FetchedPage {
  finalUrl: URL;
  status: number;
  headers: HeaderMap;
  wireBytes: number;
  html: string;
  charsetUsed: string;
  loadTime: number;
  /** Milliseconds from sending the request to the final response's headers. */
  headersMs: number;
}

const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);

/** A 2xx whose Content-Type is HTML, or absent (then the body decides). */
function isHtmlSuccess(status: number, contentType: string | null): boolean {
  if (status < 200 || status > 299) return false;
  if (contentType === null) return true;
  const mime = parseMIMEType(contentType);
  return mime !== 'failure' && HTML_TYPES.has(mime.essence);
}

function locationOf(from: URL, value: string | string[] | undefined): string | null {
  const location = firstHeader(value);
  if (location === undefined) return null;
  try {
    const url = new URL(location, from);
    url.hash = '';
    return url.href;
  } catch {
    return null;
  }
}

function toHeaderMap(headers: IncomingHttpHeaders): HeaderMap {
  const map: HeaderMap = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    map[name.toLowerCase()] = Array.isArray(value) ? [...value] : [value];
  }
  return map;
}

/** Throws `not_html` unless the Content-Type is HTML or XHTML; null means "decide on the body". */
function checkContentType(contentType: string | null): void {
  if (contentType === null) return;
  const mime = parseMIMEType(contentType);
  if (mime === 'failure') throw new FetchError('not_html', { contentType });
  if (!HTML_TYPES.has(mime.essence)) throw new FetchError('not_html', { contentType: mime.essence });
}

export interface FetchPageOptions {
  /** Called once the final response is accepted on its headers: side fetches may start. */
  onAccepted?: (finalUrl: URL) => void;
}

/** What answered instead of an HTML page, when a crawler asks for every answer. */
export interface OtherAnswer {
  status: number;
  /** The redirect's Location, resolved; null when there is none or it does not resolve. */
  location: string | null;
  contentType: string | null;
  /** Milliseconds from sending the request to the response's headers. */
  headersMs: number;
}

export async function fetchPage(session: FetchSession, url: URL, options: FetchPageOptions = {}): Promise<FetchedPage> {
  const answer = await fetchAnswer(session, url, { ...options, everyAnswer: false });
  if (!('html' in answer)) throw new Error('unreachable: fetchAnswer answered without a page');
  return answer;
}

/**
 * For a crawler: one request, no redirect followed. An HTML 2xx page comes back read and
 * decoded; any other answer (a redirect, an error status, another type) comes back as
 * OtherAnswer, its body unread. Failures to get an answer still reject with FetchError.
 */
export function fetchCrawlAnswer(session: FetchSession, url: URL): Promise<FetchedPage | OtherAnswer> {
  return fetchAnswer(session, url, { everyAnswer: true });
}

async function fetchAnswer(
  session: FetchSession,
  url: URL,
  options: FetchPageOptions & { everyAnswer: boolean },
): Promise<FetchedPage | OtherAnswer> {
  const { request } = session.config;
  return session.withDeadline(request.timeoutMs, async (signal): Promise<FetchedPage | OtherAnswer> => {
    const started = performance.now();
    const { url: finalUrl, response } = await session.get(url, {
      signal,
      maxRedirects: request.maxRedirects,
      stopAtRedirect: options.everyAnswer,
      jar: new CookieJar(),
      headers: {
        'user-agent': request.userAgent,
        accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1',
        'accept-encoding': ACCEPT_ENCODING,
      },
    });
    const headersMs = Math.round(performance.now() - started);
    const contentType = firstHeader(response.headers['content-type'])?.trim() || null;
    if (options.everyAnswer && !isHtmlSuccess(response.statusCode, contentType)) {
      await discardBody(response.body);
      return { status: response.statusCode, location: locationOf(finalUrl, response.headers.location), contentType, headersMs };
    }
    let codings: string[];
    try {
      if (response.statusCode < 200 || response.statusCode > 299) {
        throw new FetchError('bad_status', { status: response.statusCode });
      }
      checkContentType(contentType);
      codings = parseContentEncoding(response.headers['content-encoding']);
      const declaredLength = Number(firstHeader(response.headers['content-length']));
      if (codings.length === 0 && declaredLength > request.maxBodyBytes) {
        throw new FetchError('too_large', { maxBytes: request.maxBodyBytes });
      }
    } catch (error) {
      await discardBody(response.body);
      throw error;
    }
    options.onAccepted?.(finalUrl);
    const body = await readBody(response.body, codings, {
      maxBytes: request.maxBodyBytes,
      overflow: 'fail',
      maxRatio: request.maxCompressionRatio,
      ratioAfterBytes: request.ratioGuardAfterBytes,
    });
    const loadTime = Math.round(performance.now() - started) / 1000;
    const { html, charset } = decodeHtml(body.bytes, contentType);
    if (contentType === null && !html.trimStart().startsWith('<')) {
      throw new FetchError('not_html', { contentType: null });
    }
    return {
      finalUrl,
      status: response.statusCode,
      headers: toHeaderMap(response.headers),
      wireBytes: body.wireBytes,
      html,
      charsetUsed: charset,
      loadTime,
      headersMs,
    };
  });
}
