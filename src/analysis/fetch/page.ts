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
}

const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);

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

export async function fetchPage(session: FetchSession, url: URL, options: FetchPageOptions = {}): Promise<FetchedPage> {
  const { request } = session.config;
  return session.withDeadline(request.timeoutMs, async (signal) => {
    const started = performance.now();
    const { url: finalUrl, response } = await session.get(url, {
      signal,
      maxRedirects: request.maxRedirects,
      jar: new CookieJar(),
      headers: {
        'user-agent': request.userAgent,
        accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1',
        'accept-encoding': ACCEPT_ENCODING,
      },
    });
    const contentType = firstHeader(response.headers['content-type'])?.trim() || null;
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
    };
  });
}
