// The page fetch against local servers: redirects, cookies, content codings, limits,
// timeouts, acceptance, charsets and failure reasons (docs/checks.md §2, §7.1).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import zlib from 'node:zlib';
import { analyzeUrl, fetchSnapshot } from '../../src/analysis/analyze.js';
import { FetchError } from '../../src/analysis/errors.js';
import type { FetchFailureReason } from '../../src/analysis/types.js';
import { sleep, startServer, startTlsServer, testConfig, type Handler, type TestServer } from './fetch-test-server.js';

const MiB = 1024 * 1024;
const PAGE = '<!doctype html><html><head><title>T</title><link rel="icon" href="/i.png"></head><body><p>Hello</p></body></html>';

async function serve(t: { after: (fn: () => Promise<void>) => void }, handler: Handler): Promise<TestServer> {
  const server = await startServer(handler);
  t.after(() => server.close());
  return server;
}

function isFetchError(reason: FetchFailureReason, message?: string | RegExp) {
  return (error: unknown) => {
    assert.ok(error instanceof FetchError, `expected a FetchError, got ${String(error)}`);
    assert.equal(error.reason, reason);
    if (typeof message === 'string') assert.equal(error.message, message);
    else if (message) assert.match(error.message, message);
    return true;
  };
}

/** Deterministic text that compresses only ~2×, so the ratio guard never fires on it. */
function noisyText(length: number): string {
  const letters = 'abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  let state = 0x2545f491;
  let out = '';
  for (let i = 0; i < length; i++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    out += letters[(state >>> 0) % letters.length];
  }
  return out;
}

function htmlOfExactly(bytes: number): string {
  const shell = '<!doctype html><title>x</title><p></p>';
  return shell.replace('<p></p>', `<p>${noisyText(bytes - shell.length)}</p>`);
}

const html = (res: import('node:http').ServerResponse, body: string | Buffer, headers: Record<string, string> = {}) =>
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...headers }).end(body);

test('a plain page: snapshot fields, request headers and multi-valued response headers', async (t) => {
  const server = await serve(t, (req, res) => {
    if (req.url !== '/page') return void res.writeHead(404).end();
    res.setHeader('x-multi', ['one', 'two']);
    html(res, PAGE, { server: 'test-server' });
  });
  const { snapshot } = await fetchSnapshot(`${server.origin}/page`, { config: testConfig() });
  assert.equal(snapshot.requestedUrl, `${server.origin}/page`);
  assert.equal(snapshot.finalUrl, `${server.origin}/page`);
  assert.equal(snapshot.status, 200);
  assert.equal(snapshot.html, PAGE);
  assert.equal(snapshot.charsetUsed, 'utf-8');
  assert.equal(snapshot.wireBytes, Buffer.byteLength(PAGE));
  assert.deepEqual(snapshot.headers['x-multi'], ['one', 'two']);
  assert.deepEqual(snapshot.headers.server, ['test-server']);
  assert.equal(typeof snapshot.loadTime, 'number');
  assert.equal(Number(snapshot.loadTime.toFixed(3)), snapshot.loadTime, 'load_time has 3 decimals');
  const page = server.requests.find((r) => r.path === '/page')!;
  assert.equal(page.headers['user-agent'], 'Mozilla/5.0 (compatible; RankscopeBot/1.0)');
  assert.equal(page.headers.accept, 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1');
  assert.equal(page.headers['accept-encoding'], 'gzip, deflate, br');
});

test('follows 10 redirects and refuses the 11th', async (t) => {
  const server = await serve(t, (req, res) => {
    const n = Number(/^\/hop\/(\d+)$/.exec(req.url ?? '')?.[1]);
    if (n > 0) return void res.writeHead(302, { location: `/hop/${n - 1}` }).end();
    html(res, PAGE);
  });
  const { snapshot } = await fetchSnapshot(`${server.origin}/hop/10`, { config: testConfig() });
  assert.equal(snapshot.finalUrl, `${server.origin}/hop/0`);

  const before = server.requests.length;
  await assert.rejects(
    fetchSnapshot(`${server.origin}/hop/11`, { config: testConfig() }),
    isFetchError('too_many_redirects', 'Too many redirects (more than 10).'),
  );
  const chain = server.paths().slice(before);
  assert.equal(chain.length, 11, 'the 11th redirect is not followed');
  assert.ok(!chain.includes('/hop/0'));
});

test('every redirect status is followed, relative Locations resolve, fragments are dropped', async (t) => {
  const server = await serve(t, (req, res) => {
    const port = (req.socket.localPort ?? 0).toString();
    const hops: Record<string, [number, string]> = {
      '/a/b': [301, '../c?x=1#frag'],
      '/c?x=1': [307, 'd'],
      '/d': [308, `//127.0.0.1:${port}/e`],
      '/e': [303, '/f#section'],
      '/f': [302, 'g'],
    };
    const hop = hops[req.url ?? ''];
    if (hop) return void res.writeHead(hop[0], { location: hop[1] }).end('moved');
    if (req.url === '/g') return void html(res, PAGE);
    res.writeHead(404).end();
  });
  const { snapshot } = await fetchSnapshot(`${server.origin}/a/b#top`, { config: testConfig() });
  assert.equal(snapshot.requestedUrl, `${server.origin}/a/b`);
  assert.equal(snapshot.finalUrl, `${server.origin}/g`);
  assert.deepEqual(server.paths().slice(0, 6), ['/a/b', '/c?x=1', '/d', '/e', '/f', '/g']);
});

test('a redirect to a non-http scheme is refused', async (t) => {
  const server = await serve(t, (_req, res) => void res.writeHead(302, { location: 'ftp://127.0.0.1/file' }).end());
  await assert.rejects(fetchSnapshot(server.origin, { config: testConfig() }), isFetchError('invalid_url', /ftp:/));
});

test('a redirect to an address longer than 2,048 characters is refused on any hop, not followed', async (t) => {
  const server = await serve(t, (req, res) => {
    const path = req.url ?? '';
    if (path === '/') return void res.writeHead(302, { location: '/hop' }).end();
    if (path === '/hop') return void res.writeHead(301, { location: `/${'a'.repeat(15_000)}` }).end();
    // `/to/<n>`: to an absolute address of exactly n characters, plus a fragment.
    const length = Number(/^\/to\/(\d+)$/.exec(path)?.[1]);
    const filler = 'b'.repeat(length - `${server.origin}/`.length);
    if (length > 0) return void res.writeHead(302, { location: `${server.origin}/${filler}#f` }).end();
    html(res, PAGE);
  });
  await assert.rejects(
    analyzeUrl(server.origin, { config: testConfig() }),
    isFetchError('invalid_url', 'The page redirects to an address longer than 2,048 characters.'),
  );
  assert.deepEqual(server.paths(), ['/', '/hop'], 'the long address is never requested');

  // The limit is on the whole href, fragment dropped: 2,048 is followed, 2,049 is not.
  const exact = await fetchSnapshot(`${server.origin}/to/2048`, { config: testConfig() });
  assert.equal(exact.snapshot.finalUrl.length, 2048);
  await assert.rejects(
    fetchSnapshot(`${server.origin}/to/2049`, { config: testConfig() }),
    isFetchError('invalid_url', 'The page redirects to an address longer than 2,048 characters.'),
  );
});

test('cookies set along the redirect chain come back within that chain only', async (t) => {
  const server = await serve(t, (req, res) => {
    if (req.url === '/start') {
      res.setHeader('set-cookie', ['sid=abc; Path=/; HttpOnly', 'gone=1; Path=/']);
      return void res.writeHead(302, { location: '/next' }).end();
    }
    if (req.url === '/next') {
      res.setHeader('set-cookie', [
        'theme=dark; Path=/next',
        'foreign=1; Domain=example.org; Path=/',
        'gone=; Path=/; Max-Age=0',
        'secure=1; Path=/; Secure',
      ]);
      return void res.writeHead(302, { location: '/next/page' }).end();
    }
    if (req.url === '/next/page') return void html(res, PAGE);
    res.writeHead(404).end();
  });
  await fetchSnapshot(`${server.origin}/start`, { config: testConfig() });
  const cookieOf = (path: string) => server.requests.find((r) => r.path === path)?.headers.cookie;
  assert.equal(cookieOf('/start'), undefined);
  assert.equal(cookieOf('/next'), 'sid=abc; gone=1');
  // Longer paths first; the expired, foreign-domain and Secure-over-http cookies stay out.
  assert.equal(cookieOf('/next/page'), 'theme=dark; sid=abc');
  const sideRequests = server.requests.filter((r) => !['/start', '/next', '/next/page'].includes(r.path));
  assert.ok(sideRequests.length >= 2, 'robots.txt and the 404 probe were fetched');
  for (const r of sideRequests) assert.equal(r.headers.cookie, undefined, `no cookie on ${r.path}`);
});

test('content codings are undone; page_size counts the bytes on the wire', async (t) => {
  const body = `<!doctype html><title>Compressed</title><p>${'Compressible words. '.repeat(200)}</p>`;
  const cases: Record<string, Buffer> = {
    gzip: zlib.gzipSync(body),
    'x-gzip': zlib.gzipSync(body),
    br: zlib.brotliCompressSync(body),
    deflate: zlib.deflateSync(body),
    'deflate-raw': zlib.deflateRawSync(body),
    // Codings are listed in the order applied: deflate first, then gzip.
    'deflate, gzip': zlib.gzipSync(zlib.deflateSync(body)),
    'gzip, identity': zlib.gzipSync(body),
  };
  const server = await serve(t, (req, res) => {
    const coding = decodeURIComponent((req.url ?? '').slice(1));
    const wire = cases[coding];
    if (!wire) return void res.writeHead(404).end();
    html(res, wire, { 'content-encoding': coding === 'deflate-raw' ? 'deflate' : coding });
  });
  for (const [coding, wire] of Object.entries(cases)) {
    const { snapshot } = await fetchSnapshot(`${server.origin}/${encodeURIComponent(coding)}`, {
      config: testConfig(),
    });
    assert.equal(snapshot.html, body, coding);
    assert.equal(snapshot.wireBytes, wire.length, `${coding}: compressed size`);
    assert.ok(snapshot.wireBytes < Buffer.byteLength(body));
  }
});

test('an unknown Content-Encoding and a corrupt compressed body are refused', async (t) => {
  const server = await serve(t, (req, res) => {
    if (req.url === '/unknown') return void html(res, 'whatever', { 'content-encoding': 'compress' });
    if (req.url === '/corrupt') return void html(res, 'this is not gzip at all', { 'content-encoding': 'gzip' });
    res.writeHead(404).end();
  });
  await assert.rejects(
    fetchSnapshot(`${server.origin}/unknown`, { config: testConfig() }),
    isFetchError('bad_encoding', 'The page uses an unsupported Content-Encoding (compress).'),
  );
  await assert.rejects(fetchSnapshot(`${server.origin}/corrupt`, { config: testConfig() }), isFetchError('bad_encoding'));
});

test('the 5 MiB cap counts decoded bytes', async (t) => {
  const exactly = htmlOfExactly(5 * MiB);
  const oneMore = htmlOfExactly(5 * MiB + 1);
  const gzippedOneMore = zlib.gzipSync(oneMore);
  const server = await serve(t, (req, res) => {
    if (req.url === '/exact') return void html(res, exactly, { 'content-length': String(exactly.length) });
    if (req.url === '/exact-gzip') return void html(res, zlib.gzipSync(exactly), { 'content-encoding': 'gzip' });
    if (req.url === '/over-chunked') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.write(oneMore.slice(0, MiB));
      return void res.end(oneMore.slice(MiB));
    }
    if (req.url === '/over-gzip') return void html(res, gzippedOneMore, { 'content-encoding': 'gzip' });
    res.writeHead(404).end();
  });
  const exact = await fetchSnapshot(`${server.origin}/exact`, { config: testConfig() });
  assert.equal(exact.snapshot.html.length, 5 * MiB);
  const exactGzip = await fetchSnapshot(`${server.origin}/exact-gzip`, { config: testConfig() });
  assert.equal(exactGzip.snapshot.html.length, 5 * MiB);

  await assert.rejects(
    fetchSnapshot(`${server.origin}/over-chunked`, { config: testConfig() }),
    isFetchError('too_large', 'The page is larger than 5 MB.'),
  );
  assert.ok(gzippedOneMore.length < 5 * MiB, 'the wire size alone is under the cap');
  await assert.rejects(
    fetchSnapshot(`${server.origin}/over-gzip`, { config: testConfig() }),
    isFetchError('too_large', 'The page is larger than 5 MB.'),
  );
});

test('a declared Content-Length over the cap is refused on the headers alone', async (t) => {
  // Headers only, no body ever: waiting for the body would end in a timeout instead.
  const server = await serve(t, (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html', 'content-length': String(20 * 1000 * 1000) });
    res.flushHeaders();
  });
  await assert.rejects(
    fetchSnapshot(server.origin, { config: testConfig({ timeoutMs: 5_000 }) }),
    isFetchError('too_large', 'The page is larger than 5 MB.'),
  );
  await server.allClosed();
});

test('a 20 MB page and an endless body stop at the cap and the connection is closed', async (t) => {
  const chunk = Buffer.alloc(64 * 1024, 'a');
  let written = 0;
  const server = await serve(t, (req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    const limit = req.url === '/20mb' ? 20 * 1000 * 1000 : Infinity;
    const pump = () => {
      while (written < limit) {
        written += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      res.end();
    };
    res.on('close', () => res.removeAllListeners('drain'));
    pump();
  });
  for (const path of ['/20mb', '/endless']) {
    written = 0;
    await assert.rejects(fetchSnapshot(`${server.origin}${path}`, { config: testConfig() }), isFetchError('too_large'));
    await server.allClosed();
    assert.ok(written < 20 * 1000 * 1000, `${path}: the server could not send everything`);
  }
});

test('a gzip bomb is stopped by the compression-ratio guard', async (t) => {
  const bomb = zlib.gzipSync(Buffer.alloc(50 * MiB, ' '));
  const nested = zlib.brotliCompressSync(bomb);
  const server = await serve(t, (req, res) =>
    req.url === '/nested'
      ? html(res, nested, { 'content-encoding': 'gzip, br' })
      : html(res, bomb, { 'content-encoding': 'gzip' }),
  );
  for (const path of ['/', '/nested']) {
    await assert.rejects(
      fetchSnapshot(`${server.origin}${path}`, { config: testConfig() }),
      isFetchError('too_large', 'The page expands more than 100 times when decompressed (a decompression bomb).'),
      path,
    );
  }
  await server.allClosed();
});

test('the whole redirect chain and body share one deadline', async (t) => {
  const server = await serve(t, async (req, res) => {
    if (req.url === '/slow-drip') {
      res.writeHead(200, { 'content-type': 'text/html' });
      const timer = setInterval(() => res.write('<p>drip</p>'), 50);
      res.on('close', () => clearInterval(timer));
      return;
    }
    if (req.url === '/no-answer') return; // never answers
    const hop = Number(/^\/slow-hop\/(\d)$/.exec(req.url ?? '')?.[1]);
    await sleep(300);
    if (hop > 0) return void res.writeHead(302, { location: `/slow-hop/${hop - 1}` }).end();
    html(res, PAGE);
  });
  const config = testConfig({ timeoutMs: 700 });
  for (const path of ['/slow-drip', '/no-answer', '/slow-hop/3']) {
    await assert.rejects(
      fetchSnapshot(`${server.origin}${path}`, { config }),
      isFetchError('timeout', 'The page did not answer within 0.7 seconds.'),
      path,
    );
  }
  await server.allClosed();
});

test('non-HTML types and non-2xx statuses are refused; HTML variants are accepted', async (t) => {
  const server = await serve(t, (req, res) => {
    const types: Record<string, string> = {
      '/png': 'image/png',
      '/json': 'application/json; charset=utf-8',
      '/text': 'text/plain',
      '/xhtml': 'application/xhtml+xml',
      '/upper': 'TEXT/HTML; Charset=UTF-8',
      '/garbage': 'not a mime type',
    };
    if (req.url === '/404') return void res.writeHead(404, { 'content-type': 'text/html' }).end('<p>gone');
    if (req.url === '/500') return void res.writeHead(500, { 'content-type': 'text/html' }).end('<p>oops');
    if (req.url === '/302-no-location') return void res.writeHead(302, { 'content-type': 'text/html' }).end('<p>');
    res.writeHead(200, { 'content-type': types[req.url ?? ''] ?? 'text/html' }).end(PAGE);
  });
  const config = testConfig();
  await assert.rejects(
    fetchSnapshot(`${server.origin}/png`, { config }),
    isFetchError('not_html', 'The address is not HTML (image/png).'),
  );
  await assert.rejects(fetchSnapshot(`${server.origin}/json`, { config }), isFetchError('not_html', /application\/json/));
  await assert.rejects(fetchSnapshot(`${server.origin}/text`, { config }), isFetchError('not_html'));
  await assert.rejects(fetchSnapshot(`${server.origin}/garbage`, { config }), isFetchError('not_html'));
  await assert.rejects(
    fetchSnapshot(`${server.origin}/404`, { config }),
    isFetchError('bad_status', 'The page answered with HTTP status 404.'),
  );
  await assert.rejects(fetchSnapshot(`${server.origin}/500`, { config }), isFetchError('bad_status', /500/));
  await assert.rejects(fetchSnapshot(`${server.origin}/302-no-location`, { config }), isFetchError('bad_status', /302/));
  for (const path of ['/xhtml', '/upper']) {
    const { snapshot } = await fetchSnapshot(`${server.origin}${path}`, { config });
    assert.equal(snapshot.html, PAGE, path);
  }
});

test('without a Content-Type the body decides: accepted when it starts with "<"', async (t) => {
  const server = await serve(t, (req, res) => {
    const bodies: Record<string, Buffer> = {
      '/markup': Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(' \n\t<!doctype html><p>Hi</p>')]),
      '/text': Buffer.from('Just some text, not markup.'),
    };
    res.removeHeader('content-type');
    res.writeHead(200).end(bodies[req.url ?? ''] ?? '');
  });
  const { snapshot } = await fetchSnapshot(`${server.origin}/markup`, { config: testConfig() });
  assert.equal(snapshot.html, ' \n\t<!doctype html><p>Hi</p>');
  assert.equal(snapshot.headers['content-type'], undefined);
  await assert.rejects(
    fetchSnapshot(`${server.origin}/text`, { config: testConfig() }),
    isFetchError('not_html', 'The address is not HTML (no Content-Type).'),
  );
});

test('charset decoding: BOM > header > meta prescan > UTF-8, with WHATWG labels', async (t) => {
  const latin = (s: string) => Buffer.from(s, 'latin1');
  const cases: Record<string, { type: string; body: Buffer; html: string; charset: string }> = {
    'windows-1252 header': {
      type: 'text/html; charset=windows-1252',
      body: Buffer.concat([latin('<p>'), Buffer.from([0x80, 0xe9]), latin('</p>')]),
      html: '<p>€é</p>',
      charset: 'windows-1252',
    },
    'iso-8859-1 label means windows-1252': {
      type: 'text/html; charset=ISO-8859-1',
      body: Buffer.concat([latin('<p>'), Buffer.from([0x80]), latin('</p>')]),
      html: '<p>€</p>',
      charset: 'windows-1252',
    },
    'shift_jis from meta charset': {
      type: 'text/html',
      body: Buffer.concat([
        latin('<meta charset="Shift_JIS"><p>'),
        Buffer.from([0x93, 0xfa, 0x96, 0x7b, 0x8c, 0xea]),
        latin('</p>'),
      ]),
      html: '<meta charset="Shift_JIS"><p>日本語</p>',
      charset: 'shift_jis',
    },
    'gb2312 label from meta http-equiv means gbk': {
      type: 'text/html',
      body: Buffer.concat([
        latin('<meta http-equiv="Content-Type" content="text/html; charset=gb2312"><p>'),
        Buffer.from([0xd6, 0xd0, 0xce, 0xc4]),
        latin('</p>'),
      ]),
      html: '<meta http-equiv="Content-Type" content="text/html; charset=gb2312"><p>中文</p>',
      charset: 'gbk',
    },
    'a UTF-16LE BOM beats the header': {
      type: 'text/html; charset=windows-1252',
      body: Buffer.from('\ufeff<p>hé 日本</p>', 'utf16le'),
      html: '<p>hé 日本</p>',
      charset: 'utf-16le',
    },
    'the header beats a contradicting meta': {
      type: 'text/html; charset=utf-8',
      body: Buffer.from('<meta charset="windows-1252"><p>é</p>', 'utf8'),
      html: '<meta charset="windows-1252"><p>é</p>',
      charset: 'utf-8',
    },
    'an unknown header label falls through to the meta': {
      type: 'text/html; charset=no-such-charset',
      body: Buffer.concat([latin('<meta charset="windows-1252"><p>'), Buffer.from([0xe9]), latin('</p>')]),
      html: '<meta charset="windows-1252"><p>é</p>',
      charset: 'windows-1252',
    },
    'a utf-16 meta label means UTF-8': {
      type: 'text/html',
      body: Buffer.from('<meta charset="utf-16"><p>é</p>', 'utf8'),
      html: '<meta charset="utf-16"><p>é</p>',
      charset: 'utf-8',
    },
    'a meta past the first 1024 bytes is not seen': {
      type: 'text/html',
      body: Buffer.concat([
        latin(`<!--${'x'.repeat(1100)}--><meta charset="windows-1252"><p>`),
        Buffer.from([0xe9]),
        latin('</p>'),
      ]),
      html: `<!--${'x'.repeat(1100)}--><meta charset="windows-1252"><p>\ufffd</p>`,
      charset: 'utf-8',
    },
    'no declaration: UTF-8, bad bytes become U+FFFD': {
      type: 'text/html',
      body: Buffer.concat([Buffer.from('<p>é', 'utf8'), Buffer.from([0xff, 0xfe, 0x41])]),
      html: '<p>é\ufffd\ufffdA',
      charset: 'utf-8',
    },
  };
  const names = Object.keys(cases);
  const server = await serve(t, (req, res) => {
    const c = cases[names[Number((req.url ?? '').slice(1))]];
    if (!c) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': c.type }).end(c.body);
  });
  for (const [index, name] of names.entries()) {
    const { snapshot } = await fetchSnapshot(`${server.origin}/${index}`, { config: testConfig() });
    assert.equal(snapshot.html, cases[name].html, name);
    assert.equal(snapshot.charsetUsed, cases[name].charset, name);
  }
});

test('DNS failures, refused connections and TLS errors have their own reasons', async (t) => {
  const config = testConfig();
  const notFound = Object.assign(new Error('getaddrinfo ENOTFOUND nowhere.test'), { code: 'ENOTFOUND' });
  await assert.rejects(
    fetchSnapshot('http://nowhere.test/', { config, resolver: async () => Promise.reject(notFound) }),
    isFetchError('dns', 'The address could not be resolved (DNS).'),
  );
  await assert.rejects(fetchSnapshot('http://empty.test/', { config, resolver: async () => [] }), isFetchError('dns'));

  const closed = await startServer(() => {});
  const closedPort = closed.port;
  await closed.close();
  await assert.rejects(
    fetchSnapshot(`http://127.0.0.1:${closedPort}/`, { config }),
    isFetchError('refused', 'The server refused the connection.'),
  );

  const tls = await startTlsServer((_req, res) => html(res, PAGE));
  t.after(() => tls.close());
  await assert.rejects(fetchSnapshot(tls.origin, { config }), isFetchError('tls'));
  assert.equal(tls.requests.length, 0, 'no request went over the untrusted connection');
});

test('a caller abort mid-body rejects with its reason and closes the connection', async (t) => {
  let requested!: () => void;
  const bodyStarted = new Promise<void>((resolve) => (requested = resolve));
  const server = await serve(t, (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.write('<p>first part');
    requested();
  });
  const controller = new AbortController();
  const reason = new Error('the client went away');
  const pending = fetchSnapshot(server.origin, { config: testConfig(), signal: controller.signal });
  await bodyStarted;
  assert.equal(server.openSockets.size >= 1, true);
  controller.abort(reason);
  await assert.rejects(pending, (error) => error === reason);
  await server.allClosed();
  assert.equal(server.openSockets.size, 0);
});

test('an already aborted signal makes no connection', async (t) => {
  const server = await serve(t, (_req, res) => html(res, PAGE));
  const controller = new AbortController();
  controller.abort();
  await assert.rejects(fetchSnapshot(server.origin, { config: testConfig(), signal: controller.signal }), {
    name: 'AbortError',
  });
  assert.equal(server.connections, 0);
});

test('load_time covers the wait for the last byte; page_size is the de-chunked body', async (t) => {
  const server = await serve(t, async (req, res) => {
    if (req.url !== '/') return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html' }); // no Content-Length: chunked
    res.write('<p>part one</p>');
    await sleep(250);
    res.end('<p>part two</p>');
  });
  const { snapshot } = await fetchSnapshot(server.origin, { config: testConfig() });
  assert.equal(snapshot.html, '<p>part one</p><p>part two</p>');
  assert.equal(snapshot.wireBytes, 30);
  assert.ok(snapshot.loadTime >= 0.25, `load_time ${snapshot.loadTime} includes the server's 250 ms pause`);
});

test('every connection is closed once the analysis has finished', async (t) => {
  const server = await serve(t, (req, res) => (req.url === '/' ? html(res, PAGE) : res.writeHead(404).end()));
  const { snapshot } = await fetchSnapshot(server.origin, { config: testConfig() });
  assert.equal(snapshot.status, 200);
  assert.ok(server.connections >= 1);
  await server.allClosed();
  assert.equal(server.openSockets.size, 0);
});
