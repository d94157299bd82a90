// Fixed-window counters (a window opens at a key's first hit, as Laravel's limiter does), kept
// in Redis when one is configured so every instance shares them, and in process memory
// otherwise, or while Redis is unreachable (then a warning is logged, at most every 30 s).
// A key hit both ways in one window (Redis not ready yet at start, a command timed out under
// load, Redis gone mid-window) counts both: the hits this instance counted itself are added to
// Redis's count, and the last count Redis gave to this instance's own, so a limit is never
// exceeded by switching between the two.
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import { systemClock, type Clock } from '../time.js';

export interface Hit {
  /** Hits in the current window, this one included (for peek: so far). */
  count: number;
  /** Milliseconds until the window closes. */
  ttl: number;
}

/** INCR, and start the window's expiry on the first hit; returns [count, ms left]. */
const INCR_SCRIPT = `
local current = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {current, ttl}`;

/** Takes back one hit of a window that is still open (never below zero, never reopens one). */
const DECR_SCRIPT = `
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
if current > 0 then current = redis.call('DECR', KEYS[1]) end
local ttl = redis.call('PTTL', KEYS[1])
return {current, ttl}`;

const PEEK_SCRIPT = `
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
local ttl = redis.call('PTTL', KEYS[1])
return {current, ttl}`;

export function createRedisClient(url: string): Redis {
  return new Redis(url, {
    // Never queue or retry a counter update: an unreachable Redis must cost microseconds, not a hang.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: 250,
    connectTimeout: 1000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
  });
}

/**
 * Waits (at most `ms`) for a new client's connection, so the first requests count in Redis
 * rather than per instance; a Redis that is down at start only delays the start by `ms`.
 */
export function redisReady(redis: Redis, ms = 2000): Promise<void> {
  if (redis.status === 'ready') return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      redis.off('ready', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    redis.once('ready', done);
  });
}

interface LocalWindow {
  /** Hits counted here. */
  count: number;
  endsAt: number;
  /** The last count Redis gave for this key in this window (0 when none). */
  remote: number;
}

class LocalWindows {
  private readonly windows = new Map<string, LocalWindow>();

  constructor(private readonly clock: Clock) {}

  private open(key: string, windowMs: number, now: number): LocalWindow {
    let w = this.windows.get(key);
    if (!w || w.endsAt <= now) {
      if (this.windows.size > 100_000) this.sweep(now);
      w = { count: 0, endsAt: now + windowMs, remote: 0 };
      this.windows.set(key, w);
    }
    return w;
  }

  incr(key: string, windowMs: number): Hit {
    const now = this.clock.now();
    const w = this.open(key, windowMs, now);
    w.count++;
    return { count: w.count + w.remote, ttl: w.endsAt - now };
  }

  /** Redis's answer for `key`, remembered, plus the hits counted here in the same window. */
  withRemote(key: string, hit: Hit): Hit {
    if (hit.ttl <= 0) return hit; // no window open in Redis (a peek or decr of an unknown key)
    const w = this.open(key, hit.ttl, this.clock.now());
    w.remote = hit.count;
    return { count: hit.count + w.count, ttl: hit.ttl };
  }

  decr(key: string): Hit {
    const now = this.clock.now();
    const w = this.windows.get(key);
    if (!w || w.endsAt <= now) return { count: 0, ttl: 0 };
    if (w.count > 0) w.count--;
    return { count: w.count + w.remote, ttl: w.endsAt - now };
  }

  peek(key: string): Hit {
    const now = this.clock.now();
    const w = this.windows.get(key);
    return !w || w.endsAt <= now ? { count: 0, ttl: 0 } : { count: w.count + w.remote, ttl: w.endsAt - now };
  }

  private sweep(now: number): void {
    for (const [key, w] of this.windows) if (w.endsAt <= now) this.windows.delete(key);
  }
}

export class WindowCounter {
  private readonly local: LocalWindows;
  private lastWarning = 0;

  /**
   * `clock` times the windows counted in process (Redis times its own): the system clock, or a
   * service's clock for a limit that is part of its schedule (a monitor's "run now"), so a test
   * that moves that clock moves the limit's windows too.
   */
  constructor(
    private readonly redis: Redis | null,
    private readonly log: FastifyBaseLogger,
    private readonly prefix = 'rankscope:',
    clock: Clock = systemClock,
  ) {
    this.local = new LocalWindows(clock);
    redis?.on('error', (error) => this.warn(error));
  }

  /** Counts a hit on `key` in a window of `windowMs`. */
  async incr(key: string, windowMs: number): Promise<Hit> {
    // Without Redis, no round through remote()'s promise: /api/event counts twice per event.
    if (this.redis === null) return this.local.incr(key, windowMs);
    const remote = await this.remote(INCR_SCRIPT, key, windowMs);
    return remote ? this.local.withRemote(key, remote) : this.local.incr(key, windowMs);
  }

  /** Takes back one hit (an attempt counted before it was known to be harmless). */
  async decr(key: string): Promise<Hit> {
    const remote = await this.remote(DECR_SCRIPT, key, 0);
    return remote ? this.local.withRemote(key, remote) : this.local.decr(key);
  }

  /** The current window's count without adding a hit. */
  async peek(key: string): Promise<Hit> {
    const remote = await this.remote(PEEK_SCRIPT, key, 0);
    return remote ? this.local.withRemote(key, remote) : this.local.peek(key);
  }

  private async remote(script: string, key: string, windowMs: number): Promise<Hit | null> {
    if (!this.redis) return null;
    if (this.redis.status !== 'ready') {
      this.warn(new Error(`Redis connection is ${this.redis.status}`));
      return null;
    }
    try {
      const [count, ttl] = (await this.redis.eval(script, 1, this.prefix + key, windowMs)) as [number, number];
      return { count, ttl: Math.max(ttl, 0) };
    } catch (error) {
      this.warn(error);
      return null;
    }
  }

  private warn(error: unknown): void {
    if (Date.now() - this.lastWarning < 30_000) return;
    this.lastWarning = Date.now();
    this.log.warn({ err: error }, 'rate limiter: Redis unavailable, counting per instance until it returns');
  }
}
