// The application factory: one Fastify instance with its storage, used by `serve`, the tests
// (through inject() and a real listener) and the benchmarks.
import { randomBytes, randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import cookie from '@fastify/cookie';
import type { AppConfig } from './config.js';
import type { AnalyzeOptions } from './index.js';
import type { DatabaseHandle } from './db/connection.js';
import { SettingsRepository } from './db/settings-repository.js';
import { WindowCounter, createRedisClient, redisReady } from './limits/window-counter.js';
import type { AnalysisPool } from './reports/analysis-pool.js';
import { systemClock, type Clock } from './time.js';
import { GeoLookup } from './tracking/client-info.js';
import { EventCollector } from './tracking/collector.js';
import { eventRoute } from './tracking/event-route.js';
import { EventWriter } from './tracking/event-writer.js';
import { analyticsEventStore } from './db/analytics-write-thread.js';
import { trackerScriptRoute } from './tracking/script-route.js';
import { notFoundPage, webRoutes } from './web/routes.js';
import { dashboardRoutes } from './dashboard/routes.js';
import { DashboardApi } from './dashboard/api-client.js';
import { SessionService } from './accounts/sessions.js';
import { InternalCredential } from './api/internal-caller.js';
import { securityHeadersFor } from './http/security-headers.js';
import { publicPageLimit } from './web/public-limit.js';
import { authenticate } from './api/auth.js';
import { applyApiCors, isApiPath } from './http/cors.js';
import { registerDocs } from './api/docs.js';
import { registerOpenApi } from './api/openapi.js';
import { HttpError, errorBody, methodNotAllowed, notFound, rejectMalformedRequest, toHttpError } from './http/errors.js';
import { parseFormEncoded, registerBodyParsers } from './http/input.js';
import { loggerOptions, OneLinePerRequest } from './http/logging.js';
import { cachedSerializerFactory } from './http/serializers.js';
import { registerRateLimit } from './api/rate-limit.js';
import { RouteTable } from './http/route-table.js';
import { accountRoutes } from './api/routes/account.js';
import { healthRoutes } from './api/routes/health.js';
import { crawlsRoutes } from './api/routes/crawls.js';
import { monitorsRoutes } from './api/routes/monitors.js';
import { projectsRoutes } from './api/routes/projects.js';
import { reportHistoryRoutes } from './api/routes/report-history.js';
import { reportsRoutes } from './api/routes/reports.js';
import { statsRoutes } from './api/routes/stats.js';
import { webhooksRoutes } from './api/routes/webhooks.js';
import { websitesRoutes } from './api/routes/websites.js';
import { ErrorResponse, EventErrorResponse, ValidationErrorResponse } from './http/schemas.js';
import { Crawl, CrawlIssue, CrawlIssueCount, CrawlLink, CrawlPage } from './resources/schemas.js';
import { HistoryItem, Monitor } from './resources/schemas.js';
import { Account, Project } from './api/schemas/reports.js';
import { CheckObject, Report } from './resources/schemas.js';
import { Webhook, WebhookDelivery } from './resources/schemas.js';
import { Website } from './resources/schemas.js';
import type { ApiTypeProvider } from './http/type-provider.js';
import { buildServices, type ServiceOptions, type Services } from './services.js';
import { useLaravelValidation } from './http/validator.js';

export interface AppOptions {
  config: AppConfig;
  database: DatabaseHandle;
  /** Where log lines go (tests capture them); stdout by default. */
  logStream?: NodeJS.WritableStream;
  /** Tests only: a DNS resolver and connection hooks for the analyser (production uses the system's). */
  analysisHooks?: Pick<AnalyzeOptions, 'resolver' | 'guard'>;
  /** Where time comes from; the system clock by default (tests move their own). */
  clock?: Clock;
  /** The instance's services (built here when absent, and then closed with the app). */
  services?: Services;
  /** Tests only: record mails and events instead of sending them (see ServiceOptions). */
  mail?: ServiceOptions['mail'];
  events?: ServiceOptions['events'];
}

export type { Repositories } from './services.js';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;
/** Methods whose unmatched requests the not-found handler answers (it never needs their body). */
const BODYLESS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Longer request targets answer 414 (Apache's and nginx's usual limit is about 8 KB too). */
export const MAX_URL_LENGTH = 8192;

/**
 * Ids for requests that bring none: UUID-shaped, a random prefix per process and a counter in
 * the last 12 hex digits, so they are unique within the process (and across processes but for
 * a 2^-96 chance) without drawing random bytes for every request.
 */
const REQUEST_ID_PREFIX = randomUUID().slice(0, 24);
let requestCounter = 0;

function nextRequestId(): string {
  requestCounter = (requestCounter + 1) % 2 ** 48;
  return REQUEST_ID_PREFIX + requestCounter.toString(16).padStart(12, '0');
}

export interface RegisteredRoute {
  method: string;
  url: string;
  /** False for routes hidden from the OpenAPI document (the docs UI's own assets). */
  documented: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route, as registered (tests compare it with the OpenAPI document). */
    registeredRoutes: RegisteredRoute[];
    /** The instance's analysis slots, shared fairly by account (every analysis goes through it). */
    analysisPool: AnalysisPool;
    /** The instance's services: the same the job workers and the CLI use. */
    services: Services;
  }
}

export async function buildApp({
  config,
  database,
  logStream,
  analysisHooks,
  clock = systemClock,
  services: given,
  mail,
  events,
}: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: loggerOptions(config.logLevel, logStream),
    // A hop count (never `true`, which trusts every X-Forwarded-For entry): request.ip is then
    // the Nth address from the right, the one rule every limit and log uses.
    trustProxy: config.trustProxy > 0 ? (_address: string, hop: number) => hop < config.trustProxy : false,
    bodyLimit: config.bodyLimit,
    routerOptions: { querystringParser: (text: string) => parseFormEncoded(text), maxParamLength: 512 },
    // Slow clients: the whole request must arrive within 30 s (the headers within 10 s, below).
    requestTimeout: 30_000,
    // Malformed paths (bad percent-encoding, over-long parameters) get the API's JSON error body.
    frameworkErrors: (error, _request, reply: FastifyReply) => {
      const http = toHttpError(error);
      reply.code(http.status).headers(http.headers).send(errorBody(http));
    },
    // Requests Node's HTTP parser refuses never reach a route: answer them in the same shape.
    clientErrorHandler: rejectMalformedRequest,
    // A caller's X-Request-Id is kept when sane, so logs can be joined across services.
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : nextRequestId();
    },
    logController: new OneLinePerRequest({ requestIdLogLabel: 'requestId' }),
    schemaController: { compilersFactory: { buildSerializer: cachedSerializerFactory } },
  });

  app.server.headersTimeout = 10_000; // slowloris: headers must arrive promptly

  // One instance's services, shared with its job workers (services.ts). Tests and `serve` pass
  // theirs; otherwise the app builds its own and closes them with itself.
  const services = given ?? buildServices({ config, database, log: app.log, clock, analysisHooks, mail, events });
  if (!given) app.addHook('onClose', async () => services.close());
  app.decorate('services', services);
  const repos = services.repos;
  const redis = config.redisUrl ? createRedisClient(config.redisUrl) : null;
  if (redis) await redisReady(redis);
  app.addHook('onClose', async () => redis?.disconnect());
  const counter = new WindowCounter(redis, app.log);
  // "Run now" of a monitor is timed like the monitor's schedule, by the app's clock.
  const runNowCounter = new WindowCounter(redis, app.log, undefined, clock);
  const publicLimit = publicPageLimit(counter, config.publicRateLimitPerMinute);
  app.decorate('analysisPool', services.analysisPool);
  const reportService = services.reports;
  const stats = services.stats;

  // Analytics: events are written in group commits, so close waits for the last batch.
  const eventStore = analyticsEventStore(services.database, repos.analytics);
  const writer = new EventWriter(eventStore);
  app.addHook('onClose', async () => {
    await writer.flush();
    await eventStore.close();
  });
  // A listening server starts the write thread (loading its modules takes ~150 ms) before
  // the first event needs it; an app that only answers inject (tests) starts it on demand.
  app.addHook('onListen', (done) => {
    eventStore.warmUp();
    done();
  });
  const collector = new EventCollector({
    websites: repos.websites,
    analytics: repos.analytics,
    writer,
    geo: await GeoLookup.open(config.analytics.cityDatabase),
    clock,
    websiteLimit: { counter, eventsPerSecond: config.analytics.eventsPerWebsite },
  });

  // Outside /api/v1 (share pages, docs, health) handlers read their few inputs themselves: an
  // HTML page never answers a 422. The API sets its own validator (validator.ts). Responses
  // everywhere go through Fastify's serializer, compiled from the routes' response schemas.
  app.setValidatorCompiler(() => (value) => ({ value }));
  for (const schema of [
    ErrorResponse,
    ValidationErrorResponse,
    EventErrorResponse,
    CheckObject,
    Report,
    Project,
    Account,
    Website,
    Webhook,
    WebhookDelivery,
    Monitor,
    HistoryItem,
    Crawl,
    CrawlPage,
    CrawlIssue,
    CrawlLink,
    CrawlIssueCount,
  ])
    app.addSchema(schema);

  registerBodyParsers(app);
  await registerOpenApi(app, config.version); // before the routes, which it documents

  const routeTable = new RouteTable();
  const registered: RegisteredRoute[] = [];
  app.decorate('registeredRoutes', registered);
  app.addHook('onRoute', (route) => {
    routeTable.add(route.url, route.method);
    for (const method of [route.method].flat()) {
      registered.push({ method, url: route.url, documented: !(route.schema as { hide?: boolean } | undefined)?.hide });
    }
  });
  // Callback-style hooks where nothing is awaited: every request runs them, and an async
  // hook costs a promise and a microtask turn each.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('X-Request-Id', request.id);
    const url = request.url;
    const query = url.indexOf('?');
    const path = query === -1 ? url : url.slice(0, query);
    reply.headers(securityHeadersFor(path));
    if (request.url.length > MAX_URL_LENGTH) return done(new HttpError(414, 'The request URL is too long.'));
    // The API's CORS headers, and a preflight answered here (reply sent: the chain ends).
    if (isApiPath(path) && applyApiCors(request, reply)) return;
    // An unmatched request with a method that may carry a body (POST, QUERY, PROPFIND…) is
    // answered before Fastify tries to parse a body for it: 405 with Allow on a known path
    // (Laravel's router), 404 elsewhere.
    if (request.is404 && !BODYLESS.has(request.method)) {
      const allowed = routeTable.allowed(path);
      return done(allowed.length === 0 ? notFound() : methodNotAllowed(request.method, path, allowed));
    }
    done();
  });

  // While shutting down, every response closes its connection, so keep-alive clients cannot
  // hold the server open (Fastify already refuses new requests with 503 then).
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('Connection', 'close');
    done(null, payload);
  });

  app.setErrorHandler((error, request, reply) => {
    const http = toHttpError(error);
    if (http.status >= 500) request.log.error({ err: error }, 'request failed');
    reply.code(http.status).headers(http.headers).send(errorBody(http));
  });

  app.setNotFoundHandler((request: FastifyRequest, reply) => {
    const path = request.url.split('?')[0];
    const allowed = routeTable.allowed(path);
    if (allowed.length === 0) {
      // People browsing get a page; API clients (and every non-GET) get the JSON error.
      if (!path.startsWith('/api/') && (request.method === 'GET' || request.method === 'HEAD')) return notFoundPage(reply);
      throw notFound();
    }
    if (request.method === 'OPTIONS') return reply.code(200).header('Allow', allowed.join(',')).send();
    throw methodNotAllowed(request.method, path, allowed);
  });

  healthRoutes(app, database, config.version, services.renderer);
  await registerDocs(app);
  // Share-page cookies are signed with a secret kept in the database, so every instance agrees.
  const cookieSecret = await new SettingsRepository(database.db).getOrCreate('share_cookie_secret', () =>
    randomBytes(32).toString('base64url'),
  );
  // Cookies exist only for the share pages, so only their scope parses and signs them.
  await app.register(async (web) => {
    await web.register(cookie, { secret: cookieSecret });
    webRoutes(web, {
      reports: repos.reports,
      history: repos.history,
      websites: repos.websites,
      counter,
      config: config.analysis,
      clock,
      stats,
      publicLimit,
    });
  });

  // The dashboard: a client of the API below, in process (dashboard/api-client.ts).
  const internal = new InternalCredential();
  await app.register(async (scope) =>
    dashboardRoutes(scope, {
      api: new DashboardApi(app, internal),
      sessions: new SessionService({ users: repos.users, sessions: repos.sessions, counter, clock }),
      users: repos.users,
      clock,
      config: config.analysis,
      stats,
      cookieSecret,
      publicLimit,
      renderer: services.renderer,
    }),
  );

  // Collection is open to any origin and has its own body parsers and limits (no API key).
  await app.register(eventRoute, { collector, counter, eventsPerSecond: config.analytics.eventsPerSecond });
  await app.register(trackerScriptRoute);

  await app.register(
    async (scope) => {
      const api = scope.withTypeProvider<ApiTypeProvider>();
      api.decorateRequest('user', null);
      api.decorateRequest('fromDashboard', false);
      api.addHook('onRequest', authenticate(repos.users, internal));
      if (config.rateLimitPerMinute > 0) await registerRateLimit(api, config.rateLimitPerMinute, counter);
      useLaravelValidation(api);
      websitesRoutes(api, repos.websites);
      reportsRoutes(api, {
        reports: repos.reports,
        service: reportService,
        bands: config.analysis.bands,
        renderer: services.renderer,
      });
      projectsRoutes(api, repos.reports, reportService);
      accountRoutes(api, repos.reports, repos.websites);
      statsRoutes(api, { websites: repos.websites, stats, clock });
      webhooksRoutes(api, { webhooks: repos.webhooks, deliveries: repos.webhookDeliveries, service: services.webhooks });
      reportHistoryRoutes(api, { reports: repos.reports, history: repos.history });
      monitorsRoutes(api, {
        monitors: repos.monitors,
        reports: repos.reports,
        service: services.monitors,
        maxMonitors: config.maxMonitors,
        counter: runNowCounter,
        renderer: services.renderer,
      });
      crawlsRoutes(api, {
        crawls: repos.crawls,
        links: repos.crawlLinks,
        service: services.crawls,
        maxPages: config.crawl.maxPages,
        renderer: services.renderer,
      });
    },
    { prefix: '/api/v1' },
  );

  return app;
}
