import assert from 'node:assert/strict';
import { test } from 'node:test';
import { makeSnapshot } from '../../src/analysis/snapshot.js';

test('makeSnapshot: defaults of a plain successful fetch', () => {
  assert.deepEqual(makeSnapshot({ html: '<p>é</p>' }), {
    requestedUrl: 'http://example.test/',
    finalUrl: 'http://example.test/',
    status: 200,
    headers: { 'content-type': ['text/html; charset=utf-8'] },
    wireBytes: 9,
    html: '<p>é</p>',
    charsetUsed: 'utf-8',
    loadTime: 0.1,
    robots: { url: 'http://example.test/robots.txt', status: 404, body: '' },
    notFoundProbe: { url: 'http://example.test/00000000000000000000000000000000-404-check', status: 404 },
    faviconProbe: null,
    sitemapProbe: null,
  });
});

test('makeSnapshot: side fetches follow the final origin, port kept; given fields win', () => {
  const s = makeSnapshot({ html: '', finalUrl: 'https://h.test:8443/a/b', wireBytes: 5, status: 203 });
  assert.equal(s.requestedUrl, 'https://h.test:8443/a/b');
  assert.deepEqual(s.robots, { url: 'https://h.test:8443/robots.txt', status: 404, body: '' });
  assert.equal(s.notFoundProbe.url, 'https://h.test:8443/00000000000000000000000000000000-404-check');
  assert.equal(s.wireBytes, 5);
  assert.equal(s.status, 203);
});
