// analyzeUrl end to end (the worked example of docs/checks.md §6 served locally), URL
// normalisation, the project name, generated_at, and clean-up after success, failure and abort.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzeUrl, normalizeTargetUrl, projectOf } from '../../src/analysis/analyze.js';
import { FetchError } from '../../src/analysis/errors.js';
import { CHECK_NAMES } from '../../src/analysis/checks/index.js';
import { fixedClock } from '../../src/time.js';
import { startServer, testConfig, type TestServer } from './fetch-test-server.js';

const WORKED_EXAMPLE = `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Blue Widgets for Sale | Example Shop</title>
  <link rel="icon" href="/icon.png">
  <script src="/js/app.js"></script>
</head>
<body>
  <h1>Blue widgets</h1>
  <p style="margin:0">Our blue widgets are made by hand. Write to hello@acme.test.</p>
  <img src="/img/widget.jpg">
  <a href="/about">About us</a> <a href="https://www.facebook.com/exampleshop" target="_blank">Facebook</a>
</body>
</html>
`;

async function workedExampleServer(t: { after: (fn: () => Promise<void>) => void }): Promise<TestServer> {
  const server = await startServer((req, res) => {
    if (req.url === '/blue-widgets') {
      return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', server: 'nginx/1.24.0' }).end(WORKED_EXAMPLE);
    }
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  });
  t.after(() => server.close());
  return server;
}

// example.test is served by the loopback server, as in the spec's example (plus a port).
const resolver = async (hostname: string) => {
  if (hostname !== 'example.test') throw Object.assign(new Error('unknown host'), { code: 'ENOTFOUND' });
  return [{ address: '127.0.0.1', family: 4 as const }];
};

test('the worked example of docs/checks.md §6, fetched from a local server', async (t) => {
  const server = await workedExampleServer(t);
  const origin = `http://example.test:${server.port}`;
  const page = await analyzeUrl(`${origin}/blue-widgets`, {
    config: testConfig(),
    resolver,
    clock: fixedClock(new Date('2024-05-06T07:08:09.123Z')),
  });

  assert.deepEqual(Object.keys(page), ['url', 'project', 'result', 'results', 'generated_at']);
  assert.equal(page.url, `${origin}/blue-widgets`);
  assert.equal(page.project, 'example.test');
  assert.equal(page.generated_at, '2024-05-06T07:08:09.123000Z');
  assert.ok(Number.isInteger(page.result) && page.result >= 0 && page.result <= 100);
  assert.deepEqual(Object.keys(page.results), [...CHECK_NAMES]);

  const r = page.results;
  assert.deepEqual(r.title, { passed: true, importance: 'high', value: 'Blue Widgets for Sale | Example Shop' });
  assert.deepEqual(r.headings, { passed: true, importance: 'high', value: { h1: ['Blue widgets'] } });
  assert.deepEqual(r.content_keywords, { passed: true, importance: 'high', value: ['blue', 'widgets'] });
  assert.deepEqual(r.https_encryption, {
    passed: false,
    importance: 'high',
    value: `${origin}/blue-widgets`,
    errors: { missing: 'https' },
  });
  assert.deepEqual(r.image_format, {
    passed: false,
    importance: 'medium',
    value: ['AVIF', 'WebP'],
    errors: { bad_format: [{ url: `${origin}/img/widget.jpg`, text: '' }] },
  });
  assert.deepEqual(r.in_page_links, {
    passed: true,
    importance: 'medium',
    value: {
      Internals: [{ url: `${origin}/about`, text: 'About us' }],
      Externals: [{ url: 'https://www.facebook.com/exampleshop', text: 'Facebook' }],
    },
  });
  assert.deepEqual(r.unsafe_cross_origin_links, {
    passed: false,
    importance: 'medium',
    value: null,
    errors: { failed: ['https://www.facebook.com/exampleshop'] },
  });
  assert.deepEqual(r.content_length, { passed: false, importance: 'low', value: 17, errors: { too_few: { min: '500' } } });
  // The rest of §6, from the same fetch.
  assert.deepEqual(r.defer_javascript.errors, { missing: [`${origin}/js/app.js`] });
  assert.deepEqual(r.image_keywords.errors, { missing: [{ url: `${origin}/img/widget.jpg`, text: '' }] });
  assert.deepEqual(r.plaintext_email.errors, { failed: ['hello@acme.test'] });
  assert.deepEqual(r.server_signature.value, ['nginx/1.24.0']);
  assert.equal(r.server_signature.passed, false);
  assert.equal(r.favicon.value, `${origin}/icon.png`);
  assert.equal(r.charset.value, 'utf-8');
  assert.equal(r.inline_css.passed, true);
  assert.equal(r.seo_friendly_url.passed, true);
  assert.equal(r.social.passed, true);
  // Fed by the side fetches: the server answers 404 to the probe.
  assert.equal(r['404_page'].passed, true);

  // The icon is declared, so /favicon.ico is never requested; robots.txt has no sitemap.
  assert.ok(!server.paths().includes('/favicon.ico'));
  assert.ok(server.paths().includes('/robots.txt'));
  assert.ok(server.paths().includes('/sitemap.xml'));
  await server.allClosed();
});

test('generated_at defaults to now, with six fractional digits', async (t) => {
  const server = await workedExampleServer(t);
  const before = Date.now();
  const page = await analyzeUrl(`http://example.test:${server.port}/blue-widgets`, { config: testConfig(), resolver });
  assert.match(page.generated_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
  assert.ok(Date.parse(page.generated_at) >= before - 1);
});

test('a page that cannot be fetched rejects with a FetchError and leaves no socket open', async (t) => {
  const server = await workedExampleServer(t);
  await assert.rejects(
    analyzeUrl(`http://example.test:${server.port}/missing`, { config: testConfig(), resolver }),
    (error) => error instanceof FetchError && error.reason === 'bad_status',
  );
  await server.allClosed();
  assert.equal(server.openSockets.size, 0);
});

test("a caller's abort during the side fetches rejects with the caller's reason", async (t) => {
  let robotsRequested!: () => void;
  const robotsSeen = new Promise<void>((resolve) => (robotsRequested = resolve));
  const server = await startServer((req, res) => {
    if (req.url === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<title>x</title>');
    if (req.url === '/robots.txt') return void robotsRequested(); // hangs
    res.writeHead(404).end();
  });
  t.after(() => server.close());
  const controller = new AbortController();
  const reason = new Error('client went away');
  const pending = analyzeUrl(server.origin, { config: testConfig(), signal: controller.signal });
  await robotsSeen;
  controller.abort(reason);
  await assert.rejects(pending, (error) => error === reason);
  await server.allClosed();
});

test('normalizeTargetUrl: bare hosts get https, anything but http(s) is invalid_url', () => {
  const accepted: Record<string, string> = {
    'example.com': 'https://example.com/',
    '  example.com/path?q=1  ': 'https://example.com/path?q=1',
    'example.com:8080/x': 'https://example.com:8080/x',
    'localhost:3000': 'https://localhost:3000/',
    '//example.com/x': 'https://example.com/x',
    'HTTP://Example.COM/a#frag': 'http://example.com/a',
    'https://bücher.example/': 'https://xn--bcher-kva.example/',
    'http://127.0.0.1:8080': 'http://127.0.0.1:8080/',
  };
  for (const [input, href] of Object.entries(accepted)) assert.equal(normalizeTargetUrl(input).href, href, input);

  const longest = `https://example.com/${'a'.repeat(2048 - 'https://example.com/'.length)}`;
  assert.equal(normalizeTargetUrl(longest).href.length, 2048);

  for (const input of [
    '',
    '   ',
    'ftp://example.com/',
    'file:///etc/passwd',
    'data:text/html,hi',
    'javascript:alert(1)',
    'mailto:someone@example.com',
    'http://',
    'https://exa mple.com/',
    'https://user:secret@example.com/',
    'https://user@example.com/',
    `${longest}a`,
  ]) {
    assert.throws(
      () => normalizeTargetUrl(input),
      (error) => error instanceof FetchError && error.reason === 'invalid_url',
      JSON.stringify(input),
    );
  }
});

test('projectOf: the final host without one leading www.', () => {
  const cases: Record<string, string> = {
    'https://www.example.com/x': 'example.com',
    'https://example.com/': 'example.com',
    'http://WWW.Example.com:8080/': 'example.com',
    'https://www.www.example.com/': 'www.example.com',
    'https://wwwexample.com/': 'wwwexample.com',
    'https://shop.example.co.uk/a': 'shop.example.co.uk',
    'http://127.0.0.1:3000/': '127.0.0.1',
  };
  for (const [url, project] of Object.entries(cases)) assert.equal(projectOf(url), project, url);
});
