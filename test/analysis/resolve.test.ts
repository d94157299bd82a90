// The resolver's shortcut for plain URLs gives exactly what the URL parser gives.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { collect } from '../../src/analysis/artifacts/collect.js';
import { resolverFor } from '../../src/analysis/artifacts/resolve.js';

/** The repository's own fixture pages (links.html gathers links of every shape real pages carry). */
const FIXTURES = join('test', 'fixtures', 'pages');

const PAGES = [
  'http://example.test/dir/page.html',
  'https://www.example.test/',
  'http://127.0.0.1:8080/a/b?c#d',
  'https://xn--bcher-kva.example/x',
  'file:///tmp/x.html',
  'not a url',
];
const BASES: string[][] = [[], ['https://cdn.example/assets/'], ['/base/'], ['mailto:x@y.test'], ['http://[bad']];

function same(page: string, bases: string[], raws: string[]): void {
  const fast = resolverFor(page, bases);
  const slow = resolverFor(page, bases, { shortcut: false });
  for (const raw of raws)
    assert.deepEqual(fast.resolve(raw), slow.resolve(raw), `${page} ${JSON.stringify(bases)} ${JSON.stringify(raw)}`);
}

const pieces = fc.constantFrom(
  '/',
  '//',
  '.',
  '..',
  '/./',
  '/../',
  '?',
  '#',
  '&',
  '=',
  '%',
  '%2e',
  '%2E',
  '%20',
  "'",
  '"',
  ' ',
  '\t',
  '\n',
  '\\',
  ':',
  '@',
  '[',
  ']',
  '`',
  '{',
  '}',
  '^',
  '|',
  '~',
  '-',
  '_',
  '+',
  ';',
  ',',
  '!',
  '$',
  '*',
  '(',
  ')',
  'a',
  'Z',
  '0',
  '9',
  'é',
  '😀',
  'http://',
  'https://',
  'HTTP://',
  'ftp://',
  'javascript:',
  'mailto:',
  'www.',
  'example.test',
  'EXAMPLE.test',
  'xn--bcher-kva',
  '.xn--p1ai',
  ':8080',
  ':80',
  'user@',
  '127.0.0.1',
  '0x7f.1',
  '.123',
  '.com',
  'index.html',
  '.well-known',
  'a..b',
);
const raw = fc.oneof(
  fc.array(pieces, { maxLength: 10 }).map((p) => p.join('')),
  fc.string({ maxLength: 30 }),
);

test('property: the shortcut resolves every value as the URL parser does', () => {
  fc.assert(
    fc.property(fc.constantFrom(...PAGES), fc.constantFrom(...BASES), fc.array(raw, { maxLength: 20 }), (page, bases, raws) =>
      same(page, bases, raws),
    ),
    { numRuns: 3000 },
  );
});

test('the plain cases it takes', () => {
  const r = resolverFor('http://example.test:8080/dir/page', []);
  assert.deepEqual(r.resolve('/a/b?c=1&d#e'), {
    url: 'http://example.test:8080/a/b?c=1&d',
    scheme: 'http:',
    host: 'example.test',
    internal: true,
  });
  assert.deepEqual(r.resolve('https://www.example.test'), {
    url: 'https://www.example.test/',
    scheme: 'https:',
    host: 'example.test',
    internal: true,
  });
  assert.deepEqual(r.resolve('https://cdn.example?x#y'), {
    url: 'https://cdn.example/?x',
    scheme: 'https:',
    host: 'cdn.example',
    internal: false,
  });
  same(
    'http://example.test/',
    [],
    [
      '/a/./b',
      '/a/../b',
      '/%2e%2e/x',
      '/a b',
      "/?q='x'",
      'http://1.2.3.4/',
      'http://0x7f.1/',
      'https://xn--bcher-kva.example/',
      'https://a.b.',
      'HTTPS://A.B/',
    ],
  );
});

test('the fixture pages: every link, image and script URL as the URL parser resolves it', () => {
  const files = readdirSync(FIXTURES).filter((f) => f.endsWith('.html'));
  assert.ok(files.includes('links.html'));
  for (const file of files) {
    const c = collect(readFileSync(join(FIXTURES, file), 'utf8'));
    const raws = [
      ...c.anchors.map((a) => a.href),
      ...c.images.flatMap((i) => [i.src ?? '']),
      ...c.scripts.map((s) => s.src ?? ''),
    ];
    same(`http://127.0.0.1/${file}`, c.baseHrefs, raws);
  }
});
