// Clients written against Laravel's plain paginator (Pipedream's phpRank app among them) read
// `current_page` and `last_page` at the top level of a list, and page on until the two meet.
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { testApp, type TestApp } from '../helpers/app.js';
import { seedReport } from '../helpers/seed.js';

describe('paging the way a plain-paginator client does', () => {
  let t: TestApp;
  let key: string;
  before(async () => {
    t = await testApp();
    const account = await t.account();
    key = account.key;
    for (let i = 0; i < 250; i++) await seedReport(t.db.handle, account.id, { url: `https://site.example/page-${i}` });
  });

  test('250 reports: the loop reads current_page and last_page at the top level and gets every report once', async () => {
    const seen: number[] = [];
    let page = 1;
    let requests = 0;
    for (;;) {
      const res = await t.call(key, {
        method: 'GET',
        url: `/api/v1/reports?page=${page}`,
        headers: { accept: 'application/json' },
      });
      assert.equal(res.statusCode, 200);
      const body = JSON.parse(res.body) as {
        data: { id: number }[];
        current_page: number;
        last_page: number;
        meta: { current_page: number; last_page: number };
      };
      requests++;
      assert.equal(body.current_page, page);
      assert.equal(body.last_page, 3);
      assert.deepEqual([body.meta.current_page, body.meta.last_page], [body.current_page, body.last_page]);
      seen.push(...body.data.map((r) => r.id));
      if (body.current_page >= body.last_page) break;
      page = body.current_page + 1;
    }
    assert.equal(requests, 3);
    assert.equal(seen.length, 250);
    assert.equal(new Set(seen).size, 250);
  });

  test('every list has them: websites and projects too', async () => {
    for (const url of ['/api/v1/websites', '/api/v1/projects']) {
      const body = (await t.call(key, { method: 'GET', url })).json();
      assert.equal(body.current_page, 1, url);
      assert.equal(body.last_page, 1, url);
    }
  });
});
