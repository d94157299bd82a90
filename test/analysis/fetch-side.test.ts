// The side fetches (docs/checks.md §2): robots.txt, the 404 probe, and the favicon and sitemap
// probes made only when needed, all to the final origin, each failing only itself.
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { test } from 'node:test';
import { analyzeUrl, fetchSnapshot } from '../../src/analysis/analyze.js';
import { FetchError } from '../../src/analysis/errors.js';
import { startServer, testConfig, type Handler, type TestServer } from './fetch-test-server.js';

const WITH_ICON = '<html><head><title>T</title><link rel="icon" href="/icon.png"></head><body>Hi</body></html>';
const WITHOUT_ICON = '<html><head><title>T</title></head><body>Hi</body></html>';
const PROBE_PATH = /^\/[0-9a-f]{32}-404-check$/;

async function serve(t: { after: (fn: () => Promise<void>) => void }, handler: Handler): Promise<TestServer> {
  const server = await startServer(handler);
  t.after(() => server.close());
  return server;
}

const page = (res: ServerResponse, body = WITH_ICON) => res.writeHead(200, { 'content-type': 'text/html' }).end(body);
const text = (res: ServerResponse, status: number, body: string, type = 'text/plain') =>
  res.writeHead(status, { 'content-type': type }).end(body);

test('robots.txt and the 404 probe start while the page body is still arriving', async (t) => {
  let release!: () => void;
  const sideFetchesSeen = new Promise<void>((resolve) => (release = resolve));
  const seen = new Set<string>();
  const server = await serve(t, async (req, res) => {
    const path = req.url ?? '';
    if (path === '/') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.write('<html><head><title>T</title><link rel="icon" href="/i.png"></head>');
      await sideFetchesSeen; // the body ends only after both side requests arrived
      return void res.end('<body>Hi</body></html>');
    }
    seen.add(path === '/robots.txt' ? 'robots' : PROBE_PATH.test(path) ? 'probe' : path);
    if (seen.has('robots') && seen.has('probe')) release();
    text(res, 404, 'nope');
  });
  const { snapshot } = await fetchSnapshot(server.origin, { config: testConfig({ timeoutMs: 5_000 }) });
  assert.equal(snapshot.html, '<html><head><title>T</title><link rel="icon" href="/i.png"></head><body>Hi</body></html>');
  assert.ok(seen.has('robots') && seen.has('probe'));
});

test('robots.txt listing a sitemap: kept as fetched, and /sitemap.xml is not requested', async (t) => {
  const robots = 'User-agent: *\nDisallow: /private/\nSitemap: /maps/sitemap.xml\n';
  const server = await serve(t, (req, res) => {
    if (req.url === '/') return void page(res);
    if (req.url === '/robots.txt') return void text(res, 200, robots);
    text(res, 404, 'nope');
  });
  const { snapshot } = await fetchSnapshot(server.origin, { config: testConfig() });
  assert.deepEqual(snapshot.robots, { url: `${server.origin}/robots.txt`, status: 200, body: robots });
  assert.equal(snapshot.sitemapProbe, null);
  assert.ok(!server.paths().includes('/sitemap.xml'));
});

test('robots.txt answering 404: all allowed, and /sitemap.xml is probed', async (t) => {
  const sitemap = '<?xml version="1.0" encoding="UTF-8"?><urlset></urlset>';
  const server = await serve(t, (req, res) => {
    if (req.url === '/') return void page(res);
    if (req.url === '/sitemap.xml') return void text(res, 200, sitemap, 'application/xml');
    text(res, 404, 'nope');
  });
  const { snapshot } = await fetchSnapshot(server.origin, { config: testConfig() });
  assert.deepEqual(snapshot.robots, { url: `${server.origin}/robots.txt`, status: 404, body: '' });
  assert.deepEqual(snapshot.sitemapProbe, {
    url: `${server.origin}/sitemap.xml`,
    status: 200,
    contentType: 'application/xml',
    bodyStart: sitemap,
  });
  assert.equal(server.paths().filter((p) => p === '/sitemap.xml').length, 1);
});

test('robots.txt answering 500 is recorded as such (its check fails), sitemap probed', async (t) => {
  const server = await serve(t, (req, res) => {
    if (req.url === '/') return void page(res);
    if (req.url === '/robots.txt') return void text(res, 500, 'Sitemap: /ignored.xml');
    text(res, 404, 'nope');
  });
  const { snapshot } = await fetchSnapshot(server.origin, { config: testConfig() });
  assert.deepEqual(snapshot.robots, { url: `${server.origin}/robots.txt`, status: 500, body: '' });
  assert.deepEqual(snapshot.sitemapProbe, {
    url: `${server.origin}/sitemap.xml`,
    status: 404,
    contentType: 'text/plain',
    bodyStart: '',
  });
});

test('robots.txt follows up to 5 redirects; more is an error', async (t) => {
  let robotsHops = 5;
  const server = await serve(t, (req, res) => {
    if (req.url === '/') return void page(res);
    const n = req.url === '/robots.txt' ? robotsHops : Number(/^\/robots-(\d+)\.txt$/.exec(req.url ?? '')?.[1]);
    if (n > 0) return void res.writeHead(301, { location: `/robots-${n - 1}.txt` }).end();
    if (n === 0) return void text(res, 200, 'User-agent: *\nDisallow:\n');
    text(res, 404, 'nope');
  });
  const five = await fetchSnapshot(server.origin, { config: testConfig() });
  assert.deepEqual(five.snapshot.robots, { url: `${server.origin}/robots.txt`, status: 200, body: 'User-agent: *\nDisallow:\n' });
  robotsHops = 6;
  const six = await fetchSnapshot(server.origin, { config: testConfig() });
  assert.deepEqual(six.snapshot.robots, { error: 'too_many_redirects' });
});

test('a side fetch redirecting to an address over 2,048 characters fails alone, unfollowed', async (t) => {
  const long = `/${'r'.repeat(15_000)}`;
  const server = await serve(t, (req, res) => {
    if (req.url === '/') return void page(res);
    if (req.url === '/robots.txt') return void res.writeHead(301, { location: long }).end();
    if (PROBE_PATH.test(req.url ?? '')) return void res.writeHead(302, { location: long }).end();
    text(res, 404, 'nope');
  });
  const { snapshot } = await fetchSnapshot(server.origin, { config: testConfig() });
  assert.deepEqual(snapshot.robots, { error: 'invalid_url' });
  assert.equal('error' in snapshot.notFoundProbe && snapshot.notFoundProbe.error, 'invalid_url');
  assert.ok(!server.paths().includes(long), 'the long address is never requested');
});

test('only the first 500 KiB of robots.txt is kept, in whole lines, gzip undone', async (t) => {
  const { gzipSync } = await import('node:zlib');
  const big = `User-agent: *\n${'Disallow: /x\n'.repeat(60_000)}`;
  const server = await serve(t, (req, res) => {
    if (req.url === '/') return void page(res);
    if (req.url === '/robots.txt') {
      return void res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' }).end(gzipSync(big));
    }
    text(res, 404, 'nope');
  });
  const { snapshot } = await fetchSnapshot(server.origin, { config: testConfig() });
  assert.ok(!('error' in snapshot.robots));
  // The cut falls inside a `Disallow: /x` line, which is dropped whole.
  assert.notEqual(big[500 * 1024 - 1], '\n');
  const expected = big.slice(0, big.lastIndexOf('\n', 500 * 1024 - 1) + 1);
  assert.equal(snapshot.robots.body.length, expected.length);
  assert.ok(snapshot.robots.body === expected);
});

test('robots.txt over 500 KiB: rules before the cut apply; the line it splits and rules after it do not', async (t) => {
  const head = 'User-agent: *\nDisallow: /before\n';
  /** One long comment line, so that `next` starts `before` bytes short of the cut. */
  const body = (before: number, next: string) =>
    `${head}#${'x'.repeat(500 * 1024 - head.length - before - 2)}\n${next}Disallow: /after\n`;
  // The cut falls just after `Disallow: /`, which alone would disallow everything.
  let robots = body('Disallow: /'.length, 'Disallow: /private-area\n');
  assert.equal(Buffer.byteLength(robots.slice(0, robots.indexOf('/private-area') + 1)), 500 * 1024);
  const server = await serve(t, (req, res) => {
    if (req.url === '/robots.txt') return void text(res, 200, robots);
    if (PROBE_PATH.test(req.url ?? '')) return void text(res, 404, 'nope');
    page(res);
  });
  const robotsCheck = async (path: string) =>
    (await analyzeUrl(`${server.origin}${path}`, { config: testConfig() })).results.robots;
  assert.deepEqual(await robotsCheck('/before/page'), {
    passed: false,
    importance: 'high',
    value: null,
    errors: { failed: ['/before'] },
  });
  for (const path of ['/after/page', '/private-area', '/public']) {
    assert.deepEqual(await robotsCheck(path), { passed: true, importance: 'high', value: null }, path);
  }

  // A line ending exactly at the cut is whole, and applies.
  robots = body('Disallow: /edge\n'.length, 'Disallow: /edge\n');
  assert.equal(Buffer.byteLength(robots.slice(0, robots.indexOf('/edge\n') + 6)), 500 * 1024);
  assert.deepEqual((await robotsCheck('/edge/page')).errors, { failed: ['/edge'] });
  assert.equal((await robotsCheck('/after/page')).passed, true);
});

test('the 404 probe records the final status: 200, 404, 410, and through a redirect', async (t) => {
  let answer: (res: ServerResponse) => void = () => {};
  const server = await serve(t, (req, res) => {
    if (req.url === '/') return void page(res);
    if (req.url === '/home') return void page(res);
    if (PROBE_PATH.test(req.url ?? '')) return void answer(res);
    text(res, 404, 'nope');
  });
  const cases: [string, (res: ServerResponse) => void, number][] = [
    ['200', (res) => page(res), 200],
    ['404', (res) => text(res, 404, 'missing'), 404],
    ['410', (res) => text(res, 410, 'gone'), 410],
    ['redirect to the home page', (res) => res.writeHead(302, { location: '/home' }).end(), 200],
  ];
  for (const [name, respond, status] of cases) {
    answer = respond;
    const { snapshot } = await fetchSnapshot(server.origin, { config: testConfig() });
    const probe = snapshot.notFoundProbe;
    assert.ok(!('error' in probe), name);
    assert.equal(probe.status, status, name);
    assert.match(probe.url, new RegExp(`^${server.origin}/[0-9a-f]{32}-404-check$`), name);
  }
  const probes = server.paths().filter((p) => PROBE_PATH.test(p));
  assert.equal(new Set(probes).size, probes.length, 'a fresh random path each time');
});

test('/favicon.ico is probed only when the page declares no icon', async (t) => {
  let body = WITH_ICON;
  const server = await serve(t, (req, res) => {
    if (req.url === '/') return void page(res, body);
    if (req.url === '/favicon.ico') return void res.writeHead(200, { 'content-type': 'image/x-icon' }).end('ICO');
    text(res, 404, 'nope');
  });
  const declared = await fetchSnapshot(server.origin, { config: testConfig() });
  assert.equal(declared.snapshot.faviconProbe, null);
  assert.equal(server.paths().filter((p) => p === '/favicon.ico').length, 0);

  body = WITHOUT_ICON;
  const probed = await fetchSnapshot(server.origin, { config: testConfig() });
  assert.deepEqual(probed.snapshot.faviconProbe, { status: 200, contentType: 'image/x-icon' });
  assert.equal(server.paths().filter((p) => p === '/favicon.ico').length, 1);
});

test('/favicon.ico is probed when the icon link stands after an element that closed the head', async (t) => {
  const server = await serve(t, (req, res) => {
    if (req.url === '/')
      return void page(
        res,
        '<html><head><title>T</title><iframe src="/ad"></iframe><link rel="icon" href="/icon.png"></head><body>Hi</body></html>',
      );
    if (req.url === '/favicon.ico') return void res.writeHead(200, { 'content-type': 'image/x-icon' }).end('ICO');
    text(res, 404, 'nope');
  });
  const { snapshot } = await fetchSnapshot(server.origin, { config: testConfig() });
  assert.deepEqual(snapshot.faviconProbe, { status: 200, contentType: 'image/x-icon' });
  assert.equal(server.paths().filter((p) => p === '/favicon.ico').length, 1);
});

test('side fetches go to the final origin, without the cookies of the page chain', async (t) => {
  const target = await serve(t, (req, res) => {
    if (req.url === '/landing') return void page(res);
    text(res, 404, 'nope');
  });
  const entry = await serve(
    t,
    (_req, res) => void res.writeHead(301, { location: `${target.origin}/landing`, 'set-cookie': 'sid=1; Path=/' }).end(),
  );
  const { snapshot } = await fetchSnapshot(`${entry.origin}/start`, { config: testConfig() });
  assert.equal(snapshot.finalUrl, `${target.origin}/landing`);
  assert.deepEqual(entry.paths(), ['/start']);
  assert.ok(target.paths().includes('/robots.txt'));
  assert.ok(!('error' in snapshot.robots) && snapshot.robots.url === `${target.origin}/robots.txt`);
  assert.ok(snapshot.notFoundProbe.url.startsWith(`${target.origin}/`));
});

test('a failing or hanging side fetch fails only itself, within its own deadline', async (t) => {
  const server = await serve(t, (req, res) => {
    if (req.url === '/') return void page(res, WITHOUT_ICON);
    if (req.url === '/robots.txt') return void req.socket.destroy(); // connection dropped
    if (req.url === '/favicon.ico') return; // never answers
    if (req.url === '/sitemap.xml')
      return void res.writeHead(200, { 'content-type': 'application/xml', 'content-encoding': 'zip' }).end('?');
    text(res, 404, 'nope');
  });
  const { snapshot } = await fetchSnapshot(server.origin, { config: testConfig({ timeoutMs: 600 }) });
  assert.equal(snapshot.status, 200);
  assert.deepEqual(snapshot.robots, { error: 'network' });
  assert.deepEqual(snapshot.faviconProbe, { error: 'timeout' });
  assert.deepEqual(snapshot.sitemapProbe, { error: 'bad_encoding' });
  assert.ok(!('error' in snapshot.notFoundProbe));
  await server.allClosed();
});

test('when the page fails after its headers, the side fetches are stopped too', async (t) => {
  let robotsArrived!: () => void;
  const robotsStarted = new Promise<void>((resolve) => (robotsArrived = resolve));
  const server = await serve(t, async (req, res) => {
    if (req.url === '/') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.write('<p>');
      await robotsStarted;
      return void res.end(Buffer.alloc(6 * 1024 * 1024, 'a'));
    }
    if (req.url === '/robots.txt') robotsArrived();
    // robots.txt and the 404 probe never answer: only closing the session ends them.
  });
  await assert.rejects(
    fetchSnapshot(server.origin, { config: testConfig({ timeoutMs: 60_000 }) }),
    (error) => error instanceof FetchError && error.reason === 'too_large',
  );
  await server.allClosed();
  assert.equal(server.openSockets.size, 0);
});
