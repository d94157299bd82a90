import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { findAll } from 'domutils';
import { renderReportPage, type ShareReport } from '../../src/render/index.js';
import { escapeHtml } from '../../src/render/html.js';
import { findCheck } from '../../src/analysis/checks/index.js';
import { DEFAULT_CONFIG } from '../../src/analysis/config.js';
import { CHECK_NAMES } from '../../src/analysis/checks/index.js';
import { all, assertPageBasics, byId, one, parse, text } from './render-helpers.js';

const sample: ShareReport = JSON.parse(readFileSync(new URL('../fixtures/reports/sample.json', import.meta.url), 'utf8'));

// Messages on every assertion: without one, a failing assert.ok makes node re-parse the
// compiled one-line test file to describe the expression, which takes minutes.
function contains(haystack: string, needle: string): void {
  assert.ok(haystack.includes(needle), `expected to find ${needle.slice(0, 100)}`);
}

function lacks(haystack: string, needle: string): void {
  assert.ok(!haystack.includes(needle), `expected not to find ${needle.slice(0, 100)}`);
}

function withResults(results: unknown, extra: Partial<ShareReport> = {}): ShareReport {
  return { ...sample, results, ...extra };
}

test('the sample report page passes the document, CSP and escaping basics', () => {
  assertPageBasics(renderReportPage(sample), { noindex: false });
});

test('every check of the stored report appears, with its label, a mark and its description', () => {
  const doc = parse(renderReportPage(sample));
  // the fixture is a stored report: its checks, each one this version knows, in report order
  const stored = Object.keys(sample.results as object);
  assert.equal(all(doc, 'article').length, stored.length);
  assert.deepEqual(
    stored,
    CHECK_NAMES.filter((name) => stored.includes(name)),
  );
  for (const name of stored) {
    const article = byId(doc, `check-${name}`);
    assert.ok(article, `${name} is on the page`);
    assert.equal(text(one(article, 'h3')!), findCheck(name)!.title);
    const passed = (sample.results as Record<string, { passed: boolean }>)[name].passed;
    // Pass and fail are told by a word, not by colour alone.
    assert.equal(text(findAll((e) => e.attribs.class === 'status', [article])[0]), passed ? 'Passed' : 'Failed', name);
    assert.match(article.attribs.class, passed ? /check-pass/ : /check-fail/);
  }
});

test('the score gauge shows the score and its band, in words too', () => {
  const doc = parse(renderReportPage(sample));
  const gauge = findAll((e) => e.name === 'svg' && /\bgauge\b/.test(e.attribs.class ?? ''), [doc])[0];
  assert.equal(gauge.attribs.class, 'gauge band-decent');
  assert.equal(gauge.attribs.role, 'img');
  assert.equal(gauge.attribs['aria-label'], 'Score: 86 out of 100, decent');
  assert.equal(text(all(gauge, 'text')[0]), '86');
  // The arc covers 86% of the circumference 2π·52 = 326.726: 280.984.
  const arc = all(gauge, 'circle')[1];
  assert.equal(arc.attribs['stroke-dasharray'], '280.98 326.73');
  assert.equal(text(findAll((e) => e.attribs.class === 'badge', [doc])[0]), 'Decent');

  const good = parse(renderReportPage({ ...sample, result: 90 }));
  assert.match(findAll((e) => e.name === 'svg' && /gauge/.test(e.attribs.class ?? ''), [good])[0].attribs.class, /band-good/);
  const bad = parse(renderReportPage({ ...sample, result: 49 }));
  assert.equal(
    findAll((e) => e.name === 'svg' && /gauge/.test(e.attribs.class ?? ''), [bad])[0].attribs['aria-label'],
    'Score: 49 out of 100, poor',
  );
  // Bands come from the configuration.
  const strict = renderReportPage({ ...sample, result: 92 }, { config: { ...DEFAULT_CONFIG, bands: { good: 95, decent: 60 } } });
  assert.match(strict, /class="gauge band-decent"/);
});

test('counts of passed and failed checks by importance', () => {
  const doc = parse(renderReportPage(sample));
  const table = findAll((e) => e.name === 'table' && e.attribs.class === 'counts', [doc])[0];
  const rows = all(table, 'tr').map((tr) => tr.children.map((cell) => text(cell as never)).join(' '));
  // From the fixture, by hand: high fails image_keywords; medium fails image_format,
  // server_signature and unsafe_cross_origin_links; low fails four of nine.
  assert.deepEqual(rows, ['Importance Passed Failed', 'High 10 1', 'Medium 10 3', 'Low 5 4']);
  assert.match(text(doc), /25 of 33 checks passed\./);
  assert.match(text(doc), /Low-importance checks do not affect the score\./);
});

test('checks are grouped by importance (high, medium, low), failures first within a group', () => {
  const html = renderReportPage(sample);
  const at = (s: string) => html.indexOf(s);
  assert.ok(at('id="importance-high"') < at('id="importance-medium"'), 'high before medium');
  assert.ok(at('id="importance-medium"') < at('id="importance-low"'), 'medium before low');
  const section = (importance: string) => html.slice(at(`id="importance-${importance}"`));
  assert.ok(at('id="check-image_keywords"') < at('id="check-title"'), 'the failed high check comes first');
  assert.ok(at('id="check-title"') < at('id="importance-medium"'), 'title is a high check');
  assert.ok(
    section('medium').indexOf('id="check-server_signature"') < section('medium').indexOf('id="check-in_page_links"'),
    'failed medium first',
  );
  assert.ok(at('id="check-inline_css"') > at('id="importance-low"'), 'inline_css is a low check');
});

test('failed checks say how to fix them; passed checks do not', () => {
  const html = renderReportPage(sample);
  const doc = parse(html);
  const article = (name: string) => html.slice(html.indexOf(`id="check-${name}"`)).split('</article>')[0];
  contains(article('image_keywords'), escapeHtml(findCheck('image_keywords')!.fix));
  contains(article('image_keywords'), escapeHtml(findCheck('image_keywords')!.why));
  lacks(html, escapeHtml(findCheck('title')!.fix));
  assert.equal(findAll((e) => e.attribs.class === 'check-fix', [doc]).length, 8);
});

test('descriptions are the plain-language lines, with units', () => {
  const doc = parse(renderReportPage(sample));
  const found = (name: string) => text(findAll((e) => e.attribs.class === 'check-found', [byId(doc, `check-${name}`)!])[0]);
  assert.equal(found('load_time'), 'Load time 0.412 s (limit 2 s).');
  assert.equal(found('page_size'), 'Page size 41.2 KB (limit 330 KB).');
  assert.equal(found('image_keywords'), '2 images without alt text.');
  assert.equal(found('content_length'), '312 words of text; aim for at least 500.');
});

test('values are rendered for people: outline, link lists, property lists, collapsed long lists', () => {
  const doc = parse(renderReportPage(sample));
  const check = (name: string) => byId(doc, `check-${name}`)!;

  const outline = findAll((e) => e.name === 'ul' && e.attribs.class === 'outline', [check('headings')])[0];
  assert.deepEqual(
    all(outline, 'li').map((li) => text(li)),
    [
      'H1Blue widgets',
      'H2Why hand-made?',
      'H2Sizes and prices',
      'H2Customer reviews',
      'H3Small',
      'H3Medium',
      'H3Large',
      'H3(empty)',
    ],
  );

  // 14 internal links: 10 shown, 4 behind <details>; 3 external links all shown.
  const links = check('in_page_links');
  assert.deepEqual(
    all(links, 'h4').map((h) => text(h)),
    ['Internal links (14)', 'External links (3)'],
  );
  const details = all(links, 'details');
  assert.equal(details.length, 1);
  assert.equal(text(one(details[0], 'summary')!), 'Show 4 more links');
  assert.equal(all(details[0], 'li').length, 4);
  assert.equal(all(links, 'li').length, 17);
  const first = all(links, 'li')[0];
  assert.equal(text(first), 'Homehttps://www.example-shop.test/');
  assert.equal(one(first, 'a')!.attribs.href, 'https://www.example-shop.test/');
  assert.match(text(all(links, 'li')[15]), /^no link text/);

  const structured = check('structured_data');
  const terms = all(structured, 'dt').map((dt) => text(dt));
  assert.deepEqual(terms, [
    'og:title',
    'og:type',
    'og:image',
    '@context',
    '@type',
    'name',
    'offers',
    '@type',
    'price',
    'priceCurrency',
  ]);

  assert.deepEqual(
    all(check('server_signature'), 'code').map((c) => text(c)),
    [],
    'both headers are already in the line',
  );
  assert.deepEqual(
    all(check('inline_css'), 'code').map((c) => text(c)),
    ['margin:0', 'color:#c00;font-weight:bold', 'display:none'],
  );
  assert.equal(
    text(findAll((e) => e.attribs.class === 'value-text', [check('title')])[0]),
    'Blue Widgets for Sale | Example Shop',
  );
  // The page's own URL is not repeated under https_encryption.
  assert.equal(findAll((e) => e.attribs.class === 'check-value', [check('https_encryption')]).length, 0);
});

test('the generation date is shown in UTC whatever the server time zone', () => {
  const zone = process.env.TZ;
  process.env.TZ = 'Pacific/Kiritimati'; // UTC+14: 23:30 UTC is already the next day there
  try {
    const doc = parse(renderReportPage({ ...sample, generated_at: '2025-12-31T23:30:00.123456Z' }));
    const time = one(doc, 'time')!;
    assert.equal(time.attribs.datetime, '2025-12-31T23:30:00Z');
    assert.equal(text(time), '31 Dec 2025, 23:30 UTC');
  } finally {
    if (zone === undefined) delete process.env.TZ;
    else process.env.TZ = zone;
  }
});

const HOSTILE = {
  title: { passed: true, importance: 'high', value: '<script>alert(1)</script>' },
  meta_description: { passed: true, importance: 'high', value: '" onmouseover="alert(1)' },
  headings: {
    passed: false,
    importance: 'high',
    value: { h1: ['</h4><script>alert(2)</script>'], '<h7 onclick=x>': ['y'] },
    errors: { too_many: null },
  },
  in_page_links: {
    passed: true,
    importance: 'medium',
    value: {
      Internals: [
        { url: 'javascript:alert(3)', text: '<img src=x onerror=alert(4)>' },
        { url: ' JavaScript:alert(5)', text: 'x' },
      ],
      Externals: [
        { url: 'https://evil.test/"><script>alert(6)</script>', text: "'onfocus='alert(7)" },
        { url: 'data:text/html,<script>alert(8)</script>', text: 'd' },
      ],
      '<b onmouseover=alert(9)>': 'not a list',
    },
  },
  favicon: { passed: true, importance: 'medium', value: 'javascript:alert(10)' },
  structured_data: {
    passed: true,
    importance: 'medium',
    value: { 'Schema.org': [{ '<script>': '"onmouseover=', nested: { a: [1, { b: 'javascript:alert(11)' }] } }] },
  },
  image_keywords: {
    passed: false,
    importance: 'high',
    value: 'nonsense',
    errors: { missing: [{ url: 'vbscript:msgbox(1)', text: '<iframe>' }, 42, null, ['x']] },
  },
  robots: { passed: false, importance: 'high', value: null, errors: { failed: ['<style>body{display:none}</style>'] } },
  '<svg onload=alert(12)>': { passed: 'yes', importance: '<b>', value: { '"': '<script>' }, errors: { '<x>': '<y>' } },
  dom_size: 'not an object',
  load_time: { passed: true, importance: 'medium', value: '<script>' },
};

test('hostile strings come out escaped, and unsafe URLs are never links', () => {
  const html = renderReportPage(withResults(HOSTILE, { url: 'javascript:alert(0)//<script>' }));
  const doc = assertPageBasics(html, { noindex: false });
  contains(html, '&lt;script&gt;alert(1)&lt;/script&gt;');
  contains(html, '&quot; onmouseover=&quot;alert(1)');
  contains(html, '&lt;img src=x onerror=alert(4)&gt;');
  assert.doesNotMatch(html, /<a [^>]*href="\s*(javascript|data|vbscript):/i);
  // The unsafe URLs are still shown, as text.
  contains(html, 'javascript:alert(3)');
  contains(html, 'javascript:alert(10)');
  contains(html, 'vbscript:msgbox(1)');
  // The https URL with a quote in it is a link, with the quote encoded.
  const evil = all(doc, 'a').find((a) => a.attribs.href.startsWith('https://evil.test/'));
  assert.equal(evil?.attribs.href, 'https://evil.test/%22%3E%3Cscript%3Ealert(6)%3C/script%3E');
  // Nothing opened an element the renderer did not write.
  assert.equal(all(doc, 'style').length + all(doc, 'iframe').length + all(doc, 'img').length + all(doc, 'h7').length, 0);
  // The report page's own URL is not linked either.
  assert.match(text(one(doc, 'h1')!), /^javascript:alert\(0\)\/\/<script>$/);
  // The unknown check still shows up, labelled by its (escaped) name.
  contains(html, '&lt;svg onload=alert(12)&gt;');
});

test('a head check failed by an early close says what closed the head; head_closed_by itself is never shown', () => {
  const results = {
    ...(sample.results as Record<string, unknown>),
    meta_description: { passed: false, importance: 'high', value: null, errors: { missing: null, head_closed_by: '<iframe>' } },
    favicon: {
      passed: false,
      importance: 'medium',
      value: null,
      errors: { missing: null, head_closed_by: '<script>alert(1)</script>' },
    },
  };
  const html = renderReportPage(withResults(results));
  assertPageBasics(html, { noindex: false });
  const doc = parse(html);
  const found = (name: string) => text(findAll((e) => e.attribs.class === 'check-found', [byId(doc, `check-${name}`)!])[0]);
  assert.equal(
    found('meta_description'),
    'No meta description in the head: an <iframe> closed the head early, so the tag after it counts as body content. Move the tag above the <iframe>, or move the <iframe> into the body.',
  );
  // Not a tag name: the plain line, and the stored string appears nowhere.
  assert.equal(found('favicon'), 'No icon link in the head, and no icon at /favicon.ico.');
  lacks(html, 'head_closed_by');
  lacks(html, 'alert(1)');
});

test('stored reports of any shape render without throwing', () => {
  for (const results of [
    null,
    42,
    'text',
    [],
    [1, 2],
    {},
    { title: null },
    { title: [] },
    { headings: { passed: true, value: 7 } },
  ]) {
    const html = renderReportPage(withResults(results));
    assertPageBasics(html, { noindex: false });
  }
  const html = renderReportPage({
    ...sample,
    result: 'abc' as unknown as number,
    generated_at: 'yesterday',
    url: 42 as unknown as string,
  });
  assertPageBasics(html, { noindex: false });
  assert.match(html, /Score unavailable/);
  assert.match(html, /Generated at an unknown date/);
});

test('a huge list is capped, and the page says how many were left out', () => {
  const links = Array.from({ length: 1000 }, (_, i) => ({ url: `https://a.test/${i}`, text: `Link ${i}` }));
  const doc = parse(
    renderReportPage(
      withResults({
        in_page_links: { passed: false, importance: 'medium', value: { Internals: links }, errors: { too_many: { max: '150' } } },
      }),
    ),
  );
  const check = byId(doc, 'check-in_page_links')!;
  assert.equal(all(check, 'li').length, 250);
  assert.match(text(check), /…and 750 more not shown\./);
  assert.match(text(check), /1,000 links \(1,000 internal, 0 external\); keep it at most 150\./);
});

test('lists the report cut say how many more it did not list (its omitted), and counts include them', () => {
  const links = Array.from({ length: 1000 }, (_, i) => ({ url: `https://a.test/${i}`, text: `Link ${i}` }));
  const image = { url: 'https://a.test/i.jpg', text: '' };
  const doc = parse(
    renderReportPage(
      withResults({
        in_page_links: {
          passed: false,
          importance: 'medium',
          value: { Internals: links, Externals: links.slice(0, 3) },
          errors: { too_many: { max: '150' } },
          omitted: { '/value/Internals': 89_000, '/value/Externals': 7 },
        },
        image_keywords: {
          passed: false,
          importance: 'high',
          value: [image],
          errors: { missing: [image] },
          omitted: { '/value': 4, '/errors/missing': 4 },
        },
        headings: {
          passed: false,
          importance: 'high',
          value: { h1: ['A', 'B'], h2: ['C'] },
          errors: { too_many: null },
          omitted: { '/value/h1': 10, '/value/h2': 5 },
        },
        structured_data: {
          passed: true,
          importance: 'medium',
          value: { 'Schema.org': [{ '@type': 'Thing', list: [1, 2] }] },
          omitted: { '/value/Schema.org/0': 3, '/value/Schema.org/0/list': 98 },
        },
        inline_css: {
          passed: false,
          importance: 'low',
          value: null,
          errors: { failed: ['a:b'] },
          omitted: { '/errors/failed': 70 },
        },
        title: { passed: true, importance: 'high', value: 'Fine' },
      }),
    ),
  );
  const check = (name: string) => byId(doc, `check-${name}`)!;
  const notes = (name: string) => findAll((e) => /\bnot-listed\b/.test(e.attribs.class ?? ''), [check(name)]).map((p) => text(p));
  const found = (name: string) => text(findAll((e) => e.attribs.class === 'check-found', [check(name)])[0]);

  assert.deepEqual(
    all(check('in_page_links'), 'h4').map((h) => text(h)),
    ['Internal links (90,000)', 'External links (10)'],
  );
  assert.deepEqual(notes('in_page_links'), [
    '…and 89,000 more not listed in the report.',
    '…and 7 more not listed in the report.',
  ]);
  assert.match(text(check('in_page_links')), /…and 750 more not shown\./);
  assert.equal(found('in_page_links'), '90,010 links (90,000 internal, 10 external); keep it at most 150.');

  assert.deepEqual(notes('image_keywords'), ['…and 4 more not listed in the report.'], 'the list is shown once, with the error');
  assert.equal(found('image_keywords'), '5 images without alt text.');
  assert.deepEqual(notes('headings'), ['…and 15 more not listed in the report.']);
  assert.equal(found('headings'), '12 h1 headings; use exactly one.');
  assert.deepEqual(notes('structured_data'), ['…and 98 more not listed in the report.', '…and 3 more not listed in the report.']);
  assert.deepEqual(notes('inline_css'), ['…and 70 more not listed in the report.']);
  assert.equal(found('inline_css'), '71 elements have a style attribute.');
  assert.deepEqual(notes('title'), []);
  assert.equal(
    findAll((e) => /\bnot-listed\b/.test(e.attribs.class ?? ''), [parse(renderReportPage(sample))]).length,
    0,
    'nothing cut, nothing said',
  );
});

test('a title value of 2,000 characters is cut short', () => {
  const long = 'x'.repeat(2000);
  const html = renderReportPage(
    withResults({ title: { passed: false, importance: 'high', value: long, errors: { length: { min: '1', max: '60' } } } }),
  );
  lacks(html, long);
  contains(html, `${'x'.repeat(499)}…`);
  assert.match(html, /Title is 2,000 characters; keep it between 1 and 60\./);
});

test('group and key names that shadow Object.prototype are just names', () => {
  const tricky = { constructor: [{ url: 'https://a.test/', text: 'A' }], __proto__x: [], toString: ['https://a.test/t.js'] };
  const html = renderReportPage(
    withResults({
      in_page_links: { passed: true, importance: 'medium', value: tricky },
      http_requests: {
        passed: true,
        importance: 'medium',
        value: JSON.parse('{"__proto__": ["https://a.test/p.js"], "constructor": ["https://a.test/c.js"]}'),
      },
      social: { passed: true, importance: 'low', value: { hasOwnProperty: [{ url: 'https://a.test/', text: 'x' }] } },
    }),
  );
  const doc = assertPageBasics(html, { noindex: false });
  assert.equal(
    text(findAll((e) => e.attribs.class === 'check-found', [byId(doc, 'check-http_requests')!])[0]),
    '2 requests (1 __proto__, 1 constructor).',
  );
  assert.deepEqual(
    all(byId(doc, 'check-in_page_links')!, 'h4').map((h) => text(h)),
    ['constructor (1)', '__proto__x (0)', 'toString (1)'],
  );
});
