// Stored reports for tests that need reports without fetching pages: results of a real
// analysis of a small page, through the engine's pure half.
import type { DatabaseHandle } from '../../src/db/connection.js';
import { ReportsRepository, type ReportRow } from '../../src/db/reports-repository.js';
import { makeSnapshot } from '../../src/analysis/snapshot.js';
import { runChecks } from '../../src/analysis/run.js';
import { fixtureHash } from './password-hash.js';
import type { Privacy } from '../../src/model/privacy.js';

export const SAMPLE_HTML = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Blue widgets for sale</title>
<meta name="description" content="Hand-made blue widgets."></head><body><h1>Our widgets</h1>
<p>Blue widgets are made by hand. Write to hello@acme.test.</p><img src="/w.jpg"><a href="https://twitter.com/x">Twitter</a></body></html>`;

export async function seedReport(
  database: DatabaseHandle,
  userId: number,
  options: { url?: string; privacy?: Privacy; password?: string; result?: number; generated_at?: string } = {},
): Promise<ReportRow> {
  const url = options.url ?? 'https://www.example.com/blue-widgets';
  const analysed = runChecks(makeSnapshot({ html: SAMPLE_HTML, finalUrl: url }));
  return new ReportsRepository(database.db, database.engine).create({
    user_id: userId,
    url,
    project: new URL(url).hostname.replace(/^www\./, ''),
    result: options.result ?? analysed.result,
    results: JSON.stringify(analysed.results),
    privacy: options.privacy ?? 0,
    password_hash: options.password ? await fixtureHash(options.password) : null,
    generated_at: options.generated_at ?? '2024-03-01T12:00:00.000000Z',
  });
}
