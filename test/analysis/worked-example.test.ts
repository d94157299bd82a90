// docs/checks.md §6, the worked example, entry by entry.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { runChecks } from '../../src/analysis/run.js';
import { makeSnapshot } from '../../src/analysis/snapshot.js';

const html = readFileSync(new URL('../fixtures/pages/worked-example.html', import.meta.url), 'utf8');
const { results } = runChecks(
  makeSnapshot({
    html,
    finalUrl: 'http://example.test/blue-widgets',
    headers: { 'content-type': ['text/html; charset=utf-8'], server: ['nginx/1.24.0'] },
  }),
);

const same = (actual: unknown, expected: unknown) => {
  assert.deepStrictEqual(actual, expected);
  assert.equal(JSON.stringify(actual), JSON.stringify(expected));
};

test('§6: the eight entries given in full', () => {
  same(results.title, { passed: true, importance: 'high', value: 'Blue Widgets for Sale | Example Shop' });
  same(results.headings, { passed: true, importance: 'high', value: { h1: ['Blue widgets'] } });
  same(results.content_keywords, { passed: true, importance: 'high', value: ['blue', 'widgets'] });
  same(results.https_encryption, {
    passed: false,
    importance: 'high',
    value: 'http://example.test/blue-widgets',
    errors: { missing: 'https' },
  });
  same(results.image_format, {
    passed: false,
    importance: 'medium',
    value: ['AVIF', 'WebP'],
    errors: { bad_format: [{ url: 'http://example.test/img/widget.jpg', text: '' }] },
  });
  same(results.in_page_links, {
    passed: true,
    importance: 'medium',
    value: {
      Internals: [{ url: 'http://example.test/about', text: 'About us' }],
      Externals: [{ url: 'https://www.facebook.com/exampleshop', text: 'Facebook' }],
    },
  });
  same(results.unsafe_cross_origin_links, {
    passed: false,
    importance: 'medium',
    value: null,
    errors: { failed: ['https://www.facebook.com/exampleshop'] },
  });
  same(results.content_length, { passed: false, importance: 'low', value: 17, errors: { too_few: { min: '500' } } });
});

test('§6: the other results it names', () => {
  same(results.inline_css, { passed: true, importance: 'low', value: null });
  same(results.defer_javascript, {
    passed: false,
    importance: 'low',
    value: null,
    errors: { missing: ['http://example.test/js/app.js'] },
  });
  const image = [{ url: 'http://example.test/img/widget.jpg', text: '' }];
  same(results.image_keywords, { passed: false, importance: 'high', value: image, errors: { missing: image } });
  same(results.plaintext_email, { passed: false, importance: 'low', value: null, errors: { failed: ['hello@acme.test'] } });
  same(results.server_signature, { passed: false, importance: 'medium', value: ['nginx/1.24.0'], errors: { failed: null } });
  same(results.social, {
    passed: true,
    importance: 'low',
    value: { Facebook: [{ url: 'https://www.facebook.com/exampleshop', text: 'Facebook' }] },
  });
  same(results.favicon, { passed: true, importance: 'medium', value: 'http://example.test/icon.png' });
  same(results.charset, { passed: true, importance: 'medium', value: 'utf-8' });
  same(results.seo_friendly_url, { passed: true, importance: 'high', value: 'http://example.test/blue-widgets' });
});
