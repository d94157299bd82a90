// `rankscope analyze`: JSON and readable output, several URLs as JSON Lines, exit statuses,
// colours only on a TTY without NO_COLOR, and one real process spawn.
import { captureIo } from './helpers/cli-io.js';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import { main } from '../src/cli/index.js';
import { DEFAULT_CONFIG } from '../src/analysis/config.js';
import { describeCheck } from '../src/analysis/checks/stored.js';
import { bandOf } from '../src/analysis/score.js';
import { CHECK_NAMES } from '../src/analysis/checks/index.js';
import type { AnalysedPage } from '../src/analysis/results.js';
import { startServer, type TestServer } from './analysis/fetch-test-server.js';

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Blue widgets shop</title>
<link rel="icon" href="/icon.png"></head><body><h1>Widgets</h1><p>Our blue widgets.</p></body></html>`;

const LINKS_PAGE = `<!doctype html><title>Links</title>${Array.from({ length: 100_000 }, (_, i) => `<a href="/a/${i}">Article ${i}</a>`).join('')}`;

const capture = (isTTY = false) => captureIo({ stdoutIsTTY: isTTY });

let server: TestServer;
const saved = { allow: process.env.ALLOW_PRIVATE_ADDRESSES, noColor: process.env.NO_COLOR };

before(async () => {
  server = await startServer((req, res) => {
    if (req.url === '/' || req.url === '/other') return void res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
    if (req.url === '/image') return void res.writeHead(200, { 'content-type': 'image/png' }).end('PNG');
    if (req.url === '/links') return void res.writeHead(200, { 'content-type': 'text/html' }).end(LINKS_PAGE);
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  });
  process.env.ALLOW_PRIVATE_ADDRESSES = 'true';
  delete process.env.NO_COLOR;
});

after(async () => {
  await server.close();
  for (const [name, value] of [
    ['ALLOW_PRIVATE_ADDRESSES', saved.allow],
    ['NO_COLOR', saved.noColor],
  ] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

test('--json prints one report object, exit 0', async () => {
  const { io, stdout, stderr } = capture();
  const code = await main(['analyze', `${server.origin}/`, '--json'], io);
  assert.equal(code, 0, stderr());
  const lines = stdout().trimEnd().split('\n');
  assert.equal(lines.length, 1);
  const report = JSON.parse(lines[0]) as AnalysedPage;
  assert.deepEqual(Object.keys(report), ['url', 'project', 'result', 'results', 'generated_at']);
  assert.equal(report.url, `${server.origin}/`);
  assert.equal(report.project, '127.0.0.1');
  assert.deepEqual(Object.keys(report.results), [...CHECK_NAMES]);
  assert.match(report.generated_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
  assert.equal(stderr(), '');
});

test('the readable summary: URL, score and band, then every check with a mark and one line each', async () => {
  const json = capture();
  await main(['analyze', `${server.origin}/`, '--json'], json.io);
  const report = JSON.parse(json.stdout()) as AnalysedPage;

  const { io, stdout } = capture();
  assert.equal(await main(['analyze', `${server.origin}/`], io), 0);
  const text = stdout();
  assert.ok(!text.includes('\x1b['), 'no colours when stdout is not a TTY');
  const lines = text.trimEnd().split('\n');
  assert.equal(lines[0], `${server.origin}/`);
  const band = bandOf(report.result, DEFAULT_CONFIG.bands);
  assert.ok(lines[1].startsWith(`Score: ${report.result}/100 (${band})`), lines[1]);
  const checkLines = lines.filter((line) => /^[✓✗] /.test(line));
  assert.equal(checkLines.length, CHECK_NAMES.length);
  for (const [i, name] of CHECK_NAMES.entries()) {
    const result = report.results[name];
    const line = checkLines[i];
    assert.match(line, new RegExp(`^[✓✗] ${name} +\\S`), line);
    // Two fetches: only load_time may differ between them.
    if (name === 'load_time') continue;
    assert.ok(line.startsWith(`${result.passed ? '✓' : '✗'} ${name} `), line);
    assert.ok(line.endsWith(`  ${describeCheck(name, result, DEFAULT_CONFIG)}`), line);
  }
});

test('a report that lists only the first links still counts them all; --json carries omitted', async () => {
  const readable = capture();
  assert.equal(await main(['analyze', `${server.origin}/links`], readable.io), 0, readable.stderr());
  assert.match(readable.stdout(), /\n✗ in_page_links +100,000 links \(100,000 internal, 0 external\); keep it at most 150\.\n/);
  const json = capture();
  assert.equal(await main(['analyze', `${server.origin}/links`, '--json'], json.io), 0, json.stderr());
  const links = (JSON.parse(json.stdout()) as AnalysedPage).results.in_page_links;
  assert.deepEqual(links.omitted, { '/value/Internals': 99_000 });
});

test('colours only on a TTY, and never with NO_COLOR set', async () => {
  const tty = capture(true);
  assert.equal(await main(['analyze', `${server.origin}/`], tty.io), 0);
  assert.match(tty.stdout(), /\x1b\[32m✓\x1b\[0m/);
  assert.match(tty.stdout(), /\x1b\[31m✗\x1b\[0m/);

  process.env.NO_COLOR = '1';
  try {
    const plain = capture(true);
    assert.equal(await main(['analyze', `${server.origin}/`], plain.io), 0);
    assert.ok(!plain.stdout().includes('\x1b['));
  } finally {
    delete process.env.NO_COLOR;
  }
});

test('a page that cannot be fetched: exit 1, the reason on stderr, nothing on stdout', async () => {
  for (const [path, message] of [
    ['/image', 'The address is not HTML (image/png).'],
    ['/missing', 'The page answered with HTTP status 404.'],
  ]) {
    const { io, stdout, stderr } = capture();
    assert.equal(await main(['analyze', `${server.origin}${path}`, '--json'], io), 1);
    assert.equal(stdout(), '');
    assert.equal(stderr(), `rankscope analyze: ${server.origin}${path}: ${message}\n`);
  }
});

test('private addresses are refused unless ALLOW_PRIVATE_ADDRESSES=true', async () => {
  process.env.ALLOW_PRIVATE_ADDRESSES = 'false';
  const before = server.connections;
  try {
    const { io, stderr } = capture();
    assert.equal(await main(['analyze', `${server.origin}/`], io), 1);
    assert.match(stderr(), /private or reserved network/);
    assert.equal(server.connections, before);
  } finally {
    process.env.ALLOW_PRIVATE_ADDRESSES = 'true';
  }
});

test('several URLs: one JSON object per line, in the order given, errors included; exit 1', async () => {
  const urls = [`${server.origin}/`, `${server.origin}/missing`, 'ftp://example.com/', `${server.origin}/other`];
  const { io, stdout, stderr } = capture();
  assert.equal(await main(['analyze', ...urls, '--concurrency', '2'], io), 1);
  const lines = stdout()
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line));
  assert.equal(lines.length, 4);
  assert.equal(lines[0].url, `${server.origin}/`);
  assert.deepEqual(Object.keys(lines[0]), ['url', 'project', 'result', 'results', 'generated_at']);
  assert.deepEqual(lines[1], {
    url: `${server.origin}/missing`,
    error: { reason: 'bad_status', message: 'The page answered with HTTP status 404.' },
  });
  assert.deepEqual(lines[2], {
    url: 'ftp://example.com/',
    error: { reason: 'invalid_url', message: 'The address is not a valid http or https URL.' },
  });
  assert.equal(lines[3].url, `${server.origin}/other`);
  assert.equal(stderr().trimEnd().split('\n').length, 2);

  const ok = capture();
  assert.equal(await main(['analyze', `${server.origin}/`, `${server.origin}/other`], ok.io), 0);
  assert.equal(ok.stdout().trimEnd().split('\n').length, 2);
});

test('usage errors exit 2; --help exits 0 and documents the JSON Lines format', async () => {
  for (const args of [[], ['--concurrency', '0', 'example.com'], ['--concurrency', 'x', 'a', 'b'], ['--nope', 'example.com']]) {
    const { io, stdout, stderr } = capture();
    assert.equal(await main(['analyze', ...args], io), 2, args.join(' '));
    assert.equal(stdout(), '');
    assert.match(stderr(), /rankscope analyze: /);
  }
  const help = capture();
  assert.equal(await main(['analyze', '--help'], help.io), 0);
  assert.match(help.stdout(), /one JSON object per line/);
  assert.match(help.stdout(), /"error": \{"reason"/);
});

test('--render without Chromium at CHROMIUM_PATH: exit 2 with the reason before any page; --help documents it', async () => {
  const saved = process.env.CHROMIUM_PATH;
  process.env.CHROMIUM_PATH = '/nonexistent/chromium';
  try {
    const { io, stdout, stderr } = capture();
    assert.equal(await main(['analyze', `${server.origin}/`, '--render'], io), 2);
    assert.equal(stdout(), '');
    assert.equal(stderr(), 'rankscope analyze: Rendering needs Chromium: set CHROMIUM_PATH.\n');
  } finally {
    if (saved === undefined) delete process.env.CHROMIUM_PATH;
    else process.env.CHROMIUM_PATH = saved;
  }
  const help = capture();
  assert.equal(await main(['analyze', '--help'], help.io), 0);
  assert.match(help.stdout(), /--render +also load each page in headless Chromium/);
});

test('a real process: node runs the CLI, prints the JSON report and exits 0', async () => {
  const run = promisify(execFile);
  const script = "const { main } = await import('./src/cli/index.ts'); process.exitCode = await main(process.argv.slice(1));";
  const { stdout } = await run(
    process.execPath,
    ['--import', 'tsx', '--input-type=module', '-e', script, 'analyze', `${server.origin}/`, '--json'],
    { env: { ...process.env, ALLOW_PRIVATE_ADDRESSES: 'true' }, timeout: 60_000 },
  );
  const report = JSON.parse(stdout) as AnalysedPage;
  assert.equal(report.url, `${server.origin}/`);

  await assert.rejects(
    run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, 'analyze', `${server.origin}/missing`], {
      env: { ...process.env, ALLOW_PRIVATE_ADDRESSES: 'true' },
      timeout: 60_000,
    }),
    (error: { code?: number; stderr?: string }) => error.code === 1 && /HTTP status 404/.test(error.stderr ?? ''),
  );
});
