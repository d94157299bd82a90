// POST /api/event: Plausible-compatible collection, open to any origin. 202 once stored (after
// the commit) or deliberately dropped (X-Event-Dropped says why); 400/413/415 for what cannot be
// an event; 429 past the per-address abuse limit or the website's events per second.
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { errorBody, HttpError, toHttpError, ValidationError, tooManyAttempts } from '../http/errors.js';
import { lazyChildLoggerFactory } from '../http/logging.js';
import { documentResponse, emptyResponse, errorResponses } from '../http/openapi-responses.js';
import { ErrorResponse, EventErrorResponse } from '../http/schemas.js';
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

// The body as parseEventBody reads it: each field under its long or its short keys (the first
// one present wins), as Plausible's trackers send them.
const same = (key: string) => `The same as \`${key}\``;
const Id = Type.Union([Type.Integer({ minimum: 1 }), Type.String({ pattern: '^[0-9]+$' })]);
const Width = Type.Integer({ minimum: 0, maximum: 100_000, description: 'Pixels (0: unknown)' });
const Props = Type.Union(
  [
    Type.Record(Type.String({ minLength: 1, maxLength: 64 }), Type.Unknown(), { maxProperties: 30 }),
    Type.String({ description: 'A JSON object, as text (what Plausible’s trackers send)' }),
  ],
  {
    description:
      'Custom properties: an object, or a JSON string of one, of at most 30 entries with keys of 1 to 64 characters. ' +
      'Strings (cut to 512 characters) and numbers are kept, booleans as `true`/`false`; any other value (null, an ' +
      'object, a list) and an empty string are dropped alone, never the event.',
  },
);
const Language = Type.String({
  maxLength: 35,
  pattern: '^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$',
  description: 'A tag such as en-US',
});
const EventBody = Type.Object(
  {
    name: Type.Optional(
      Type.String({ minLength: 1, maxLength: 120, description: '`pageview` or a custom event name (short key `n`)' }),
    ),
    n: Type.Optional(Type.String({ minLength: 1, maxLength: 120, description: same('name') })),
    url: Type.Optional(
      Type.String({ maxLength: 2048, format: 'uri', description: 'The page, absolute http(s) (short key `u`)' }),
    ),
    u: Type.Optional(Type.String({ maxLength: 2048, format: 'uri', description: same('url') })),
    website: Type.Optional({ ...Id, description: 'The website id, a number or a numeric string (short key `i`)' }),
    i: Type.Optional(
      Type.Union([Id, Type.Boolean()], {
        description: `${same('website')}; a boolean is @plausible-analytics/tracker's interactive flag, and is ignored`,
      }),
    ),
    domain: Type.Optional(
      Type.String({
        maxLength: 255,
        description:
          'When no website id is sent: the website with this domain (several: the one created first). A comma-separated ' +
          'list (Plausible’s rollups) stores the event once for each listed domain that has a website (short key `d`)',
      }),
    ),
    d: Type.Optional(Type.String({ maxLength: 255, description: same('domain') })),
    referrer: Type.Optional(
      Type.Union([Type.String({ maxLength: 2048 }), Type.Null()], { description: 'The referring page (short key `r`)' }),
    ),
    r: Type.Optional(Type.Union([Type.String({ maxLength: 2048 }), Type.Null()], { description: same('referrer') })),
    props: Type.Optional(Props),
    p: Type.Optional({ ...Props, description: same('props') }),
    m: Type.Optional({ ...Props, description: `${same('props')} (Plausible's older script)` }),
    screen_width: Type.Optional({
      ...Width,
      description: 'The screen width (short keys `sw`, and `w`: Plausible’s window width)',
    }),
    sw: Type.Optional({ ...Width, description: same('screen_width') }),
    w: Type.Optional({
      ...Width,
      description: `${same('screen_width')}: Plausible's trackers send the window's width. Never a website id`,
    }),
    screen_height: Type.Optional({ ...Width, description: 'The screen height (short key `sh`)' }),
    sh: Type.Optional({ ...Width, description: same('screen_height') }),
    language: Type.Optional({ ...Language, description: 'The browser’s language tag, such as en-US (short key `l`)' }),
    l: Type.Optional({ ...Language, description: same('language') }),
    h: Type.Optional(
      Type.Union([Type.Literal(0), Type.Literal(1), Type.Boolean()], {
        description: 'Plausible’s hash routing: with 1 (or true) the URL’s fragment is part of the page (`/#/pricing`)',
      }),
    ),
    revenue: Type.Optional(Type.Unknown({ description: 'Plausible’s revenue (`{amount, currency}`): accepted, not stored' })),
    $: Type.Optional(Type.Unknown({ description: same('revenue') })),
  },
  {
    description:
      'Long or short keys, the first one present wins (null is the same as absent); keys not listed here are ignored. ' +
      'name|n and url|u are required. ' +
      'Refused with a 400: not a JSON object, no name or url, a URL that is not absolute http(s), a field over its limit, ' +
      'a website id that is not a positive integer, props that are not an object (or a JSON string of one) or have more ' +
      'than 30 entries or a key over 64 characters, a malformed language. JSON sent as application/json or text/plain, ' +
      'at most 8 KB.',
    allOf: [{ anyOf: [{ required: ['name'] }, { required: ['n'] }] }, { anyOf: [{ required: ['url'] }, { required: ['u'] }] }],
  },
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
          'JSON body, as application/json or text/plain, with long or short keys: name|n, url|u, domain|d, website|i, ' +
          'referrer|r, props|p|m, screen_width|sw|w, screen_height|sh, language|l, h, revenue|$ (Plausible’s Events API: ' +
          'its trackers work unchanged). 202 `ok` when stored or dropped on purpose (header X-Event-Dropped: `bot`, `ip`, ' +
          '`website` for an unknown website and a page on another domain alike, or `engagement` for Plausible’s ' +
          'engagement pings, which are not events). ' +
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
