// The HTML side: share pages of reports and websites (public, private = 404, or behind a
// password; a website's with its traffic), their stylesheet, and the service's robots.txt.
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import { Type } from '@sinclair/typebox';
import { createHash } from 'node:crypto';
import type { AnalysisConfig } from '../analysis/config.js';
import type { ReportHistoryRepository } from '../db/report-history-repository.js';
import type { ReportsRepository } from '../db/reports-repository.js';
import type { WebsitesRepository } from '../db/websites-repository.js';
import type { WindowCounter } from '../limits/window-counter.js';
import { verifyPassword } from '../accounts/passwords.js';
import type { Clock } from '../time.js';
import type { StatsService } from '../tracking/stats-service.js';
import { parseId } from '../ids.js';
import { Privacy } from '../model/privacy.js';
import { STYLESHEET } from '../render/styles.js';
import {
  STYLESHEET_PATH,
  renderForbiddenPage,
  renderNotFoundPage,
  renderPasswordPage,
  renderReportPage,
  renderTooManyAttemptsPage,
  renderWebsitePage,
} from '../render/index.js';
import { documentResponse, emptyResponse } from '../http/openapi-responses.js';
import { isSameOriginPost } from '../http/same-origin.js';
import { type ShareKind, sharePath } from '../render/share-path.js';
import { grantAccess, hasAccess, type Protected } from './share-access.js';
import { statsRange, utcDay } from '../render/stats-range.js';
import { loadTraffic } from './website-traffic.js';

/** Wrong passwords allowed per client and page in a minute; the next attempt gets a 429. */
export const MAX_WRONG_PASSWORDS = 5;
const ATTEMPT_WINDOW_MS = 60_000;

/** Analyses a report page charts, at most (the newest): a daily monitor adds 365 a year. */
export const MAX_HISTORY_POINTS = 500;

export interface WebDeps {
  reports: ReportsRepository;
  /** The report pages' score over time. */
  history: ReportHistoryRepository;
  websites: WebsitesRepository;
  counter: WindowCounter;
  config: AnalysisConfig;
  clock: Clock;
  /** The website pages' traffic. */
  stats: StatsService;
  /** The public pages' limit of requests per client address (app.ts builds it). */
  publicLimit: onRequestHookHandler;
}

function sendPage(reply: FastifyReply, status: number, body: string) {
  return reply.code(status).type('text/html; charset=utf-8').header('Cache-Control', 'no-store').send(body);
}

export const notFoundPage = (reply: FastifyReply) => sendPage(reply, 404, renderNotFoundPage());

const notFoundResponse = documentResponse('Unknown or private: the same page for both');
const tooManyRequestsResponse = documentResponse(
  'Too many requests from this address (PUBLIC_RATE_LIMIT_PER_MINUTE): try again after Retry-After seconds',
);

const websiteRange = Type.Object({
  from: Type.Optional(Type.String({ format: 'date', description: 'First day shown (UTC), YYYY-MM-DD' })),
  to: Type.Optional(
    Type.String({
      format: 'date',
      description:
        'Last day shown (UTC), YYYY-MM-DD. Without both, or when to < from or the range spans over 366 days: the last 30 days, today included',
    }),
  ),
});

const pageSchema = (kind: ShareKind, method: 'GET' | 'POST') => ({
  tags: ['pages'],
  summary:
    method === 'GET'
      ? `The ${kind}'s share page (HTML): public, 404 when private, a password form when protected`
      : `Unlock a password-protected ${kind} page (form field \`password\`)`,
  security: [],
  params: Type.Object({ id: Type.String({ description: 'The id (anything else answers 404)' }) }),
  ...(kind === 'website' && method === 'GET' ? { querystring: websiteRange } : {}),
  ...(method === 'GET'
    ? {
        response: {
          200: documentResponse(`The ${kind}, or its password form`),
          404: notFoundResponse,
          429: tooManyRequestsResponse,
        },
      }
    : {
        body: Type.Object({
          password: Type.Optional(Type.String({ description: 'The page password (a missing or wrong one answers 401)' })),
        }),
        response: {
          303: emptyResponse('Unlocked (or not protected): back to the page, with a cookie that opens it for 12 hours'),
          401: documentResponse('Wrong password: the form again'),
          403: documentResponse('Sent from another site: refused'),
          404: notFoundResponse,
          429: documentResponse(
            'Too many wrong passwords, or too many requests from this address: try again after Retry-After seconds',
          ),
        },
      }),
});

export function webRoutes(app: FastifyInstance, deps: WebDeps): void {
  const { reports, history, websites, counter, config, clock, stats, publicLimit } = deps;
  const stylesheetTag = `"${createHash('sha256').update(STYLESHEET).digest('base64url').slice(0, 16)}"`;

  const stylesheetSchema = {
    tags: ['pages'],
    summary: "The pages' stylesheet",
    security: [],
    response: { 200: documentResponse('The stylesheet', 'text/css'), 304: emptyResponse('Not modified (If-None-Match)') },
  };
  app.get(STYLESHEET_PATH, { schema: stylesheetSchema }, async (request, reply) => {
    reply.header('ETag', stylesheetTag).header('Cache-Control', 'public, max-age=3600');
    if (request.headers['if-none-match'] === stylesheetTag) return reply.code(304).send();
    return reply.type('text/css; charset=utf-8').send(STYLESHEET);
  });

  const robotsSchema = {
    tags: ['pages'],
    summary: 'robots.txt of this service',
    security: [],
    response: { 200: documentResponse('robots.txt', 'text/plain') },
  };
  app.get('/robots.txt', { schema: robotsSchema }, async (_request, reply) =>
    reply.type('text/plain; charset=utf-8').send('User-agent: *\nDisallow: /api/\nDisallow: /docs\n'),
  );

  const rootSchema = {
    tags: ['pages'],
    summary: 'Redirects to the API documentation',
    security: [],
    response: { 302: emptyResponse('To /docs') },
  };
  app.get('/', { schema: rootSchema }, async (_request, reply) => reply.redirect('/docs', 302));

  /** Loads a share page's resource; null means "answer 404" (unknown or private). */
  type Loader<T extends Protected> = (id: number) => Promise<T | undefined>;

  function sharePage<T extends Protected>(
    kind: ShareKind,
    load: Loader<T>,
    render: (resource: T, request: FastifyRequest) => Promise<string>,
  ) {
    const find = async (raw: string) => {
      const id = parseId(raw);
      const resource = id === null ? undefined : await load(id);
      return resource && resource.privacy !== Privacy.Private ? resource : null;
    };

    app.get<{ Params: { id: string } }>(
      `/${kind}s/:id`,
      { schema: pageSchema(kind, 'GET'), onRequest: publicLimit },
      async (request, reply) => {
        const resource = await find(request.params.id);
        if (!resource) return notFoundPage(reply);
        if (resource.privacy === Privacy.Password && !hasAccess(request, kind, resource, clock)) {
          return sendPage(reply, 200, renderPasswordPage({ kind, id: resource.id }));
        }
        return sendPage(reply, 200, await render(resource, request));
      },
    );

    app.post<{ Params: { id: string } }>(
      `/${kind}s/:id`,
      { schema: pageSchema(kind, 'POST'), onRequest: publicLimit },
      async (request, reply) => {
        // Login CSRF: another site must not unlock a page in a visitor's browser.
        if (!isSameOriginPost(request)) return sendPage(reply, 403, renderForbiddenPage());
        const resource = await find(request.params.id);
        if (!resource) return notFoundPage(reply);
        const path = sharePath(kind, resource.id);
        if (resource.privacy !== Privacy.Password) return reply.redirect(path, 303);
        // The attempt is counted before the (slow) verification, atomically, so parallel guesses
        // cannot all pass a check made before any of them was counted.
        const attemptsKey = `share:${kind}:${resource.id}:${request.ip}`;
        const attempt = await counter.incr(attemptsKey, ATTEMPT_WINDOW_MS);
        if (attempt.count > MAX_WRONG_PASSWORDS) return tooMany(reply, attempt.ttl);
        const password = passwordOf(request);
        if (password !== null && resource.password_hash !== null && (await verifyPassword(resource.password_hash, password))) {
          await counter.decr(attemptsKey); // only wrong passwords count against the limit
          grantAccess(request, reply, kind, resource, clock);
          return reply.redirect(path, 303);
        }
        return sendPage(reply, 401, renderPasswordPage({ kind, id: resource.id, error: 'Incorrect password.' }));
      },
    );
  }

  sharePage(
    'report',
    (id) => reports.findById(id),
    async (report) =>
      renderReportPage(
        { ...report, results: JSON.parse(String(report.results)) as unknown },
        { config, history: await history.recentScores(report.id, MAX_HISTORY_POINTS) },
      ),
  );

  sharePage(
    'website',
    (id) => websites.findById(id),
    async (website, request) => {
      const query = queryOf(request);
      const range = statsRange({ from: query.from, to: query.to }, clock);
      const [rows, traffic] = await Promise.all([
        reports.publicForDomain(website.user_id, website.domain),
        loadTraffic(stats, website.id, range, { today: utcDay(clock.now()), origin: originOf(request) }, query.prop),
      ]);
      return renderWebsitePage(
        { id: website.id, domain: website.domain },
        rows.map((r) => ({
          id: r.id,
          url: r.url,
          result: r.result,
          generated_at: r.generated_at,
          isPublic: r.privacy === Privacy.Public,
        })),
        { config, traffic },
      );
    },
  );
}

/** The query string's fields (the share pages validate nothing: an odd value is just not used). */
function queryOf(request: FastifyRequest): Record<string, unknown> {
  const query: unknown = request.query;
  return query && typeof query === 'object' ? { ...query } : {};
}

/** This service's origin as the request reached it, for the install snippet (a placeholder when the Host is odd). */
export function originOf(request: FastifyRequest): string {
  const host = request.host;
  return /^(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/.test(host)
    ? `${request.protocol}://${host.toLowerCase()}`
    : 'https://YOUR-RANKSCOPE-HOST';
}

function passwordOf(request: FastifyRequest): string | null {
  const body = request.body as Record<string, unknown> | null | undefined;
  const value = body && typeof body === 'object' ? body.password : undefined;
  return typeof value === 'string' && value.length > 0 && value.length <= 1024 ? value : null;
}

function tooMany(reply: FastifyReply, ttlMs: number) {
  const seconds = Math.max(1, Math.ceil(ttlMs / 1000));
  reply.header('Retry-After', String(seconds));
  return sendPage(reply, 429, renderTooManyAttemptsPage(seconds));
}
