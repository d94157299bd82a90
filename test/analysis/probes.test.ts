// The probe decisions the fetcher shares with the favicon and sitemap checks.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildArtifacts } from '../../src/analysis/artifacts/index.js';
import { declaredIconUrl, robotsSitemapUrls } from '../../src/analysis/probes.js';

const icon = (html: string) => declaredIconUrl(buildArtifacts(html, 'http://h.test/a/b'));

test('declaredIconUrl: the first head link with rel icon and an href, resolved', () => {
  assert.equal(
    icon('<head><link rel="apple-touch-icon" href="/t.png"><link rel="shortcut icon" href="f.ico"></head>'),
    'http://h.test/a/f.ico',
  );
  assert.equal(
    icon('<head><link rel="icon"><link rel="icon" href=" "><link rel="icon" href="/2.png"></head>'),
    'http://h.test/2.png',
  );
});

test('declaredIconUrl: null when only other icons, or the link is outside the head', () => {
  assert.equal(icon('<head><link rel="apple-touch-icon" href="/t.png"><link rel="mask-icon" href="/m.svg"></head>'), null);
  assert.equal(icon('<head></head><body><link rel="icon" href="/i.png"></body>'), null);
});

test('declaredIconUrl: null when an element closed the head before the link (§4.1 "Head")', () => {
  assert.equal(icon('<head><iframe src="/ad"></iframe><link rel="icon" href="/i.png"></head>'), null);
  assert.equal(
    icon('<head><noscript><iframe src="/ns"></iframe></noscript><link rel="icon" href="/i.png"></head>'),
    'http://h.test/i.png',
  );
});

test('robotsSitemapUrls: Sitemap lines resolved against the robots.txt URL', () => {
  assert.deepEqual(robotsSitemapUrls('User-agent: *\nSitemap: /sm.xml', 'https://h.test/robots.txt'), ['https://h.test/sm.xml']);
  assert.deepEqual(robotsSitemapUrls('User-agent: *\nDisallow: /', 'https://h.test/robots.txt'), []);
});
