// The shared artifacts: regions, visible text, element texts and URL resolution (docs/checks.md §4).
// Artifacts are plain data: a check's test may hand it a literal of this shape.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildArtifacts } from '../../src/analysis/artifacts/index.js';
import { MAX_TREE_DEPTH } from '../../src/analysis/artifacts/tree.js';

const at = 'http://example.test/dir/page.html';
const build = (html: string, url = at) => buildArtifacts(html, url);

test('visible text: block elements are spaced, inline ones are not', () => {
  assert.equal(build('<body><p>one</p><p>two</p><b>un</b>der<br>x<div>y</div></body>').text.visible, 'one two under x y');
});

test('visible text: exactly the inline elements of §4.2 add no spaces', () => {
  const inline = 'a abbr b bdi bdo cite code data del dfn em font i ins kbd mark q s samp small span strong sub sup time u var';
  const glued = inline
    .split(' ')
    .map((tag) => `<${tag}>x</${tag}>`)
    .join('');
  assert.equal(build(`<body>${glued}</body>`).text.visible, 'x'.repeat(27)); // the 27 tags, one word
  const spaced = ['p', 'div', 'li', 'label', 'button', 'td', 'img', 'wbr', 'br', 'h1', 'section', 'blockquote'];
  assert.equal(
    build(`<body>${spaced.map((tag) => `<${tag}>x</${tag}>`).join('')}</body>`).text.visible,
    Array(12).fill('x').join(' '),
  );
});

test('visible text: script, style, noscript, template and svg subtrees are skipped', () => {
  const a = build(
    '<body>a<script>s</script><style>t</style><noscript><p>n</p></noscript><template><p>t</p></template><svg><text>v</text></svg>b</body>',
  );
  assert.equal(a.text.visible, 'ab');
});

test('visible text: whitespace runs (U+00A0 and U+0085 included) collapse, trimmed', () => {
  assert.equal(build('<body>\n  a \u00a0\u0085 b\t\n</body>').text.visible, 'a b');
});

test('visible text: the body region only, or the document minus the head', () => {
  assert.equal(build('<html><head><title>T</title></head><body>B</body><p>after</p></html>').text.visible, 'B');
  assert.equal(build('<html><head><title>T</title></head><p>no body</p></html>').text.visible, 'no body');
  assert.equal(build('before<head><title>T</title></head>after').text.visible, 'before after');
  assert.equal(build('<p>no head, no body</p>').text.visible, 'no head, no body');
});

test('regions: the head as a browser builds it (a second <head> is ignored, so its title is head content); the first <body>', () => {
  const a = build('<head><title>One</title></head><head><title>Two</title></head><body>x</body><body>y</body>');
  assert.deepEqual(a.head.titles, ['One', 'Two']);
  assert.equal(a.text.visible, 'x');
});

test('regions: without a <head>, head lookups see what stands before the body (head-region.test.ts has the rule)', () => {
  const a = build(
    '<meta name="description" content="d"><link rel="icon" href="i.png"><title>T</title><body><meta name="late"><title>Late</title></body>',
  );
  assert.deepEqual(a.head.titles, ['T']);
  assert.deepEqual(
    a.head.metas.map((m) => m.name),
    ['description'],
  );
  assert.equal(a.head.links.length, 1);
});

test('the parser adds no implied elements and keeps noscript/template content as elements', () => {
  const a = build('<noscript><img src="a.png"></noscript><template><a href="/t">t</a></template>');
  assert.equal(a.document.elements, 4);
  assert.equal(a.images.length, 1);
  assert.equal(a.links.length, 1);
  assert.equal(Object.hasOwn(a.document.tagCounts, 'html'), false);
});

test('element text is collapsed descendant text; JSON-LD stays raw', () => {
  const a = build('<a href="/x"> A <i>b</i>\n c </a><script type="application/ld+json"> {"a": 1}\n</script>');
  assert.equal(a.links[0].text, 'A b c');
  assert.deepEqual(a.structuredData.sources, [{ kind: 'json-ld', text: ' {"a": 1}\n' }]);
});

test('an element and the elements inside it each collect their text', () => {
  const a = build('<h1>Title <a href="/x">link</a> end</h1>');
  assert.equal(a.headings[0].text, 'Title link end');
  assert.equal(a.links[0].text, 'link');
});

test('an unfinished tag at the end of input does not upset the element stack', () => {
  const a = build('<body><h1>Head<span class="x');
  assert.equal(a.headings[0].text, 'Head');
  assert.equal(a.text.visible, 'Head');
});

/** The resolved URL of each link of a page made of links to `hrefs`. */
function resolved(hrefs: string[], url = at, head = '') {
  return build(`${head}${hrefs.map((h) => `<a href="${h}">x</a>`).join('')}`, url).links.map((l) => l.resolved);
}

test('resolution: against the final URL, directories and ports kept, fragments dropped', () => {
  const [png, cdn, bad, webp, www] = resolved(
    ['x.png#f', '//cdn.example/y', 'http://[bad', '/img/x.webp?w=1#f', 'https://WWW.Cdn.example/x#y'],
    'http://example.test:8080/dir/page',
  );
  assert.equal(png.url, 'http://example.test:8080/dir/x.png');
  assert.equal(cdn.url, 'http://cdn.example/y');
  assert.equal(bad.url, 'http://[bad');
  assert.deepEqual(bad, { url: 'http://[bad', scheme: null, host: '', internal: false });
  assert.deepEqual(webp, {
    url: 'http://example.test:8080/img/x.webp?w=1',
    scheme: 'http:',
    host: 'example.test',
    internal: true,
  });
  assert.equal(www.host, 'cdn.example');
  // A resolved path gives an image its format: the query is no part of it.
  assert.equal(build('<img src="/img/x.webp?w=1#f">').images[0].format, 'webp');
});

test('resolution: the first <base href> that resolves', () => {
  const [x] = resolved(
    ['x'],
    at,
    '<base target="_top"><base href="http://[bad"><base href="/base/"><base href="https://ignored.example/">',
  );
  assert.equal(x.url, 'http://example.test/base/x');
});

test('internal: http(s), same host ignoring case, one www. and the port', () => {
  const internal = (u: string) => resolved([u], 'https://www.Example.test/')[0].internal;
  assert.equal(internal('http://example.test:81/a'), true);
  assert.equal(internal('https://WWW.example.test/'), true);
  assert.equal(internal('https://www.www.example.test/'), false);
  assert.equal(internal('https://sub.example.test/'), false);
  assert.equal(internal('ftp://example.test/'), false);
});

test('title words: ≥ 3 code points, no stop words, deduplicated, title order', () => {
  const a = build('<title>The Widgets for SALE, widgets and more: a to z of Ünïcode</title>');
  assert.deepEqual(a.head.titleWords, ['widgets', 'sale', 'ünïcode']);
});

test('the tree is at most 512 deep: a deeper element becomes a sibling, as in Chromium', () => {
  assert.equal(MAX_TREE_DEPTH, 512);
  const a = build(`<body>${'<div>'.repeat(600)}x</body>`);
  assert.equal(a.document.elements, 601);
  assert.equal(a.text.visible, 'x');
  // 600 unclosed links: each ends where the next opens (as in a browser), so holds only its own text
  const links = build(`<body>${Array.from({ length: 600 }, (_, i) => `<a href="/${i}">${i}`).join('')}</body>`).links;
  assert.equal(links.length, 600);
  assert.deepEqual(
    links.map((l) => l.text),
    Array.from({ length: 600 }, (_, i) => String(i)),
  );
});

test('heading and title texts are read up to 32 KiB, link texts one code point past the report cap; JSON-LD whole', () => {
  const long = 'a'.repeat(40000);
  const a = build(
    `<head><title>${long}</title></head><body><a href="/x">${long}</a><h1>${long}</h1><script type="application/ld+json">"${long}"</script></body>`,
  );
  assert.equal(a.head.titles[0].length, 32768);
  assert.equal(a.headings[0].text.length, 32768);
  assert.equal(a.links[0].text, 'a'.repeat(2049));
  assert.equal(a.structuredData.sources[0].kind === 'json-ld' && a.structuredData.sources[0].text.length, 40002);
});

test('a link text is read past whitespace until it has 2,049 code points, whole code points only', () => {
  const spaced = `<a href="/x">${'\n      word'.repeat(1000)}</a>`; // 11,000 raw characters, 4,999 collapsed
  assert.equal(build(spaced).links[0].text, Array(1000).fill('word').join(' ').slice(0, 2049));
  const astral = build(`<a href="/x">${'😀'.repeat(3000)}</a>`).links[0].text;
  assert.equal(astral, '😀'.repeat(2049));
  assert.equal(build(`<a href="/x">${' '.repeat(50000)}end</a>`).links[0].text, 'end');
});

test("a link ends where the next <a> opens, as browsers close it: text after the inner link is no one's", () => {
  const a = build(
    '<p><a href="/1">one <b>bold</b> <a href="/2">two</a> after</a> <a href="/3">three</a></p><h2><a href="/4">in</a> heading</h2>',
  );
  assert.deepEqual(
    a.links.map((l) => l.text),
    ['one bold', 'two', 'three', 'in'],
  );
  assert.equal(a.headings[0].text, 'in heading');
  // an <a> without href ends the open link too
  assert.deepEqual(
    build('<a href="/1">one<a name="x">two</a>three</a>').links.map((l) => l.text),
    ['one'],
  );
});

test('100,000 unclosed links: every text is its own', () => {
  const html = `<body>${Array.from({ length: 100_000 }, (_, i) => `<a href="/p/${i}">Link ${i} `).join('')}</body>`;
  const links = build(html).links;
  assert.equal(links.length, 100_000);
  assert.equal(links[0].text, 'Link 0');
  assert.equal(links[99_999].text, 'Link 99999');
  assert.equal(
    links.reduce((n, l) => n + l.text.length, 0),
    links.reduce((n, _, i) => n + `Link ${i}`.length, 0),
  );
});
