// The side fetches to the final origin (docs/checks.md §2): robots.txt, the 404 probe, and the
// conditional /favicon.ico and /sitemap.xml probes. Each has its own deadline, goes through
// the same guarded agent, and never rejects: a failure becomes `{error}` and fails only its
// own check.
import { randomBytes } from 'node:crypto';
import { FetchError } from '../errors.js';
import type { FaviconProbe, FetchFailureReason, NotFoundProbe, RobotsFetch, SitemapProbe } from '../types.js';
import { ACCEPT_ENCODING, parseContentEncoding, readBody } from './body.js';
import { discardBody, firstHeader, type FetchSession, type FinalResponse } from './session.js';

const ROBOTS_MAX_BYTES = 500 * 1024;
const SITEMAP_SNIFF_BYTES = 64 * 1024;

function failureReason(error: unknown): FetchFailureReason {
  return error instanceof FetchError ? error.reason : 'network';
}

function sideGet<T>(
  session: FetchSession,
  url: URL,
  maxRedirects: number,
  read: (final: FinalResponse) => Promise<T>,
): Promise<T> {
  const { request } = session.config;
  return session.withDeadline(request.timeoutMs, async (signal) => {
    const final = await session.get(url, {
      signal,
      maxRedirects,
      headers: { 'user-agent': request.userAgent, accept: '*/*', 'accept-encoding': ACCEPT_ENCODING },
    });
    try {
      return await read(final);
    } finally {
      // Whatever `read` left unread (or on its failure) is dropped here.
      await discardBody(final.response.body);
    }
  });
}

/** The start of a body, at most `maxBytes` decoded bytes, and whether there was more. */
async function readStart(final: FinalResponse, maxBytes: number): Promise<{ bytes: Buffer; cut: boolean }> {
  const codings = parseContentEncoding(final.response.headers['content-encoding']);
  // One byte more than kept tells a body of exactly `maxBytes` from a longer one.
  const { bytes } = await readBody(final.response.body, codings, { maxBytes: maxBytes + 1, overflow: 'truncate' });
  return bytes.length > maxBytes ? { bytes: bytes.subarray(0, maxBytes), cut: true } : { bytes, cut: false };
}

const utf8 = (bytes: Uint8Array) => new TextDecoder('utf-8').decode(bytes); // a BOM is dropped

/** Reads the start of a body as UTF-8. */
async function readText(final: FinalResponse, maxBytes: number): Promise<string> {
  return utf8((await readStart(final, maxBytes)).bytes);
}

/**
 * robots.txt's first 500 KiB, without the line the cut falls in: a fragment such as
 * `Disallow: /` of `Disallow: /private-area` is a rule the site never wrote.
 */
async function readRobotsText(final: FinalResponse): Promise<string> {
  const { bytes, cut } = await readStart(final, ROBOTS_MAX_BYTES);
  if (!cut) return utf8(bytes);
  const lastEol = Math.max(bytes.lastIndexOf(0x0a), bytes.lastIndexOf(0x0d));
  return utf8(bytes.subarray(0, lastEol + 1));
}

function isSuccess(status: number): boolean {
  return status >= 200 && status <= 299;
}

function contentTypeOf(final: FinalResponse): string | null {
  return firstHeader(final.response.headers['content-type'])?.trim() || null;
}

/** `/robots.txt`: status, and for 2xx its first 500 KiB in whole lines. `url` is the requested one (RFC 9309). */
export async function fetchRobots(session: FetchSession, origin: string): Promise<RobotsFetch> {
  const url = new URL('/robots.txt', origin);
  try {
    return await sideGet(session, url, session.config.request.sideMaxRedirects, async (final) => {
      const status = final.response.statusCode;
      const body = isSuccess(status) ? await readRobotsText(final) : '';
      return { url: url.href, status, body };
    });
  } catch (error) {
    return { error: failureReason(error) };
  }
}

/** A path that should not exist; its final status (after redirects) feeds 404_page. */
export async function probeNotFound(session: FetchSession, origin: string): Promise<NotFoundProbe> {
  const url = new URL(`/${randomBytes(16).toString('hex')}-404-check`, origin);
  try {
    return await sideGet(session, url, session.config.request.maxRedirects, async (final) => ({
      url: url.href,
      status: final.response.statusCode,
    }));
  } catch (error) {
    return { url: url.href, error: failureReason(error) };
  }
}

/** `/favicon.ico`, fetched only when the page declares no icon: status and Content-Type. */
export async function probeFavicon(session: FetchSession, origin: string): Promise<Exclude<FaviconProbe, null>> {
  const url = new URL('/favicon.ico', origin);
  try {
    return await sideGet(session, url, session.config.request.sideMaxRedirects, async (final) => ({
      status: final.response.statusCode,
      contentType: contentTypeOf(final),
    }));
  } catch (error) {
    return { error: failureReason(error) };
  }
}

/** `/sitemap.xml`, fetched only when robots.txt lists no sitemap: enough to recognise XML. */
export async function probeSitemap(session: FetchSession, origin: string): Promise<Exclude<SitemapProbe, null>> {
  const url = new URL('/sitemap.xml', origin);
  try {
    return await sideGet(session, url, session.config.request.maxRedirects, async (final) => {
      const status = final.response.statusCode;
      return {
        url: url.href,
        status,
        contentType: contentTypeOf(final),
        bodyStart: isSuccess(status) ? await readText(final, SITEMAP_SNIFF_BYTES) : '',
      };
    });
  } catch (error) {
    return { error: failureReason(error) };
  }
}
