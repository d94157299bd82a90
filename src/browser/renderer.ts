// The page as a browser builds it: one headless Chromium per instance, started on first use and
// locked to the guard proxy, `concurrency` pages at once, each in a fresh context, taken in
// turns between accounts (the fair queue the analysis pool uses). A page gets `timeoutMs` for the
// load event and network idle (500 ms without a request); its DOM is then serialised and held to
// the size limit of a fetch. A hostile page ends with a RenderError and its context is torn
// down; a browser that crashed is restarted and the page tried once more.
import { FairQueue } from '../limits/fair-queue.js';
import type { AddressPolicy, Resolver } from '../analysis/fetch/address-guard.js';
import type { ConnectHooks } from '../analysis/fetch/connector.js';
import { chromiumAvailable, launchChromium, lockedContext, type Browser, type BrowserContext } from './chromium.js';
import { REFUSED_HEADER, startGuardProxy, type GuardProxy } from './guard-proxy.js';

/** `crashed`: the browser died (restarted, the page retried once); `page_crashed`: the page's own tab died. */
export type RenderFailure =
  | 'unavailable'
  | 'busy'
  | 'timeout'
  | 'too_large'
  | 'crashed'
  | 'page_crashed'
  | 'navigation'
  | 'blocked_address';

/** The answer to `render` on an instance without Chromium. */
export const RENDER_NEEDS_CHROMIUM = 'Rendering needs Chromium: set CHROMIUM_PATH.';

/** Why a page could not be rendered, in words a user can act on. */
export class RenderError extends Error {
  override name = 'RenderError';
  constructor(
    readonly reason: RenderFailure,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export interface RenderedPage {
  /** The serialised DOM after the load event and network idle. */
  html: string;
  /** The URL the page ended on (after redirects and script navigations). */
  url: string;
}

export interface RendererOptions {
  executablePath: string;
  /** Pages rendered at once. */
  concurrency: number;
  /** For the load event and network idle together. */
  timeoutMs: number;
  /** The largest serialised DOM, in UTF-8 bytes (a fetch's REQUEST_MAX_BODY). */
  maxBytes: number;
  userAgent: string;
  policy: AddressPolicy;
  resolver: Resolver;
  /** Test-only: a veto right before each connection the proxy opens. */
  hooks?: ConnectHooks;
  /** The V8 heap of a page's renderer, MB (a page growing without end fails there). */
  heapMb?: number;
  /** Waiters per account before that account is refused at once. */
  maxQueuedPerAccount?: number;
  log?: { warn(object: object, message: string): void };
}

/** Past the page's own deadline, how long tearing down a stuck page may take before the browser is restarted. */
const TEARDOWN_MS = 3_000;
/** Playwright's network idle: no request for this long. */
const IDLE_MS = 500;

function seconds(ms: number): string {
  const s = ms / 1000;
  return s === 1 ? '1 second' : `${Number.isInteger(s) ? s : s.toFixed(1)} seconds`;
}

function megabytes(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  return Number.isInteger(mb) ? `${mb} MB` : `${mb.toFixed(1)} MB`;
}

/** Rejects with `error` after `ms` unless `task` settles first. */
function deadline<T>(task: Promise<T>, ms: number, error: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(error()), ms);
  });
  return Promise.race([task, timeout]).finally(() => clearTimeout(timer));
}

export class Renderer {
  private proxy: Promise<GuardProxy> | null = null;
  private startedProxy: GuardProxy | null = null;
  private browser: Promise<Browser> | null = null;
  private running = 0;
  private readonly waiters = new FairQueue<() => void>();
  private closed = false;
  /** Browsers started so far (1 after the first page; more after crashes). */
  launches = 0;

  constructor(private readonly options: RendererOptions) {}

  /** True when a Chromium executable is where the settings say (for /health and the 422). */
  available(): boolean {
    return chromiumAvailable(this.options.executablePath);
  }

  get active(): number {
    return this.running;
  }

  get queued(): number {
    return this.waiters.size;
  }

  /** Destinations the guard proxy refused so far (logs, tests). */
  get refused(): number {
    return this.startedProxy?.refused ?? 0;
  }

  /** Renders `url` for `account`, waiting its turn for a page slot. */
  async render(url: string, { account, signal }: { account: string | number; signal?: AbortSignal }): Promise<RenderedPage> {
    if (!this.available()) throw new RenderError('unavailable', RENDER_NEEDS_CHROMIUM);
    signal?.throwIfAborted();
    const key = String(account);
    await this.takeSlot(key, signal);
    try {
      try {
        return await this.renderOnce(url, signal);
      } catch (error) {
        // The browser died under the page (not the page's own renderer): a fresh browser, one more try.
        if (error instanceof RenderError && error.reason === 'crashed' && !this.closed) {
          signal?.throwIfAborted();
          return await this.renderOnce(url, signal);
        }
        throw error;
      }
    } finally {
      this.release(key);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const browser = this.browser;
    const proxy = this.proxy;
    this.browser = null;
    this.proxy = null;
    await browser?.then((b) => b.close()).catch(() => {});
    await proxy?.then((p) => p.close()).catch(() => {});
  }

  private takeSlot(key: string, signal?: AbortSignal): Promise<void> {
    if (this.running < this.options.concurrency) {
      this.running++;
      return Promise.resolve();
    }
    const limit = this.options.maxQueuedPerAccount ?? this.options.concurrency * 16;
    if (this.waiters.sizeOf(key) >= limit) {
      return Promise.reject(new RenderError('busy', 'Too many pages are waiting to be rendered; try again shortly.'));
    }
    return new Promise<void>((resolve, reject) => {
      const wake = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      const onAbort = () => {
        this.waiters.remove(key, wake);
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(key, wake);
    });
  }

  private release(key: string): void {
    this.waiters.moveToBack(key); // the account that just finished lets the others go first
    const next = this.waiters.shift(() => true);
    if (next)
      next.item(); // the slot passes on: `running` stays
    else this.running--;
  }

  private async ensureBrowser(): Promise<Browser> {
    if (this.closed) throw new RenderError('unavailable', 'The renderer is closed.');
    this.proxy ??= startGuardProxy({
      policy: this.options.policy,
      resolver: this.options.resolver,
      connectTimeoutMs: this.options.timeoutMs,
      hooks: this.options.hooks,
    });
    const proxy = await this.proxy;
    this.startedProxy = proxy;
    if (this.browser === null) {
      const launching = launchChromium(this.options.executablePath, proxy, this.options.heapMb ?? 512).then((browser) => {
        this.launches++;
        browser.on('disconnected', () => {
          if (this.browser === launching) this.browser = null;
        });
        return browser;
      });
      this.browser = launching;
      launching.catch(() => {
        if (this.browser === launching) this.browser = null;
      });
    }
    return this.browser;
  }

  /** Kills a browser that stopped answering; the next page starts another. */
  private discard(browser: Browser): void {
    if (this.browser !== null) {
      this.browser.then((b) => {
        if (b === browser) this.browser = null;
      });
    }
    browser.close().catch(() => {});
  }

  private async renderOnce(url: string, signal?: AbortSignal): Promise<RenderedPage> {
    const { timeoutMs, maxBytes } = this.options;
    let browser: Browser;
    try {
      browser = await this.ensureBrowser();
    } catch (error) {
      if (error instanceof RenderError) throw error;
      throw new RenderError('unavailable', `Chromium could not be started: ${(error as Error).message}`, { cause: error });
    }
    // Opened before the work so that teardown can always find (and close) it.
    const opening = lockedContext(browser, this.options.userAgent);
    const tooSlow = () =>
      new RenderError('timeout', `The page did not finish loading (load event and network idle) within ${seconds(timeoutMs)}.`);
    const started = Date.now();
    const abort = new AbortController();
    const onAbort = () => abort.abort(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    let crashed = false;
    const work = (async () => {
      const context = await opening;
      const page = await context.newPage();
      page.on('crash', () => {
        crashed = true;
      });
      // The guard's refusal of the page itself (or of a hop of its redirects), as the proxy marks it.
      let refusedPage = false;
      page.on('response', (response) => {
        const request = response.request();
        if (request.isNavigationRequest() && request.frame() === page.mainFrame() && response.headers()[REFUSED_HEADER]) {
          refusedPage = true;
        }
      });
      const remaining = () => Math.max(1, timeoutMs - (Date.now() - started));
      try {
        await page.goto(url, { waitUntil: 'load', timeout: remaining() });
        if (refusedPage) throw blocked();
        await page.waitForLoadState('networkidle', { timeout: remaining() });
      } catch (error) {
        if (refusedPage) throw blocked();
        if ((error as Error).name === 'TimeoutError') throw tooSlow();
        // https through the proxy: a refused CONNECT fails the tunnel.
        if (/ERR_TUNNEL_CONNECTION_FAILED/.test(firstLine(error))) throw blocked();
        throw error;
      }
      abort.signal.throwIfAborted();
      // A script may have navigated the page to a refused address after it loaded.
      if (refusedPage) throw blocked();
      const html = await page.content();
      const bytes = Buffer.byteLength(html);
      if (bytes > maxBytes) throw new RenderError('too_large', `The rendered page is larger than ${megabytes(maxBytes)}.`);
      return { html, url: page.url() };
    })();
    const cancelled = new Promise<never>((_, reject) => {
      abort.signal.addEventListener('abort', () => reject(abort.signal.reason), { once: true });
    });
    try {
      return await deadline(Promise.race([work, cancelled]), timeoutMs + IDLE_MS, tooSlow);
    } catch (error) {
      if (abort.signal.aborted && error === abort.signal.reason) throw error;
      if (!browser.isConnected()) throw new RenderError('crashed', 'The browser crashed.', { cause: error });
      if (crashed) throw new RenderError('page_crashed', 'The page crashed its browser tab (out of memory?).', { cause: error });
      if (error instanceof RenderError) throw error;
      throw new RenderError('navigation', `The page could not be loaded in the browser: ${firstLine(error)}`, { cause: error });
    } finally {
      signal?.removeEventListener('abort', onAbort);
      work.catch(() => {}); // settled after a timeout or abort: already answered
      await this.teardown(browser, opening);
    }
  }

  /** Closes the page's context; a browser that cannot do that within TEARDOWN_MS is replaced. */
  private async teardown(browser: Browser, opening: Promise<BrowserContext>): Promise<void> {
    try {
      const context = await deadline(
        opening.catch(() => null),
        TEARDOWN_MS,
        () => new Error('opening a page timed out'),
      );
      // Closing the context ends whatever the page is still doing (a script loop, a pending content()).
      if (context) await deadline(context.close(), TEARDOWN_MS, () => new Error('closing a page timed out'));
    } catch (error) {
      if (!browser.isConnected()) return;
      this.options.log?.warn({ err: error }, 'a rendered page could not be closed; the browser is restarted');
      this.discard(browser);
    }
  }
}

function blocked(): RenderError {
  return new RenderError('blocked_address', 'The page (or a redirect) points to a private or reserved network address.');
}

function firstLine(error: unknown): string {
  return String((error as Error)?.message ?? error).split('\n')[0];
}
