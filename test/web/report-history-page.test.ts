// The report share page charts the score over time once the report has two analyses or more:
// server-side SVG with a title and description, a sentence, and the numbers as a table.
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { renderReportPage, type HistoryPoint, type ShareReport } from '../../src/render/index.js';
import { ReportsRepository } from '../../src/db/reports-repository.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { seedReport } from '../helpers/seed.js';
import { all, assertPageBasics, byId, one, parse, text } from './render-helpers.js';

const sample: ShareReport = JSON.parse(readFileSync(new URL('../fixtures/reports/sample.json', import.meta.url), 'utf8'));

const history: HistoryPoint[] = [
  { result: 71, generated_at: '2026-01-05T09:00:00.000000Z', passed: 20, failed: 13 },
  { result: 86, generated_at: '2026-01-12T09:00:00.000000Z', passed: 25, failed: 8 },
  { result: 64, generated_at: '2026-01-19T09:00:00.000000Z', passed: 19, failed: 14 },
];

test('with two analyses or more: the chart (title, desc), a summary sentence and a data table, oldest first', () => {
  const html = renderReportPage(sample, { history });
  const doc = assertPageBasics(html, { noindex: false });
  const section = byId(doc, 'history-heading')!.parent!.parent!;
  const svg = one(section as never, 'svg')!;
  assert.equal(svg.attribs.role, 'img');
  assert.equal(svg.attribs['aria-labelledby'], 'chart-title chart-desc');
  assert.equal(text(byId(doc, 'chart-title')!), 'Score over time');
  const summary = '3 analyses from 5 Jan 2026 to 19 Jan 2026; scores ranged from 64 to 86, and the latest scored 64.';
  assert.equal(text(byId(doc, 'chart-desc')!), summary);
  assert.ok(html.includes(`<p class="muted">${summary}</p>`), 'the same sentence as text');
  assert.equal(all(svg, 'circle').length, 3);
  assert.equal(text(all(svg, 'circle')[1]), '12 Jan 2026, 09:00 UTC: 86 (25 of 33 checks passed)');
  const rows = all(one(section as never, 'tbody')!, 'tr').map((tr) => all(tr, 'td').map(text));
  assert.deepEqual(rows, [
    ['5 Jan 2026, 09:00 UTC', '71', '20', '13'],
    ['12 Jan 2026, 09:00 UTC', '86', '25', '8'],
    ['19 Jan 2026, 09:00 UTC', '64', '19', '14'],
  ]);
  assert.equal(all(doc, 'h1').length, 1);
});

test('one analysis (or none readable): no chart', () => {
  for (const h of [[], history.slice(0, 1), [history[0], { ...history[1], generated_at: 'not a date' }]]) {
    const html = renderReportPage(sample, { history: h });
    assert.ok(!html.includes('history-heading'), `${h.length} items`);
    assert.ok(!html.includes('<svg viewBox="0 0 640 240"'), 'no chart');
  }
});

describe('the share page route', () => {
  let t: TestApp;
  let userId: number;
  before(async () => {
    t = await testApp();
    ({ id: userId } = await t.account());
  });

  test("a public report's page shows its history once it has been re-run; a private one stays 404", async () => {
    const report = await seedReport(t.db.handle, userId, { privacy: 0, generated_at: '2026-02-01T10:00:00.000000Z' });
    const page = async (id: number) => t.app.inject({ method: 'GET', url: `/reports/${id}` });
    const first = await page(report.id);
    assert.equal(first.statusCode, 200);
    assert.ok(!first.body.includes('history-heading'), 'one analysis: no chart');

    const repo = new ReportsRepository(t.db.handle.db, t.db.handle.engine);
    await repo.update(userId, report.id, {
      result: 42,
      results: JSON.stringify({
        title: { passed: true, importance: 'high', value: 't' },
        headings: { passed: false, importance: 'high', value: [] },
      }),
      generated_at: '2026-02-08T10:00:00.000000Z',
    });
    const second = await page(report.id);
    assert.equal(second.statusCode, 200);
    const doc = parse(second.body);
    assert.ok(byId(doc, 'history-heading'));
    assert.match(text(byId(doc, 'chart-desc')!), /^2 analyses from 1 Feb 2026 to 8 Feb 2026; .* the latest scored 42\.$/);
    assert.ok(second.body.includes('<td class="num">42</td><td class="num">1</td><td class="num">1</td>'));

    const hidden = await seedReport(t.db.handle, userId, { privacy: 1 });
    await repo.update(userId, hidden.id, { result: 1, results: '{}', generated_at: '2026-02-08T10:00:00.000000Z' });
    assert.equal((await page(hidden.id)).statusCode, 404);
  });
});
