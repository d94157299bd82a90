// The issue types an https site or a slow server raises, on a real crawl: an https fixture site on
// 127.0.0.1 with a certificate made for the test (openssl), trusted by the crawling process
// through NODE_EXTRA_CA_CERTS (read at start, so the crawl runs in a process of its own: the CLI).
// One planted fault per type (http_link, mixed_content, slow_response) and a control page that
// links and loads over https and answers at once.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type ProcessDatabase, processDatabase } from '../helpers/database.js';
import { runCli } from '../helpers/spawn.js';

interface Issue {
  type: string;
  severity: string;
  url: string;
  detail: string;
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

function page(name: string, body: string): string {
  const text = Array.from({ length: 220 }, (_, i) => `${name}${i % 37}`).join(' ');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>The ${name} page of the https fixture</title><meta name="description" content="The ${name} page of the https fixture site, with a description long enough."></head><body><h1>${name}</h1><p>${text}</p>${body}</body></html>`;
}

describe('an https site and a slow page, crawled', () => {
  let dir: string;
  let site: Server;
  let plain: Server;
  let database: ProcessDatabase;
  let origin: string;
  let issues: Issue[];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rankscope-tls-'));
    const key = join(dir, 'key.pem');
    const cert = join(dir, 'cert.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        key,
        '-out',
        cert,
        '-days',
        '2',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
      ],
      { stdio: 'ignore' },
    );

    // The plain-http host the faulty pages point at: it answers, so only the scheme is at fault.
    plain = createHttpServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.alloc(16));
    });
    const plainOrigin = `http://127.0.0.1:${await listen(plain)}`;

    site = createHttpsServer({ key: readFileSync(key), cert: readFileSync(cert) }, (req, res) => {
      const html = (body: string) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
      const path = (req.url ?? '/').split('?')[0];
      if (path === '/')
        html(page('home', ['/http-link', '/mixed', '/slow', '/control'].map((p) => `<a href="${p}">${p}</a>`).join(' ')));
      else if (path === '/http-link') html(page('httplink', `<a href="${plainOrigin}/page">plain</a> <a href="/">home</a>`));
      else if (path === '/mixed')
        html(page('mixed', `<img src="${plainOrigin}/image.png" alt="plain" width="4" height="4"> <a href="/">home</a>`));
      else if (path === '/slow') setTimeout(() => html(page('slow', '<a href="/">home</a>')), 1_300);
      else if (path === '/control')
        html(page('control', `<img src="/image.png" alt="secure" width="4" height="4"> <a href="/">home</a>`));
      else if (path === '/image.png') res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.alloc(16));
      else if (path === '/robots.txt') res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nAllow: /\n');
      else res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    }) as unknown as Server;
    origin = `https://127.0.0.1:${await listen(site)}`;

    database = await processDatabase();
    const run = await runCli(['crawl', `${origin}/`, '--json'], {
      NODE_EXTRA_CA_CERTS: cert,
      DATABASE_URL: database.databaseUrl,
      ALLOW_PRIVATE_ADDRESSES: 'true',
      ADMIN_EMAIL: 'owner@example.com',
      CRAWL_MAX_PAGES: '20',
    });
    assert.equal(run.code, 0, run.stderr);
    const doc = JSON.parse(run.stdout) as { pages: { url: string; report_id: number | null }[]; issues: Issue[] };
    const analysed = doc.pages
      .filter((p) => p.url.startsWith(origin) && p.report_id !== null)
      .map((p) => p.url.slice(origin.length));
    assert.deepEqual(
      analysed.sort(),
      ['/', '/control', '/http-link', '/mixed', '/slow'],
      'every page fetched over TLS and analysed',
    );
    issues = doc.issues;
  });

  after(async () => {
    await Promise.all([close(site), close(plain)]);
    await database?.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  const of = (type: string) =>
    issues.filter((issue) => issue.type === type).map(({ type, severity, url }) => ({ type, severity, url }));

  test('http_link: the https page that links to an http: URL, and no other', () => {
    assert.deepEqual(of('http_link'), [{ type: 'http_link', severity: 'low', url: `${origin}/http-link` }]);
  });

  test('mixed_content: the https page that loads an image over http, and no other', () => {
    assert.deepEqual(of('mixed_content'), [{ type: 'mixed_content', severity: 'low', url: `${origin}/mixed` }]);
  });

  // A prompt page's headers can take over a second on a loaded machine (seen under load 12), and
  // slow_response is then right about it: here the planted page must be among them; the 1,000 ms
  // threshold and its control are held by the issue pass's unit tests on stored response times.
  const slowElsewhere = (issue: Issue) => issue.type === 'slow_response' && issue.url !== `${origin}/slow`;

  test('slow_response: the page whose headers came after 1,000 ms', () => {
    assert.deepEqual(
      of('slow_response').filter((issue) => issue.url === `${origin}/slow`),
      [{ type: 'slow_response', severity: 'low', url: `${origin}/slow` }],
    );
  });

  test('nothing else: the home and control pages (https links and images) raise no issue', () => {
    assert.deepEqual(
      issues
        .filter((issue) => !slowElsewhere(issue))
        .map((issue) => issue.type)
        .sort(),
      ['http_link', 'mixed_content', 'slow_response'],
    );
  });
});
