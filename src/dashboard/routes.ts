// The dashboard (docs/dashboard.md): /login, /logout and the pages under /app.
// Every /app request needs a session (else 303 to /login); every POST needs the session's CSRF
// token and a same-origin sender (else 403). Pages read and write through the API, in process
// (api-client.ts), so they follow every API rule; sessions and passwords go through
// SessionService.
import cookie from '@fastify/cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { csrfMatches, SESSION_COOKIE } from '../accounts/sessions.js';
import { isSameOriginPost } from '../http/same-origin.js';
import { html } from '../render/html.js';
import type { DashboardDeps, PageModule } from './deps.js';
import { notFoundAppPage, sendHtml, setSessionCookie, tooManyChangesPage } from './context.js';
import { TooManyChanges } from './too-many-changes.js';
import { APP_SCRIPT, APP_SCRIPT_TAG } from './assets/app-script.js';
import { APP_SCRIPT_PATH, renderAppDocument } from './render/layout.js';
import { renderSignInPage } from './sign-in-page.js';
import { dashboardSchema } from './route-schema.js';
import { documentResponse, emptyResponse } from '../http/openapi-responses.js';
import { Type } from '@sinclair/typebox';

const nextQuery = Type.Object({
  next: Type.Optional(
    Type.String({ description: 'A dashboard path (/app…) to open after signing in; anything else is ignored' }),
  ),
});
import { accountPages } from './pages/account.js';
import { crawlsPages } from './pages/crawls.js';
import { monitorsPages } from './pages/monitors.js';
import { reportsPages } from './pages/reports.js';
import { webhooksPages } from './pages/webhooks.js';
import { websitesPages } from './pages/websites.js';
import { hashSessionId } from '../accounts/sessions.js';

const PAGE_MODULES: PageModule[] = [reportsPages, websitesPages, monitorsPages, webhooksPages, crawlsPages, accountPages];

const scriptSchema = {
  tags: ['dashboard'],
  summary: "The dashboard's script (live progress only; every page works without it)",
  security: [],
  response: { 200: documentResponse('The script', 'text/javascript'), 304: emptyResponse('Not modified (If-None-Match)') },
};

/** What a Location header may not carry as it is: all but RFC 3986's characters, and a `%` that begins no escape. */
const UNENCODED = /%(?![0-9A-Fa-f]{2})|[^A-Za-z0-9\-._~!$&'()*+,;=:@/?#[\]%]/gu;

/**
 * Where to go after signing in: only a path of this dashboard (never another site: an open
 * redirect), free of control characters and of broken UTF-16, else nothing (the default page).
 * It is returned percent-encoded, so a header can carry it whatever characters it was typed with
 * (escapes already in it are kept, so encoding it again changes nothing).
 */
export function safeNext(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > 2000) return undefined;
  if (!/^\/app(?:[/?#]|$)/.test(value) || value.includes('\\') || /[\p{Cc}\p{Cs}]/u.test(value)) return undefined;
  return value.replace(UNENCODED, (character) => encodeURIComponent(character));
}

function field(request: FastifyRequest, name: string): string {
  const body = request.body as Record<string, unknown> | null | undefined;
  const value = body && typeof body === 'object' ? body[name] : undefined;
  return typeof value === 'string' ? value : '';
}

function refused(reply: FastifyReply): FastifyReply {
  const main = html`<section class="card narrow" aria-labelledby="page-title">
<h1 id="page-title">Form refused</h1>
<p>This form was not accepted: it came from another site, or the page was too old. Open the page again and send it once more.</p>
<p><a href="/app/reports">Back to the dashboard</a></p>
</section>`;
  return sendHtml(reply, 403, renderAppDocument({ title: 'Form refused' }, main));
}

export async function dashboardRoutes(app: FastifyInstance, deps: DashboardDeps): Promise<void> {
  const { sessions } = deps;
  await app.register(cookie, { secret: deps.cookieSecret });
  app.decorateRequest('signedIn', null);

  app.get(APP_SCRIPT_PATH, { schema: scriptSchema }, async (request, reply) => {
    reply.header('ETag', APP_SCRIPT_TAG).header('Cache-Control', 'public, max-age=3600');
    if (request.headers['if-none-match'] === APP_SCRIPT_TAG) return reply.code(304).send();
    return reply.type('text/javascript; charset=utf-8').send(APP_SCRIPT);
  });

  app.get(
    '/login',
    {
      schema: { ...dashboardSchema('The sign-in page (to /app when signed in)', 'page', [429]), querystring: nextQuery },
      onRequest: deps.publicLimit,
    },
    async (request, reply) => {
      if (await sessions.resolve(request.cookies[SESSION_COOKIE])) return reply.redirect('/app/reports', 303);
      const next = safeNext((request.query as Record<string, unknown> | undefined)?.next);
      return sendHtml(reply, 200, renderSignInPage({ next }));
    },
  );

  app.post(
    '/login',
    {
      schema: dashboardSchema(
        'Sign in (fields email, password, next): a session cookie, then 303 to next or /app/reports',
        'form',
        [401, 429],
      ),
      onRequest: deps.publicLimit,
    },
    async (request, reply) => {
      // Login CSRF: another site must not sign a visitor in to an account of its choosing.
      if (!isSameOriginPost(request)) return refused(reply);
      const email = field(request, 'email').slice(0, 255);
      const next = safeNext(field(request, 'next'));
      const result = await sessions.signIn(email, field(request, 'password'), request.ip);
      if (!result.ok && result.reason === 'limited') {
        reply.header('Retry-After', String(result.retryAfterSeconds));
        return sendHtml(reply, 429, renderSignInPage({ email, next, error: 'Too many sign-in attempts, try again later.' }));
      }
      if (!result.ok) {
        return sendHtml(reply, 401, renderSignInPage({ email, next, error: 'These credentials do not match our records.' }));
      }
      setSessionCookie(request, reply, result.sessionId);
      return reply.redirect(next ?? '/app/reports', 303);
    },
  );

  app.post(
    '/logout',
    { schema: dashboardSchema('Sign out (field _token): the session ends, then 303 to /login', 'form') },
    async (request, reply) => {
      const id = request.cookies[SESSION_COOKIE];
      const active = await sessions.resolve(id);
      // Without the session's token a sign-out is refused: another site must not end it either.
      if (active && (!isSameOriginPost(request) || !csrfMatches(active.session.csrf_token, field(request, '_token')))) {
        return refused(reply);
      }
      await sessions.signOut(id);
      reply.clearCookie(SESSION_COOKIE, { path: '/' });
      return reply.redirect('/login', 303);
    },
  );

  app.get(
    '/app',
    {
      schema: {
        tags: ['dashboard'],
        summary: 'To /app/reports',
        security: [],
        response: { 303: emptyResponse('To /app/reports') },
      },
    },
    async (_request, reply) => reply.redirect('/app/reports', 303),
  );

  await app.register(
    async (scope) => {
      scope.addHook('preHandler', async (request, reply) => {
        const active = await sessions.resolve(request.cookies[SESSION_COOKIE]);
        if (!active) {
          const next = request.method === 'GET' ? safeNext(request.url) : undefined;
          return reply.redirect(next ? `/login?next=${encodeURIComponent(next)}` : '/login', 303);
        }
        if (request.method !== 'GET' && request.method !== 'HEAD') {
          if (!isSameOriginPost(request) || !csrfMatches(active.session.csrf_token, field(request, '_token')))
            return refused(reply);
        }
        request.signedIn = {
          user: active.user,
          csrf: active.session.csrf_token,
          idHash: hashSessionId(request.cookies[SESSION_COOKIE]!),
        };
      });
      for (const register of PAGE_MODULES) register(scope, deps);
      // A write the API refused for now (429) is one page, whatever form sent it.
      scope.setErrorHandler((error, request, reply) => {
        if (error instanceof TooManyChanges) return tooManyChangesPage(request, reply, error);
        throw error; // the app's handler
      });
      // An unknown page under /app is a dashboard 404, behind the same session check.
      scope.setNotFoundHandler(async (request, reply) => {
        const active = await sessions.resolve(request.cookies[SESSION_COOKIE]);
        if (!active) return reply.redirect('/login', 303);
        request.signedIn = { user: active.user, csrf: active.session.csrf_token, idHash: '' };
        return notFoundAppPage(request, reply);
      });
    },
    { prefix: '/app' },
  );
}
