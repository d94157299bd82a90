// Checks are pure functions of plain-data artifacts: a test can hand one a literal, no HTML needed.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Artifacts, PageUrl } from '../../../src/analysis/artifacts/index.js';
import { contentLength } from '../../../src/analysis/checks/content-length.js';
import { deprecatedHtmlTags } from '../../../src/analysis/checks/deprecated-html-tags.js';
import { inPageLinks } from '../../../src/analysis/checks/in-page-links.js';
import { title } from '../../../src/analysis/checks/title.js';
import { unsafeCrossOriginLinks } from '../../../src/analysis/checks/unsafe-cross-origin-links.js';
import { DEFAULT_CONFIG } from '../../../src/analysis/config.js';
import { makeSnapshot } from '../../../src/analysis/snapshot.js';
import type { CheckResult } from '../../../src/analysis/types.js';
import type { Check } from '../../../src/analysis/checks/index.js';

/** The artifacts of an empty page, with `parts` laid over them. */
function artifacts(parts: Partial<Artifacts> = {}): Artifacts {
  return {
    url: 'http://example.test/',
    document: {
      codePoints: 0,
      elements: 0,
      tagCounts: {},
      lang: null,
      inlineStyles: [],
      atAttributeValues: [],
      duplicateIds: { names: [], count: 0 },
    },
    head: {
      titles: [],
      title: null,
      titleWords: [],
      metas: [],
      links: [],
      icon: null,
      closedBy: null,
      stray: { titles: [], metas: [], links: [] },
      body: { titles: [], metas: [], links: [] },
    },
    text: { visible: '', words: 0, codePoints: 0, titleWordsFound: [] },
    headings: [],
    links: [],
    images: [],
    resources: { scripts: [], stylesheets: [], iframes: [], media: [] },
    structuredData: { metas: [], sources: [] },
    ...parts,
  };
}

const run = (check: Check, a: Artifacts): CheckResult =>
  check.run({ snapshot: makeSnapshot({ html: '' }), artifacts: a, config: DEFAULT_CONFIG });

const at = (url: string, internal: boolean): PageUrl => ({
  url,
  scheme: url.slice(0, url.indexOf(':') + 1),
  host: new URL(url).host,
  internal,
});

test('in_page_links from a literal: fragment-only and mailto: links are skipped, the rest split', () => {
  const links = [
    { href: '/a', resolved: at('http://example.test/a', true), target: '', rel: [], text: 'A' },
    { href: '#top', resolved: at('http://example.test/#top', true), target: '', rel: [], text: 'Top' },
    { href: 'mailto:x@y.test', resolved: at('mailto:x@y.test', false), target: '', rel: [], text: 'Mail' },
    { href: 'https://b.test/', resolved: at('https://b.test/', false), target: '_blank', rel: [], text: 'B' },
  ];
  assert.deepEqual(run(inPageLinks, artifacts({ links })), {
    passed: true,
    importance: 'medium',
    value: { Internals: [{ url: 'http://example.test/a', text: 'A' }], Externals: [{ url: 'https://b.test/', text: 'B' }] },
  });
  assert.deepEqual(run(unsafeCrossOriginLinks, artifacts({ links })).errors, { failed: ['https://b.test/'] });
});

test('title, content_length and deprecated_html_tags from literals', () => {
  const head = { ...artifacts().head, titles: ['Hello', 'Again'], title: 'Hello' };
  assert.deepEqual(run(title, artifacts({ head })).errors, { too_many: null });
  const text = { visible: 'many words', words: 500, codePoints: 10, titleWordsFound: [] };
  assert.equal(run(contentLength, artifacts({ text })).passed, true);
  const document = { ...artifacts().document, tagCounts: { center: 2, div: 9 } };
  assert.deepEqual(run(deprecatedHtmlTags, artifacts({ document })).errors, { bad_tags: { center: 2 } });
});
