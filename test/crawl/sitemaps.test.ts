// Sitemap bodies to URLs: XML (plain, gzipped, namespaced, index) and plain text, and the
// hostile ones (bombs, entity expansion, malformed XML) coming back `invalid`, never throwing.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { type ParsedSitemap, parseSitemap, SITEMAP_MAX_BYTES, SITEMAP_MAX_URLS } from '../../src/crawl/sitemaps.js';

const bytes = (text: string) => new TextEncoder().encode(text);
const parse = (text: string) => parseSitemap(bytes(text));
const NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';

function urlset(...locs: string[]): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="${NS}">\n${locs
    .map((loc) => `  <url><loc>${loc}</loc><lastmod>2024-01-01</lastmod><priority>0.5</priority></url>`)
    .join('\n')}\n</urlset>\n`;
}

function assertInvalid(result: ParsedSitemap, reason: RegExp): void {
  assert.equal(result.kind, 'invalid', JSON.stringify(result).slice(0, 200));
  if (result.kind === 'invalid') assert.match(result.reason, reason);
}

test('limits are the sitemaps.org ones', () => {
  assert.equal(SITEMAP_MAX_BYTES, 50 * 1024 * 1024);
  assert.equal(SITEMAP_MAX_URLS, 50_000);
});

test('a urlset: every <loc> in order, trimmed', () => {
  assert.deepEqual(parse(urlset('https://a.test/', '  https://a.test/b\n ', 'https://a.test/c?x=1')), {
    kind: 'urlset',
    urls: ['https://a.test/', 'https://a.test/b', 'https://a.test/c?x=1'],
  });
});

test('a single <url> is a one-item list, and an empty urlset an empty one', () => {
  assert.deepEqual(parse(`<urlset><url><loc>https://a.test/only</loc></url></urlset>`), {
    kind: 'urlset',
    urls: ['https://a.test/only'],
  });
  assert.deepEqual(parse(`<urlset xmlns="${NS}"/>`), { kind: 'urlset', urls: [] });
});

test('a sitemap index lists its sitemaps', () => {
  const body = `<?xml version="1.0"?><sitemapindex xmlns="${NS}">
    <sitemap><loc>https://a.test/s1.xml</loc><lastmod>2024-01-01</lastmod></sitemap>
    <sitemap><loc>https://a.test/s2.xml.gz</loc></sitemap>
  </sitemapindex>`;
  assert.deepEqual(parse(body), { kind: 'index', sitemaps: ['https://a.test/s1.xml', 'https://a.test/s2.xml.gz'] });
  assert.deepEqual(parse('<sitemapindex><sitemap><loc>https://a.test/one.xml</loc></sitemap></sitemapindex>'), {
    kind: 'index',
    sitemaps: ['https://a.test/one.xml'],
  });
});

test('namespace prefixes do not matter', () => {
  const body = `<sm:urlset xmlns:sm="${NS}" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
    <sm:url><sm:loc>https://a.test/p</sm:loc><image:image><image:loc>https://a.test/i.png</image:loc></image:image></sm:url>
  </sm:urlset>`;
  assert.deepEqual(parse(body), { kind: 'urlset', urls: ['https://a.test/p'] });
  assert.deepEqual(
    parse(`<x:sitemapindex xmlns:x="${NS}"><x:sitemap><x:loc>https://a.test/s.xml</x:loc></x:sitemap></x:sitemapindex>`),
    {
      kind: 'index',
      sitemaps: ['https://a.test/s.xml'],
    },
  );
});

test('a BOM, an XML declaration, comments and a stylesheet instruction are fine', () => {
  const body = `\uFEFF<?xml version="1.0" encoding="UTF-8"?>\n<?xml-stylesheet type="text/xsl" href="/sitemap.xsl"?>\n<!-- generated -->\n${urlset('https://a.test/').replace(/^<\?xml[^>]*>\n/, '')}`;
  assert.deepEqual(parse(body), { kind: 'urlset', urls: ['https://a.test/'] });
});

test('entities and character references are decoded, CDATA is taken literally', () => {
  assert.deepEqual(parse(urlset('https://a.test/?a=1&amp;b=2', 'https://a.test/&#x41;&#66;&apos;&quot;&lt;&gt;')), {
    kind: 'urlset',
    urls: ['https://a.test/?a=1&b=2', `https://a.test/AB'"<>`],
  });
  assert.deepEqual(parse(urlset('<![CDATA[ https://a.test/?a=1&b=2&amp; ]]>')), {
    kind: 'urlset',
    urls: ['https://a.test/?a=1&b=2&amp;'],
  });
});

test('a character reference to no character stays as written', () => {
  assert.deepEqual(parse(urlset('https://a.test/&#0;&#xD800;&#1114112;')), {
    kind: 'urlset',
    urls: ['https://a.test/&#0;&#xD800;&#1114112;'],
  });
});

test('blank locs are dropped, duplicates kept once in first-seen order', () => {
  const body = urlset(
    'https://a.test/b',
    '',
    '   ',
    'https://a.test/a',
    'https://a.test/b',
    'https://a.test/c',
    'https://a.test/a',
  );
  assert.deepEqual(parse(body), { kind: 'urlset', urls: ['https://a.test/b', 'https://a.test/a', 'https://a.test/c'] });
});

test('a url without a loc is skipped, and a numeric-looking loc stays text', () => {
  const body = `<urlset><url><lastmod>2024</lastmod></url><url><loc>0012</loc></url><url><loc>https://a.test/</loc></url></urlset>`;
  assert.deepEqual(parse(body), { kind: 'urlset', urls: ['0012', 'https://a.test/'] });
});

test('gzip is recognised by its magic bytes', () => {
  const body = gzipSync(bytes(urlset('https://a.test/z')));
  assert.deepEqual(parseSitemap(body), { kind: 'urlset', urls: ['https://a.test/z'] });
  assert.deepEqual(parseSitemap(new Uint8Array(body)), { kind: 'urlset', urls: ['https://a.test/z'] });
});

test('a gzip bomb is invalid', () => {
  // 64 gzip members of 1 MiB of spaces each: 64 MiB once inflated, a few KiB on the wire.
  const member = gzipSync(Buffer.alloc(1024 * 1024, 0x20));
  const bomb = Buffer.concat(Array.from({ length: 64 }, () => member));
  assert.ok(bomb.length < 128 * 1024);
  assertInvalid(parseSitemap(bomb), /larger than 50 MiB/);
  // Below the cap, the members of a multi-member gzip are all read.
  const parts = [gzipSync(bytes(`<urlset><url><loc>https://a.test/1</loc></url>`)), gzipSync(bytes('</urlset>'))];
  assert.deepEqual(parseSitemap(Buffer.concat(parts)), { kind: 'urlset', urls: ['https://a.test/1'] });
});

test('corrupt gzip is invalid', () => {
  const body = gzipSync(bytes(urlset('https://a.test/')));
  body[body.length - 6] ^= 0xff; // the CRC no longer matches
  assertInvalid(parseSitemap(body), /gzip/);
  assertInvalid(parseSitemap(new Uint8Array([0x1f, 0x8b, 0x08])), /gzip/);
});

test('an uncompressed body over the cap is invalid', () => {
  const body = new Uint8Array(SITEMAP_MAX_BYTES + 1).fill(0x20);
  body[0] = 0x3c; // '<'
  assertInvalid(parseSitemap(body), /larger than 50 MiB/);
});

test('at most SITEMAP_MAX_URLS URLs are kept, in XML and in plain text', () => {
  const locs = Array.from({ length: SITEMAP_MAX_URLS + 5 }, (_, i) => `https://a.test/${i}`);
  const xml = parse(`<urlset>${locs.map((loc) => `<url><loc>${loc}</loc></url>`).join('')}</urlset>`);
  const text = parse(locs.join('\n'));
  for (const result of [xml, text]) {
    assert.equal(result.kind, 'urlset');
    if (result.kind !== 'urlset') return;
    assert.equal(result.urls.length, SITEMAP_MAX_URLS);
    assert.equal(result.urls.at(-1), `https://a.test/${SITEMAP_MAX_URLS - 1}`);
  }
});

test('DOCTYPE entities are never expanded: billion laughs stays literal text', () => {
  const levels = Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i === 0 ? '' : i};`.repeat(10)}">`);
  const body = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">${levels.join('')}]>${urlset('https://a.test/&lol9;').replace(/^<\?xml[^>]*>/, '')}`;
  assert.deepEqual(parse(body), { kind: 'urlset', urls: ['https://a.test/&lol9;'] });
  // A flat entity is not expanded either.
  assert.deepEqual(parse(`<!DOCTYPE u [<!ENTITY host "evil.test">]><urlset><url><loc>https://&host;/</loc></url></urlset>`), {
    kind: 'urlset',
    urls: ['https://&host;/'],
  });
});

test('an external entity is not fetched or expanded', () => {
  const body = `<!DOCTYPE u [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><urlset><url><loc>&xxe;</loc></url></urlset>`;
  const result = parse(body);
  assert.ok(result.kind === 'invalid' || (result.kind === 'urlset' && result.urls.every((u) => !u.includes('root:'))));
});

test('malformed XML is invalid', () => {
  assertInvalid(parse('<urlset><url><loc>https://a.test/</loc></url>'), /malformed XML.*urlset/);
  assertInvalid(parse('<urlset><url><loc>https://a.test/</lo></url></urlset>'), /malformed XML/);
  assertInvalid(parse('<urlset><url><loc>https://a.test/?a=1&b=2</loc></url></urlset>'), /malformed XML/);
  assertInvalid(parse('<<<>>>'), /malformed XML/);
  assertInvalid(parse('<urlset><__proto__><loc>x</loc></__proto__></urlset>'), /malformed XML/);
});

test('other roots are invalid: HTML, RSS, two roots', () => {
  assertInvalid(parse('<html><body><a href="https://a.test/">x</a></body></html>'), /unknown root element <html>/);
  assertInvalid(parse('<rss version="2.0"><channel><link>https://a.test/</link></channel></rss>'), /<rss>/);
  assertInvalid(parse('<urlset></urlset><urlset></urlset>'), /root/);
  assertInvalid(parse('<urlset></urlset><sitemapindex></sitemapindex>'), /root/);
});

test('plain text: one absolute http(s) URL a line, the rest skipped', () => {
  const body =
    '\uFEFF\n https://a.test/one \r\nhttps://a.test/two\r\n\nnot a url\n/relative\nftp://a.test/f\nmailto:x@a.test\nhttp://a.test/three\nhttps://a.test/one\n';
  assert.deepEqual(parse(body), {
    kind: 'urlset',
    urls: ['https://a.test/one', 'https://a.test/two', 'http://a.test/three'],
  });
});

test('plain text with no URL, an empty body and binary junk are invalid', () => {
  assertInvalid(parse('hello\nworld\n'), /neither XML nor a list of URLs/);
  assertInvalid(parse('{"urls": ["https://a.test/"]}'), /neither/);
  assertInvalid(parse(''), /empty/);
  assertInvalid(parse(' \n\t\uFEFF'), /empty|neither/);
  assertInvalid(parseSitemap(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0xff])), /neither/);
});

test('never throws, whatever the bytes', () => {
  const fragments = fc.constantFrom(
    '<urlset>',
    '</urlset>',
    '<url>',
    '</url>',
    '<loc>',
    '</loc>',
    '<sitemapindex>',
    '<![CDATA[',
    ']]>',
    '<!DOCTYPE x [<!ENTITY a "b">]>',
    '&amp;',
    '&a;',
    '&#x0;',
    'https://a.test/',
    '\n',
    '<?xml version="1.0"?>',
    '<!--',
    '-->',
    '<sm:loc xmlns:sm="x">',
    '<__proto__>',
    '<constructor>',
  );
  const text = fc.array(fc.oneof(fragments, fc.string({ maxLength: 8 })), { maxLength: 20 }).map((parts) => parts.join(''));
  const body = fc.oneof(
    text.map(bytes),
    text.map((t) => new Uint8Array(gzipSync(bytes(t)))),
    fc.uint8Array({ maxLength: 64 }),
  );
  fc.assert(
    fc.property(body, (b) => {
      const result = parseSitemap(b);
      assert.ok(['urlset', 'index', 'invalid'].includes(result.kind));
    }),
    { numRuns: 500 },
  );
});
