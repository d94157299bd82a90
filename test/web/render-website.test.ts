import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findAll } from 'domutils';
import type { Element } from 'domhandler';
import { renderWebsitePage, type WebsiteReportRow } from '../../src/render/index.js';
import { all, assertPageBasics, byId, one, text } from './render-helpers.js';

const site = { id: 7, domain: 'example.test' };
const day = (n: number, hour = 12) => `2025-03-${String(n).padStart(2, '0')}T${String(hour).padStart(2, '0')}:00:00.000000Z`;
const row = (id: number, url: string, result: number, generated_at: string, isPublic = true): WebsiteReportRow => ({
  id,
  url,
  result,
  generated_at,
  isPublic,
});

function chart(doc: ReturnType<typeof assertPageBasics>): Element | undefined {
  return findAll(
    (e) => e.name === 'svg' && e.attribs.role === 'img' && e.attribs['aria-labelledby'] === 'chart-title chart-desc',
    [doc],
  )[0];
}

/** The body of the pages table (the chart's data table comes first in the document). */
function pagesBody(doc: ReturnType<typeof assertPageBasics>): Element {
  const table = findAll((e) => e.name === 'table' && /\bstack\b/.test(e.attribs.class ?? ''), [doc])[0];
  return one(table, 'tbody')!;
}

function polylinePoints(svg: Element): string[] {
  const line = one(svg, 'polyline');
  return line ? line.attribs.points.split(' ') : [];
}

test('the chart draws one point per report, oldest to newest, on a 0–100 scale', () => {
  // Given out of order; one report a day, scores 0, 25, 50, 75, 100.
  const reports = [
    row(3, 'https://example.test/c', 50, day(3)),
    row(1, 'https://example.test/a', 0, day(1)),
    row(5, 'https://example.test/e', 100, day(5)),
    row(2, 'https://example.test/b', 25, day(2)),
    row(4, 'https://example.test/d', 75, day(4)),
  ];
  const doc = assertPageBasics(renderWebsitePage(site, reports), { noindex: false });
  const svg = chart(doc)!;
  const circles = all(svg, 'circle');
  assert.equal(circles.length, 5);
  // The plot spans x 48–624 and y 12 (score 100) to 210 (score 0), by the chart's margins.
  assert.deepEqual(
    circles.map((c) => [Number(c.attribs.cx), Number(c.attribs.cy)]),
    [
      [48, 210],
      [192, 160.5],
      [336, 111],
      [480, 61.5],
      [624, 12],
    ],
  );
  assert.deepEqual(polylinePoints(svg), ['48,210', '192,160.5', '336,111', '480,61.5', '624,12']);
  assert.equal(text(byId(doc, 'chart-title')!), 'Score over time');
  assert.equal(
    text(byId(doc, 'chart-desc')!),
    '5 reports from 1 Mar 2025 to 5 Mar 2025; scores ranged from 0 to 100, and the latest scored 100.',
  );
  // The tooltip of each point says when, what score, and which page.
  assert.equal(text(one(circles[0], 'title')!), '1 Mar 2025, 12:00 UTC: 0 (https://example.test/a)');
});

test('one report: a single point in the middle, no line', () => {
  const doc = assertPageBasics(renderWebsitePage(site, [row(1, 'https://example.test/', 50, day(9))]), { noindex: false });
  const svg = chart(doc)!;
  const circles = all(svg, 'circle');
  assert.equal(circles.length, 1);
  assert.deepEqual([circles[0].attribs.cx, circles[0].attribs.cy], ['336', '111']);
  assert.equal(one(svg, 'polyline'), null);
  assert.equal(text(byId(doc, 'chart-desc')!), 'One report, on 9 Mar 2025, scored 50.');
});

test('no reports: an empty state, no chart and no table', () => {
  const doc = assertPageBasics(renderWebsitePage(site, []), { noindex: false });
  assert.equal(chart(doc), undefined);
  assert.equal(all(doc, 'table').length, 0);
  assert.equal(text(byId(doc, 'empty-title')!), 'No reports yet');
  assert.equal(text(one(doc, 'h1')!), 'example.test');
});

test('the table shows the latest report of each URL, linked only when that report is public', () => {
  const reports = [
    row(1, 'https://example.test/b', 30, day(1), true),
    row(2, 'https://example.test/a', 40, day(2), true),
    row(3, 'https://example.test/a', 95, day(6), false),
    row(4, 'https://example.test/b', 80, day(4), true),
  ];
  const doc = assertPageBasics(renderWebsitePage(site, reports), { noindex: false });
  const rows = all(pagesBody(doc), 'tr');
  assert.deepEqual(
    rows.map((tr) => all(tr, 'td').map((td) => text(td))),
    [
      ['https://example.test/a', '95 out of 100, Good', '6 Mar 2025'],
      ['https://example.test/b', '80 out of 100, Decent', '4 Mar 2025'],
    ],
  );
  assert.equal(one(rows[0], 'a'), null, 'report 3 is not public');
  assert.equal(one(rows[1], 'a')!.attribs.href, '/reports/4');
  assert.match(findAll((e) => e.attribs.class?.startsWith('badge') ?? false, [rows[0]])[0].attribs.class, /band-good/);
  // Every report is in the chart, not just the latest ones.
  assert.equal(all(chart(doc)!, 'circle').length, 4);
  assert.match(text(one(doc, 'main')!), /2 pages analysed/);
});

test('dates are formatted in UTC whatever the server time zone', () => {
  const zone = process.env.TZ;
  process.env.TZ = 'Pacific/Kiritimati'; // UTC+14
  try {
    const doc = assertPageBasics(renderWebsitePage(site, [row(1, 'https://example.test/', 70, '2025-03-03T23:59:00.000000Z')]), {
      noindex: false,
    });
    const time = findAll((e) => e.name === 'time', [pagesBody(doc)])[0];
    assert.equal(text(time), '3 Mar 2025');
    assert.equal(time.attribs.datetime, '2025-03-03T23:59:00Z');
  } finally {
    if (zone === undefined) delete process.env.TZ;
    else process.env.TZ = zone;
  }
});

test('hostile domains and URLs are escaped; odd rows are skipped, not fatal', () => {
  const reports = [
    row(1, '<script>alert(1)</script>', 50, day(1)),
    row(2, 'javascript:alert(2)', 60, day(2)),
    { id: '3" onclick="x' as unknown as number, url: 'https://example.test/', result: 70, generated_at: day(3), isPublic: true },
    { id: 4, url: 'https://example.test/x', result: 'high' as unknown as number, generated_at: day(4), isPublic: true },
    row(5, 'https://example.test/y', 80, 'not a date'),
  ];
  const page = renderWebsitePage({ id: 1, domain: '<img src=x onerror=alert(3)>' }, reports);
  const doc = assertPageBasics(page, { noindex: false });
  assert.ok(page.includes('&lt;img src=x onerror=alert(3)&gt;'), 'domain escaped');
  assert.ok(page.includes('&lt;script&gt;alert(1)&lt;/script&gt;'), 'url escaped');
  // The row with an unreadable score is left out; the undated one is in the table but not the chart.
  assert.equal(all(pagesBody(doc), 'tr').length, 4);
  assert.equal(all(chart(doc)!, 'circle').length, 3);
  // Only rows with a real id link to their report.
  assert.deepEqual(
    all(pagesBody(doc), 'a').map((a) => a.attribs.href),
    ['/reports/1', '/reports/5', '/reports/2'],
  );
});

test('hundreds of reports: every one on the line, markers and data rows capped', () => {
  const reports = Array.from({ length: 300 }, (_, i) =>
    row(i + 1, `https://example.test/${i % 7}`, i % 101, new Date(Date.UTC(2024, 0, 1) + i * 3_600_000).toISOString()),
  );
  const doc = assertPageBasics(renderWebsitePage(site, reports), { noindex: false });
  const svg = chart(doc)!;
  assert.equal(polylinePoints(svg).length, 300);
  assert.equal(all(svg, 'circle').length, 0);
  const dataTable = findAll((e) => e.name === 'table' && !/\bstack\b/.test(e.attribs.class ?? ''), [doc])[0];
  assert.equal(all(one(dataTable, 'tbody')!, 'tr').length, 250);
});
