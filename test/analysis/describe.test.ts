import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { checkLabel, describeCheck } from '../../src/analysis/checks/stored.js';
import { formatBytes, oneLine } from '../../src/analysis/wording.js';
import { DEFAULT_CONFIG, type AnalysisConfig } from '../../src/analysis/config.js';
import { CHECK_NAMES, CHECKS, findCheck } from '../../src/analysis/checks/index.js';
import { runChecks } from '../../src/analysis/run.js';
import { makeSnapshot } from '../../src/analysis/snapshot.js';
import { page } from './checks/helpers.js';
import type { CheckResult, Importance } from '../../src/analysis/types.js';
import type { CheckName } from '../../src/analysis/results.js';

const IMPORTANCE: Record<CheckName, Importance> = Object.fromEntries(
  CHECK_NAMES.map((n) => [n, 'medium' as Importance]),
) as Record<CheckName, Importance>;

function pass(value: unknown): (name: CheckName) => CheckResult {
  return (name) => ({ passed: true, importance: IMPORTANCE[name], value });
}

function fail(value: unknown, key: string, payload: unknown): (name: CheckName) => CheckResult {
  return (name) => ({ passed: false, importance: IMPORTANCE[name], value, errors: { [key]: payload } });
}

const link = (url: string, text = '') => ({ url, text });

// [check, stored object, expected line]: pass lines and every failure key of docs/checks.md §5.
const CASES: Array<[CheckName, (n: CheckName) => CheckResult, string]> = [
  ['title', pass('Blue Widgets for Sale | Example Shop'), 'Title is 36 characters (limit 1–60).'],
  ['title', fail(null, 'missing', null), 'No title tag, or it is blank.'],
  ['title', fail('One', 'too_many', null), 'The page has more than one title tag.'],
  ['title', fail('x'.repeat(81), 'length', { min: '1', max: '60' }), 'Title is 81 characters; keep it between 1 and 60.'],
  ['meta_description', pass('Hand-made widgets.'), 'Meta description is 18 characters.'],
  ['meta_description', fail(null, 'missing', null), 'No meta description.'],
  ['headings', pass({ h1: ['Blue widgets'], h2: ['A', 'B'], h3: [''] }), 'One h1 heading, “Blue widgets”, and 3 other headings.'],
  ['headings', pass({ h1: ['Blue widgets'] }), 'One h1 heading, “Blue widgets”.'],
  ['headings', fail({ h2: ['A', 'B'] }, 'missing', null), 'No h1 heading (2 other headings).'],
  ['headings', fail([], 'missing', null), 'No headings at all.'],
  ['headings', fail({ h1: ['Shop'] }, 'duplicate', null), 'The h1 heading repeats the page title.'],
  ['headings', fail({ h1: ['A', 'B', 'C'], h2: ['D'] }, 'too_many', null), '3 h1 headings; use exactly one.'],
  ['content_keywords', pass(['blue', 'widgets']), 'Title words found in the text: blue and widgets.'],
  [
    'content_keywords',
    fail([], 'missing', ['blue', 'widgets', 'sale']),
    'None of the title’s words appear in the text (looked for blue, widgets and sale).',
  ],
  ['content_keywords', fail([], 'missing', []), 'No title words to look for (no title, or only short and common words).'],
  ['image_keywords', pass(null), 'Every image has alt text.'],
  [
    'image_keywords',
    fail([link('https://a.test/1.jpg'), link('https://a.test/2.jpg'), link('https://a.test/3.jpg')], 'missing', [
      link('https://a.test/1.jpg'),
      link('https://a.test/2.jpg'),
      link('https://a.test/3.jpg'),
    ]),
    '3 images without alt text.',
  ],
  [
    'image_keywords',
    fail([link('https://a.test/1.jpg')], 'missing', [link('https://a.test/1.jpg')]),
    '1 image without alt text.',
  ],
  ['image_format', pass(['AVIF', 'WebP']), 'Every image is in AVIF, WebP or SVG.'],
  ['image_format', fail(['AVIF', 'WebP'], 'bad_format', [link('https://a.test/w.jpg')]), '1 image not in AVIF, WebP or SVG.'],
  [
    'in_page_links',
    pass({ Internals: [link('https://a.test/x', 'X')], Externals: [link('https://b.test/', 'B'), link('https://c.test/')] }),
    '3 links: 1 internal, 2 external.',
  ],
  ['in_page_links', pass([]), 'No links on the page.'],
  [
    'in_page_links',
    fail({ Internals: Array(151).fill(link('https://a.test/')) }, 'too_many', { max: '150' }),
    '151 links (151 internal, 0 external); keep it at most 150.',
  ],
  ['load_time', pass(0.412), 'Load time 0.412 s (limit 2 s).'],
  ['load_time', fail(3.5, 'too_slow', { max: '2' }), 'Load time 3.5 s; keep it at most 2 s.'],
  ['page_size', pass(41236), 'Page size 41.2 KB (limit 330 KB).'],
  ['page_size', fail(412345, 'too_large', { max: '330000' }), 'Page size 412 KB; keep it at most 330 KB.'],
  [
    'http_requests',
    pass({
      JavaScripts: ['https://a.test/a.js'],
      CSS: ['https://a.test/s.css'],
      Images: ['https://a.test/1.png', 'https://a.test/2.png'],
    }),
    '4 requests (1 script, 1 stylesheet, 2 images).',
  ],
  ['http_requests', pass([]), 'No requests for scripts, stylesheets, images or iframes.'],
  [
    'http_requests',
    fail({ JavaScripts: Array(40).fill('https://a.test/a.js'), Iframes: Array(12).fill('https://a.test/f') }, 'too_many', {
      max: '50',
    }),
    '52 requests (40 scripts, 12 iframes); keep it at most 50.',
  ],
  ['defer_javascript', pass(null), 'No render-blocking scripts.'],
  ['defer_javascript', fail(null, 'missing', ['https://a.test/app.js']), '1 script without defer or async blocks rendering.'],
  [
    'defer_javascript',
    fail(null, 'missing', ['https://a.test/a.js', 'https://a.test/b.js']),
    '2 scripts without defer or async block rendering.',
  ],
  ['dom_size', pass(812), '812 elements (limit 1,500).'],
  ['dom_size', fail(2340, 'too_many', { max: '1500' }), '2,340 elements; keep it at most 1,500.'],
  ['text_compression', pass(41236), 'The HTML is sent compressed (41.2 KB transferred).'],
  ['text_compression', fail(812, 'missing', null), 'The HTML is sent uncompressed (812 bytes transferred).'],
  [
    'structured_data',
    pass({ 'Open Graph': { 'og:title': 'T', 'og:type': 'website' }, 'Schema.org': [{ '@type': 'Product' }] }),
    'Found 2 Open Graph tags and 1 Schema.org item.',
  ],
  ['structured_data', fail([], 'missing', null), 'No Open Graph, Twitter card or Schema.org data.'],
  ['meta_viewport', pass('width=device-width, initial-scale=1'), 'Viewport set to “width=device-width, initial-scale=1”.'],
  ['meta_viewport', fail(null, 'missing', null), 'No meta viewport tag.'],
  ['https_encryption', pass('https://a.test/'), 'Served over HTTPS.'],
  ['https_encryption', fail('http://a.test/', 'missing', 'https'), 'Served over plain HTTP, not HTTPS.'],
  ['seo_friendly_url', pass('https://a.test/blue-widgets'), 'The URL is readable and contains a word from the title.'],
  ['seo_friendly_url', fail('https://a.test/p/123', 'missing', null), 'No word of the URL’s host or path appears in the title.'],
  [
    'seo_friendly_url',
    fail('https://a.test/Blue_Widgets?a=1&b=2&c=3', 'bad_format', null),
    'The URL has underscores, capital letters and 3 query parameters.',
  ],
  ['seo_friendly_url', fail('https://a.test/blue%20widgets', 'bad_format', null), 'The URL has spaces.'],
  // é percent-encoded is lower case once decoded: nothing specific to name, so the generic line.
  [
    'seo_friendly_url',
    fail('https://a.test/caf%C3%A9', 'bad_format', null),
    'The URL has underscores, spaces, capital letters or more than 2 query parameters.',
  ],
  ['language', pass('en-US'), 'Language declared as “en-US”.'],
  ['language', fail(null, 'missing', null), 'No lang attribute on the html element.'],
  ['favicon', pass('https://a.test/icon.png'), 'Favicon found at https://a.test/icon.png.'],
  ['favicon', pass(`https://a.test/${'i'.repeat(120)}.png`), 'Favicon found.'],
  ['favicon', fail(null, 'missing', null), 'No icon link in the head, and no icon at /favicon.ico.'],
  ['content_length', pass(812), '812 words of text (minimum 500).'],
  ['content_length', fail(17, 'too_few', { min: '500' }), '17 words of text; aim for at least 500.'],
  ['text_html_ratio', pass(24), 'Text is 24% of the HTML (minimum 10%).'],
  ['text_html_ratio', fail(4, 'too_small', { min: '10' }), 'Text is 4% of the HTML; aim for at least 10%.'],
  ['charset', pass('utf-8'), 'Character encoding declared as “utf-8”.'],
  ['charset', fail(null, 'missing', null), 'No character encoding declared.'],
  ['deprecated_html_tags', pass(null), 'No deprecated HTML tags.'],
  ['deprecated_html_tags', fail(null, 'bad_tags', { center: 1, font: 3 }), '4 deprecated tags: <center> ×1 and <font> ×3.'],
  [
    '404_page',
    pass('https://a.test/0123456789abcdef0123456789abcdef-404-check'),
    'A URL that does not exist answers 404 as it should.',
  ],
  [
    '404_page',
    fail('https://a.test/0123456789abcdef0123456789abcdef-404-check', 'missing', null),
    'A URL that does not exist did not answer 404 or 410.',
  ],
  ['noindex', pass(null), 'No noindex directive: search engines may index the page.'],
  ['noindex', fail('noindex, nofollow', 'missing', null), 'Indexing blocked by “noindex, nofollow”.'],
  ['robots', pass(null), 'robots.txt allows crawling this URL.'],
  ['robots', fail(null, 'failed', ['/private/']), 'Blocked by robots.txt rule /private/.'],
  ['robots', fail(null, 'failed', null), 'robots.txt could not be read (server error or no answer), so crawlers stay away.'],
  ['sitemap', pass(['https://a.test/sitemap.xml']), 'Sitemap found at https://a.test/sitemap.xml.'],
  ['sitemap', pass(['https://a.test/s1.xml', 'https://a.test/s2.xml']), '2 sitemaps found.'],
  ['sitemap', fail([], 'failed', null), 'No sitemap listed in robots.txt or found at /sitemap.xml.'],
  ['mixed_content', pass(null), 'No resources loaded over plain HTTP.'],
  [
    'mixed_content',
    fail(null, 'failed', { Images: ['http://a.test/1.png', 'http://a.test/2.png'], JavaScripts: ['http://a.test/a.js'] }),
    '3 resources loaded over plain HTTP: 2 images, 1 script.',
  ],
  ['server_signature', pass([]), 'No Server or X-Powered-By header.'],
  ['server_signature', pass(['nginx']), 'No version revealed (Server: nginx).'],
  ['server_signature', fail(['nginx/1.24.0'], 'failed', null), 'Headers reveal the server software: nginx/1.24.0.'],
  ['unsafe_cross_origin_links', pass(null), 'Every link opening a new tab is safe.'],
  [
    'unsafe_cross_origin_links',
    fail(null, 'failed', ['https://b.test/', 'https://c.test/']),
    '2 external links open a new tab without noopener.',
  ],
  ['plaintext_email', pass(null), 'No e-mail addresses in plain text.'],
  ['plaintext_email', fail(null, 'failed', ['hello@acme.test']), '1 e-mail address in the page: hello@acme.test.'],
  [
    'social',
    pass({ Twitter: [link('https://x.com/a')], Facebook: [link('https://facebook.com/a')] }),
    'Links to Twitter and Facebook.',
  ],
  ['social', fail([], 'missing', null), 'No links to social network profiles.'],
  ['inline_css', pass(null), 'At most one element has a style attribute.'],
  ['inline_css', fail(null, 'failed', ['margin:0', 'color:red']), '2 elements have a style attribute.'],
  ['inline_css', fail(null, 'failed', Array(50).fill('margin:0')), '50 elements have a style attribute.'],
];

for (const [name, make, expected] of CASES) {
  const stored = make(name);
  const label = stored.passed ? 'pass' : `${Object.keys(stored.errors!)[0]}`;
  test(`describeCheck ${name} ${label}: ${expected}`, () => {
    assert.equal(describeCheck(name, stored), expected);
  });
}

test('the table covers a pass line and every failure key of each check it lists', () => {
  const listed = CHECK_NAMES.filter((name) => CASES.some(([n]) => n === name));
  // the 33 checks of the first release are all here; a check added since may keep its lines in its own test
  assert.ok(listed.length >= 33, `${listed.length} checks listed`);
  for (const name of listed) {
    const mine = CASES.filter(([n]) => n === name).map(([n, make]) => make(n));
    assert.ok(
      mine.some((r) => r.passed),
      `${name}: no pass case`,
    );
    for (const key of findCheck(name)!.errorKeys) {
      assert.ok(
        mine.some((r) => r.errors && key in r.errors),
        `${name}: no ${key} case`,
      );
    }
  }
});

test('every check describes what it found on a page: its own line, not the generic one', () => {
  const pages = [
    '',
    page('<title>A page</title><meta name="description" content="x">', '<h1>Hi</h1><img src="a.png"><a href="/x">x</a>'),
  ];
  for (const html of pages) {
    const { results } = runChecks(makeSnapshot({ html }));
    for (const { name } of CHECKS) {
      assert.ok(!['Passed.', 'Failed.'].includes(describeCheck(name, results[name])), `${name} on ${JSON.stringify(html)}`);
    }
  }
});

test('every check has a title, a why sentence and a fix', () => {
  assert.deepEqual(CHECKS.map((c) => c.name).sort(), [...CHECK_NAMES].sort());
  const labels = new Set<string>();
  for (const info of CHECKS) {
    assert.ok(info.title.length > 0 && info.title.length <= 30, info.name);
    assert.match(info.why, /^\S.*\.$/, `${info.name} why`);
    assert.match(info.fix, /^\S.*\.$/, `${info.name} fix`);
    labels.add(info.title);
  }
  assert.equal(labels.size, CHECK_NAMES.length, 'labels are distinct');
  assert.equal(checkLabel('404_page'), '404 page');
  assert.equal(checkLabel('title'), 'Title tag');
});

test('checkLabel falls back to the name for checks this version does not know', () => {
  assert.equal(checkLabel('title'), 'Title tag');
  assert.equal(checkLabel('future_check'), 'future check');
  assert.equal(checkLabel('constructor'), 'constructor');
});

test('pass lines use the configured limits; failure lines the limits stored with the report', () => {
  const config: AnalysisConfig = { ...DEFAULT_CONFIG, limits: { ...DEFAULT_CONFIG.limits, loadTime: 5, maxTitle: 70 } };
  assert.equal(describeCheck('load_time', pass(1.25)('load_time'), config), 'Load time 1.25 s (limit 5 s).');
  assert.equal(describeCheck('title', pass('Short')('title'), config), 'Title is 5 characters (limit 1–70).');
  // The stored limit wins over the current configuration: it is what the page was judged by.
  assert.equal(
    describeCheck('load_time', fail(3, 'too_slow', { max: '2.5' })('load_time'), config),
    'Load time 3 s; keep it at most 2.5 s.',
  );
  // An unreadable stored limit falls back to the configuration.
  assert.equal(
    describeCheck('load_time', fail(6, 'too_slow', { max: 'soon' })('load_time'), config),
    'Load time 6 s; keep it at most 5 s.',
  );
  assert.equal(
    describeCheck('dom_size', fail(1700, 'too_many', { max: 1600 })('dom_size')),
    '1,700 elements; keep it at most 1,600.',
  );
});

test('titles count code points, not UTF-16 units', () => {
  assert.equal(describeCheck('title', pass('😀😀')('title')), 'Title is 2 characters (limit 1–60).');
});

test('unexpected shapes fall back to a generic line', () => {
  assert.equal(describeCheck('load_time', pass('fast')('load_time')), 'Passed.');
  assert.equal(describeCheck('load_time', fail({}, 'too_slow', null)('load_time')), 'Failed.');
  assert.equal(describeCheck('title', fail('x', 'unheard_of', null)('title')), 'Failed.');
  assert.equal(describeCheck('title', null as unknown as CheckResult), 'Failed.');
  assert.equal(describeCheck('title', 'garbage' as unknown as CheckResult), 'Failed.');
  assert.equal(describeCheck('future_check' as CheckName, { passed: true, importance: 'low', value: 1 }), 'Passed.');
  // Shapes that are wrong only in part still give the specific line where they can.
  assert.equal(describeCheck('image_keywords', fail(null, 'missing', 'two')('image_keywords')), 'Some images have no alt text.');
  assert.equal(
    describeCheck('robots', fail(null, 'failed', [42])('robots')),
    'robots.txt could not be read (server error or no answer), so crawlers stay away.',
  );
  assert.equal(
    describeCheck('http_requests', fail({ JavaScripts: 'x' }, 'too_many', { max: '50' })('http_requests')),
    'Over 50 requests.',
  );
});

test('page text is flattened to one short line: no newlines, no control characters', () => {
  const hostile = `noindex\n\u001b[31mred\u001b[0m\u202e evil\r\n${'x'.repeat(200)}`;
  const line = describeCheck('noindex', fail(hostile, 'missing', null)('noindex'));
  assert.doesNotMatch(line, /[\n\r\u001b\u202e]/);
  assert.ok(line.startsWith('Indexing blocked by “noindex [31mred [0m evil xxx'), line);
  assert.ok([...line].length <= 80, line);
  assert.equal(oneLine('a\n\tb  c'), 'a b c');
  assert.equal(oneLine('abcdef', 4), 'abc…');
});

test('many items are summarised as "and N more"', () => {
  const emails = ['a@x.test', 'b@x.test', 'c@x.test', 'd@x.test'];
  assert.equal(
    describeCheck('plaintext_email', fail(null, 'failed', emails)('plaintext_email')),
    '4 e-mail addresses in the page: a@x.test, b@x.test and 2 more.',
  );
});

/** A stored check object with `omitted` (bounds.ts). */
function cut(make: (name: CheckName) => CheckResult, omitted: Record<string, number>): (name: CheckName) => CheckResult {
  return (name) => ({ ...make(name), omitted });
}

test('counts are exact: what the report lists plus what its omitted says it left out', () => {
  const thousand = (f: (i: number) => unknown) => Array.from({ length: 1000 }, (_, i) => f(i));
  const cases: Array<[CheckName, (n: CheckName) => CheckResult, string]> = [
    [
      'in_page_links',
      cut(
        fail(
          { Internals: thousand((i) => link(`https://a.test/${i}`)), Externals: thousand((i) => link(`https://b.test/${i}`)) },
          'too_many',
          { max: '150' },
        ),
        { '/value/Internals': 89_000, '/value/Externals': 9_000 },
      ),
      '100,000 links (90,000 internal, 10,000 external); keep it at most 150.',
    ],
    [
      'in_page_links',
      cut(pass({ Internals: [link('https://a.test/')] }), { '/value/Internals': 4 }),
      '5 links: 5 internal, 0 external.',
    ],
    [
      'headings',
      cut(fail({ h1: thousand(() => 'A'), h2: ['B'] }, 'too_many', null), { '/value/h1': 2000 }),
      '3,000 h1 headings; use exactly one.',
    ],
    [
      'headings',
      cut(fail({ h2: thousand(() => 'B') }, 'missing', null), { '/value/h2': 1 }),
      'No h1 heading (1,001 other headings).',
    ],
    [
      'image_keywords',
      cut(
        fail(
          thousand(() => link('u')),
          'missing',
          thousand(() => link('u')),
        ),
        { '/value': 5, '/errors/missing': 5 },
      ),
      '1,005 images without alt text.',
    ],
    [
      'image_format',
      cut(
        fail(
          ['AVIF', 'WebP'],
          'bad_format',
          thousand(() => link('u')),
        ),
        { '/errors/bad_format': 1 },
      ),
      '1,001 images not in AVIF, WebP or SVG.',
    ],
    [
      'http_requests',
      cut(fail({ JavaScripts: thousand(() => 'a.js'), Images: ['i.png'] }, 'too_many', { max: '50' }), {
        '/value/JavaScripts': 500,
      }),
      '1,501 requests (1,500 scripts, 1 image); keep it at most 50.',
    ],
    [
      'defer_javascript',
      cut(fail(null, 'missing', ['a.js']), { '/errors/missing': 1 }),
      '2 scripts without defer or async block rendering.',
    ],
    [
      'structured_data',
      cut(pass({ 'Open Graph': { 'og:a': '1' }, 'Schema.org': [{}] }), { '/value/Open Graph': 9, '/value/Schema.org': 2 }),
      'Found 10 Open Graph tags and 3 Schema.org items.',
    ],
    ['sitemap', cut(pass(['https://a.test/s.xml']), { '/value': 1 }), '2 sitemaps found.'],
    [
      'mixed_content',
      cut(fail(null, 'failed', { Images: ['http://a.test/1.png'] }), { '/errors/failed/Images': 2 }),
      '3 resources loaded over plain HTTP: 3 images.',
    ],
    [
      'unsafe_cross_origin_links',
      cut(fail(null, 'failed', ['https://b.test/']), { '/errors/failed': 1 }),
      '2 external links open a new tab without noopener.',
    ],
    [
      'plaintext_email',
      cut(fail(null, 'failed', ['a@x.test', 'b@x.test']), { '/errors/failed': 3 }),
      '5 e-mail addresses in the page: a@x.test, b@x.test and 3 more.',
    ],
    ['content_keywords', cut(pass(['blue']), { '/value': 2 }), 'Title words found in the text: blue and 2 more.'],
    [
      'inline_css',
      cut(fail(null, 'failed', Array(50).fill('margin:0')), { '/errors/failed': 70 }),
      '120 elements have a style attribute.',
    ],
    ['social', cut(pass({ Twitter: [link('https://x.com/a')] }), { '/value': 2 }), 'Links to Twitter and 2 more.'],
    // Whole groups left out: the total is unknown, so the line says only what is certain.
    [
      'in_page_links',
      cut(fail({ Internals: [link('https://a.test/')] }, 'too_many', { max: '150' }), { '/value': 1 }),
      'Over 150 links.',
    ],
    ['structured_data', cut(pass({ Twitter: { 'twitter:card': 'x' } }), { '/value': 2 }), 'Passed.'],
  ];
  for (const [name, make, expected] of cases) assert.equal(describeCheck(name, make(name)), expected, name);
});

test('texts the report cut are "more than 2,048 characters"; older reports keep their exact length', () => {
  assert.equal(
    describeCheck('title', fail(`${'T'.repeat(2048)}…`, 'length', { min: '1', max: '60' })('title')),
    'Title is more than 2,048 characters; keep it between 1 and 60.',
  );
  assert.equal(
    describeCheck('title', fail('T'.repeat(5000), 'length', { min: '1', max: '60' })('title')),
    'Title is 5,000 characters; keep it between 1 and 60.',
  );
  assert.equal(
    describeCheck('meta_description', pass(`${'😀'.repeat(2048)}…`)('meta_description')),
    'Meta description is more than 2,048 characters.',
  );
  assert.equal(
    describeCheck('meta_description', pass(`${'d'.repeat(100)}…`)('meta_description')),
    'Meta description is 101 characters.',
  );
});

test('a malformed omitted is ignored', () => {
  const links = fail({ Internals: [link('https://a.test/')] }, 'too_many', { max: '150' });
  for (const omitted of [
    null,
    'x',
    [],
    { '/value/Internals': -3 },
    { '/value/Internals': 'many' },
    { '/value/Internals': Infinity },
    { '/value/Internals': 2.5 },
  ]) {
    const stored = { ...links('in_page_links'), omitted } as unknown as CheckResult;
    assert.equal(
      describeCheck('in_page_links', stored),
      '1 link (1 internal, 0 external); keep it at most 150.',
      JSON.stringify(omitted),
    );
  }
});

test('formatBytes uses decimal units, as the limits are written', () => {
  assert.equal(formatBytes(1), '1 byte');
  assert.equal(formatBytes(999), '999 bytes');
  assert.equal(formatBytes(1000), '1 KB');
  assert.equal(formatBytes(41236), '41.2 KB');
  assert.equal(formatBytes(330000), '330 KB');
  assert.equal(formatBytes(5_242_880), '5.24 MB');
  assert.equal(formatBytes(2_000_000), '2 MB');
});

// docs/checks.md §4.1 "Head": the tag stands after an element that closed the head early.
const closedEarly =
  (closer: unknown, key = 'missing') =>
  (name: CheckName): CheckResult => ({
    passed: false,
    importance: IMPORTANCE[name],
    value: null,
    errors: { [key]: null, head_closed_by: closer },
  });
const HEAD_CLOSED_CASES: Array<[CheckName, unknown, string]> = [
  [
    'meta_description',
    '<iframe>',
    'No meta description in the head: an <iframe> closed the head early, so the tag after it counts as body content. Move the tag above the <iframe>, or move the <iframe> into the body.',
  ],
  [
    'title',
    '<div>',
    'No title tag in the head: a <div> closed the head early, so the tag after it counts as body content. Move the tag above the <div>, or move the <div> into the body.',
  ],
  [
    'meta_viewport',
    '<img>',
    'No meta viewport tag in the head: an <img> closed the head early, so the tag after it counts as body content. Move the tag above the <img>, or move the <img> into the body.',
  ],
  [
    'charset',
    '#text',
    'No character encoding declared in the head: stray text closed the head early, so the tag after it counts as body content. Move the tag above the text, or remove the text.',
  ],
  [
    'favicon',
    '<cookie-banner>',
    'No icon link in the head, and no icon at /favicon.ico: a <cookie-banner> closed the head early, so the tag after it counts as body content. Move the tag above the <cookie-banner>, or move the <cookie-banner> into the body.',
  ],
];

for (const [name, closer, expected] of HEAD_CLOSED_CASES) {
  test(`describeCheck ${name} missing with head_closed_by ${closer}: says what closed the head and how to fix it`, () => {
    assert.equal(describeCheck(name, closedEarly(closer)(name)), expected);
  });
}

test('head_closed_by is read only as a tag in angle brackets or #text; anything else leaves the main line', () => {
  assert.match(
    describeCheck('meta_description', closedEarly('<iframe>')('meta_description')),
    /^No meta description in the head: an <iframe> closed/,
  );
  for (const junk of [null, 42, ['<iframe>'], { tag: 'iframe' }, '', 'iframe', '<>', '<a<b>', '#TEXT', '<iframe', '\u001b[31m']) {
    assert.equal(describeCheck('meta_description', closedEarly(junk)('meta_description')), 'No meta description.', String(junk));
  }
  // Only a head check's `missing` names the closer; another key, or another check, keeps its own line.
  assert.equal(describeCheck('title', closedEarly('<iframe>', 'too_many')('title')), 'The page has more than one title tag.');
  assert.equal(describeCheck('noindex', closedEarly('<iframe>')('noindex')), 'The page tells search engines not to index it.');
  assert.equal(describeCheck('language', closedEarly('<iframe>')('language')), 'No lang attribute on the html element.');
  // As the first key it is no failure key at all.
  const first = {
    passed: false,
    importance: 'high',
    value: null,
    errors: { head_closed_by: '<iframe>', missing: null },
  } as CheckResult;
  assert.equal(describeCheck('meta_description', first), 'Failed.');
});

test('a closing element from the page is flattened and cut short', () => {
  const line = describeCheck('title', closedEarly(`<x-${'w'.repeat(80)}\u001b\u202e>`)('title'));
  assert.doesNotMatch(line, /[\n\r\u001b\u202e]/);
  assert.ok(line.includes(`a <x-${'w'.repeat(21)}…> closed the head early`), line);
});

test('property: any head_closed_by gives one line of at most 260 characters; a tag name is always named', () => {
  const heads = ['title', 'meta_description', 'meta_viewport', 'charset', 'favicon'] as const;
  const tagName = fc.stringMatching(/^[a-z][a-z0-9-]{0,80}$/);
  fc.assert(
    fc.property(
      fc.constantFrom(...heads),
      tagName,
      fc.oneof(
        fc.string({ maxLength: 200 }).map((s) => `<${s}>`),
        fc.jsonValue(),
      ),
      (name, tag, junk) => {
        const named = describeCheck(name, closedEarly(`<${tag}>`)(name));
        assert.match(named, /closed the head early/);
        for (const line of [named, describeCheck(name, closedEarly(junk)(name))]) {
          assert.doesNotMatch(line, /[\n\r\p{Cc}]/u);
          assert.ok([...line].length <= 260, `${name}: ${line.length}: ${line}`);
        }
      },
    ),
    { numRuns: 2000 },
  );
});

test('property: any stored JSON gives one line of at most 150 characters, never an exception', () => {
  const json = fc.jsonValue({ maxDepth: 3 });
  const stored = fc.record(
    {
      passed: fc.oneof(fc.boolean(), json),
      importance: json,
      value: json,
      errors: fc.oneof(
        json,
        fc.dictionary(
          fc.constantFrom(
            'missing',
            'too_many',
            'length',
            'failed',
            'bad_tags',
            'too_few',
            'bad_format',
            'too_slow',
            'too_large',
            'too_small',
            'duplicate',
          ),
          json,
          { maxKeys: 1 },
        ),
      ),
      omitted: fc.oneof(
        json,
        fc.dictionary(
          fc.constantFrom('/value', '/value/Internals', '/value/h1', '/errors/failed', '/errors/missing', '/errors/too_many'),
          fc.oneof(fc.nat(), json),
        ),
      ),
    },
    { requiredKeys: [] },
  );
  fc.assert(
    fc.property(fc.constantFrom(...CHECK_NAMES), fc.oneof(stored, json), (name, result) => {
      const line = describeCheck(name, result as CheckResult);
      assert.equal(typeof line, 'string');
      assert.doesNotMatch(line, /[\n\r]/);
      assert.ok([...line].length <= 150, `${name}: ${line.length}: ${line}`);
    }),
    { numRuns: 3000 },
  );
});
