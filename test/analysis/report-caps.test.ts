// Hostile pages through the whole engine (runChecks): the stored results stay within the size
// budget, `omitted` counts exactly what was cut, and the verdicts are those of the full data.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { buildArtifacts } from '../../src/analysis/artifacts/index.js';
import { CHECKS } from '../../src/analysis/checks/index.js';
import { DEFAULT_CONFIG } from '../../src/analysis/config.js';
import { describeCheck } from '../../src/analysis/checks/stored.js';
import { runChecks } from '../../src/analysis/run.js';
import { makeSnapshot } from '../../src/analysis/snapshot.js';
import type { CheckResult } from '../../src/analysis/types.js';
import type { CheckResults } from '../../src/analysis/results.js';
import { goodPage } from '../helpers/pages.js';

const MB = 1024 * 1024;
/** The size budget of `results` (size-budget.ts). */
const RESULTS_BUDGET_BYTES = MB;
const bytes = (v: unknown) => Buffer.byteLength(JSON.stringify(v));

function analyse(html: string, finalUrl = 'http://example.test/'): CheckResults {
  return runChecks(makeSnapshot({ html, finalUrl })).results;
}

/** The list at a JSON Pointer of a check object. */
function listAt(check: CheckResult, pointer: string): unknown[] {
  return pointer
    .split('/')
    .slice(1)
    .reduce<unknown>((v, key) => (v as Record<string, unknown>)[key], check) as unknown[];
}

function exactCount(check: CheckResult, pointer: string): number {
  return listAt(check, pointer).length + (check.omitted?.[pointer] ?? 0);
}

function page(body: string, head = '<title>Hostile page</title>'): string {
  return `<!DOCTYPE html><html lang="en"><head>${head}</head><body>${body}</body></html>`;
}

test('a 4 MB page with 100,000 links: results within the budget, omitted exact, verdicts unchanged', () => {
  // Every tenth link goes to Facebook in a new tab: it is also a social link and an unsafe one.
  const links = Array.from({ length: 100_000 }, (_, i) =>
    i % 10 === 0
      ? `<a href="https://www.facebook.com/p${i}" target="_blank">Share number ${i}</a>\n`
      : `<a href="/articles/${i}">Article number ${i}</a>\n`,
  );
  const html = page(links.join(''));
  assert.ok(html.length >= 4_000_000, `${html.length} characters`);
  const results = analyse(html);

  assert.ok(bytes(results) <= RESULTS_BUDGET_BYTES, `${bytes(results)} bytes`);
  const inPage = results.in_page_links;
  assert.equal(inPage.passed, false);
  assert.deepEqual(inPage.errors, { too_many: { max: '150' } });
  assert.deepEqual(Object.keys(inPage), ['passed', 'importance', 'value', 'errors', 'omitted']);
  assert.deepEqual(inPage.omitted, { '/value/Internals': 89_000, '/value/Externals': 9_000 });
  assert.deepEqual(listAt(inPage, '/value/Internals').slice(0, 2), [
    { url: 'http://example.test/articles/1', text: 'Article number 1' },
    { url: 'http://example.test/articles/2', text: 'Article number 2' },
  ]);
  assert.equal(exactCount(inPage, '/value/Internals') + exactCount(inPage, '/value/Externals'), 100_000);
  assert.equal(describeCheck('in_page_links', inPage), '100,000 links (90,000 internal, 10,000 external); keep it at most 150.');

  assert.equal(results.social.passed, true);
  assert.deepEqual(results.social.omitted, { '/value/Facebook': 9_000 });
  assert.equal(results.unsafe_cross_origin_links.passed, false);
  assert.deepEqual(results.unsafe_cross_origin_links.omitted, { '/errors/failed': 9_000 });
  assert.equal(
    describeCheck('unsafe_cross_origin_links', results.unsafe_cross_origin_links),
    '10,000 external links open a new tab without noopener.',
  );
  assert.equal(results.dom_size.value, 100_000 + 4, 'counts are of the whole page');
  assert.equal(results.title.omitted, undefined, 'checks with nothing cut are unchanged');
});

test('100,000 unclosed <a>s: each link has its own text, as in a browser, and the report stays small', () => {
  const html = page(Array.from({ length: 100_000 }, (_, i) => `<a href="/p/${i}">Link ${i} `).join(''));
  const results = analyse(html);
  const listed = listAt(results.in_page_links, '/value/Internals') as { url: string; text: string }[];
  assert.equal(listed.length, 1000);
  for (const [i, link] of listed.entries()) assert.equal(link.text, `Link ${i}`);
  assert.deepEqual(results.in_page_links.omitted, { '/value/Internals': 99_000 });
  assert.ok(bytes(results) < 200_000, `${bytes(results)} bytes`);
});

test('a link text of a megabyte is cut at 2,048 code points with "…"', () => {
  const results = analyse(page(`<a href="/long">${'word '.repeat(200_000)}</a>`));
  const [link] = listAt(results.in_page_links, '/value/Internals') as { text: string }[];
  assert.equal(link.text, `${'word '.repeat(410).slice(0, 2048)}…`);
});

test('a 1 MB title and a 1 MB data: image: capped strings, verdicts on the full data', () => {
  const title = 'T'.repeat(MB);
  const image = `data:image/webp;base64,${'A'.repeat(MB)}`;
  const results = analyse(
    page(`<img src="${image}">`, `<title>${title}</title><meta name="description" content="${'d'.repeat(MB)}">`),
  );
  assert.equal(results.title.value, `${'T'.repeat(2048)}…`);
  assert.deepEqual(results.title.errors, { length: { min: '1', max: '60' } });
  assert.equal(describeCheck('title', results.title), 'Title is more than 2,048 characters; keep it between 1 and 60.');
  assert.equal(results.meta_description.value, `${'d'.repeat(2048)}…`);
  assert.equal(describeCheck('meta_description', results.meta_description), 'Meta description is more than 2,048 characters.');
  const cutImage = `${image.slice(0, 2048)}…`;
  assert.deepEqual(results.image_keywords.errors, { missing: [{ url: cutImage, text: '' }] });
  assert.deepEqual(results.http_requests.value, { Images: [cutImage] });
  assert.equal(results.image_format.passed, true, 'WebP, read from the data: URI');
  assert.equal(results.image_keywords.omitted, undefined, 'cut strings are not counted in omitted');
  assert.ok(bytes(results) < 50_000);
});

test('a huge JSON-LD block: entries, items, nesting and strings are bounded and counted', () => {
  const wide: Record<string, unknown> = { '@context': 'https://schema.org', '@type': 'Thing' };
  for (let i = 0; i < 100_000; i++) wide[`k${i}`] = i;
  let deep: unknown = 'bottom';
  for (let i = 0; i < 90; i++) deep = { down: deep };
  const ld = [
    wide,
    { '@context': 'https://schema.org', list: Array.from({ length: 100_000 }, (_, i) => i), deep, text: 'x'.repeat(MB) },
  ];
  const results = analyse(page(`<script type="application/ld+json">${JSON.stringify(ld)}</script>`));
  const sd = results.structured_data;
  assert.equal(sd.passed, true);
  const [first, second] = listAt(sd, '/value/Schema.org') as Record<string, unknown>[];
  assert.equal(Object.keys(first).length, 1000);
  assert.deepEqual(Object.keys(first).slice(0, 3), ['@context', '@type', 'k0']);
  assert.equal((second.list as unknown[]).length, 1000);
  assert.equal(second.text, `${'x'.repeat(2048)}…`);
  // value (1) → Schema.org (2) → the block (3) → deep (4) → 28 more "down" objects → the 30th emptied
  assert.equal(JSON.stringify(second.deep), `${'{"down":'.repeat(29)}{}${'}'.repeat(29)}`);
  assert.deepEqual(sd.omitted, {
    '/value/Schema.org/0': 100_002 - 1000,
    '/value/Schema.org/1/list': 99_000,
    [`/value/Schema.org/1/deep${'/down'.repeat(29)}`]: 1,
  });
  assert.ok(bytes(results) < 100_000, `${bytes(results)} bytes`);
  assert.equal(describeCheck('structured_data', sd), 'Found 2 Schema.org items.');
});

test('over the size budget: the largest check is cut further (200 items of 1,024 code points), counts exact', () => {
  // 1,200 links with 2,100-character texts: 2.5 MB of link text at the report caps.
  const html = page(Array.from({ length: 1200 }, (_, i) => `<a href="/p/${i}">${`${i} `.padEnd(2100, 'x')}</a>`).join(''));
  const results = analyse(html);
  assert.ok(bytes(results) <= RESULTS_BUDGET_BYTES, `${bytes(results)} bytes`);
  const listed = listAt(results.in_page_links, '/value/Internals') as { text: string }[];
  assert.equal(listed.length, 200);
  assert.equal(listed[0].text, `0 ${'x'.repeat(1022)}…`);
  assert.deepEqual(results.in_page_links.omitted, { '/value/Internals': 1000 });
  assert.equal(
    describeCheck('in_page_links', results.in_page_links),
    '1,200 links (1,200 internal, 0 external); keep it at most 150.',
  );
  assert.equal(results.in_page_links.passed, false);
});

test('normal pages: every check object is exactly what the check measured, without omitted', () => {
  const pages = [
    readFileSync(new URL('../fixtures/pages/worked-example.html', import.meta.url), 'utf8'),
    goodPage(),
    page(
      Array.from({ length: 150 }, (_, i) => `<p style="x"><a href="/a/${i}">Article ${i}</a><img src="/i/${i}.jpg"></p>`).join(
        '',
      ),
    ),
  ];
  for (const html of pages) {
    const snapshot = makeSnapshot({ html });
    const artifacts = buildArtifacts(html, snapshot.finalUrl);
    const { results } = runChecks(snapshot, DEFAULT_CONFIG, artifacts);
    for (const check of CHECKS) {
      const full = check.measure({ snapshot, artifacts, config: DEFAULT_CONFIG }).result;
      const stored = results[check.name];
      if (check.name === 'inline_css' && full.errors) {
        // the one check with a configured sample: 150 styles, the first 50 listed
        assert.deepEqual(stored.omitted, { '/errors/failed': 100 });
        continue;
      }
      assert.equal(JSON.stringify(stored), JSON.stringify(full), check.name);
      assert.equal('omitted' in stored, false, check.name);
    }
  }
});
