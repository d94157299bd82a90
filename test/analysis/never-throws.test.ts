// Property: on any page and any snapshot, the engine returns a well-formed object for every check and
// never throws (docs/checks.md §1 "No exceptions").

import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { CHECKS } from '../../src/analysis/checks/index.js';
import { runChecks } from '../../src/analysis/run.js';
import { makeSnapshot } from '../../src/analysis/snapshot.js';
import { CHECK_NAMES } from '../../src/analysis/checks/index.js';
import type { PageSnapshot } from '../../src/analysis/types.js';
import type { AnalysisResult } from '../../src/analysis/results.js';
import { htmlish } from './arbitraries.js';

const url = fc.oneof(
  fc.webUrl({ withQueryParameters: true, withFragments: true }),
  fc.constantFrom(
    'http://127.0.0.1:8080/a',
    'https://www.example.test/Blue_Widgets?a=1&b=2&c=3',
    'http://xn--bcher-kva.example/',
  ),
  fc.string({ maxLength: 30 }),
);
const status = fc.oneof(fc.constantFrom(200, 204, 301, 404, 410, 500, 503), fc.integer({ min: 0, max: 999 }));
const failure = fc.constantFrom('timeout', 'network', 'too_many_redirects', 'dns') as fc.Arbitrary<'timeout'>;
const headerValues = fc.array(
  fc.oneof(
    fc.constantFrom('gzip', 'br, zstd', 'nginx/1.2', 'noindex', 'googlebot: none', 'text/html; charset="x"'),
    fc.string({ maxLength: 20 }),
  ),
  { maxLength: 3 },
);
const robotsBody = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        'User-agent: *',
        'User-agent: RankscopeBot',
        'Disallow: /',
        'Disallow: /*?',
        'Allow: /a$',
        'Sitemap: /s.xml',
        'Sitemap: http://[bad',
        '\uFEFF',
        '# c',
      ),
      fc
        .tuple(fc.constantFrom('allow', 'disallow', 'sitemap', 'user-agent'), fc.string({ maxLength: 15 }))
        .map(([k, v]) => `${k}:${v}`),
    ),
    { maxLength: 12 },
  )
  .map((lines) => lines.join('\n'));

const snapshot: fc.Arbitrary<PageSnapshot> = fc
  .record({
    html: htmlish,
    finalUrl: url,
    headers: fc.record(
      {
        'content-type': headerValues,
        'content-encoding': headerValues,
        server: headerValues,
        'x-powered-by': headerValues,
        'x-robots-tag': headerValues,
      },
      { requiredKeys: [] },
    ),
    wireBytes: fc.nat(),
    loadTime: fc.oneof(fc.double({ min: 0, max: 100, noNaN: true }), fc.constant(Number.NaN)),
    robots: fc.oneof(fc.record({ url, status, body: robotsBody }), fc.record({ error: failure })),
    notFoundProbe: fc.oneof(fc.record({ url, status }), fc.record({ url, error: failure })),
    faviconProbe: fc.oneof(
      fc.constant(null),
      fc.record({ status, contentType: fc.option(fc.constantFrom('image/png', 'text/html', '')) }),
      fc.record({ error: failure }),
    ),
    sitemapProbe: fc.oneof(
      fc.constant(null),
      fc.record({
        url,
        status,
        contentType: fc.option(fc.constantFrom('application/xml', 'text/plain')),
        bodyStart: fc.constantFrom('', '<?xml', '<urlset', 'x'),
      }),
      fc.record({ error: failure }),
    ),
  })
  .map((partial) => makeSnapshot(partial as Partial<PageSnapshot> & { html: string }));

const HEAD_CHECKS = new Set(['title', 'meta_description', 'meta_viewport', 'charset', 'favicon']);

function assertWellFormed({ result, results }: AnalysisResult): void {
  assert.deepEqual(Object.keys(results), [...CHECK_NAMES]);
  for (const check of CHECKS) {
    const r = results[check.name];
    assert.equal(typeof r.passed, 'boolean');
    assert.equal(r.importance, check.importance);
    assert.deepEqual(Object.keys(r), r.passed ? ['passed', 'importance', 'value'] : ['passed', 'importance', 'value', 'errors']);
    if (!r.passed) {
      // One key, the failure; a head check may add head_closed_by after it (docs/checks.md §4.1 "Head").
      const [, ...extra] = Object.keys(r.errors!);
      if (extra.length > 0) {
        assert.deepEqual(extra, ['head_closed_by'], check.name);
        assert.ok(HEAD_CHECKS.has(check.name), check.name);
        assert.match(r.errors!.head_closed_by as string, /^(<[^\t\n\f\r />]+>|#text)$/, check.name);
      }
    }
  }
  assert.ok(Number.isInteger(result) && result >= 0 && result <= 100);
  JSON.stringify(results); // a report must always be storable
}

test('random HTML-ish pages: every result well-formed, no exception', () => {
  fc.assert(
    fc.property(htmlish, (html) => assertWellFormed(runChecks(makeSnapshot({ html })))),
    { numRuns: 400 },
  );
});

test('random snapshots: every result well-formed, no exception', () => {
  fc.assert(
    fc.property(snapshot, (s) => assertWellFormed(runChecks(s))),
    { numRuns: 400 },
  );
});
