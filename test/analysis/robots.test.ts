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
  const path = `/${'a'.repeat(5000)}`;
  assert.equal(patternMatches('/*a*a*a*a*a*a*a*a*b', path), false);
});

test('rulesFor: our groups merged, else *, else nothing', () => {
  const body =
    'User-agent: *\nDisallow: /star\n\nUser-agent: RankscopeBot\nDisallow: /one\n\nUser-agent: rankscopebot\nAllow: /two';
  assert.deepEqual(
    rulesFor(body, 'RankscopeBot').map((r) => r.written),
    ['/one', '/two'],
  );
  assert.deepEqual(
    rulesFor(body, 'OtherBot').map((r) => r.written),
    ['/star'],
  );
  assert.deepEqual(rulesFor('User-agent: a\nDisallow: /', 'b'), []);
});

test('rulesFor: a group ends at the first user-agent line after a rule', () => {
  const body = 'User-agent: a\nUser-agent: b\nDisallow: /x\nUser-agent: c\nDisallow: /y';
  assert.deepEqual(
    rulesFor(body, 'b').map((r) => r.written),
    ['/x'],
  );
  assert.deepEqual(
    rulesFor(body, 'c').map((r) => r.written),
    ['/y'],
  );
});

test('blockingPattern: the deciding disallow as written', () => {
  const body = 'User-agent: *\nDisallow: /private/   # staff\nAllow: /private/open';
  assert.equal(blockingPattern(body, 'RankscopeBot', 'http://h.test/private/x'), '/private/');
  assert.equal(blockingPattern(body, 'RankscopeBot', 'http://h.test/private/open/1'), null);
});

test('sitemapUrls: any group or none, resolved, deduplicated, fragment dropped', () => {
  const body = 'Sitemap: /s1.xml\nUser-agent: *\nsitemap: https://other.test/s2.xml#x\nSITEMAP:/s1.xml\nSitemap:\nDisallow: /';
  assert.deepEqual(sitemapUrls(body, 'http://h.test:8080/robots.txt'), [
    'http://h.test:8080/s1.xml',
    'https://other.test/s2.xml',
  ]);
});

test('only space and tab are whitespace around fields and values; a BOM past the start is data', () => {
  const token = 'RankscopeBot';
  // A BOM opening the file is skipped.
  assert.equal(blockingPattern('\uFEFFUser-agent: *\nDisallow: /x', token, 'http://h.test/x'), '/x');
  assert.equal(blockingPattern('User-agent: *\n \tDisallow \t:\t /x \t\n', token, 'http://h.test/x'), '/x');
  // In a value it is part of the pattern, which then names a different path (or none).
  assert.equal(blockingPattern('User-agent: *\nDisallow: \uFEFF/private', token, 'http://h.test/private'), null);
  const bomAfter = 'User-agent: *\nDisallow: /private\uFEFF';
  assert.equal(blockingPattern(bomAfter, token, 'http://h.test/private/x'), null);
  assert.equal(blockingPattern(bomAfter, token, 'http://h.test/private%EF%BB%BF/x'), '/private\uFEFF');
  // Before a field name it makes an unknown field: no new group for RankscopeBot opens.
  const bomField = 'User-agent: *\nDisallow: /a\n\uFEFFUser-agent: RankscopeBot\nDisallow: /b';
  assert.deepEqual(
    rulesFor(bomField, token).map((r) => r.written),
    ['/a', '/b'],
  );
  assert.equal(blockingPattern(bomField, token, 'http://h.test/a'), '/a');
  // Other Unicode spaces are data as well.
  assert.equal(blockingPattern('User-agent: *\nDisallow:\u00A0/x', token, 'http://h.test/x'), null);
  assert.deepEqual(
    rulesFor('User-agent: *\n\u00A0Disallow: /x\nDisallow: /y\u2003', token).map((r) => r.written),
    ['/y\u2003'],
  );
});
