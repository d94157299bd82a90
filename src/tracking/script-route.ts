// GET /js/script.js (docs/analytics.md#the-tracker): the tracker, loadable from any site. Both bodies, plain
// and gzipped, are computed once; a client that accepts gzip gets the smaller one. A day's
// caching, revalidated with If-None-Match.
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { documentResponse, emptyResponse } from '../http/openapi-responses.js';
import { TRACKER_SCRIPT } from './tracker-source.js';

export const TRACKER_PATH = '/js/script.js';
export const TRACKER_CACHE_CONTROL = 'public, max-age=86400';

const plain = Buffer.from(TRACKER_SCRIPT, 'utf8');
const gzipped = gzipSync(plain, { level: 9 });
const version = createHash('sha256').update(plain).digest('base64url').slice(0, 16);
// Two representations, two strong tags; either one in If-None-Match names this version.
const plainTag = `"${version}"`;
const gzipTag = `"${version}-gz"`;

/** Whether an Accept-Encoding header accepts gzip (named or by `*`, with a q above 0). */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  let star = false;
  for (const part of header.toLowerCase().split(',')) {
    const [coding, ...params] = part.split(';').map((s) => s.trim());
    const q = params.find((p) => p.startsWith('q='));
    const accepted = q === undefined || Number(q.slice(2)) > 0;
    if (coding === 'gzip' || coding === 'x-gzip') return accepted;
    if (coding === '*') star = accepted;
  }
  return star;
}

/** Whether If-None-Match names the current version (weak comparison, as RFC 9110 asks for it). */
function notModified(header: string | undefined): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim().replace(/^W\//, '');
    return t === '*' || t === plainTag || t === gzipTag;
  });
}

export async function trackerScriptRoute(scope: FastifyInstance): Promise<void> {
  scope.get(
    TRACKER_PATH,
    {
      schema: {
        tags: ['analytics'],
        summary: 'The tracker script (install: <script defer src="…/js/script.js" data-website="ID"></script>)',
        description:
          'Sends a pageview on load and on SPA navigation and defines window.rankscope(name, props) for custom events, ' +
          'posting to /api/event on this origin. Loadable from any site (Cross-Origin-Resource-Policy: cross-origin); ' +
          'gzipped when Accept-Encoding allows; cached for a day and revalidated with If-None-Match.',
        security: [],
        response: {
          200: documentResponse('The script', 'text/javascript'),
          304: emptyResponse('Not modified (If-None-Match)'),
        },
      },
    },
    async (request, reply) => {
      const gzip = acceptsGzip(request.headers['accept-encoding']);
      reply.headers({
        ETag: gzip ? gzipTag : plainTag,
        'Cache-Control': TRACKER_CACHE_CONTROL,
        Vary: 'Accept-Encoding',
        // The security headers say same-origin for everything else; this one is for every site.
        'Cross-Origin-Resource-Policy': 'cross-origin',
        'Access-Control-Allow-Origin': '*',
      });
      if (notModified(request.headers['if-none-match'])) return reply.code(304).send();
      reply.type('text/javascript; charset=utf-8');
      if (gzip) reply.header('Content-Encoding', 'gzip');
      return reply.send(gzip ? gzipped : plain);
    },
  );
}
