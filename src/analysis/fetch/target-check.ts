// A crawl's check of a link to another site, an image or an hreflang target (docs/external-links.md):
// does the URL answer, and how? A HEAD, then a GET that reads at most 64 KB when the server
// refuses HEAD (405, 501); redirects followed up to 5 hops, each hop through the session's address
// guard; one deadline for the whole check. It never reads the body for anything but its size,
// never follows links further and never asks for robots.txt.
import { FetchError } from '../errors.js';
import { discardBody, firstHeader, type FetchSession, type FinalResponse } from './session.js';

/** What a check found. `statusCode` null: nothing answered, and `error` says why. */
export interface TargetCheck {
  /** The first answer's status (a 301 for a redirected link). */
  statusCode: number | null;
  /** The status where the redirects end (the first one's when none). */
  finalStatus: number | null;
  /** Where the redirects end (the URL itself when none). */
  finalUrl: string | null;
  error: string | null;
  /** Content-Length of the final answer, else the bytes a GET read (at most `GET_READ_BYTES`); null when unknown. */
  bytes: number | null;
}

export interface TargetCheckOptions {
  userAgent: string;
  /** The whole check, HEAD and GET together (10 s). */
  timeoutMs?: number;
  maxRedirects?: number;
}

export const TARGET_CHECK_TIMEOUT_MS = 10_000;
export const TARGET_CHECK_MAX_REDIRECTS = 5;
/** A GET after a refused HEAD reads this much at most, then drops the connection. */
export const GET_READ_BYTES = 64 * 1024;
/** HEAD refused: Method Not Allowed, Not Implemented. */
const HEAD_REFUSED = new Set([405, 501]);

/**
 * Checks `url` through `session` (its guard, its caller's signal). Never rejects but with the
 * session's or caller's abort reason: a failure is a result with `error`.
 */
export async function checkTarget(session: FetchSession, url: string, options: TargetCheckOptions): Promise<TargetCheck> {
  const timeoutMs = options.timeoutMs ?? TARGET_CHECK_TIMEOUT_MS;
  const maxRedirects = options.maxRedirects ?? TARGET_CHECK_MAX_REDIRECTS;
  const headers = { 'user-agent': options.userAgent, accept: '*/*' };
  try {
    return await session.withDeadline(timeoutMs, async (signal) => {
      const head = await session.get(new URL(url), { signal, maxRedirects, headers, method: 'HEAD' });
      await discardBody(head.response.body);
      if (!HEAD_REFUSED.has(head.response.statusCode)) return answered(head, contentLength(head));
      // Identity encoding: the bytes counted are the body's own.
      const get = await session.get(new URL(url), {
        signal,
        maxRedirects,
        headers: { ...headers, 'accept-encoding': 'identity' },
      });
      const length = contentLength(get);
      const read = await countBytes(get.response.body, GET_READ_BYTES);
      return answered(get, length ?? read);
    });
  } catch (error) {
    if (session.aborted) throw error;
    return {
      statusCode: null,
      finalStatus: null,
      finalUrl: null,
      error: error instanceof FetchError ? error.message : 'The connection failed before the page was received.',
      bytes: null,
    };
  }
}

function answered(final: FinalResponse, bytes: number | null): TargetCheck {
  return {
    statusCode: final.firstStatus,
    finalStatus: final.response.statusCode,
    finalUrl: final.url.href,
    error: null,
    bytes,
  };
}

function contentLength(final: FinalResponse): number | null {
  const value = firstHeader(final.response.headers['content-length']);
  if (value === undefined || !/^\d+$/.test(value.trim())) return null;
  const n = Number(value.trim());
  return Number.isSafeInteger(n) ? n : null;
}

/** Bytes of `body` up to `max`; the rest is not read (the stream is destroyed). */
async function countBytes(body: FinalResponse['response']['body'], max: number): Promise<number> {
  let total = 0;
  try {
    for await (const chunk of body) {
      total += (chunk as Buffer).length;
      if (total >= max) return max;
    }
    return total;
  } finally {
    body.destroy();
  }
}
