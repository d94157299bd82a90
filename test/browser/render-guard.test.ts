// The browser behind the address guard: with ALLOW_PRIVATE_ADDRESSES=127.0.0.2/32 and the site on
// 127.0.0.2, a page that tries every way a browser has to reach another address (fetch, XHR, img,
// script, iframe, prefetch, WebSocket, EventSource, https, a redirect, `localhost`, a name that
// resolves to loopback, WebRTC) opens no connection at the listeners on 127.0.0.3, 127.0.0.1 and
// [::1] (counted at the socket), and the render still completes. Hostile pages end within
// RENDER_TIMEOUT + 5 s with a clear error and leave the browser usable.
import assert from 'node:assert/strict';
import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { once } from 'node:events';
import { after, before, describe, test } from 'node:test';
import { parsePrivateAddressAllowance, systemResolver } from '../../src/analysis/fetch/address-guard.js';
import { RenderError, Renderer } from '../../src/browser/renderer.js';
import { startServer, type TestServer } from '../analysis/fetch-test-server.js';
import { CHROMIUM, noBrowser } from '../helpers/browser.js';

const ALLOWED = parsePrivateAddressAllowance('127.0.0.2/32');

/** Every way a page has to make a request, at every target origin; then the page says it is done. */
function attackPage(targets: string[], site: string): string {
  const list = JSON.stringify(targets);
  const tags = targets
    .map(
      (t) => `<img src="${t}/img"><script src="${t}/script.js"></script><iframe src="${t}/frame"></iframe>
<link rel="prefetch" href="${t}/prefetch"><link rel="preconnect" href="${t}"><link rel="stylesheet" href="${t}/style.css">`,
    )
    .join('\n');
  return `<!doctype html><html><head><title>raw title</title>
${tags}
<iframe src="${site}/redirect"></iframe>
</head><body><p>raw text</p>
<script>
const targets = ${list};
const attempts = [];
// A request every 200 ms while the attempts settle, so network idle cannot come first on a slow machine.
const busy = setInterval(() => fetch('/busy').catch(() => {}), 200);
for (const t of targets) {
  attempts.push(fetch(t + '/fetch').catch(() => {}));
  attempts.push(fetch(t.replace('http:', 'https:') + '/tls').catch(() => {}));
  attempts.push(fetch(t + '/no-cors', { mode: 'no-cors' }).catch(() => {}));
  attempts.push(new Promise((done) => {
    const x = new XMLHttpRequest();
    x.onloadend = done;
    x.open('GET', t + '/xhr');
    x.send();
  }));
  attempts.push(new Promise((done) => {
    const ws = new WebSocket(t.replace('http:', 'ws:') + '/ws');
    ws.onerror = ws.onclose = done;
  }));
  attempts.push(new Promise((done) => {
    const ws = new WebSocket(t.replace('http:', 'wss:') + '/wss');
    ws.onerror = ws.onclose = done;
  }));
  attempts.push(new Promise((done) => {
    const es = new EventSource(t + '/events');
    es.onerror = () => { es.close(); done(); };
  }));
  navigator.sendBeacon(t + '/beacon', 'x');
}
attempts.push(fetch('${site}/redirect').catch(() => {}));
attempts.push(fetch('${site}/allowed').then((r) => r.text()).catch(() => 'failed'));
Promise.all(attempts).then((results) => {
  clearInterval(busy);
  document.title = 'rendered title';
  const p = document.createElement('p');
  p.id = 'done';
  p.textContent = 'allowed fetch: ' + results[results.length - 1];
  document.body.append(p);
});
</script>
</body></html>`;
}

/** WebRTC: a STUN server on 127.0.0.3 that counts datagrams (UDP must never leave the browser). */
function rtcPage(stunPort: number): string {
  return `<!doctype html><title>rtc</title><script>
const pc = new RTCPeerConnection({ iceServers: [{ urls: 'stun:127.0.0.3:${stunPort}' }, { urls: 'stun:127.0.0.1:${stunPort}' }] });
pc.createDataChannel('x');
pc.createOffer().then((o) => pc.setLocalDescription(o));
</script>`;
}

describe('the browser reaches nothing the guard refuses', { skip: noBrowser }, () => {
  let renderer: Renderer;
  let site: TestServer;
  let listeners: TestServer[];
  let stun: UdpSocket;
  let datagrams = 0;
  const connected: string[] = [];

  before(async () => {
    const answer = (_req: unknown, res: import('node:http').ServerResponse) =>
      res.writeHead(200, { 'content-type': 'text/plain', 'access-control-allow-origin': '*' }).end('secret');
    const v4 = await startServer(answer, '127.0.0.1');
    // One port on every address, so `localhost:P` and `foo.localhost:P` would land on a listener.
    listeners = [v4, await startServer(answer, '::1', v4.port), await startServer(answer, '127.0.0.3', v4.port)];
    const port = v4.port;
    stun = createSocket('udp4');
    stun.on('message', () => datagrams++);
    stun.bind(0, '127.0.0.3');
    await once(stun, 'listening');
    const targets = [
      `http://127.0.0.3:${port}`,
      `http://127.0.0.1:${port}`,
      `http://[::1]:${port}`,
      `http://localhost:${port}`,
      // Chromium answers any *.localhost name with loopback itself, without DNS (RFC 6761): a
      // name that resolves to loopback, with no resolver to fake in this sandbox.
      `http://foo.localhost:${port}`,
      `http://127.1:${port}`,
      `http://[::ffff:127.0.0.3]:${port}`,
    ];
    site = await startServer((req, res) => {
      const origin = `http://127.0.0.2:${site.port}`;
      switch (req.url) {
        case '/':
          return res.writeHead(200, { 'content-type': 'text/html' }).end(attackPage(targets, origin));
        case '/rtc':
          return res.writeHead(200, { 'content-type': 'text/html' }).end(rtcPage((stun.address() as { port: number }).port));
        case '/redirect':
          return res.writeHead(302, { location: `http://127.0.0.3:${port}/redirected` }).end();
        case '/allowed':
          return res.writeHead(200, { 'content-type': 'text/plain' }).end('yes');
        default:
          return res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      }
    }, '127.0.0.2');
    renderer = new Renderer({
      executablePath: CHROMIUM,
      concurrency: 2,
      timeoutMs: 15_000,
      maxBytes: 5 * 1024 * 1024,
      userAgent: 'Mozilla/5.0 (compatible; RankscopeBot/1.0)',
      policy: { allowPrivateAddresses: ALLOWED },
      resolver: systemResolver,
      hooks: { beforeConnect: (address, port) => connected.push(`${address}:${port}`) },
    });
  });
  after(async () => {
    await renderer?.close();
    stun?.close();
    for (const server of [site, ...(listeners ?? [])]) await server?.close();
  });

  const atListeners = () => listeners.reduce((n, l) => n + l.connections, 0);

  test('a page trying every kind of request makes no connection outside 127.0.0.2, and still renders', async () => {
    const page = await renderer.render(`${site.origin}/`, { account: 1 });
    assert.match(page.html, /<title>rendered title<\/title>/);
    assert.match(page.html, /<p id="done">allowed fetch: yes<\/p>/);
    assert.equal(atListeners(), 0, 'connections at the refused listeners');
    assert.ok(renderer.refused >= 20, `the guard refused ${renderer.refused} destinations (the attempts reached it)`);
    assert.deepEqual(new Set(connected.map((c) => c.split(':').slice(0, -1).join(':'))), new Set(['127.0.0.2']));
  });

  test('a page that redirects to a refused address is refused, and nothing connects there', async () => {
    await assert.rejects(
      renderer.render(`${site.origin}/redirect`, { account: 1 }),
      (error) => error instanceof RenderError && error.reason === 'blocked_address',
    );
    for (const target of [`http://127.0.0.3:${listeners[0].port}/`, `http://localhost:${listeners[0].port}/`]) {
      await assert.rejects(
        renderer.render(target, { account: 1 }),
        (error) => error instanceof RenderError && error.reason === 'blocked_address',
        target,
      );
    }
    assert.equal(atListeners(), 0);
  });

  test('WebRTC sends no UDP (only what a proxy carries)', async () => {
    const page = await renderer.render(`${site.origin}/rtc`, { account: 1 });
    assert.match(page.html, /<title>rtc<\/title>/);
    assert.equal(datagrams, 0);
    assert.equal(atListeners(), 0);
  });

  test('only our browser may use the proxy: a request without its token is refused', async () => {
    // The proxy is started with the first page; a client without the credentials gets 407 and no connection.
    const { request } = await import('node:http');
    const proxy = (renderer as unknown as { startedProxy: { port: number } }).startedProxy;
    const status = await new Promise<number>((resolve, reject) => {
      request({ host: '127.0.0.1', port: proxy.port, path: `${site.origin}/allowed`, headers: { host: '127.0.0.2' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      })
        .on('error', reject)
        .end();
    });
    assert.equal(status, 407);
    assert.equal(site.requests.filter((r) => r.path === '/allowed').length, 1, 'only the page’s own fetch of /allowed');
  });
});
