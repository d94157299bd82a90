// The catalogue's types beyond the first ten, rule by rule on hand-built rows (and hand-built
// link-check results), each next to a control that sits just inside its threshold.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { PageFacts } from '../../src/analysis/crawl-facts.js';
import { encodeSignature, minhashSignature, shingleHashes, shingles } from '../../src/analysis/shingles.js';
import { ISSUE_CATALOGUE, ISSUE_TYPES } from '../../src/crawl/issues/catalogue.js';
import { type PageIssueFacts, planFor, validHreflang } from '../../src/crawl/issues/catalogue-issues.js';
import type { CheckedTarget } from '../../src/crawl/issues/checked-target.js';
import { type CrawledPage, findSiteIssues, type SiteIssue } from '../../src/crawl/site-issues.js';
import { decodeSignature } from '../../src/analysis/shingles.js';
import { jsChanges, type PageView } from '../../src/analysis/render-diff.js';

const ORIGIN = 'https://site.test';
const u = (path: string) => `${ORIGIN}${path}`;

let n = 0;
/** Facts of a clean page: one title, one description, an h1, 250 words, links out. */
function facts(over: Partial<PageIssueFacts> = {}): PageIssueFacts {
  n++;
  return {
    titles: 1,
    descriptions: 1,
    h1: true,
    headingFault: null,
    words: 250,
    textHash: `text-${n}`,
    signature: null,
    canonicals: [],
    hreflang: [],
    lang: 'en',
    metaInBody: null,
    structuredData: null,
    duplicateIds: { names: [], count: 0 },
    imagesWithoutAlt: { names: [], count: 0 },
    imagesWithoutSize: { names: [], count: 0 },
    links: 3,
    nofollowLinks: { names: [], count: 0 },
    httpLinks: { names: [], count: 0 },
    linksOut: true,
    headerCanonicals: [],
    ...over,
  };
}

/** A clean page: every catalogue rule passes. */
function page(path: string, over: Partial<CrawledPage> = {}, factsOver: Partial<PageIssueFacts> = {}): CrawledPage {
  n++;
  return {
    url: u(path),
    state: 'done',
    status: 200,
    redirectTo: null,
    robotsDisallowed: false,
    html: true,
    title: `A clean page title number ${n}`,
    description: `A description of page ${n} that is long enough to pass the rule, kept.`,
    noindex: false,
    canonical: null,
    inSitemap: true,
    linkedFrom: [u('/')],
    inlinks: 1,
    mixedContent: false,
    depth: 1,
    responseMs: 20,
    error: null,
    facts: facts(factsOver),
    ...over,
  };
}

const home = (over: Partial<CrawledPage> = {}, f: Partial<PageIssueFacts> = {}) =>
  page('/', { linkedFrom: [], inlinks: 0, depth: 0, ...over }, f);

function run(
  pages: CrawledPage[],
  options: { checked?: CheckedTarget[]; shingles?: Map<string, Uint32Array> } = {},
): SiteIssue[] {
  return findSiteIssues(pages, { sitemapFound: true, ...options });
}

/** The issues of one type, as [severity, url]. */
function of(pages: CrawledPage[], type: string, options: Parameters<typeof run>[1] = {}): [string, string][] {
  return run(pages, options)
    .filter((i) => i.type === type)
    .map((i) => [i.severity, i.url]);
}

function detailOf(pages: CrawledPage[], type: string, url: string, options: Parameters<typeof run>[1] = {}): string {
  const issue = run(pages, options).find((i) => i.type === type && i.url === url);
  assert.ok(issue, `no ${type} on ${url}`);
  return issue.detail;
}

test('the catalogue: 68 types, each with a severity, a rule, why and how to fix', () => {
  assert.equal(ISSUE_TYPES.length, 68);
  for (const type of ISSUE_TYPES) {
    const info = ISSUE_CATALOGUE[type];
    assert.ok(['high', 'medium', 'low'].includes(info.severity), type);
    for (const text of [info.rule, info.why, info.fix]) assert.ok(text.length > 10, type);
  }
});

test('a clean site gives no issue of any type', () => {
  assert.deepEqual(run([home(), page('/a'), page('/b', { canonical: u('/b') })]), []);
});

test('redirect_loop, fetch_failed, server_error, blocked_by_robots, slow_response', () => {
  const pages = [
    home(),
    page('/loop-a', { status: 301, redirectTo: u('/loop-b'), html: false, facts: null, inSitemap: false }),
    page('/loop-b', { status: 301, redirectTo: u('/loop-a'), html: false, facts: null, inSitemap: false }),
    page('/down', { state: 'failed', status: null, html: false, facts: null, error: 'Connection refused.', inSitemap: false }),
    page('/boom', { status: 503, html: false, facts: null, inSitemap: false }),
    page('/private', { state: 'skipped', status: null, robotsDisallowed: true, html: false, facts: null, inSitemap: false }),
    page('/slow', { responseMs: 1001 }),
    page('/just-in-time', { responseMs: 1000 }),
  ];
  assert.deepEqual(of(pages, 'redirect_loop'), [['high', u('/loop-a')]]);
  assert.deepEqual(of(pages, 'fetch_failed'), [['high', u('/down')]]);
  assert.match(detailOf(pages, 'fetch_failed', u('/down')), /Connection refused\. Linked from https:\/\/site\.test\/\./);
  assert.deepEqual(of(pages, 'server_error'), [['high', u('/boom')]]);
  assert.deepEqual(of(pages, 'blocked_by_robots'), [['low', u('/private')]]);
  assert.deepEqual(of(pages, 'slow_response'), [['low', u('/slow')]]);
});

test('titles and descriptions: missing, several, too long (61 fails, 60 passes), too short (9 fails, 10 passes)', () => {
  const pages = [
    home(),
    page('/no-title', { title: null }),
    page('/two-titles', {}, { titles: 2 }),
    page('/t60', { title: 'x'.repeat(60) }),
    page('/t61', { title: 'x'.repeat(61) }),
    page('/t10', { title: 'x'.repeat(10) }),
    page('/t9', { title: 'x'.repeat(9) }),
    page('/emoji60', { title: '😀'.repeat(60) }),
    page('/no-description', { description: null }),
    page('/two-descriptions', {}, { descriptions: 2 }),
    page('/d160', { description: 'd'.repeat(160) }),
    page('/d161', { description: 'd'.repeat(161) }),
    page('/d50', { description: 'd'.repeat(50) }),
    page('/d49', { description: 'd'.repeat(49) }),
  ];
  assert.deepEqual(of(pages, 'missing_title'), [['high', u('/no-title')]]);
  assert.deepEqual(of(pages, 'multiple_titles'), [['medium', u('/two-titles')]]);
  assert.deepEqual(of(pages, 'title_too_long'), [['low', u('/t61')]]);
  assert.deepEqual(of(pages, 'title_too_short'), [['low', u('/t9')]]);
  assert.deepEqual(of(pages, 'missing_meta_description'), [['low', u('/no-description')]]);
  assert.deepEqual(of(pages, 'multiple_meta_descriptions'), [['medium', u('/two-descriptions')]]);
  assert.deepEqual(of(pages, 'meta_description_too_long'), [['low', u('/d161')]]);
  assert.deepEqual(of(pages, 'meta_description_too_short'), [['low', u('/d49')]]);
});

test('page structure: h1, heading order, meta in body, thin (199 fails, 200 passes), deep (5 fails, 4 passes), dead end, too many links (501 fails, 500 passes), noindex', () => {
  const pages = [
    home(),
    page('/no-h1', {}, { h1: false }),
    page('/skip', {}, { headingFault: 'h2 → h4.' }),
    page('/stray', {}, { metaInBody: '<meta name="description"> stands after <iframe>, which closed the head.' }),
    page('/w199', {}, { words: 199 }),
    page('/w200', {}, { words: 200 }),
    page('/thin-noindex', { noindex: true }, { words: 10 }),
    page('/d5', { depth: 5 }),
    page('/d4', { depth: 4 }),
    page('/stuck', {}, { linksOut: false, links: 0 }),
    page('/l501', {}, { links: 501 }),
    page('/l500', {}, { links: 500 }),
  ];
  assert.deepEqual(of(pages, 'missing_h1'), [['medium', u('/no-h1')]]);
  assert.deepEqual(of(pages, 'heading_order'), [['low', u('/skip')]]);
  assert.equal(detailOf(pages, 'heading_order', u('/skip')), 'h2 → h4.');
  assert.deepEqual(of(pages, 'meta_in_body'), [['medium', u('/stray')]]);
  assert.deepEqual(of(pages, 'thin_content'), [['low', u('/w199')]]);
  assert.deepEqual(of(pages, 'deep_page'), [['low', u('/d5')]]);
  assert.deepEqual(of(pages, 'dead_end'), [['low', u('/stuck')]]);
  assert.deepEqual(of(pages, 'too_many_links'), [['low', u('/l501')]]);
  assert.deepEqual(of(pages, 'noindex_page'), [['low', u('/thin-noindex')]]);
});

test('changed by JS (rendered crawls): each type from the stored comparison; content at 2× and +100 words exactly', () => {
  const view = (over: Partial<PageView> = {}): PageView => ({
    title: 'A title',
    description: 'A description',
    h1: 'A heading',
    noindex: false,
    words: 250,
    ...over,
  });
  const side = (over: Partial<PageView> = {}, links: string[] = [u('/')], canonical: string | null = null) => ({
    links,
    canonical,
    view: view(over),
  });
  const js = (raw: ReturnType<typeof side>, rendered: ReturnType<typeof side>) => ({ js: jsChanges(raw, rendered) });
  const many = Array.from({ length: 12 }, (_, i) => u(`/more-${i}`));
  const pages = [
    home(),
    page('/same', {}, js(side(), side())),
    page('/title', {}, js(side({ title: null }), side({ title: 'Scripted' }))),
    page('/description', {}, js(side(), side({ description: 'Another one' }))),
    page('/h1', {}, js(side({ h1: 'Raw' }), side({ h1: null }))),
    page('/canonical', {}, js(side(), side({}, [u('/')], u('/other')))),
    page('/noindex-added', {}, js(side(), side({ noindex: true }))),
    page('/noindex-removed', {}, js(side({ noindex: true }), side())),
    page('/links', {}, js(side(), side({}, [u('/'), ...many]))),
    page('/links-reordered', {}, js(side({}, [u('/a'), u('/b')]), side({}, [u('/b'), u('/a')]))),
    page('/content-200', {}, js(side({ words: 100 }), side({ words: 200 }))),
    page('/content-199', {}, js(side({ words: 100 }), side({ words: 199 }))),
    page('/content-few', {}, js(side({ words: 10 }), side({ words: 109 }))),
    page('/content-110', {}, js(side({ words: 10 }), side({ words: 110 }))),
    page('/content-from-0', {}, js(side({ words: 0 }), side({ words: 100 }))),
    // An unrendered crawl stores no comparison: nothing to raise.
    page('/raw', {}, {}),
  ];
  assert.deepEqual(of(pages, 'title_changed_by_js'), [['medium', u('/title')]]);
  assert.equal(
    detailOf(pages, 'title_changed_by_js', u('/title')),
    'Title in the raw HTML: none; after the scripts ran: "Scripted".',
  );
  assert.deepEqual(of(pages, 'meta_description_changed_by_js'), [['medium', u('/description')]]);
  assert.deepEqual(of(pages, 'h1_changed_by_js'), [['low', u('/h1')]]);
  assert.equal(detailOf(pages, 'h1_changed_by_js', u('/h1')), 'First <h1> in the raw HTML: "Raw"; after the scripts ran: none.');
  assert.deepEqual(of(pages, 'canonical_changed_by_js'), [['high', u('/canonical')]]);
  assert.deepEqual(of(pages, 'noindex_changed_by_js'), [
    ['high', u('/noindex-added')],
    ['high', u('/noindex-removed')],
  ]);
  assert.deepEqual(of(pages, 'links_only_rendered'), [['low', u('/links')]]);
  assert.equal(
    detailOf(pages, 'links_only_rendered', u('/links')),
    `12 links only after the scripts ran: ${many.slice(0, 10).join(', ')} and 2 more.`,
  );
  assert.deepEqual(of(pages, 'content_only_rendered'), [
    ['medium', u('/content-110')],
    ['medium', u('/content-200')],
    ['medium', u('/content-from-0')],
  ]);
});

test('jsChanges keeps only what differs, values cut to 200 characters', () => {
  const view: PageView = { title: 'T', description: null, h1: null, noindex: false, words: 5 };
  const long = 'x'.repeat(300);
  assert.deepEqual(jsChanges({ links: [], canonical: null, view }, { links: [], canonical: null, view }), {
    words: { raw: 5, rendered: 5 },
  });
  const changed = jsChanges({ links: [], canonical: null, view }, { links: [], canonical: null, view: { ...view, title: long } });
  assert.equal(changed.title?.raw, 'T');
  assert.equal(changed.title?.rendered, `${'x'.repeat(199)}…`);
});

test('links on the page: internal nofollow, http links, redirecting links; details name 10 then "and N more"', () => {
  const many = Array.from({ length: 12 }, (_, i) => `http://other.test/${i}`);
  const pages = [
    home(),
    page('/nofollow', {}, { nofollowLinks: { names: [u('/x')], count: 1 } }),
    page('/insecure', {}, { httpLinks: { names: many.slice(0, 10), count: 12 } }),
    page('/linker'),
    page('/moved', { status: 301, redirectTo: u('/a'), html: false, facts: null, inSitemap: false, linkedFrom: [u('/linker')] }),
    page('/a'),
  ];
  assert.deepEqual(of(pages, 'internal_nofollow'), [['low', u('/nofollow')]]);
  assert.deepEqual(of(pages, 'http_link'), [['low', u('/insecure')]]);
  assert.equal(detailOf(pages, 'http_link', u('/insecure')), `Links to ${many.slice(0, 10).join(', ')} and 2 more.`);
  assert.deepEqual(of(pages, 'redirecting_link'), [['low', u('/linker')]]);
  assert.equal(detailOf(pages, 'redirecting_link', u('/linker')), `Links to ${u('/moved')} (redirects to ${u('/a')}).`);
});

test('canonicals: chain, to noindex, several, header mismatch, non-canonical in sitemap', () => {
  const pages = [
    home(),
    page('/chain', { canonical: u('/mid'), inSitemap: false }),
    page('/mid', { canonical: u('/final'), inSitemap: false }),
    page('/final'),
    page('/to-noindex', { canonical: u('/hidden'), inSitemap: false }),
    page('/hidden', { noindex: true, inSitemap: false }),
    page('/two', { canonical: u('/two') }, { canonicals: [u('/two'), u('/other')] }),
    page('/mismatch', { canonical: u('/mismatch') }, { canonicals: [u('/mismatch')], headerCanonicals: [u('/elsewhere')] }),
    page('/agree', { canonical: u('/agree') }, { canonicals: [u('/agree')], headerCanonicals: [u('/agree')] }),
    page('/listed-alias', { canonical: u('/final'), inSitemap: true }),
  ];
  assert.deepEqual(of(pages, 'canonical_chain'), [['medium', u('/chain')]]);
  assert.deepEqual(of(pages, 'canonical_to_noindex'), [['medium', u('/to-noindex')]]);
  assert.deepEqual(of(pages, 'multiple_canonicals'), [
    ['medium', u('/mismatch')],
    ['medium', u('/two')],
  ]);
  assert.deepEqual(of(pages, 'canonical_mismatch'), [['medium', u('/mismatch')]]);
  assert.deepEqual(of(pages, 'non_canonical_in_sitemap'), [['medium', u('/listed-alias')]]);
});

test('hreflang: return links, targets, codes, self, x-default, language', () => {
  // A page's own language and itself as x-default: complete on its own.
  const set = (self: string, lang: string) => [
    { lang, href: u(self) },
    { lang: 'x-default', href: u(self) },
  ];
  const pages = [
    home(),
    page(
      '/en',
      {},
      {
        hreflang: [
          { lang: 'en', href: u('/en') },
          { lang: 'de', href: u('/de') },
          { lang: 'x-default', href: u('/en') },
        ],
      },
    ),
    page(
      '/de',
      {},
      {
        lang: 'de',
        hreflang: [
          { lang: 'de', href: u('/de') },
          { lang: 'en', href: u('/en') },
          { lang: 'x-default', href: u('/en') },
        ],
      },
    ),
    // Lists /en, which does not list it back.
    page('/fr', {}, { lang: 'fr', hreflang: [...set('/fr', 'fr'), { lang: 'en', href: u('/en') }] }),
    page('/to-404', {}, { hreflang: [...set('/to-404', 'en'), { lang: 'it', href: u('/gone') }] }),
    page('/gone', { status: 404, html: false, facts: null, inSitemap: false }),
    page('/to-noindex', {}, { hreflang: [...set('/to-noindex', 'en'), { lang: 'nl', href: u('/nl') }] }),
    page(
      '/nl',
      { noindex: true, inSitemap: false },
      { lang: 'nl', hreflang: [...set('/nl', 'nl'), { lang: 'en', href: u('/to-noindex') }] },
    ),
    page('/to-alias', {}, { hreflang: [...set('/to-alias', 'en'), { lang: 'es', href: u('/es') }] }),
    page(
      '/es',
      { canonical: u('/es-main'), inSitemap: false },
      { lang: 'es', hreflang: [...set('/es', 'es'), { lang: 'en', href: u('/to-alias') }] },
    ),
    page(
      '/bad-code',
      {},
      { hreflang: [...set('/bad-code', 'en'), { lang: 'en_US', href: u('/bad-code') }, { lang: 'eng', href: u('/bad-code') }] },
    ),
    // Its alternates lead to a page the crawl never reached: nothing to say about them.
    page('/no-self', {}, { hreflang: [{ lang: 'x-default', href: u('/not-crawled') }] }),
    page('/no-default', {}, { hreflang: [{ lang: 'en', href: u('/no-default') }] }),
    page('/wrong-lang', {}, { lang: 'fr-FR', hreflang: set('/wrong-lang', 'en-GB') }),
    page('/right-lang', {}, { lang: 'EN-us', hreflang: set('/right-lang', 'en-GB') }),
    page('/other-host', {}, { hreflang: [...set('/other-host', 'en'), { lang: 'pt', href: 'https://pt.example.test/' }] }),
  ];
  const checked: CheckedTarget[] = [
    {
      url: 'https://pt.example.test/',
      kind: 'hreflang',
      statusCode: 301,
      finalUrl: 'https://pt.example.test/home',
      error: null,
      bytes: null,
      linkedFrom: [u('/other-host')],
      pages: 1,
    },
  ];
  const issues = (type: string) => of(pages, type, { checked });
  assert.deepEqual(issues('hreflang_no_return'), [['medium', u('/fr')]]);
  assert.deepEqual(issues('hreflang_to_non_200'), [
    ['medium', u('/other-host')],
    ['medium', u('/to-404')],
  ]);
  assert.deepEqual(issues('hreflang_to_noindex'), [['medium', u('/to-noindex')]]);
  assert.deepEqual(issues('hreflang_to_non_canonical'), [['medium', u('/to-alias')]]);
  assert.deepEqual(issues('hreflang_invalid_code'), [['medium', u('/bad-code')]]);
  assert.equal(detailOf(pages, 'hreflang_invalid_code', u('/bad-code')), 'Not a valid hreflang: "en_US" and "eng".');
  assert.deepEqual(issues('hreflang_missing_self'), [['low', u('/no-self')]]);
  assert.deepEqual(issues('hreflang_missing_x_default'), [['low', u('/no-default')]]);
  assert.deepEqual(issues('hreflang_lang_mismatch'), [['low', u('/wrong-lang')]]);
});

test('hreflang codes: x-default, ll, ll-Ssss, ll-RR, ll-Ssss-RR (any case); nothing else', () => {
  for (const code of ['x-default', 'en', 'EN', 'en-GB', 'en-gb', 'zh-Hant', 'zh-Hant-TW', 'X-Default'])
    assert.ok(validHreflang(code), code);
  for (const code of ['eng', 'en_US', 'e', 'en-', 'en-GBR', 'zh-Han-TW', 'en-GB-x', '', 'default'])
    assert.ok(!validHreflang(code), code);
});

test('markup: structured data, duplicate ids, images without alt or size', () => {
  const pages = [
    home(),
    page('/ld', {}, { structuredData: 'JSON-LD block 1 is not valid JSON (Unexpected token).' }),
    page('/ids', {}, { duplicateIds: { names: ['main', 'nav'], count: 2 } }),
    page('/alt', {}, { imagesWithoutAlt: { names: [u('/a.png')], count: 1 } }),
    page('/size', {}, { imagesWithoutSize: { names: [u('/b.png')], count: 1 } }),
  ];
  assert.deepEqual(of(pages, 'invalid_structured_data'), [['low', u('/ld')]]);
  assert.deepEqual(of(pages, 'duplicate_id'), [['low', u('/ids')]]);
  assert.equal(detailOf(pages, 'duplicate_id', u('/ids')), 'Ids used more than once: main and nav.');
  assert.deepEqual(of(pages, 'image_missing_alt'), [['low', u('/alt')]]);
  assert.deepEqual(of(pages, 'image_missing_size'), [['low', u('/size')]]);
});

test('URLs: underscore, capitals outside escapes, double slashes, more than 115 characters', () => {
  const long = `/${'a'.repeat(115 - u('/').length)}`;
  const pages = [
    home(),
    page('/snake_case'),
    page('/CamelCase'),
    page('/escaped%C3%A9'),
    page('/double//slash'),
    page(long),
    page(`${long}b`),
  ];
  assert.equal(u(long).length, 115);
  assert.deepEqual(of(pages, 'url_underscore'), [['low', u('/snake_case')]]);
  assert.deepEqual(of(pages, 'url_uppercase'), [['low', u('/CamelCase')]]);
  assert.deepEqual(of(pages, 'url_multiple_slashes'), [['low', u('/double//slash')]]);
  assert.deepEqual(of(pages, 'url_too_long'), [['low', u(`${long}b`)]]);
});

test('links and images on other hosts: broken, redirected, large (own host only)', () => {
  const target = (over: Partial<CheckedTarget>): CheckedTarget => ({
    url: 'https://other.test/x',
    kind: 'link',
    statusCode: 200,
    finalUrl: 'https://other.test/x',
    error: null,
    bytes: null,
    linkedFrom: [u('/')],
    pages: 1,
    ...over,
  });
  const checked: CheckedTarget[] = [
    target({ url: 'https://other.test/gone', statusCode: 404 }),
    target({ url: 'https://other.test/down', statusCode: null, finalUrl: null, error: 'timeout' }),
    target({ url: 'https://other.test/fine' }),
    target({ url: 'https://other.test/moved', statusCode: 301, finalUrl: 'https://other.test/new' }),
    target({ url: 'https://other.test/moved-gone', statusCode: 301, finalStatusCode: 404, finalUrl: 'https://other.test/404' }),
    target({ url: 'https://other.test/missing.png', kind: 'image', statusCode: 404 }),
    target({ url: u('/big.jpg'), kind: 'image', bytes: 200_001 }),
    target({ url: u('/limit.jpg'), kind: 'image', bytes: 200_000 }),
    target({ url: 'https://cdn.test/big.jpg', kind: 'image', bytes: 900_000 }),
  ];
  const pages = [home()];
  assert.deepEqual(of(pages, 'broken_external_link', { checked }), [
    ['medium', 'https://other.test/down'],
    ['medium', 'https://other.test/gone'],
    ['medium', 'https://other.test/moved-gone'],
  ]);
  assert.equal(
    detailOf(pages, 'broken_external_link', 'https://other.test/down', { checked }),
    `No answer (timeout); linked from ${u('/')}.`,
  );
  assert.deepEqual(of(pages, 'external_redirect', { checked }), [['low', 'https://other.test/moved']]);
  assert.deepEqual(of(pages, 'broken_image', { checked }), [['medium', 'https://other.test/missing.png']]);
  assert.deepEqual(of(pages, 'large_image', { checked }), [['low', u('/big.jpg')]]);
});

/** Words of a text that no other sample shares (seeded, so the test is the same each run). */
function words(count: number, seed: number): string[] {
  let x = seed;
  return Array.from({ length: count }, () => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return `w${(x >>> 8) % 5000}`;
  });
}

function textPage(path: string, text: string): CrawledPage {
  const signature = decodeSignature(encodeSignature(minhashSignature(shingles(text))));
  return page(path, {}, { words: text.split(' ').length, textHash: `hash:${text}`, signature });
}

test('duplicate_content and near_duplicate_content: exact copies, ≥ 0.90 alike, and similar-but-different pages', () => {
  const base = words(400, 1);
  const near = [...base];
  near.splice(200, 0, 'extra', 'words'); // two words inserted: Jaccard ≈ 0.99
  const different = [...base.slice(0, 300), ...words(100, 7)]; // a quarter new: Jaccard ≈ 0.6
  const texts = {
    '/orig': base.join(' '),
    '/copy': base.join(' '),
    '/near': near.join(' '),
    '/different': different.join(' '),
    '/other': words(400, 99).join(' '),
  };
  const pages = [home(), ...Object.entries(texts).map(([path, text]) => textPage(path, text))];
  const plan = planFor(pages);
  const sets = new Map<string, Uint32Array>();
  for (const url of plan.urls) sets.set(url, shingleHashes(texts[url.slice(ORIGIN.length) as keyof typeof texts]));
  const issues = run(pages, { shingles: sets });
  const pick = (type: string) => issues.filter((i) => i.type === type).map((i) => [i.severity, i.url, i.detail]);
  assert.deepEqual(pick('duplicate_content'), [
    ['high', u('/copy'), `Same visible text as ${u('/orig')}.`],
    ['high', u('/orig'), `Same visible text as ${u('/copy')}.`],
  ]);
  const near_ = pick('near_duplicate_content');
  assert.deepEqual(
    near_.map(([, url]) => url),
    [u('/copy'), u('/near'), u('/orig')],
  );
  assert.match(near_[1][2], /^9\d % the same as https:\/\/site\.test\/(orig|copy)\.$/);
  // Without the exact shingle sets nothing is confirmed: the signature alone raises nothing.
  assert.deepEqual(
    run(pages).filter((i) => i.type === 'near_duplicate_content'),
    [],
  );
});

test('near-duplicates at scale: 20,000 pages, 5 % near copies, found without comparing every pair', () => {
  const pages: CrawledPage[] = [home()];
  const texts = new Map<string, string>();
  for (let i = 0; i < 20_000; i++) {
    const own = words(150, i + 10);
    const path = `/p${i}`;
    // Every 20th page copies the page before it but for one word (Jaccard ≈ 0.97).
    const text = (i % 20 === 1 ? words(150, i + 9).map((w, k) => (k === 75 ? 'changed' : w)) : own).join(' ');
    texts.set(u(path), text);
    pages.push(textPage(path, text));
  }
  const started = process.hrtime.bigint();
  const plan = planFor(pages);
  const sets = new Map<string, Uint32Array>();
  for (const url of plan.urls) sets.set(url, shingleHashes(texts.get(url)!));
  const near = run(pages, { shingles: sets }).filter((i) => i.type === 'near_duplicate_content');
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  // Both pages of each pair are reported, nothing else.
  assert.equal(near.length, 2000);
  assert.ok(plan.urls.size <= 2100, `${plan.urls.size} pages needed their text`);
  assert.ok(seconds < 60, `${seconds} s`);
});

test('one issue per (type, url)', () => {
  const pages = [home(), page('/a', { title: null }), page('/a', { title: null })];
  const keys = run(pages).map((i) => `${i.type} ${i.url}`);
  assert.equal(new Set(keys).size, keys.length);
});

test('stored facts round-trip: PageFacts plus the Link header canonicals', () => {
  const stored: PageFacts & { headerCanonicals: string[] } = { ...facts(), signature: null, headerCanonicals: [] };
  assert.deepEqual(JSON.parse(JSON.stringify(stored)), stored);
});
