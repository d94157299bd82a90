// Per-account API rate limiting with Laravel's headers (docs/laravel.md §5), on
// @fastify/rate-limit: counted after authentication (a 401 never counts), keyed by account,
// in a fixed window shared by every instance through the WindowCounter.
import type { FastifyInstance } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import type { WindowCounter } from '../limits/window-counter.js';
import { tooManyAttempts } from '../http/errors.js';

const WINDOW_MS = 60_000;

type IncrCallback = (error: Error | null, hit: { current: number; ttl: number } | null) => void;

export async function registerRateLimit(api: FastifyInstance, perMinute: number, counter: WindowCounter): Promise<void> {
  // The plugin's store interface, over the shared counter.
  class Store {
    incr(key: string, callback: IncrCallback, timeWindow: number): void {
      counter.incr(`api:${key}`, timeWindow).then(
        (hit) => callback(null, { current: hit.count, ttl: hit.ttl }),
        (error: Error) => callback(error, null),
      );
    }

    child(): Store {
      return this;
    }
  }

  await api.register(rateLimit, {
    max: perMinute,
    timeWindow: WINDOW_MS,
    // After authentication, so the key is the account, and before validation, so a request the
    // validator refuses (422, or a malformed id's 404) still counts.
    hook: 'preValidation',
    keyGenerator: (request) => `account:${request.user?.id ?? request.ip}`,
    // A dashboard page view makes several API reads for one click: those are not counted. Its
    // forms are, exactly as the API calls they make (every write: POST, PUT, PATCH, DELETE), in
    // the account's one budget, so a browser cannot change more a minute than its API key could.
    allowList: (request) => request.fromDashboard === true && (request.method === 'GET' || request.method === 'HEAD'),
    store: Store as never,
    skipOnError: true,
    addHeadersOnExceeding: { 'x-ratelimit-limit': true, 'x-ratelimit-remaining': true, 'x-ratelimit-reset': false },
    addHeaders: { 'x-ratelimit-limit': true, 'x-ratelimit-remaining': true, 'x-ratelimit-reset': false, 'retry-after': true },
    errorResponseBuilder: (_request, context) => {
      const seconds = Math.max(1, Math.ceil(context.ttl / 1000));
      return tooManyAttempts(seconds, { 'X-RateLimit-Reset': String(Math.floor(Date.now() / 1000) + seconds) });
    },
  });
}
