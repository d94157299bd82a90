// What a dashboard page handler works with: the signed-in account, its CSRF token, the API
// (in process), and the replies every page gives (a page, a redirect with a notice).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_COOKIE, SESSION_IDLE_MS } from '../accounts/sessions.js';
import type { User } from '../db/users-repository.js';
import { html, type HtmlValue } from '../render/html.js';
import type { ApiAnswer, DashboardApi } from './api-client.js';
import { type TooManyChanges, unlessLimited } from './too-many-changes.js';
import { formatWait } from '../render/format.js';
import { renderAppDocument, type Section } from './render/layout.js';

export const FLASH_COOKIE = 'rankscope_flash';

/** The session cookie: HttpOnly, SameSite=Lax, Secure over https (docs/security.md#sessions-and-csrf). */
export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, id: string): void {
  reply.setCookie(SESSION_COOKIE, id, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
    maxAge: Math.floor(SESSION_IDLE_MS / 1000),
  });
}

export interface SignedIn {
  user: User;
  csrf: string;
  /** The session's id hash (password change keeps none; sign-out ends this one). */
  idHash: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    signedIn: SignedIn | null;
  }
}

/** The signed-in account of a request under /app (the session hook guarantees one). */
export function signedIn(request: FastifyRequest): SignedIn {
  if (!request.signedIn) throw new Error('dashboard route without a session');
  return request.signedIn;
}

export function sendHtml(reply: FastifyReply, status: number, body: string): FastifyReply {
  return reply.code(status).type('text/html; charset=utf-8').header('Cache-Control', 'no-store').send(body);
}

/** Sends a dashboard page (with the notice of the step before, if any, which it then clears). */
export function sendAppPage(
  request: FastifyRequest,
  reply: FastifyReply,
  page: { section: Section; title: string; status?: number },
  main: HtmlValue,
): FastifyReply {
  const who = signedIn(request);
  const notice = readNotice(request, reply);
  return sendHtml(
    reply,
    page.status ?? 200,
    renderAppDocument(
      {
        title: page.title,
        notice,
        account: { email: who.user.email, csrf: who.csrf, section: page.section },
      },
      main,
    ),
  );
}

/** A 303 to `path` with a notice shown once on the next page. */
export function redirectWithNotice(reply: FastifyReply, path: string, text: string, bad = false): FastifyReply {
  reply.setCookie(FLASH_COOKIE, `${bad ? '!' : ''}${text}`, {
    path: '/app',
    httpOnly: true,
    sameSite: 'lax',
    signed: true,
    maxAge: 60,
  });
  return reply.redirect(path, 303);
}

function readNotice(request: FastifyRequest, reply: FastifyReply): { text: string; bad: boolean } | null {
  const raw = request.cookies[FLASH_COOKIE];
  if (!raw) return null;
  reply.clearCookie(FLASH_COOKIE, { path: '/app' });
  const unsigned = request.unsignCookie(raw);
  if (!unsigned.valid || !unsigned.value) return null;
  const bad = unsigned.value.startsWith('!');
  return { text: (bad ? unsigned.value.slice(1) : unsigned.value).slice(0, 300), bad };
}

/** The API, as the signed-in account. */
export function apiFor(request: FastifyRequest, api: DashboardApi) {
  const { user } = signedIn(request);
  return {
    get: <T = unknown>(path: string, query?: Record<string, string | number | undefined | null>): Promise<ApiAnswer<T>> =>
      api.call<T>(user.id, 'GET', path, { query }),
    // Writes count against the account's API budget; one refused for now (429) throws TooManyChanges.
    post: <T = unknown>(path: string, body: Record<string, unknown> = {}): Promise<ApiAnswer<T>> =>
      api.call<T>(user.id, 'POST', path, { body }).then((answer) => unlessLimited(answer, path)),
    put: <T = unknown>(path: string, body: Record<string, unknown> = {}): Promise<ApiAnswer<T>> =>
      api.call<T>(user.id, 'PUT', path, { body }).then((answer) => unlessLimited(answer, path)),
    delete: <T = unknown>(path: string): Promise<ApiAnswer<T>> =>
      api.call<T>(user.id, 'DELETE', path).then((answer) => unlessLimited(answer, path)),
  };
}

/** A form body's fields as the API takes them (the CSRF token removed; only strings and lists of strings). */
export function formFields(request: FastifyRequest): Record<string, string | string[]> {
  const body = request.body;
  const out: Record<string, string | string[]> = {};
  if (!body || typeof body !== 'object') return out;
  for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
    if (key === '_token') continue;
    if (typeof value === 'string') out[key] = value;
    else if (Array.isArray(value)) out[key] = value.filter((v): v is string => typeof v === 'string');
  }
  return out;
}

/** A query string's string fields (pages validate nothing themselves: the API does). */
export function queryFields(request: FastifyRequest): Record<string, string> {
  const query = request.query;
  const out: Record<string, string> = {};
  if (!query || typeof query !== 'object') return out;
  for (const [key, value] of Object.entries(query as Record<string, unknown>)) if (typeof value === 'string') out[key] = value;
  return out;
}

/** The dashboard's 404: an id of another account answers this too. */
export function notFoundAppPage(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const who = signedIn(request);
  const main = html`<section class="card narrow" aria-labelledby="page-title">
<h1 id="page-title">Not found</h1>
<p>There is nothing here, or it belongs to another account.</p>
<p><a href="/app/reports">Back to your reports</a></p>
</section>`;
  return sendHtml(
    reply,
    404,
    renderAppDocument({ title: 'Not found', account: { email: who.user.email, csrf: who.csrf, section: 'reports' } }, main),
  );
}

const SECTIONS: readonly Section[] = ['reports', 'projects', 'websites', 'monitors', 'webhooks', 'crawls', 'account'];

/** The page a refused form came from (a same-site Referer under /app), else the section's list. */
function backPath(request: FastifyRequest, section: Section): string {
  const referer = request.headers.referer;
  if (typeof referer === 'string' && URL.canParse(referer)) {
    const from = new URL(referer);
    const own = URL.canParse(`${request.protocol}://${request.host}`)
      ? new URL(`${request.protocol}://${request.host}`).host
      : null;
    if (from.host === own && /^\/app(?:\/|$)/.test(from.pathname)) return `${from.pathname}${from.search}`;
  }
  return `/app/${section}`;
}

/** The answer to a form the API refused for now (429): what limit, how long to wait, nothing changed. */
export function tooManyChangesPage(request: FastifyRequest, reply: FastifyReply, refused: TooManyChanges): FastifyReply {
  const who = signedIn(request);
  const named = /^\/app\/([a-z]+)/.exec(request.url)?.[1];
  const section = SECTIONS.find((s) => s === named) ?? 'reports';
  const wait = formatWait(refused.retryAfterSeconds);
  const why =
    refused.reason === 'monitor-run'
      ? html`<p>This monitor was run less than a minute ago, and “Run now” runs one monitor at most once a minute. Nothing was queued.</p>`
      : html`<p>This account has made ${refused.perMinute === null ? 'its allowed number of' : html`its ${refused.perMinute}`} changes of the last minute: its API key and these forms share one budget a minute. Nothing was changed.</p>`;
  const main = html`<section class="card narrow" aria-labelledby="page-title">
<h1 id="page-title">Too many changes</h1>
${why}
<p>Try again in ${wait}.</p>
<p><a href="${backPath(request, section)}">Back</a></p>
</section>`;
  reply.header('Retry-After', String(refused.retryAfterSeconds));
  return sendHtml(
    reply,
    429,
    renderAppDocument({ title: 'Too many changes', account: { email: who.user.email, csrf: who.csrf, section } }, main),
  );
}
