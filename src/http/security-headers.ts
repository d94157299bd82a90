// Security headers on every response. Pages get a strict CSP (their one stylesheet, no script;
// connect-src only so that auditing tools in the page may read this origin's robots.txt);
// the API docs need Swagger UI's own scripts and inline styles, from this origin only.

export const PAGE_CSP =
  "default-src 'none'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";
export const DOCS_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; font-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";
/** The dashboard: the pages' policy plus this origin's one script (live progress). */
export const APP_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";
export const API_CSP = "default-src 'none'; frame-ancestors 'none'";

/** The dashboard's paths: its pages, and the sign-in and sign-out ones. */
const isApp = (path: string) => path === '/app' || path.startsWith('/app/') || path === '/login' || path === '/logout';

export function securityHeaders(path: string): Record<string, string> {
  const csp =
    path === '/docs' || path.startsWith('/docs/')
      ? DOCS_CSP
      : path.startsWith('/api/')
        ? API_CSP
        : isApp(path)
          ? APP_CSP
          : PAGE_CSP;
  return {
    'Content-Security-Policy': csp,
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    // Not `no-referrer`: with it, browsers send `Origin: null` even on this site's own form
    // posts, which would blind the CSRF check (same-origin.ts); no referrer leaves this origin.
    'Referrer-Policy': 'same-origin',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
  };
}

const PAGE_HEADERS = Object.freeze(securityHeaders('/'));
const DOCS_HEADERS = Object.freeze(securityHeaders('/docs'));
const API_HEADERS = Object.freeze(securityHeaders('/api/'));
const APP_HEADERS = Object.freeze(securityHeaders('/app'));

/** securityHeaders(path), as one shared frozen object per kind of path (built once, not per request). */
export function securityHeadersFor(path: string): Readonly<Record<string, string>> {
  return path === '/docs' || path.startsWith('/docs/')
    ? DOCS_HEADERS
    : path.startsWith('/api/')
      ? API_HEADERS
      : isApp(path)
        ? APP_HEADERS
        : PAGE_HEADERS;
}
