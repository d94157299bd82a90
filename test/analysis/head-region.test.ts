// The head region (docs/checks.md §4.1 "Head"): the HTML5 tree-construction rule for what stays in
// the head, what an early close pushes out, and what closed it.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildArtifacts, type Artifacts, type HeadLink, type Meta } from '../../src/analysis/artifacts/index.js';
import { HEAD_CASES } from './head-cases.js';

/** The lookups as labelled in head-cases.ts; titles, metas and links each keep document order. */
function labels(titles: string[], metas: Meta[], links: HeadLink[]): string[] {
  return [
    ...metas.map((m) => `meta:${m.rawName}`),
    ...titles.map((t) => `title:${t}`),
    ...links.map((l) => `link:${l.href}`),
  ].sort();
}

function region(a: Artifacts) {
  return {
    head: labels(a.head.titles, a.head.metas, a.head.links),
    stray: labels(a.head.stray.titles, a.head.stray.metas, a.head.stray.links),
    closedBy: a.head.closedBy,
  };
}

for (const c of HEAD_CASES) {
  test(`head region: ${c.name}`, () => {
    assert.deepEqual(region(buildArtifacts(c.html, 'http://example.test/')), {
      head: [...c.head].sort(),
      stray: [...c.stray].sort(),
      closedBy: c.closedBy,
    });
  });
}

test('head region: lookups inside a head <noscript> or <template> stay head content', () => {
  const a = buildArtifacts(
    '<head><noscript><link rel="stylesheet" href="s.css"></noscript><template><meta name="t"></template><iframe></iframe></head>',
    'http://example.test/',
  );
  assert.deepEqual(region(a), { head: ['link:s.css', 'meta:t'], stray: [], closedBy: '<iframe>' });
});

test('head region: the early close does not move the first <body> or its visible text', () => {
  const a = buildArtifacts('<head><iframe></iframe><title>T</title></head><body><p>Body text</p></body>', 'http://example.test/');
  assert.equal(a.text.visible, 'Body text');
  assert.equal(a.head.title, null);
  assert.equal(a.head.closedBy, '<iframe>');
});
