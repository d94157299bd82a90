// The RFC 9309 pieces behind the robots and sitemap checks.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { blockingPattern, normalise, patternMatches, rulesFor, sitemapUrls } from '../../src/analysis/robots.js';

test('normalise: unreserved escapes decoded, others upper-cased, non-URI characters encoded', () => {
  assert.equal(normalise('/%7ejoe/%2f%41'), '/~joe/%2FA');
  assert.equal(normalise('/café dé'), '/caf%C3%A9%20d%C3%A9');
  assert.equal(normalise('/a|b^c'), '/a%7Cb%5Ec');
  assert.equal(normalise('/100%'), '/100%25');
  assert.equal(normalise('/*.pdf$'), '/*.pdf$');
  assert.equal(normalise('/😀'), '/%F0%9F%98%80');
});

test('patternMatches: prefix, * and a final $', () => {
  assert.equal(patternMatches('/a', '/abc'), true);
  assert.equal(patternMatches('/b', '/abc'), false);
  assert.equal(patternMatches('/*c', '/abc'), true);
  assert.equal(patternMatches('/a*b*d', '/abc'), false);
  assert.equal(patternMatches('/abc$', '/abc'), true);
  assert.equal(patternMatches('/ab$', '/abc'), false);
  assert.equal(patternMatches('/a$b', '/a$b'), true);
  assert.equal(patternMatches('*', ''), true);
});

test('patternMatches: many wildcards stay fast on a long path', () => {
  const path = '/' + 'a'.repeat(5000);
  assert.equal(patternMatches('/*a*a*a*a*a*a*a*a*b', path), false);
});

test('rulesFor: our groups merged, else *, else nothing', () => {
  const body = 'User-agent: *\nDisallow: /star\n\nUser-agent: RankscopeBot\nDisallow: /one\n\nUser-agent: rankscopebot\nAllow: /two';
  assert.deepEqual(rulesFor(body, 'RankscopeBot').map((r) => r.written), ['/one', '/two']);
  assert.deepEqual(rulesFor(body, 'OtherBot').map((r) => r.written), ['/star']);
  assert.deepEqual(rulesFor('User-agent: a\nDisallow: /', 'b'), []);
});

test('rulesFor: a group ends at the first user-agent line after a rule', () => {
  const body = 'User-agent: a\nUser-agent: b\nDisallow: /x\nUser-agent: c\nDisallow: /y';
  assert.deepEqual(rulesFor(body, 'b').map((r) => r.written), ['/x']);
  assert.deepEqual(rulesFor(body, 'c').map((r) => r.written), ['/y']);
});

test('blockingPattern: the deciding disallow as written', () => {
  const body = 'User-agent: *\nDisallow: /private/   # staff\nAllow: /private/open';
  assert.equal(blockingPattern(body, 'RankscopeBot', 'http://h.test/private/x'), '/private/');
  assert.equal(blockingPattern(body, 'RankscopeBot', 'http://h.test/private/open/1'), null);
});

test('sitemapUrls: any group or none, resolved, deduplicated, fragment dropped', () => {
  const body = 'Sitemap: /s1.xml\nUser-agent: *\nsitemap: https://other.test/s2.xml#x\nSITEMAP:/s1.xml\nSitemap:\nDisallow: /';
  assert.deepEqual(sitemapUrls(body, 'http://h.test:8080/robots.txt'), ['http://h.test:8080/s1.xml', 'https://other.test/s2.xml']);
});
