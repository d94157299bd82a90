// Hostile pages against the renderer: endless DOM growth, an alert loop, a 50 MB script, a page
// that never reaches network idle. Each ends within RENDER_TIMEOUT + 5 s (the bound the renderer
// promises) with a clear error, and the browser renders the next page. A browser that crashes
// under a page is restarted and the page tried once more; accounts take turns at the slots.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { parsePrivateAddressAllowance, systemResolver } from '../../src/analysis/fetch/address-guard.js';
import { RenderError, Renderer, type RendererOptions } from '../../src/browser/renderer.js';
import { startServer, type TestServer } from '../analysis/fetch-test-server.js';
import { CHROMIUM, noBrowser } from '../helpers/browser.js';
import { until } from '../helpers/wait.js';

// Short, so the suite is quick (the hostile pages keep a core busy until it ends); long enough for an
// ordinary page in the warm browser on a loaded machine.
const TIMEOUT_MS = 5_000;
const BOUND_MS = TIMEOUT_MS + 5_000;
const FINE = '<!doctype html><title>raw</title><script>document.title = "fine"</script><p>fine</p>';
// Under 1 KB as served, 4 KB once its script has run.
const GROWN_BY_JS = '<!doctype html><title>x</title><body><script>document.body.append("y".repeat(4096))</script>';
const BIG_SCRIPT = Buffer.alloc(50 * 1024 * 1024, 'a=1;\n');

const HOSTILE: Record<string, string> = {
  '/dom-loop':
    '<!doctype html><title>x</title><body><script>for (;;) document.body.appendChild(document.createElement("div"));</script>',
  // Past the limit before load (however slowly timers fire on a loaded machine), then a megabyte more every few
  // milliseconds: network idle comes, and the DOM keeps growing.
  '/dom-interval':
    '<!doctype html><title>x</title><body><script>const mb = "x".repeat(1 << 20); const grow = () => document.body.insertAdjacentHTML("beforeend", "<div>" + mb + "</div>"); for (let i = 0; i < 8; i++) grow(); setInterval(grow, 5);</script>',
  '/alert-loop': '<!doctype html><title>x</title><script>for (;;) { alert("hi"); confirm("sure?"); }</script>',
  '/big-script': '<!doctype html><title>x</title><script src="/big.js"></script><p>after</p>',
  // A request that is never answered, and more every 100 ms: idle never comes, however slow the machine.
  '/never-idle':
    '<!doctype html><title>x</title><script>fetch("/hang"); setInterval(() => fetch("/ping?" + Math.random()), 100);</script>',
};

function options(overrides: Partial<RendererOptions> = {}): RendererOptions {
  return {
    executablePath: CHROMIUM,
    concurrency: 2,
    timeoutMs: TIMEOUT_MS,
    maxBytes: 5 * 1024 * 1024,
    userAgent: 'Mozilla/5.0 (compatible; RankscopeBot/1.0)',
    policy: { allowPrivateAddresses: parsePrivateAddressAllowance('127.0.0.2/32') },
    resolver: systemResolver,
    ...overrides,
  };
}

describe('hostile pages end in time and leave the browser usable', { skip: noBrowser }, () => {
  let site: TestServer;
  let renderer: Renderer;
  let releaseSlow: () => void = () => {};

  before(async () => {
    site = await startServer(async (req, res) => {
      const path = (req.url ?? '/').split('?')[0];
      if (path === '/big.js') return res.writeHead(200, { 'content-type': 'text/javascript' }).end(BIG_SCRIPT);
      if (path === '/ping') return res.writeHead(200, { 'content-type': 'text/plain' }).end('pong');
      if (path === '/hang') return; // never answered (close() ends the connection)
      if (path === '/slow') await new Promise<void>((resolve) => (releaseSlow = resolve));
      const body = path === '/grown-by-js' ? GROWN_BY_JS : (HOSTILE[path] ?? FINE);
      res.writeHead(200, { 'content-type': 'text/html' }).end(body);
    }, '127.0.0.2');
    renderer = new Renderer(options());
  });
  after(async () => {
    await renderer?.close();
    await site?.close();
  });

  for (const path of Object.keys(HOSTILE)) {
    test(`${path}: a clear error within RENDER_TIMEOUT + 5 s, then the next page renders`, async () => {
      const started = Date.now();
      const outcome = await renderer.render(`${site.origin}${path}`, { account: 1 }).then(
        (page) => page,
        (error: unknown) => error,
      );
      const elapsed = Date.now() - started;
      assert.ok(elapsed < BOUND_MS, `${path} took ${elapsed} ms`);
      if (path === '/big-script') {
        // A large script is not an attack on its own: what matters is the bound and the browser after it.
        if (!(outcome instanceof RenderError)) assert.match((outcome as { html: string }).html, /<p>after<\/p>/);
      } else {
        assert.ok(outcome instanceof RenderError, `${path}: ${String(outcome)}`);
        assert.ok(['timeout', 'too_large', 'page_crashed'].includes(outcome.reason), `${path}: ${outcome.reason}`);
        assert.match(outcome.message, /^The (page|rendered page)/);
      }
      const next = await renderer.render(`${site.origin}/fine`, { account: 1 });
      assert.match(next.html, /<title>fine<\/title>/);
    });
  }

  test('the rendered DOM is held to the size limit of a fetch', async () => {
    // A generous timeout: this is about size, and a loaded machine must not turn it into a timeout.
    const small = new Renderer(options({ maxBytes: 1024, timeoutMs: 30_000 }));
    try {
      const rendered = await small.render(`${site.origin}/fine`, { account: 1 }); // under 1 KB rendered
      assert.match(rendered.html, /<title>fine<\/title>/);
      await assert.rejects(
        small.render(`${site.origin}/grown-by-js`, { account: 1 }), // under 1 KB served, 4 KB rendered
        (error) => error instanceof RenderError && error.reason === 'too_large' && /larger than/.test(error.message),
      );
    } finally {
      await small.close();
    }
  });

  test('a browser that crashes under a page is restarted and the page tried once more', async () => {
    const launchesBefore = renderer.launches;
    const pending = renderer.render(`${site.origin}/slow`, { account: 1 });
    await until(() => site.requests.some((r) => r.path === '/slow'), { what: 'the slow page requested' });
    // Crash the browser process itself (not a tab) while the page waits for its answer.
    const browser = await (renderer as unknown as { browser: Promise<import('playwright-core').Browser> }).browser;
    const cdp = await browser.newBrowserCDPSession();
    await cdp.send('Browser.crash').catch(() => {});
    await until(() => !browser.isConnected(), { what: 'the browser gone' });
    releaseSlow();
    // The retry asks for /slow again; answer it at once.
    await until(() => site.requests.filter((r) => r.path === '/slow').length === 2, { what: 'the retry' });
    releaseSlow();
    const page = await pending;
    assert.match(page.html, /<title>fine<\/title>/);
    assert.equal(renderer.launches, launchesBefore + 1);
  });

  test('accounts take turns at the page slots', async () => {
    const one = new Renderer(options({ concurrency: 1, timeoutMs: 15_000 }));
    try {
      const order: string[] = [];
      const render = (account: string, n: number) =>
        one.render(`${site.origin}/fine?${account}${n}`, { account }).then(() => order.push(account));
      const busy = [1, 2, 3, 4].map((n) => render('a', n));
      await until(() => one.queued === 3, { what: 'a’s pages queued' });
      const other = render('b', 1);
      await Promise.all([...busy, other]);
      // b queued after a's four pages, yet is served right after the page a was running.
      assert.deepEqual(order.slice(0, 2), ['a', 'b']);
    } finally {
      await one.close();
    }
  });

  test('available() says whether Chromium is there; a missing one is a clear error', async () => {
    const missing = new Renderer(options({ executablePath: '/nonexistent/chromium' }));
    assert.equal(missing.available(), false);
    assert.equal(renderer.available(), true);
    await assert.rejects(
      missing.render(`${site.origin}/`, { account: 1 }),
      (error) => error instanceof RenderError && error.message === 'Rendering needs Chromium: set CHROMIUM_PATH.',
    );
  });
});
