// The site-level issues of a crawl, rule by rule: each rule on a small site where it fires, next
// to clean pages that must give nothing.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  type CrawledPage,
  findSiteIssues,
  ISSUE_SEVERITIES,
  ISSUE_TYPES,
  indexable,
  type SiteIssue,
} from '../../src/crawl/site-issues.js';

const ORIGIN = 'https://site.test';
const u = (path: string) => `${ORIGIN}${path}`;

let titles = 0;
/** A clean page: answered 200, analysed, unique title and description, linked from the home page, in the sitemap. */
function page(path: string, over: Partial<CrawledPage> = {}): CrawledPage {
  titles++;
  return {
    url: u(path),
    state: 'done',
    status: 200,
    redirectTo: null,
    robotsDisallowed: false,
    html: true,
    title: `Page ${titles}`,
    description: `About page ${titles}`,
    noindex: false,
    canonical: null,
    inSitemap: true,
    linkedFrom: [u('/')],
    inlinks: 1,
    mixedContent: false,
    ...over,
  };
}

function redirect(path: string, to: string, over: Partial<CrawledPage> = {}): CrawledPage {
  return page(path, { status: 301, redirectTo: u(to), html: false, title: null, description: null, inSitemap: false, ...over });
}

const home = () => page('/', { linkedFrom: [], inlinks: 0 });

/** The ten types these rules are about (the rest of the catalogue: catalogue-issues.test.ts). */
const FIRST_TEN: ReadonlySet<string> = new Set([
  'broken_link',
  'non_indexable_in_sitemap',
  'canonical_to_non_200',
  'duplicate_title',
  'orphan_page',
  'redirect_chain',
  'redirect_to_broken',
  'duplicate_meta_description',
  'missing_from_sitemap',
  'mixed_content',
]);

function issues(pages: CrawledPage[], sitemapFound = true): SiteIssue[] {
  return findSiteIssues(pages, { sitemapFound }).filter((issue) => FIRST_TEN.has(issue.type));
}

function only(pages: CrawledPage[], type: string, sitemapFound = true): SiteIssue[] {
  return issues(pages, sitemapFound).filter((issue) => issue.type === type);
}

test('a clean site gives no issues', () => {
  const pages = [
    home(),
    page('/a'),
    page('/b', { canonical: u('/b') }),
    page('/c', { linkedFrom: [u('/'), u('/a')], inlinks: 2 }),
  ];
  assert.deepEqual(issues(pages), []);
  assert.deepEqual(issues([]), []);
});

test('ISSUE_TYPES lists every type once, with a severity each', () => {
  assert.deepEqual(ISSUE_TYPES, Object.keys(ISSUE_SEVERITIES));
  assert.equal(new Set(ISSUE_TYPES).size, ISSUE_TYPES.length);
  for (const [type, severity] of [
    ['broken_link', 'high'],
    ['non_indexable_in_sitemap', 'high'],
    ['redirect_chain', 'medium'],
    ['duplicate_title', 'medium'],
    ['orphan_page', 'medium'],
    ['duplicate_meta_description', 'low'],
    ['missing_from_sitemap', 'low'],
  ] as const) {
    assert.equal(ISSUE_SEVERITIES[type], severity, type);
  }
});

test('indexable: done, 200, HTML, not noindex, not disallowed, canonical absent or itself', () => {
  assert.equal(indexable(page('/')), true);
  assert.equal(indexable(page('/', { canonical: u('/') })), true);
  assert.equal(indexable(page('/', { canonical: u('/other') })), false);
  assert.equal(indexable(page('/', { status: 404 })), false);
  assert.equal(indexable(page('/', { state: 'failed', status: null })), false);
  assert.equal(indexable(page('/', { state: 'skipped', status: null, robotsDisallowed: true })), false);
  assert.equal(indexable(page('/', { html: false })), false);
  assert.equal(indexable(page('/', { noindex: true })), false);
});

test('broken_link: a linked 4xx/5xx target, naming the linking pages', () => {
  const pages = [
    home(),
    page('/gone', {
      status: 404,
      inSitemap: false,
      html: false,
      linkedFrom: [u('/'), u('/a'), u('/b'), u('/c'), u('/d')],
      inlinks: 7,
    }),
    page('/error', { status: 500, inSitemap: false, html: false, linkedFrom: [u('/a')], inlinks: 1 }),
    // Not links, or not broken:
    page('/unlinked-404', { status: 404, inSitemap: false, html: false, linkedFrom: [], inlinks: 0 }),
    page('/timeout', { state: 'failed', status: null, inSitemap: false, html: false }),
    page('/a'),
  ];
  assert.deepEqual(only(pages, 'broken_link'), [
    {
      type: 'broken_link',
      severity: 'high',
      url: u('/error'),
      detail: `Answers 500; linked from ${u('/a')}.`,
    },
    {
      type: 'broken_link',
      severity: 'high',
      url: u('/gone'),
      detail: `Answers 404; linked from ${u('/')}, ${u('/a')}, ${u('/b')} and 4 more pages.`,
    },
  ]);
});

test('broken_link: two linking pages are both named', () => {
  const pages = [home(), page('/x', { status: 410, inSitemap: false, linkedFrom: [u('/'), u('/a')], inlinks: 2 })];
  assert.equal(only(pages, 'broken_link')[0].detail, `Answers 410; linked from ${u('/')} and ${u('/a')}.`);
});

test('redirect_chain: two hops or more, from the first URL only, with the final answer', () => {
  const pages = [
    home(),
    redirect('/a', '/b'),
    redirect('/b', '/c', { inlinks: 3 }),
    page('/c'),
    redirect('/one-hop', '/c'),
    redirect('/long1', '/long2'),
    redirect('/long2', '/long3'),
    redirect('/long3', '/missing'),
  ];
  assert.deepEqual(only(pages, 'redirect_chain'), [
    {
      type: 'redirect_chain',
      severity: 'medium',
      url: u('/a'),
      detail: `2 redirects: ${u('/a')} → ${u('/b')} → ${u('/c')}, which answers 200.`,
    },
    {
      type: 'redirect_chain',
      severity: 'medium',
      url: u('/long1'),
      detail: `3 redirects: ${u('/long1')} → ${u('/long2')} → ${u('/long3')} → ${u('/missing')}, which was not crawled.`,
    },
  ]);
});

test('redirect_chain: two chains into one shared tail are each reported from their start', () => {
  const pages = [home(), redirect('/x', '/m'), redirect('/y', '/m'), redirect('/m', '/end'), page('/end')];
  assert.deepEqual(
    only(pages, 'redirect_chain').map((issue) => issue.url),
    [u('/x'), u('/y')],
  );
});

test('redirect_chain: loops are reported once, whether or not a chain leads into them', () => {
  const pages = [
    home(),
    redirect('/p', '/q'),
    redirect('/q', '/p'),
    redirect('/self', '/self'),
    redirect('/in', '/r'),
    redirect('/r', '/s'),
    redirect('/s', '/r'),
  ];
  assert.deepEqual(only(pages, 'redirect_chain'), [
    {
      type: 'redirect_chain',
      severity: 'medium',
      url: u('/in'),
      detail: `Redirects loop: ${u('/in')} → ${u('/r')} → ${u('/s')} → ${u('/r')}.`,
    },
    { type: 'redirect_chain', severity: 'medium', url: u('/p'), detail: `Redirects loop: ${u('/p')} → ${u('/q')} → ${u('/p')}.` },
    { type: 'redirect_chain', severity: 'medium', url: u('/self'), detail: `Redirects loop: ${u('/self')} → ${u('/self')}.` },
  ]);
});

test('redirect_chain: a very long chain is counted in full and spelled out in part', () => {
  const pages = [home(), ...Array.from({ length: 30 }, (_, i) => redirect(`/r${i}`, `/r${i + 1}`)), page('/r30')];
  const [chain] = only(pages, 'redirect_chain');
  assert.equal(chain.url, u('/r0'));
  assert.match(chain.detail, /^30 redirects: /);
  assert.match(chain.detail, / → …, which answers 200\.$/);
  assert.ok(!chain.detail.includes(u('/r20')));
});

test('redirect_to_broken: a redirect, of any length, ending in 4xx/5xx', () => {
  const pages = [
    home(),
    redirect('/old', '/gone'),
    page('/gone', { status: 404, inSitemap: false, linkedFrom: [], inlinks: 0 }),
    redirect('/a', '/b'),
    redirect('/b', '/down'),
    page('/down', { status: 503, inSitemap: false, linkedFrom: [], inlinks: 0 }),
    redirect('/fine', '/'),
  ];
  assert.deepEqual(only(pages, 'redirect_to_broken'), [
    {
      type: 'redirect_to_broken',
      severity: 'medium',
      url: u('/a'),
      detail: `Redirects to ${u('/down')}, which answers 503 (after 2 redirects).`,
    },
    { type: 'redirect_to_broken', severity: 'medium', url: u('/old'), detail: `Redirects to ${u('/gone')}, which answers 404.` },
  ]);
  assert.match(only(pages, 'redirect_chain')[0].detail, /which answers 503\.$/);
});

test('duplicate_title: one row per indexable page, whitespace and case ignored, naming the others', () => {
  const pages = [
    home(),
    page('/a', { title: 'Blue Widgets' }),
    page('/b', { title: '  blue   widgets\n' }),
    page('/c', { title: 'BLUE WIDGETS' }),
    // Not indexable, so not a duplicate:
    page('/noindex', { title: 'Blue Widgets', noindex: true }),
    page('/canonicalised', { title: 'Blue Widgets', canonical: u('/a') }),
    page('/404', { title: 'Blue Widgets', status: 404, linkedFrom: [], inlinks: 0, inSitemap: false }),
    // Blank titles are missing titles, not duplicates:
    page('/blank1', { title: '  ' }),
    page('/blank2', { title: '  ' }),
    page('/none1', { title: null }),
    page('/none2', { title: null }),
    // Different text:
    page('/other', { title: 'Blue Widgets 2' }),
  ];
  assert.deepEqual(only(pages, 'duplicate_title'), [
    {
      type: 'duplicate_title',
      severity: 'medium',
      url: u('/a'),
      detail: `Same title "Blue Widgets" as ${u('/b')} and ${u('/c')}.`,
    },
    {
      type: 'duplicate_title',
      severity: 'medium',
      url: u('/b'),
      detail: `Same title "blue widgets" as ${u('/a')} and ${u('/c')}.`,
    },
    {
      type: 'duplicate_title',
      severity: 'medium',
      url: u('/c'),
      detail: `Same title "BLUE WIDGETS" as ${u('/a')} and ${u('/b')}.`,
    },
  ]);
});

test('duplicate_title: a large group names three others and counts the rest', () => {
  const pages = [home(), ...Array.from({ length: 8 }, (_, i) => page(`/p${i}`, { title: 'Same' }))];
  const rows = only(pages, 'duplicate_title');
  assert.equal(rows.length, 8);
  assert.equal(rows[0].detail, `Same title "Same" as ${u('/p1')}, ${u('/p2')}, ${u('/p3')} and 4 more pages.`);
  assert.equal(rows[7].detail, `Same title "Same" as ${u('/p0')}, ${u('/p1')}, ${u('/p2')} and 4 more pages.`);
});

test('duplicate_meta_description: low, same rules as titles', () => {
  const long = `${'word '.repeat(30)}end`;
  const pages = [home(), page('/a', { description: long }), page('/b', { description: long.toUpperCase() }), page('/c')];
  const rows = only(pages, 'duplicate_meta_description');
  assert.deepEqual(
    rows.map((r) => [r.url, r.severity]),
    [
      [u('/a'), 'low'],
      [u('/b'), 'low'],
    ],
  );
  assert.match(rows[0].detail, new RegExp(`^Same meta description "(word ){15}word…" as ${u('/b')}\\.$`));
});

test('non_indexable_in_sitemap: noindex, non-200, disallowed or unanswered, saying why', () => {
  const pages = [
    home(),
    page('/noindex', { noindex: true }),
    page('/404', { status: 404, linkedFrom: [], inlinks: 0 }),
    redirect('/moved', '/', { inSitemap: true }),
    page('/private', { state: 'skipped', status: null, robotsDisallowed: true, html: false }),
    page('/timeout', { state: 'failed', status: null, html: false }),
    // Not fetched for another reason (crawl stopped): nothing known.
    page('/later', { state: 'skipped', status: null, html: false }),
    // Not in a sitemap:
    page('/noindex-unlisted', { noindex: true, inSitemap: false }),
  ];
  assert.deepEqual(
    only(pages, 'non_indexable_in_sitemap').map((i) => [i.url, i.severity, i.detail]),
    [
      [u('/404'), 'high', 'Listed in a sitemap, but it answers 404.'],
      [u('/moved'), 'high', `Listed in a sitemap, but it answers 301 (a redirect to ${u('/')}).`],
      [u('/noindex'), 'high', 'Listed in a sitemap, but it is marked noindex.'],
      [u('/private'), 'high', 'Listed in a sitemap, but robots.txt disallows it.'],
      [u('/timeout'), 'high', 'Listed in a sitemap, but it did not answer.'],
    ],
  );
});

test('orphan_page: in a sitemap, fetched, linked from nowhere; never the start page', () => {
  const pages = [
    home(),
    page('/orphan', { linkedFrom: [], inlinks: 0 }),
    page('/orphan-404', { status: 404, linkedFrom: [], inlinks: 0 }),
    page('/unlisted-orphan', { inSitemap: false, linkedFrom: [], inlinks: 0 }),
    page('/not-fetched', { state: 'skipped', status: null, linkedFrom: [], inlinks: 0 }),
    page('/linked'),
  ];
  assert.deepEqual(
    only(pages, 'orphan_page').map((i) => [i.url, i.severity]),
    [
      [u('/orphan'), 'medium'],
      [u('/orphan-404'), 'medium'],
    ],
  );
  assert.equal(only(pages, 'orphan_page')[0].detail, 'Listed in a sitemap, but no crawled page links to it.');
});

test('orphan_page: the start page is the first row, wherever its URL sorts', () => {
  const start = page('/z-start', { linkedFrom: [], inlinks: 0 });
  const other = page('/a', { linkedFrom: [], inlinks: 0 });
  assert.deepEqual(
    only([start, other], 'orphan_page').map((i) => i.url),
    [u('/a')],
  );
  assert.deepEqual(
    only([other, start], 'orphan_page').map((i) => i.url),
    [u('/z-start')],
  );
});

test('missing_from_sitemap: linked, indexable, unlisted, and only when a sitemap exists', () => {
  const pages = [
    home(),
    page('/missing', { inSitemap: false, linkedFrom: [u('/'), u('/a')], inlinks: 2 }),
    page('/unlinked', { inSitemap: false, linkedFrom: [], inlinks: 0 }),
    page('/noindex', { inSitemap: false, noindex: true }),
    page('/pdf', { inSitemap: false, html: false }),
    page('/a'),
  ];
  assert.deepEqual(only(pages, 'missing_from_sitemap'), [
    {
      type: 'missing_from_sitemap',
      severity: 'low',
      url: u('/missing'),
      detail: `Indexable and linked from ${u('/')} and ${u('/a')}, but in no sitemap.`,
    },
  ]);
  assert.deepEqual(only(pages, 'missing_from_sitemap', false), []);
});

test('canonical_to_non_200: a canonical naming a crawled URL that does not answer 200', () => {
  const pages = [
    home(),
    page('/a', { canonical: u('/gone') }),
    page('/gone', { status: 404, inSitemap: false, linkedFrom: [], inlinks: 0 }),
    page('/b', { canonical: u('/moved') }),
    redirect('/moved', '/'),
    // Fine: canonical to a 200 page, to itself, or to a URL not crawled.
    page('/c', { canonical: u('/') }),
    page('/d', { canonical: u('/d') }),
    page('/e', { canonical: 'https://elsewhere.test/e' }),
  ];
  assert.deepEqual(only(pages, 'canonical_to_non_200'), [
    {
      type: 'canonical_to_non_200',
      severity: 'medium',
      url: u('/a'),
      detail: `Its canonical URL ${u('/gone')} answers 404.`,
    },
    {
      type: 'canonical_to_non_200',
      severity: 'medium',
      url: u('/b'),
      detail: `Its canonical URL ${u('/moved')} answers 301, a redirect to ${u('/')}.`,
    },
  ]);
});

test('mixed_content: low, on fetched pages that load http resources', () => {
  const pages = [
    home(),
    page('/a', { mixedContent: true }),
    page('/b'),
    // Only an analysed answer says anything about its resources.
    page('/failed', { state: 'failed', status: null, html: false, inSitemap: false, mixedContent: true }),
  ];
  assert.deepEqual(only(pages, 'mixed_content'), [
    { type: 'mixed_content', severity: 'low', url: u('/a'), detail: 'An HTTPS page that loads resources over plain HTTP.' },
  ]);
});

test('order: severity high to low, then type, then URL', () => {
  const pages = [
    home(),
    page('/z-mixed', { mixedContent: true }),
    page('/b-dup', { title: 'Dup' }),
    page('/a-dup', { title: 'Dup' }),
    page('/y-broken', { status: 404, inSitemap: false }),
    page('/x-noindex', { noindex: true }),
    page('/c-orphan', { linkedFrom: [], inlinks: 0 }),
  ];
  assert.deepEqual(
    issues(pages).map((i) => [i.severity, i.type, i.url]),
    [
      ['high', 'broken_link', u('/y-broken')],
      ['high', 'non_indexable_in_sitemap', u('/x-noindex')],
      ['medium', 'duplicate_title', u('/a-dup')],
      ['medium', 'duplicate_title', u('/b-dup')],
      ['medium', 'orphan_page', u('/c-orphan')],
      ['low', 'mixed_content', u('/z-mixed')],
    ],
  );
});

test('10,000 pages: every page row examined once, duplicates and chains found', () => {
  const pages: CrawledPage[] = [home()];
  for (let i = 1; i < 10_000; i++) {
    const path = `/p${i}`;
    if (i % 100 === 0) pages.push(redirect(path, `/p${i + 1}`, { inlinks: 1 }));
    else pages.push(page(path, { title: `Group ${i % 50}`, linkedFrom: [u(`/p${i - 1}`)], inlinks: 1 }));
  }
  // One chain of 500 redirects, and a 404 linked from every page.
  for (let i = 0; i < 500; i++) pages.push(redirect(`/chain${i}`, `/chain${i + 1}`));
  pages.push(page('/chain500'));
  pages.push(page('/gone', { status: 404, inSitemap: false, linkedFrom: [u('/p1'), u('/p2')], inlinks: 9_999 }));

  const found = issues(pages);
  const count = (type: string) => found.filter((i) => i.type === type).length;
  assert.equal(count('duplicate_title'), 9_900); // the /p pages but the 99 redirects, 50 titles among them
  assert.equal(count('redirect_chain'), 1);
  assert.match(found.find((i) => i.type === 'redirect_chain')!.detail, /^500 redirects: /);
  assert.equal(count('broken_link'), 1);
  assert.match(found.find((i) => i.type === 'broken_link')!.detail, /and 9997 more pages\.$/);
});
