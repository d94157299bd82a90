// What a crawled page refers to that a crawl checks (docs/external-links.md): links to other
// hosts, every image (its own host too), hreflang alternates on other hosts; once each, spelled
// as the crawl spells URLs.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildArtifacts } from '../../src/analysis/artifacts/index.js';
import { pageOutline } from '../../src/analysis/outline.js';
import { pageTargets } from '../../src/crawl/link-checks/targets.js';

const page = (head: string, body: string) =>
  pageOutline(
    buildArtifacts(
      `<!doctype html><html><head><title>T</title>${head}</head><body>${body}</body></html>`,
      'https://www.site.test/dir/page',
    ),
  );

test('the outline carries the images and the hreflang alternates, resolved and without fragments', () => {
  const outline = page(
    '<link rel="alternate" hreflang="de" href="/de/#top"><link rel="alternate" href="/feed.xml" type="application/rss+xml"><link rel="alternate" hreflang="fr" href="">',
    '<img src="a.png#x"><img src="a.png"><img src="data:image/png;base64,AAAA"><img alt="no src"><img src="https://cdn.test/b.jpg">',
  );
  assert.deepEqual(outline.images, ['https://www.site.test/dir/a.png', 'https://cdn.test/b.jpg']);
  assert.deepEqual(outline.hreflang, ['https://www.site.test/de/'], 'only alternates with an hreflang and an href');
});

test('targets: other hosts’ links and hreflang, every image, each (url, kind) once', () => {
  const outline = page(
    '<link rel="alternate" hreflang="en" href="https://site.test/en/"><link rel="alternate" hreflang="de" href="https://other.test/de/">',
    `<a href="/internal">in</a><a href="https://site.test/twin">twin</a><a href="https://OTHER.test:443/x#a">x</a>
     <a href="https://other.test/x">again</a><a href="mailto:a@b.test">mail</a><a href="https://u:p@other.test/secret">creds</a>
     <a href="https://other.test/de/" rel="nofollow">de</a><img src="/logo.png"><img src="https://cdn.test/b.jpg">`,
  );
  assert.deepEqual(pageTargets(outline, 'site.test'), [
    { url: 'https://other.test/x', kind: 'link' },
    { url: 'https://other.test/de/', kind: 'link' },
    { url: 'https://www.site.test/logo.png', kind: 'image' },
    { url: 'https://cdn.test/b.jpg', kind: 'image' },
    { url: 'https://other.test/de/', kind: 'hreflang' },
  ]);
});
