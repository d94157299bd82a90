// Hostile pages, all at once, against the real server process: each create ends in a clean 422
// or a report, nothing hangs past the analyser's timeout, memory stays bounded, and the server
// keeps answering other requests meanwhile.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { randomBytes } from 'node:crypto';
import { startServer } from '../helpers/spawn.js';
import { startSite, type PageSite } from '../helpers/pages.js';
import { rssOf } from '../helpers/process.js';
import { CHECKS } from '../../src/analysis/checks/index.js';

const MB = 1024 * 1024;
const RSS_LIMIT = 300 * MB;

describe('hostile pages', () => {
  let site: PageSite;
  let dir: string;
  const timers: NodeJS.Timeout[] = [];
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rankscope-hostile-'));
    const bomb = gzipSync(Buffer.alloc(200 * MB), { level: 9 }); // ~200 KB on the wire
    const invalidUtf8 = Buffer.concat([
      Buffer.from('<html><head><title>Broken bytes</title></head><body><p>'),
      Buffer.from(Array.from({ length: 200_000 }, (_, i) => (i % 7 === 0 ? 0xc3 : i % 5 === 0 ? 0xff : 0x61))),
      Buffer.from('</p></body></html>'),
    ]);
    site = await startSite({
      '/gzip-bomb': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' });
        res.end(bomb);
      },
      '/endless': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        const chunk = Buffer.from(`<p>${'x'.repeat(65_536)}</p>`);
        const pump = () => {
          while (res.write(chunk)) {
            /* until the socket pushes back */
          }
        };
        res.on('drain', pump);
        pump();
      },
      '/drip': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        const timer = setInterval(() => res.write('<'), 1000);
        timers.push(timer);
        res.on('close', () => clearInterval(timer));
      },
      '/fifty-mb': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html', 'content-length': String(50 * MB) });
        const chunk = Buffer.alloc(MB, 0x61);
        let sent = 0;
        const pump = () => {
          while (sent < 50 && res.write(chunk)) sent++;
          if (sent >= 50) res.end();
        };
        res.on('drain', pump);
        pump();
      },
      '/nested':
        '<html><head><title>Nested</title></head><body>' +
        '<div>'.repeat(200_000) +
        'deep' +
        '</div>'.repeat(200_000) +
        '</body></html>',
      '/huge-attribute': `<html><head><title>Attribute</title></head><body><div data-x="${'a'.repeat(10 * MB)}">x</div></body></html>`,
      '/big-attribute': `<html><head><title>Attribute</title></head><body><div data-x="${'a'.repeat(4 * MB)}">x</div></body></html>`,
      '/invalid-utf8': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(invalidUtf8);
      },
      '/binary': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(randomBytes(3 * MB));
      },
      '/loop': (_req, res) => {
        res.writeHead(302, { location: '/loop' });
        res.end();
      },
    });
  });
  after(async () => {
    timers.forEach(clearInterval);
    await site.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('each ends in a 422 or a report within the timeout; RSS < 300 MB; other requests answered', async () => {
    const server = await startServer(
      {
        DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}`,
        ALLOW_PRIVATE_ADDRESSES: 'true',
        LOG_LEVEL: 'warn',
        RATE_LIMIT_PER_MINUTE: '0',
      },
      { compiled: true },
    );
    const key = /(rk_\S+)/.exec(server.output())![1];
    const api = `http://127.0.0.1:${server.port}`;
    let peakRss = 0;
    let polls = 0;
    let slowestPollMs = 0;
    let running = true;
    const sampler = setInterval(() => {
      peakRss = Math.max(peakRss, rssOf(server.child.pid!) ?? 0);
    }, 50);
    const poller = (async () => {
      while (running) {
        const started = Date.now();
        const res = await fetch(`${api}/api/v1/websites`, { headers: { authorization: `Bearer ${key}` } });
        assert.equal(res.status, 200);
        await res.arrayBuffer();
        slowestPollMs = Math.max(slowestPollMs, Date.now() - started);
        polls++;
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    try {
      const expectations: [string, number, RegExp | null][] = [
        ['/gzip-bomb', 422, /too large|compress/i],
        ['/endless', 422, /larger than 5 MB/],
        ['/drip', 422, /did not answer within 10 seconds/],
        ['/fifty-mb', 422, /larger than 5 MB/],
        ['/nested', 201, null],
        ['/huge-attribute', 422, /larger than 5 MB/],
        ['/big-attribute', 201, null],
        ['/invalid-utf8', 201, null],
        ['/binary', 201, null],
        ['/loop', 422, /redirects/i],
      ];
      const started = Date.now();
      const outcomes = await Promise.all(
        expectations.map(async ([path]) => {
          const res = await fetch(`${api}/api/v1/reports`, {
            method: 'POST',
            headers: { authorization: `Bearer ${key}`, 'content-type': 'application/x-www-form-urlencoded' },
            body: `url=${encodeURIComponent(site.origin + path)}`,
          });
          return {
            status: res.status,
            body: (await res.json()) as { errors?: { url?: string[] }; data?: { results: object } },
            ms: Date.now() - started,
          };
        }),
      );
      for (const [i, [path, status, message]] of expectations.entries()) {
        const outcome = outcomes[i];
        assert.equal(outcome.status, status, `${path}: ${JSON.stringify(outcome.body).slice(0, 200)}`);
        if (message) assert.match(outcome.body.errors!.url![0], message, path);
        else assert.equal(Object.keys(outcome.body.data!.results).length, CHECKS.length, path);
        assert.ok(outcome.ms < 25_000, `${path} ended within the analyser's timeout (${outcome.ms} ms)`);
      }
    } finally {
      running = false;
      await poller;
      clearInterval(sampler);
      await server.stop();
    }
    assert.ok(peakRss > 0 && peakRss < RSS_LIMIT, `peak RSS ${(peakRss / MB).toFixed(0)} MB`);
    assert.ok(polls >= 20, `${polls} other requests answered meanwhile`);
    assert.ok(slowestPollMs < 5000, `the slowest of them took ${slowestPollMs} ms`);
    console.log(
      `hostile pages: peak RSS ${(peakRss / MB).toFixed(0)} MB, ${polls} requests answered meanwhile, slowest ${slowestPollMs} ms`,
    );
  });
});
