// POST /api/event: Plausible-compatible collection, open to any origin. 202 once stored (after
// the commit) or deliberately dropped (X-Event-Dropped says why); 400/413/415 for what cannot be
// an event; 429 past the per-address abuse limit or the website's events per second.
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { errorBody, HttpError, toHttpError, ValidationError, tooManyAttempts } from '../api/errors.js';
import { lazyChildLoggerFactory } from '../api/logging.js';
import { documentResponse, emptyResponse, errorResponses } from '../api/openapi-responses.js';
import { ErrorResponse, EventErrorResponse } from '../api/schemas/common.js';
import { addressKey } from '../limits/address-key.js';
import type { WindowCounter } from '../limits/window-counter.js';
import type { EventCollector } from './collector.js';
import { MAX_EVENT_BODY, parseEventBody } from './event-input.js';

export interface EventRouteOptions {
  collector: EventCollector;
  counter: WindowCounter;
  /** Events per second one client address (an IPv6 client: its /64) may send (0: no limit). */
  eventsPerSecond: number;
}

/** The types the route reads (the tracker's JSON, and sendBeacon's text/plain of it). */
const ACCEPTED_TYPES = ['application/json', 'text/plain'];
/** Fastify's own message names the type it refused; a sender needs the ones it should use. */
const UNSUPPORTED_TYPE = 'Unsupported media type: send the event as application/json or text/plain.';

const EventBody = Type.Object(
  {
    name: Type.String({ maxLength: 120, description: '`pageview` or a custom event name (short key `n`)' }),
    url: Type.String({ maxLength: 2048, format: 'uri', description: 'The page, absolute http(s) (`u`)' }),
    website: Type.Optional(Type.Integer({ minimum: 1, description: 'The website id (`w`)' })),
    domain: Type.Optional(Type.String({ maxLength: 255, description: 'The website domain, when no id is sent (`d`)' })),
    referrer: Type.Optional(Type.String({ maxLength: 2048, description: '`r`' })),
    props: Type.Optional(
      Type.Record(Type.String(), Type.Union([Type.String(), Type.Number()]), { maxProperties: 30, description: '`p`' }),
    ),
    screen_width: Type.Optional(Type.Integer({ minimum: 1, description: '`sw`' })),
    screen_height: Type.Optional(Type.Integer({ minimum: 1, description: '`sh`' })),
    language: Type.Optional(Type.String({ maxLength: 35, description: '`l`' })),
  },
  { description: 'Long or short keys; JSON sent as application/json or text/plain, at most 8 KB' },
);

/** On every answer of this scope: any origin may read it, and the drop reason. */
const CORS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': 'X-Event-Dropped',
  // sendBeacon posts text/plain in no-cors mode: with the app's same-origin CORP the browser
  // blocks the answer and logs an error in the sending page (the event is stored either way).
  'Cross-Origin-Resource-Policy': 'cross-origin',
};
/** Only a preflight's answer is read for these (the Fetch standard ignores them elsewhere), so events do not carry them. */
const PREFLIGHT = {
  'Access-Control-Allow-Methods': 'POST, OPTIONS',
  'Access-Control-Allow-Headers': 'Content-Type',
  'Access-Control-Max-Age': '86400',
};

export async function eventRoute(scope: FastifyInstance, options: EventRouteOptions): Promise<void> {
  // The tracker sends JSON as application/json, or as text/plain (sendBeacon's type, which
  // needs no preflight); both are read as text and parsed by parseEventBody.
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser(ACCEPTED_TYPES, { parseAs: 'string', bodyLimit: MAX_EVENT_BODY }, (_request, body, done) =>
    done(null, body),
  );
  // This scope's errors in the API's shape, with its own 415 message (the API's names form bodies).
  scope.setErrorHandler((error, request, reply) => {
    const http =
      (error as { code?: string }).code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
        ? new HttpError(415, UNSUPPORTED_TYPE)
        : toHttpError(error);
    if (http.status >= 500) request.log.error({ err: error }, 'request failed');
    reply.code(http.status).headers(http.headers).send(errorBody(http));
  });
  // A callback hook: an async one costs every event a promise and a microtask turn.
  scope.addHook('onSend', (_request, reply, payload, done) => {
    reply.headers(CORS);
    done(null, payload);
  });

  scope.options(
    '/api/event',
    {
      schema: {
        tags: ['analytics'],
        summary: 'CORS preflight for /api/event (any origin may send events)',
        security: [],
        response: { 204: emptyResponse('Allowed: POST from any origin, with Content-Type') },
      },
    },
    async (_request, reply) => reply.code(204).headers(PREFLIGHT).send(),
  );

  scope.post(
    '/api/event',
    {
      bodyLimit: MAX_EVENT_BODY,
      // No access-log line per event: it would keep every visitor's address in the logs, which
      // the analytics promise not to store (failures are still logged, without the address).
      logLevel: 'warn',
      // The request's logger is made only if something is logged (a failure).
      childLoggerFactory: lazyChildLoggerFactory,
      schema: {
        tags: ['analytics'],
        summary: 'Record a pageview or a custom event (the tracker calls it; Plausible-compatible)',
        description:
          'JSON body, as application/json or text/plain, with long or short keys: name|n, url|u, domain|d, website|w, ' +
          'referrer|r, props|p, screen_width|sw, screen_height|sh, language|l. 202 `ok` when stored or dropped on purpose ' +
          '(header X-Event-Dropped: `bot`, `ip`, or `website` for an unknown website and a page on another domain alike). ' +
          'A NUL character in any field is removed and the event stored. Each dimension keeps at most ANALYTICS_MAX_VALUES ' +
          'values per website and UTC day; later values count under `(other)`. 429 (with Retry-After) past ' +
          'EVENT_RATE_LIMIT events a second from one address (an IPv6 client: its /64) or EVENT_WEBSITE_LIMIT for one ' +
          'website. No authentication; any origin.',
        security: [],
        consumes: ['application/json', 'text/plain'],
        // Documentation only: the body is read as text and checked by parseEventBody (400s).
        body: EventBody,
        response: {
          202: documentResponse('Stored, or dropped on purpose (the body is `ok`)', 'text/plain'),
          400: Type.Ref(EventErrorResponse, { description: 'Not an event: the fields and what is wrong with them' }),
          ...errorResponses(413, 429, 503),
          415: Type.Ref(ErrorResponse, { description: 'Another content type: send application/json or text/plain' }),
        },
      },
    },
    async (request, reply) => {
      if (options.eventsPerSecond > 0) {
        const hit = await options.counter.incr(`event:${addressKey(request.ip)}`, 1000);
        if (hit.count > options.eventsPerSecond) throw tooManyAttempts(Math.max(1, Math.ceil(hit.ttl / 1000)));
      }
      const parsed = parseEventBody(typeof request.body === 'string' ? request.body : '');
      if (!parsed.ok) throw new ValidationError(parsed.errors, 400);
      let outcome: Awaited<ReturnType<EventCollector['collect']>>;
      try {
        outcome = await options.collector.collect(parsed.event, {
          address: request.ip,
          userAgent: request.headers['user-agent'] ?? '',
        });
      } catch (error) {
        request.log.error({ err: error }, 'event not stored');
        throw new HttpError(503, 'The event could not be stored; try again.', { 'Retry-After': '1' });
      }
      if (!outcome.stored) {
        if (outcome.dropped === undefined) throw tooManyAttempts(outcome.retryAfter);
        reply.header('X-Event-Dropped', outcome.dropped);
      }
      return reply.code(202).type('text/plain; charset=utf-8').send('ok');
    },
  );
}
