// GET /js/script.js (docs/analytics.md): the served bytes and headers, then the script itself
// run in node:vm against a minimal fake window: what it sends, when it sends nothing, and that
// nothing it meets throws into the page. The real browser run is test/browser/tracker.test.ts.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import vm from 'node:vm';
import { gunzipSync, gzipSync } from 'node:zlib';
import { TRACKER_CACHE_CONTROL, TRACKER_PATH, acceptsGzip } from '../../src/tracking/script-route.js';
import { TRACKER_SCRIPT, TRACKER_SOURCE } from '../../src/tracking/tracker-source.js';
import { type TestApp, testApp } from '../helpers/app.js';

describe('GET /js/script.js', () => {
  let t: TestApp;
  before(async () => {
    t = await testApp();
  });
  after(() => t.close());

  const get = (headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url: TRACKER_PATH, headers });

  test('at most 1,024 bytes gzipped, as measured and as served', async () => {
    const plain = await get();
    assert.equal(plain.statusCode, 200);
    assert.equal(plain.body, TRACKER_SCRIPT);
    const measured = gzipSync(plain.rawPayload, { level: 9 }).length;
    assert.ok(measured <= 1024, `${measured} bytes gzipped`);

    const gzipped = await get({ 'accept-encoding': 'gzip, deflate, br' });
    assert.equal(gzipped.headers['content-encoding'], 'gzip');
    assert.ok(gzipped.rawPayload.length <= 1024, `${gzipped.rawPayload.length} bytes served`);
    assert.equal(Number(gzipped.headers['content-length']), gzipped.rawPayload.length);
    assert.equal(gunzipSync(gzipped.rawPayload).toString('utf8'), TRACKER_SCRIPT);
  });

  test('parses as a script, with and without its comment lines', () => {
    assert.doesNotThrow(() => new vm.Script(TRACKER_SCRIPT));
    assert.doesNotThrow(() => new vm.Script(TRACKER_SOURCE));
    assert.ok(!/^\s*\/\//m.test(TRACKER_SCRIPT), 'comment-only lines are not served');
  });

  test('cacheable, revalidated with If-None-Match, loadable from any origin', async () => {
    for (const encoding of ['', 'gzip']) {
      const res = await get(encoding ? { 'accept-encoding': encoding } : {});
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['content-type'], 'text/javascript; charset=utf-8');
      assert.equal(res.headers['cache-control'], TRACKER_CACHE_CONTROL);
      assert.match(String(res.headers['cache-control']), /max-age=\d+/);
      assert.equal(res.headers.vary, 'Accept-Encoding');
      assert.equal(res.headers['cross-origin-resource-policy'], 'cross-origin');
      assert.equal(res.headers['access-control-allow-origin'], '*');
      assert.equal(res.headers['x-content-type-options'], 'nosniff', 'the security headers still apply');
      const etag = String(res.headers.etag);
      assert.match(etag, /^"[\w-]+"$/);

      const again = await get({ 'if-none-match': etag, ...(encoding ? { 'accept-encoding': encoding } : {}) });
      assert.equal(again.statusCode, 304);
      assert.equal(again.rawPayload.length, 0);
      assert.equal(again.headers.etag, etag);
      assert.equal(again.headers['cache-control'], TRACKER_CACHE_CONTROL);
      assert.equal((await get({ 'if-none-match': `W/${etag}, "other"` })).statusCode, 304, 'weak comparison, in a list');
    }
    assert.equal((await get({ 'if-none-match': '"stale"' })).statusCode, 200);
    const head = await t.app.inject({ method: 'HEAD', url: TRACKER_PATH });
    assert.equal(head.statusCode, 200);
  });

  test("the tracker's requests to /api/event can be answered to another site", async () => {
    // sendBeacon posts in no-cors mode: a same-origin CORP there would block the answer in the page.
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/event',
      headers: { 'content-type': 'text/plain;charset=UTF-8', origin: 'https://shop.example' },
      payload: JSON.stringify({ n: 'pageview', u: 'https://shop.example/', i: 999_999 }),
    });
    assert.equal(res.statusCode, 202);
    assert.equal(res.headers['x-event-dropped'], 'website');
    assert.equal(res.headers['cross-origin-resource-policy'], 'cross-origin');
    assert.equal(res.headers['access-control-allow-origin'], '*');
  });

  test('gzip only where Accept-Encoding allows it', async () => {
    assert.equal((await get({ 'accept-encoding': 'gzip;q=0, br' })).headers['content-encoding'], undefined);
    assert.equal((await get({ 'accept-encoding': 'identity' })).headers['content-encoding'], undefined);
    assert.deepEqual(
      ['gzip', 'GZIP;q=0.5', 'br, *', 'x-gzip', '*;q=0, gzip', 'gzip;q=0', '*;q=0', 'deflate', '', undefined].map(acceptsGzip),
      [true, true, true, true, true, false, false, false, false, false],
    );
  });
});

// --- the script in a fake window ---

interface Sent {
  via: 'beacon' | 'fetch';
  url: string;
  body: Record<string, unknown>;
  init?: Record<string, unknown>;
}

interface FakeOptions {
  href?: string;
  attributes?: Record<string, string>;
  src?: string | null;
  language?: string;
  screen?: { width: number; height: number };
  beacon?: ((url: string, body: string) => boolean) | 'missing';
  fetch?: ((url: string, init: Record<string, unknown>) => unknown) | 'missing';
  before?: (window: Record<string, unknown>) => void;
}

/** Runs the served script in a fresh context; returns what it sent and what it touched. */
function load(options: FakeOptions = {}) {
  const sent: Sent[] = [];
  const touched: string[] = [];
  const listeners: Record<string, (() => void)[]> = {};
  const location = new URL(options.href ?? 'https://www.example.com/pricing?plan=pro');
  const pushes: unknown[][] = [];
  const history = {
    pushState(this: unknown, ...args: unknown[]) {
      assert.equal(this, history, 'called on history');
      pushes.push(args);
      if (args[2] === 'throw') throw new Error('the page’s own mistake');
      location.href = new URL(String(args[2]), location.href).href;
    },
  };
  const attributes = { 'data-website': '42', ...options.attributes };
  const script =
    options.src === null
      ? null
      : {
          src: options.src ?? 'https://stats.example/js/script.js',
          getAttribute: (k: string) => attributes[k as 'data-website'] ?? null,
        };
  const document = { currentScript: script, referrer: 'https://news.example/item', querySelector: () => null };
  Object.defineProperty(document, 'cookie', {
    get: () => touched.push('document.cookie') && '',
    set: () => touched.push('document.cookie='),
  });
  const navigator: Record<string, unknown> = { language: options.language ?? 'en-GB' };
  if (options.beacon !== 'missing') {
    navigator.sendBeacon =
      options.beacon ??
      ((url: string, body: string) => {
        sent.push({ via: 'beacon', url, body: JSON.parse(body) });
        return true;
      });
  }
  const window: Record<string, unknown> = {
    document,
    navigator,
    location,
    history,
    screen: options.screen ?? { width: 1440, height: 900 },
    URL,
    addEventListener: (type: string, fn: () => void) => {
      listeners[type] ??= [];
      listeners[type].push(fn);
    },
  };
  if (options.fetch !== 'missing') {
    window.fetch =
      options.fetch ??
      ((url: string, init: Record<string, unknown>) => {
        sent.push({ via: 'fetch', url, body: JSON.parse(String(init.body)), init });
        return Promise.resolve({ ok: true });
      });
  }
  for (const name of ['localStorage', 'sessionStorage', 'indexedDB', 'caches']) {
    Object.defineProperty(window, name, { get: () => touched.push(name) && undefined });
  }
  window.window = window;
  options.before?.(window);
  const context = vm.createContext(window);
  vm.runInContext(TRACKER_SCRIPT, context);
  const rankscope = (...args: unknown[]) => (window.rankscope as (...a: unknown[]) => void)(...args);
  const popstate = (url: string) => {
    location.href = new URL(url, location.href).href;
    for (const fn of listeners.popstate ?? []) fn();
  };
  return { sent, touched, pushes, window, history, rankscope, popstate, listeners };
}

describe('the tracker in a fake window', () => {
  test('a pageview on load, with what docs/analytics.md says it sends, to /api/event on its own origin', () => {
    const { sent, touched } = load();
    assert.equal(sent.length, 1);
    assert.deepEqual(sent[0], {
      via: 'beacon',
      url: 'https://stats.example/api/event',
      body: {
        n: 'pageview',
        u: 'https://www.example.com/pricing?plan=pro',
        i: '42',
        d: null,
        r: 'https://news.example/item',
        sw: 1440,
        sh: 900,
        l: 'en-GB',
      },
    });
    assert.deepEqual(touched, [], 'no cookie, no storage');
  });

  test('SPA navigation: a pageview per new path, none when pushState keeps the path', () => {
    const { sent, history, popstate, pushes, touched } = load();
    history.pushState({ a: 1 }, '', '/pricing?plan=team#faq');
    assert.equal(sent.length, 1, 'same path, other query and fragment');
    history.pushState(null, '', '/signup');
    assert.equal(sent.length, 2);
    assert.equal(sent[1].body.u, 'https://www.example.com/signup');
    assert.equal(sent[1].body.n, 'pageview');
    popstate('/pricing');
    assert.equal(sent.length, 3);
    assert.equal(sent[2].body.u, 'https://www.example.com/pricing');
    popstate('/pricing#top');
    assert.equal(sent.length, 3);
    assert.deepEqual(pushes[0], [{ a: 1 }, '', '/pricing?plan=team#faq'], "the page's arguments reach pushState");
    assert.throws(() => history.pushState(null, '', 'throw'), /the page’s own mistake/, "pushState's own errors are the page's");
    assert.deepEqual(touched, []);
  });

  test('custom events: props plain or in Plausible’s {props} form, and its callback', () => {
    const { sent, rankscope } = load();
    let called = 0;
    rankscope('Signup', { props: { plan: 'pro', seats: 3 }, callback: () => called++ });
    rankscope('Download', { file: 'a.pdf' });
    rankscope('Bare');
    assert.equal(called, 1);
    assert.deepEqual(
      sent.slice(1).map((s) => [s.body.n, s.body.p]),
      [
        ['Signup', { plan: 'pro', seats: 3 }],
        ['Download', { file: 'a.pdf' }],
        ['Bare', undefined],
      ],
    );
    assert.equal(sent[1].body.i, '42');
  });

  test('data-domain instead of data-website; a refused beacon falls back to fetch with keepalive', () => {
    const { sent } = load({ attributes: { 'data-website': '', 'data-domain': 'example.com' }, beacon: () => false });
    assert.equal(sent.length, 1);
    assert.equal(sent[0].via, 'fetch');
    assert.equal(sent[0].url, 'https://stats.example/api/event');
    assert.equal(sent[0].init?.method, 'POST');
    assert.equal(sent[0].init?.keepalive, true);
    assert.equal(sent[0].body.d, 'example.com');
  });

  test('never throws into the page', () => {
    const circular: Record<string, unknown> = { a: 1 };
    circular.self = circular;
    let rejections = 0;
    const cases: FakeOptions[] = [
      {
        beacon: () => {
          throw new Error('beacon');
        },
      },
      { beacon: 'missing', fetch: 'missing' },
      {
        beacon: () => false,
        fetch: () => {
          throw new TypeError('fetch');
        },
      },
      // a rejected fetch gets the script's catch handler (no unhandled rejection in the page)
      { beacon: () => false, fetch: () => ({ catch: () => rejections++ }) },
      // no script element to read, or one without a src: nothing is sent, rankscope still works
      { src: null },
      { src: '' },
      { before: (w) => Object.defineProperty(w, 'history', { get: () => ({}) }) },
    ];
    for (const options of cases) {
      let loaded: ReturnType<typeof load> | undefined;
      assert.doesNotThrow(() => {
        loaded = load(options);
      });
      const { rankscope, window } = loaded!;
      assert.equal(typeof window.rankscope, 'function');
      let called = 0;
      for (const args of [
        ['Circular', circular],
        ['Big', { props: { n: 10n } }],
        [undefined],
        [],
        ['Null', null],
        [{ not: 'a name' }, 'not props'],
        ['Callback throws', { callback: () => assert.fail('from the callback') }],
        ['Callback', { props: { a: 1 }, callback: () => called++ }],
      ])
        assert.doesNotThrow(() => rankscope(...args));
      assert.equal(called, 1);
    }
    assert.ok(rejections > 0, 'the fetch promise got a catch handler');
    assert.deepEqual(load({ src: null }).sent, []);
    assert.deepEqual(load({ src: '' }).sent, []);
  });

  test('values /api/event would refuse are left out rather than failing the event', () => {
    const { sent } = load({ language: 'en_US', screen: { width: 0, height: 0 } });
    assert.equal(sent[0].body.l, null);
    assert.equal(sent[0].body.sw, null);
    assert.equal(sent[0].body.sh, null);
    const long = load({ href: `https://www.example.com/${'a'.repeat(3000)}` });
    assert.equal(String(long.sent[0].body.u).length, 2048);
  });

  test('nothing on localhost, 127.0.0.0/8, [::1], *.localhost or file: unless data-allow-local', () => {
    for (const href of [
      'http://localhost:3000/',
      'http://127.0.0.1:8080/',
      'http://127.4.5.6/',
      'http://[::1]:8080/',
      'http://app.localhost/',
      'file:///home/me/index.html',
    ]) {
      const { sent, rankscope, history } = load({ href });
      let called = 0;
      rankscope('Signup', { callback: () => called++ });
      history.pushState(null, '', '/next');
      assert.deepEqual(sent, [], href);
      assert.equal(called, 1, `the callback still runs on ${href}`);
      const allowed = load({ href, attributes: { 'data-allow-local': '' } });
      assert.equal(allowed.sent.length, 1, `${href} with data-allow-local`);
    }
    for (const href of ['http://127.example.com/', 'http://mylocalhost.com/', 'http://10.0.0.2/']) {
      assert.equal(load({ href }).sent.length, 1, `${href} is not local`);
    }
  });

  test('calls queued before the script loaded are sent after the first pageview', () => {
    const { sent } = load({
      before: (w) => {
        const stub = (...args: unknown[]) => stub.q.push(args);
        stub.q = [] as unknown[][];
        stub('Signup', { props: { plan: 'pro' } });
        w.rankscope = stub;
      },
    });
    assert.deepEqual(
      sent.map((s) => [s.body.n, s.body.p]),
      [
        ['pageview', undefined],
        ['Signup', { plan: 'pro' }],
      ],
    );
  });
});
