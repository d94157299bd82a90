// Cross-site request forgery on HTML forms: a state-changing form post is accepted only from a
// page of this same origin. Browsers say where a request comes from in `Sec-Fetch-Site`
// (all current ones), else in `Origin` (every POST; "null" from privacy-sensitive contexts),
// else in `Referer`. A request naming none of them did not come from a browser page, and
// forging one needs a victim's browser, which always names it.
import type { FastifyRequest } from 'fastify';

/** The origin this request was addressed to (forwarded scheme and host only from trusted proxies). */
export function ownOrigin(request: FastifyRequest): string | null {
  return originOf(`${request.protocol}://${request.host}`);
}

/** The serialised origin of a URL (default ports dropped, lower-case), or null. */
function originOf(url: string): string | null {
  try {
    const origin = new URL(url).origin;
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
}

export function isSameOriginPost(request: FastifyRequest): boolean {
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined) return site === 'same-origin' || site === 'none';
  const own = ownOrigin(request);
  const sender = request.headers.origin ?? request.headers.referer;
  if (sender === undefined) return true;
  return own !== null && originOf(sender) === own;
}
