// One analysis's network session: a guarded undici Agent, the caller's cancellation, per-task
// deadlines, and GET with redirects followed by hand so every hop goes back through the guard.
// `close()` aborts whatever is still running and destroys every socket.
import type { Readable } from 'node:stream';
import type { Agent, Dispatcher } from 'undici';
import type { AnalysisConfig } from '../config.js';
import { FetchError } from '../errors.js';
import { MAX_URL_LENGTH } from '../urls.js';
import { systemResolver, type Resolver } from './address-guard.js';
import { createGuardedAgent, type ConnectHooks } from './connector.js';
import type { CookieJar } from './cookies.js';
import { toFetchError } from './network-errors.js';

export interface GuardHooks extends ConnectHooks {
  /** Test-only: addresses the guard treats as public (models an allowed host on loopback). */
  treatAsPublic?: (address: string) => boolean;
}

export interface SessionOptions {
  config: AnalysisConfig;
  resolver?: Resolver;
  signal?: AbortSignal;
  guard?: GuardHooks;
}

export interface FollowOptions {
  signal: AbortSignal;
  maxRedirects: number;
  headers: Record<string, string>;
  jar?: CookieJar;
  /** Answer with the first response, a redirect included (a crawler records each hop as a page). */
  stopAtRedirect?: boolean;
  /** GET unless said: a link check asks HEAD first (every hop then asks HEAD too). */
  method?: 'GET' | 'HEAD';
}

export interface FinalResponse {
  /** The URL that answered, without its fragment. */
  url: URL;
  response: Dispatcher.ResponseData;
  /** The first answer's status (a 301 when the first hop redirected). */
  firstStatus: number;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

export function isHttpUrl(url: URL): boolean {
  return url.protocol === 'http:' || url.protocol === 'https:';
}

export function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** Drops a body we do not need, keeping the connection reusable when it is small. */
export async function discardBody(body: Readable & { dump?: (opts: { limit: number }) => Promise<void> }): Promise<void> {
  try {
    if (body.dump) await body.dump({ limit: 64 * 1024 });
    else body.destroy();
  } catch {
    body.destroy();
  }
}

class SessionClosedError extends Error {
  override name = 'AbortError';
}

export class FetchSession {
  readonly config: AnalysisConfig;
  private readonly agent: Agent;
  private readonly controller = new AbortController();
  private readonly tasks = new Set<Promise<unknown>>();
  private readonly detachCaller: () => void = () => {};

  constructor({ config, resolver = systemResolver, signal, guard }: SessionOptions) {
    this.config = config;
    this.agent = createGuardedAgent({
      policy: { allowPrivateAddresses: config.request.allowPrivateAddresses, treatAsPublic: guard?.treatAsPublic },
      resolver,
      connectTimeoutMs: config.request.timeoutMs,
      hooks: guard,
      signal: this.controller.signal,
    });
    if (signal?.aborted) {
      this.controller.abort(signal.reason);
    } else if (signal) {
      const onAbort = () => this.controller.abort(signal.reason);
      signal.addEventListener('abort', onAbort, { once: true });
      this.detachCaller = () => signal.removeEventListener('abort', onAbort);
    }
  }

  /**
   * Runs `task` with a signal that aborts when the session closes, when the caller aborts, or
   * after `timeoutMs`. Failures come out as FetchError, except a caller's abort, which
   * rejects with the caller's own reason.
   */
  async withDeadline<T>(timeoutMs: number, task: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const session = this.controller.signal;
    if (session.aborted) throw session.reason;
    const local = new AbortController();
    // Made when the deadline passes: an Error captures a stack, and most tasks never time out.
    const timer = setTimeout(() => local.abort(new FetchError('timeout', { timeoutMs })), timeoutMs);
    const onSessionAbort = () => local.abort(session.reason);
    session.addEventListener('abort', onSessionAbort, { once: true });
    try {
      return await task(local.signal);
    } catch (error) {
      if (local.signal.aborted) throw local.signal.reason;
      throw toFetchError(error, timeoutMs);
    } finally {
      clearTimeout(timer);
      session.removeEventListener('abort', onSessionAbort);
    }
  }

  /** GET `url`, following up to `maxRedirects` redirects; the caller owns the final body. */
  async get(
    start: URL,
    { signal, maxRedirects, headers, jar, stopAtRedirect, method = 'GET' }: FollowOptions,
  ): Promise<FinalResponse> {
    let url = new URL(start);
    url.hash = '';
    let firstStatus: number | undefined;
    for (let redirects = 0; ; redirects++) {
      const cookie = jar?.header(url);
      const response = await this.agent.request({
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method,
        headers: cookie === undefined ? headers : { ...headers, cookie },
        signal,
      });
      firstStatus ??= response.statusCode;
      jar?.store(url, response.headers['set-cookie']);
      const location = firstHeader(response.headers.location);
      if (stopAtRedirect || !REDIRECT_STATUSES.has(response.statusCode) || location === undefined) {
        return { url, response, firstStatus };
      }
      await discardBody(response.body);
      if (redirects >= maxRedirects) throw new FetchError('too_many_redirects', { maxRedirects });
      url = nextHop(url, location);
    }
  }

  /** True once the session closed or its caller aborted: whatever failed since failed for that. */
  get aborted(): boolean {
    return this.controller.signal.aborted;
  }

  /** Keeps `promise` in the set that `close()` waits for. */
  track<T>(promise: Promise<T>): Promise<T> {
    this.tasks.add(promise);
    promise.then(
      () => this.tasks.delete(promise),
      () => this.tasks.delete(promise),
    );
    return promise;
  }

  /** Aborts every task still running, waits for them to settle, and destroys every socket. */
  async close(): Promise<void> {
    if (!this.controller.signal.aborted) this.controller.abort(new SessionClosedError('The fetch session was closed.'));
    await Promise.allSettled([...this.tasks]);
    await this.agent.destroy();
    this.detachCaller();
  }
}

function nextHop(from: URL, location: string): URL {
  let next: URL;
  try {
    next = new URL(location, from);
  } catch {
    throw new FetchError('invalid_url', { message: 'The page redirects to an invalid address.' });
  }
  if (!isHttpUrl(next)) {
    throw new FetchError('invalid_url', {
      message: `The page redirects to an address that is not http or https (${next.protocol}).`,
    });
  }
  next.hash = '';
  // The submitted address is held to this length; a redirect must not be a way around it.
  if (next.href.length > MAX_URL_LENGTH) {
    throw new FetchError('invalid_url', {
      message: `The page redirects to an address longer than ${MAX_URL_LENGTH.toLocaleString('en-US')} characters.`,
    });
  }
  return next;
}
