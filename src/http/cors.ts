// CORS on /api/v1/* as Laravel's default config/cors.php answers it (the original product ships
// it): any origin, any method, any header, no credentials, so browser clients (phprank-apis'
// api.js and the like) work from their own pages. Bearer keys are never cookies, so letting any
// origin read an answer opens nothing: a page can only send the key its user gave it. Nothing
// else (share pages, the dashboard, the docs) answers CORS headers.
import type { FastifyReply, FastifyRequest } from 'fastify';

export const API_PREFIX = '/api/v1';

/** On every answer of the API, errors included (Laravel's HandleCors adds it to each response). */
const ACTUAL = { 'Access-Control-Allow-Origin': '*' } as const;

export function isApiPath(path: string): boolean {
  return path === API_PREFIX || path.startsWith(`${API_PREFIX}/`);
}

/** A preflight: OPTIONS naming the method it asks for (fruitcake/php-cors' test). */
function isPreflight(request: FastifyRequest): boolean {
  return request.method === 'OPTIONS' && typeof request.headers['access-control-request-method'] === 'string';
}

/**
 * Adds the API's CORS headers to `reply`; answers a preflight itself (204, before authentication,
 * as Laravel's global middleware does) and returns true when it did.
 */
export function applyApiCors(request: FastifyRequest, reply: FastifyReply): boolean {
  reply.headers(ACTUAL);
  if (!isPreflight(request)) return false;
  // Every method and header is allowed: echoed back, as php-cors does for `*`, so the answer
  // varies with them. max_age 0: the browser asks again for each request, as the original.
  const method = String(request.headers['access-control-request-method']).toUpperCase();
  const headers = request.headers['access-control-request-headers'];
  reply
    .code(204)
    .header('Access-Control-Allow-Methods', method)
    .header('Access-Control-Max-Age', '0')
    .header('Vary', 'Access-Control-Request-Method, Access-Control-Request-Headers');
  if (typeof headers === 'string' && headers !== '') reply.header('Access-Control-Allow-Headers', headers);
  reply.send();
  return true;
}
