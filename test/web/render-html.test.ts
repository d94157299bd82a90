import { test } from 'node:test';
import assert from 'node:assert/strict';
import { escapeHtml, html, safeHref, SafeHtml } from '../../src/render/html.js';
import { formatWait, truncate } from '../../src/render/format.js';

test('escapeHtml escapes the five characters that matter in content and quoted attributes', () => {
  assert.equal(
    escapeHtml(`<a href="x" title='y'>&amp;</a>`),
    '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;',
  );
  assert.equal(escapeHtml('plain text, é, 😀'), 'plain text, é, 😀');
  assert.equal(escapeHtml('a\0b'), 'a\uFFFDb');
});

test('the html tag escapes interpolated values but not nested fragments', () => {
  const inner = html`<b>${'<i>'}</b>`;
  assert.ok(inner instanceof SafeHtml, 'a fragment');
  assert.equal(
    html`<p title="${'" onmouseover="x'}">${inner}${['<', html`<br>`]}${null}${undefined}${false}${0}</p>`.value,
    '<p title="&quot; onmouseover=&quot;x"><b>&lt;i&gt;</b>&lt;<br>0</p>',
  );
  // A string that looks like markup is still just text.
  assert.equal(html`${'<script>alert(1)</script>'}`.value, '&lt;script&gt;alert(1)&lt;/script&gt;');
});

test('safeHref accepts absolute http(s) URLs only, normalised', () => {
  assert.equal(safeHref('https://a.test/x'), 'https://a.test/x');
  assert.equal(safeHref('HTTP://A.test'), 'http://a.test/');
  assert.equal(safeHref('https://a.test/a b"<>'), 'https://a.test/a%20b%22%3C%3E');
  for (const bad of [
    'javascript:alert(1)',
    ' JavaScript:alert(1)',
    'java\nscript:alert(1)',
    'data:text/html,<script>',
    'vbscript:x',
    'mailto:a@b.test',
    '/relative',
    '//a.test/x',
    'ftp://a.test/',
    '',
    42,
    null,
    undefined,
    { href: 'https://a.test/' },
    `https://a.test/${'x'.repeat(5000)}`,
  ]) {
    assert.equal(safeHref(bad), null, String(bad).slice(0, 40));
  }
});

test('truncate counts code points and adds an ellipsis', () => {
  assert.equal(truncate('abcdef', 6), 'abcdef');
  assert.equal(truncate('abcdefg', 6), 'abcde…');
  assert.equal(truncate('😀😀😀', 3), '😀😀😀');
  assert.equal(truncate('😀😀😀😀', 3), '😀😀…');
});

test('formatWait rounds up to whole seconds, then minutes', () => {
  assert.equal(formatWait(1), '1 second');
  assert.equal(formatWait(0.2), '1 second');
  assert.equal(formatWait(30), '30 seconds');
  assert.equal(formatWait(60), '1 minute');
  assert.equal(formatWait(61), '2 minutes');
  assert.equal(formatWait(Number.NaN), '1 minute');
});
