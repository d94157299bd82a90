// The abuse limit of the public pages (share pages, /login): requests a minute per client
// address, in a fixed window of the shared WindowCounter (Redis when configured, so every
// instance counts together). The address is request.ip, which follows TRUST_PROXY like every
// limit; an IPv6 client counts by its /64 (limits/address-key.ts). It runs on request, before a
// body is parsed or anything is read from the database, so a flood costs one counter update each.
import type { FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import { addressKey } from '../limits/address-key.js';
import type { WindowCounter } from '../limits/window-counter.js';
import { renderTooManyRequestsPage } from '../render/index.js';

const WINDOW_MS = 60_000;

/** The onRequest hook of every public page; with `perMinute` 0, one that lets everything through. */
export function publicPageLimit(counter: WindowCounter, perMinute: number): onRequestHookHandler {
  if (perMinute <= 0) return (_request, _reply, done) => done();
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const hit = await counter.incr(`public:${addressKey(request.ip)}`, WINDOW_MS);
    if (hit.count <= perMinute) return;
    const seconds = Math.max(1, Math.ceil(hit.ttl / 1000));
    return reply
      .code(429)
      .header('Retry-After', String(seconds))
      .header('Cache-Control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(renderTooManyRequestsPage(seconds));
  };
}
