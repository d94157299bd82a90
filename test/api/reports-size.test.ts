// A report of a page with 100,000 links: stored, shown and listed within the size budget, with
// `omitted` kept as the engine wrote it (after errors) through the database and back.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ReportsRepository } from '../../src/db/reports-repository.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { startSite, type PageSite } from '../helpers/pages.js';

const BUDGET = 1024 * 1024;

describe('reports API: bounded results', () => {
  let t: TestApp;
  let site: PageSite;
  let key: string;
  let userId: number;
  before(async () => {
    t = await testApp({ ALLOW_PRIVATE_ADDRESSES: 'true' });
    ({ key, id: userId } = await t.account());
    const links = Array.from({ length: 100_000 }, (_, i) => `<a href="/articles/${i}">Article number ${i}</a>\n`).join('');
    site = await startSite({
      '/links.html': `<!doctype html><html><head><title>Links</title></head><body>${links}</body></html>`,
    });
  });
  after(async () => {
    await t.close();
    await site.close();
  });

  test('100,000 links: create and show answer under 200 KB, a list of 10 under 2 MB, with the exact omitted count', async () => {
    const created = await t.call(key, { method: 'POST', url: '/api/v1/reports', form: { url: `${site.origin}/links.html` } });
    assert.equal(created.statusCode, 201, created.body.slice(0, 300));
    assert.ok(created.body.length < 200_000, `${created.body.length} bytes`);
    const { id, results } = created.json().data;
    assert.ok(Buffer.byteLength(JSON.stringify(results)) <= BUDGET);

    const shown = await t.call(key, { method: 'GET', url: `/api/v1/reports/${id}` });
    assert.equal(shown.statusCode, 200);
    const links = shown.json().data.results.in_page_links;
    assert.deepEqual(Object.keys(links), ['passed', 'importance', 'value', 'errors', 'omitted']);
    assert.equal(links.passed, false);
    assert.deepEqual(links.errors, { too_many: { max: '150' } });
    assert.equal(links.value.Internals.length, 1000);
    assert.deepEqual(links.omitted, { '/value/Internals': 99_000 });
    assert.equal(shown.json().data.results.title.omitted, undefined);

    // Nine more such reports, stored directly: analysing the page again would only repeat the above.
    const reports = new ReportsRepository(t.db.handle.db, t.db.handle.engine);
    for (let i = 0; i < 9; i++) {
      await reports.create({
        user_id: userId,
        url: `${site.origin}/links.html`,
        project: '127.0.0.1',
        result: created.json().data.result,
        results: JSON.stringify(results),
        privacy: 1,
        password_hash: null,
        generated_at: created.json().data.generated_at,
      });
    }
    const listed = await t.call(key, { method: 'GET', url: '/api/v1/reports?per_page=10' });
    assert.equal(listed.statusCode, 200);
    assert.equal(listed.json().data.length, 10);
    // each report's results are about 75 KB (the 1,000 links listed); before the caps, 6.5 MB
    assert.ok(listed.body.length < 2_000_000, `a list of 10 such reports: ${listed.body.length} bytes`);
  });
});
