// U+0000 in any input: PostgreSQL text cannot hold it, so it must never reach a query as a value
// to store, and a filter holding it matches nothing. Same answers on SQLite and PostgreSQL.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { seedReport } from '../helpers/seed.js';
import { testApp, type TestApp } from '../helpers/app.js';

describe('NUL characters in input', () => {
  let t: TestApp;
  let key: string;
  before(async () => {
    t = await testApp();
    const account = await t.account();
    key = account.key;
    await seedReport(t.db.handle, account.id, {
      url: 'https://abcd.example/',
      privacy: 1,
      result: 50,
      generated_at: '2024-01-01T00:00:00.000000Z',
    });
    const site = await t.call(key, { method: 'POST', url: '/api/v1/websites', form: { domain: 'abcd.example' } });
    assert.equal(site.statusCode, 201);
  });
  after(() => t.close());

  const get = (url: string) => t.call(key, { method: 'GET', url });

  for (const url of [
    '/api/v1/reports?search=%00',
    '/api/v1/reports?search=ab%00cd',
    '/api/v1/reports?search=abcd%00',
    '/api/v1/reports?project=abcd.example%00',
    '/api/v1/projects?search=abcd%00',
    '/api/v1/websites?search=%00',
    '/api/v1/websites?search=abcd%00',
  ]) {
    test(`${url}: an empty page, not an error`, async () => {
      const res = await get(url);
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json();
      assert.deepEqual([body.data, body.meta.total], [[], 0]);
      if (!url.endsWith('=%00')) {
        // the same filter without the NUL matches: the empty answer is the NUL's doing
        assert.equal((await get(url.replace('%00', ''))).json().meta.total, 1);
      }
    });
  }

  test('DELETE /projects/{project} with a NUL: 404, and the project keeps its reports', async () => {
    const res = await t.call(key, { method: 'DELETE', url: '/api/v1/projects/abcd.example%00' });
    assert.equal(res.statusCode, 404, res.body);
    assert.equal(res.json().message, 'Project not found.');
    assert.equal((await get('/api/v1/projects')).json().data[0].reports_count, 1);
  });

  test('exclude_params with a control character: 422 naming the entry, nothing stored', async () => {
    for (const value of ['utm%00source', 'a%01b', 'x%7Fy']) {
      const res = await t.call(key, {
        method: 'POST',
        url: '/api/v1/websites',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: `domain=nul-${value.slice(-1)}.example&exclude_params=${value}`,
      });
      assert.equal(res.statusCode, 422, res.body);
      assert.match(res.json().errors.exclude_params[0], /^The exclude params field contains an invalid parameter name: /);
    }
    assert.equal((await get('/api/v1/websites')).json().meta.total, 1);
  });

  test('a password may hold a NUL: it is hashed, never stored as text', async () => {
    const res = await t.call(key, {
      method: 'POST',
      url: '/api/v1/websites',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'domain=nul-password.example&privacy=2&password=a%00b',
    });
    assert.equal(res.statusCode, 201, res.body);
    assert.equal(res.json().data.password, true);
  });
});
