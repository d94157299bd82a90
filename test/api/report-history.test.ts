// GET /api/v1/reports/{id}/history: creating a report adds its first item, every re-run one more;
// the paginator, newest first; another account's or an unknown report is a 404. And migration
// 0006 gives reports stored before it their first item.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Migrator, sql } from 'kysely';
import { fixedClock } from '../../src/time.js';
import { migrateToLatest } from '../../src/db/connection.js';
import { migrationProvider } from '../../src/db/migrations/index.js';
import { ReportsRepository } from '../../src/db/reports-repository.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { testDatabase } from '../helpers/database.js';
import { goodPage, startSite, type PageSite } from '../helpers/pages.js';
import { seedReport } from '../helpers/seed.js';
import { CHECKS } from '../../src/analysis/checks/index.js';

const clock = fixedClock(Date.parse('2026-02-01T08:00:00Z'));

type Item = { result: number; generated_at: string; passed: number; failed: number };

describe('report history', () => {
  let t: TestApp;
  let site: PageSite;
  let key: string;
  let userId: number;
  let otherKey: string;
  before(async () => {
    t = await testApp({ ALLOW_PRIVATE_ADDRESSES: 'true' }, { clock });
    ({ key, id: userId } = await t.account());
    ({ key: otherKey } = await t.account());
    site = await startSite({ '/page.html': goodPage() });
  });
  after(async () => {
    await t.close();
    await site.close();
  });

  const history = (id: number, query = '', k = key) => t.call(k, { method: 'GET', url: `/api/v1/reports/${id}/history${query}` });
  const passedIn = (results: Record<string, { passed: boolean }>) => Object.values(results).filter((c) => c.passed).length;

  test('creating a report adds the first item; a re-run adds one, newest first; other updates add none', async () => {
    site.set('/page.html', goodPage());
    const created = await t.call(key, { method: 'POST', url: '/api/v1/reports', form: { url: `${site.origin}/page.html` } });
    assert.equal(created.statusCode, 201, created.body);
    const report = created.json().data;

    const first = await history(report.id);
    assert.equal(first.statusCode, 200);
    const firstItem: Item = {
      result: report.result,
      generated_at: report.generated_at,
      passed: passedIn(report.results),
      failed: CHECKS.length - passedIn(report.results),
    };
    assert.deepEqual(first.json().data, [firstItem]);
    assert.deepEqual(Object.keys(first.json().data[0]), ['result', 'generated_at', 'passed', 'failed']);

    // The page loses its title and description: the re-run scores lower.
    site.set(
      '/page.html',
      goodPage()
        .replace(/<title>.*<\/title>/, '')
        .replace(/<meta name="description"[^>]*>/, ''),
    );
    clock.advance(3_600_000);
    const rerun = await t.call(key, { method: 'PUT', url: `/api/v1/reports/${report.id}?results=1` });
    assert.equal(rerun.statusCode, 200, rerun.body);
    const again = rerun.json().data;
    assert.ok(again.result < report.result);

    const second = (await history(report.id)).json();
    assert.deepEqual(second.data, [
      {
        result: again.result,
        generated_at: again.generated_at,
        passed: passedIn(again.results),
        failed: CHECKS.length - passedIn(again.results),
      },
      firstItem,
    ]);
    assert.equal(second.meta.total, 2);

    // privacy alone is no analysis
    const privacy = await t.call(key, { method: 'PATCH', url: `/api/v1/reports/${report.id}`, form: { privacy: '0' } });
    assert.equal(privacy.statusCode, 200);
    // a re-run whose page cannot be fetched stores nothing
    site.set('/page.html', (_req, res) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('down');
    });
    const failed = await t.call(key, { method: 'PUT', url: `/api/v1/reports/${report.id}?results=1` });
    assert.equal(failed.statusCode, 422, failed.body);
    assert.equal((await history(report.id)).json().meta.total, 2);
  });

  test('the paginator: per_page 10/25/50/100 (default 100), page, links with per_page then page; past the end is empty', async () => {
    const seeded = await seedReport(t.db.handle, userId, { result: 50, generated_at: '2026-01-01T00:00:00.000000Z' });
    const repo = new ReportsRepository(t.db.handle.db, t.db.handle.engine, clock);
    const results = JSON.stringify({ title: { passed: true, importance: 'high', value: 'x' } });
    for (let i = 1; i <= 11; i++) {
      await repo.update(userId, seeded.id, {
        result: 50 + i,
        results,
        generated_at: `2026-01-${String(i + 1).padStart(2, '0')}T00:00:00.000000Z`,
      });
    }
    const all = (await history(seeded.id)).json();
    assert.equal(all.meta.per_page, 100);
    assert.equal(all.meta.total, 12);
    assert.deepEqual(
      all.data.map((i: Item) => i.result),
      [61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50],
    );
    assert.deepEqual(all.data[0], { result: 61, generated_at: '2026-01-12T00:00:00.000000Z', passed: 1, failed: 0 });

    const page2 = await t.call(key, {
      method: 'GET',
      url: `/api/v1/reports/${seeded.id}/history?per_page=10&page=2`,
      headers: { host: 'api.test' },
    });
    const body = page2.json();
    assert.deepEqual(
      body.data.map((i: Item) => i.result),
      [51, 50],
    );
    assert.equal(body.current_page, 2);
    assert.equal(body.last_page, 2);
    assert.deepEqual(body.links, {
      first: `http://api.test/api/v1/reports/${seeded.id}/history?per_page=10&page=1`,
      last: `http://api.test/api/v1/reports/${seeded.id}/history?per_page=10&page=2`,
      prev: `http://api.test/api/v1/reports/${seeded.id}/history?per_page=10&page=1`,
      next: null,
    });
    assert.deepEqual([body.meta.from, body.meta.to], [11, 12]);

    const past = (await history(seeded.id, '?per_page=10&page=9')).json();
    assert.deepEqual([past.data, past.meta.total], [[], 12]);
    assert.equal((await history(seeded.id, '?page=abc')).json().current_page, 1);

    const bad = await history(seeded.id, '?per_page=7');
    assert.equal(bad.statusCode, 422);
    assert.deepEqual(bad.json(), {
      message: 'The selected per page is invalid.',
      errors: { per_page: ['The selected per page is invalid.'] },
      status: 422,
    });
  });

  test("another account's report, an unknown id and a malformed id: 404 Report not found.", async () => {
    const mine = await seedReport(t.db.handle, userId);
    const notFound = { message: 'Report not found.', status: 404 };
    for (const res of [await history(mine.id, '', otherKey), await history(987_654), await history(0)]) {
      assert.equal(res.statusCode, 404);
      assert.deepEqual(res.json(), notFound);
    }
    const malformed = await t.call(key, { method: 'GET', url: '/api/v1/reports/abc/history' });
    assert.deepEqual([malformed.statusCode, malformed.json()], [404, notFound]);
    // the owner sees it
    assert.equal((await history(mine.id)).statusCode, 200);
  });

  test('deleting a report deletes its history', async () => {
    const doomed = await seedReport(t.db.handle, userId);
    assert.equal((await history(doomed.id)).json().meta.total, 1);
    assert.equal((await t.call(key, { method: 'DELETE', url: `/api/v1/reports/${doomed.id}` })).statusCode, 200);
    assert.equal((await history(doomed.id)).statusCode, 404);
    const left = await t.db.handle.db
      .selectFrom('report_history')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('report_id', '=', doomed.id)
      .executeTakeFirstOrThrow();
    assert.equal(Number(left.n), 0);
  });
});

test('migration 0006 gives each report stored before it one history item, from its stored analysis', async () => {
  const db = await testDatabase();
  try {
    const handle = db.handle;
    const schema =
      handle.engine === 'postgres'
        ? (await sql<{ s: string }>`select current_schema() as s`.execute(handle.db)).rows[0].s
        : undefined;
    const migrator = new Migrator({
      db: handle.db,
      provider: migrationProvider(handle.engine),
      ...(schema ? { migrationTableSchema: schema } : {}),
    });
    const down = await migrator.migrateTo('0005_jobs');
    assert.equal(down.error, undefined);
    const user = await handle.db
      .insertInto('users')
      .values({ email: 'old@example.com', api_key_hash: 'a'.repeat(64), created_at: 'x', updated_at: 'x' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const results = JSON.stringify({
      title: { passed: true, importance: 'high', value: 'T' },
      headings: { passed: false, importance: 'high', value: [] },
      language: { passed: true, importance: 'medium', value: 'en' },
    });
    const rows = [];
    for (let i = 0; i < 205; i++) {
      rows.push({
        user_id: user.id,
        url: `https://old.example/${i}`,
        project: 'old.example',
        result: i % 101,
        results: i === 3 ? 'not json' : results,
        privacy: 1 as const,
        password_hash: null,
        generated_at: `2025-01-01T00:00:00.${String(i).padStart(6, '0')}Z`,
        created_at: 'x',
        updated_at: 'x',
      });
    }
    await handle.db.insertInto('reports').values(rows).execute();

    assert.equal((await migrateToLatest(handle))[0], '0006_report_history_monitors');
    const items = await handle.db.selectFrom('report_history').selectAll().orderBy('report_id').execute();
    const reports = await handle.db.selectFrom('reports').select(['id', 'result', 'generated_at']).orderBy('id').execute();
    assert.equal(items.length, 205, 'one item per report (more than one batch)');
    assert.deepEqual(
      items.map((h) => [h.report_id, h.result, h.generated_at]),
      reports.map((r) => [r.id, r.result, r.generated_at]),
    );
    assert.deepEqual(
      { passed: items[0].passed, failed: items[0].failed, passed_checks: items[0].passed_checks },
      { passed: 2, failed: 1, passed_checks: 'title,language' },
    );
    assert.deepEqual([items[3].passed, items[3].failed, items[3].passed_checks], [0, 0, ''], 'unreadable results: no counts');
  } finally {
    await db.cleanup();
  }
});
