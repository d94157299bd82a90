// A client that disconnects mid-create must not leave its analysis running for nobody.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { testApp } from '../helpers/app.js';
import { startSite } from '../helpers/pages.js';
import { until } from '../helpers/wait.js';

test('closing the connection during a create aborts the page fetch and stores nothing', async () => {
  const t = await testApp({ ALLOW_PRIVATE_ADDRESSES: 'true' });
  let pageSocketClosed: (() => void) | undefined;
  const pageClosed = new Promise<void>((resolve) => (pageSocketClosed = resolve));
  const site = await startSite({
    '/slow.html': (req, res) => {
      // headers now, the body never: the analyser waits on it until its own timeout (10 s)
      res.writeHead(200, { 'content-type': 'text/html' });
      res.write('<html><head><title>slow</title>');
      req.socket.on('close', () => pageSocketClosed!());
    },
  });
  try {
    const { key } = await t.account();
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = t.app.server.address() as { port: number };
    const req = request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/api/v1/reports',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/x-www-form-urlencoded' },
    });
    req.on('error', () => {});
    req.end(`url=${encodeURIComponent(`${site.origin}/slow.html`)}`);
    // disconnect once the analyser is reading the page
    await until(() => site.hits('/slow.html') > 0, { what: 'the analyser to request the page' });
    req.destroy();
    await pageClosed;
    // Cancelled, not timed out: the analyser's 10 s timeout would answer 422 and log no cancellation
    // (bench/latency.ts measures how soon the page is let go). Once logged, the handler has
    // settled; then nothing may be stored.
    await until(() => t.logs.some((l) => l.includes('analysis cancelled')), { what: 'the cancellation' });
    const list = await t.call(key, { method: 'GET', url: '/api/v1/reports' });
    assert.equal(list.json().meta.total, 0);
  } finally {
    await t.close();
    await site.close();
  }
});
