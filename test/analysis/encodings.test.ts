// Pages in legacy encodings, decoded by the fetch layer's decoder (docs/checks.md §2 "Decoding"),
// then analysed. The checks see only the decoded text plus `charsetUsed` and the headers.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { decodeHtml } from '../../src/analysis/fetch/charset.js';
import { runChecks } from '../../src/analysis/run.js';
import { makeSnapshot } from '../../src/analysis/snapshot.js';
import type { CheckResults } from '../../src/analysis/results.js';

function analyse(fixture: string, contentType = 'text/html'): CheckResults & { charsetUsed: string } {
  const bytes = readFileSync(new URL(`../fixtures/pages/${fixture}`, import.meta.url));
  const { html, charset } = decodeHtml(bytes, contentType);
  const snapshot = makeSnapshot({
    html,
    wireBytes: bytes.length,
    charsetUsed: charset,
    headers: { 'content-type': [contentType] },
  });
  return { ...runChecks(snapshot).results, charsetUsed: charset };
}

test('windows-1252 declared as iso-8859-1 by http-equiv', () => {
  const r = analyse('windows-1252.html');
  assert.equal(r.charsetUsed, 'windows-1252');
  assert.equal(r.title.value, 'Café crème – été');
  assert.equal(r.charset.value, 'iso-8859-1');
  assert.deepEqual(r.content_keywords.value, ['café', 'crème', 'été']);
  // un café crème en été s il vous plaît: the ’ separates s and il
  assert.equal(r.content_length.value, 9);
  assert.equal(r.language.value, 'fr');
  assert.equal(r.page_size.value, 197);
});

test('a header charset contradicting the meta one: decoded by the header, the meta declaration reported', () => {
  const r = analyse('windows-1252.html', 'text/html; charset=utf-8');
  assert.equal(r.charsetUsed, 'utf-8');
  assert.equal(r.title.value, 'Caf\ufffd cr\ufffdme \ufffd \ufffdt\ufffd');
  assert.equal(r.charset.value, 'iso-8859-1');
  assert.equal(r.title.passed, true);
});

test('shift_jis: unspaced Japanese gives long runs', () => {
  const r = analyse('shift_jis.html');
  assert.equal(r.charsetUsed, 'shift_jis');
  assert.equal(r.title.value, '日本語のページ');
  assert.equal(r.charset.value, 'shift_jis');
  assert.equal(r.content_length.value, 2);
  assert.deepEqual(r.content_keywords.errors, { missing: ['日本語のページ'] });
});

test('gbk declared as gb2312', () => {
  const r = analyse('gbk.html');
  assert.equal(r.charsetUsed, 'gbk');
  assert.equal(r.title.value, '中文网页');
  assert.equal(r.charset.value, 'gb2312');
  assert.equal(r.content_length.value, 1);
  assert.deepEqual(r.headings.value, []);
});

test('UTF-16 with a BOM and no declaration: decoded, but charset is missing', () => {
  const r = analyse('utf-16le-bom.html');
  assert.equal(r.charsetUsed, 'utf-16le');
  assert.equal(r.title.value, 'Grüße aus Köln');
  assert.deepEqual(r.content_keywords.value, ['grüße', 'aus', 'köln']);
  assert.deepEqual(r.charset, { passed: false, importance: 'medium', value: null, errors: { missing: null } });
  assert.equal(r.language.value, 'de');
});
