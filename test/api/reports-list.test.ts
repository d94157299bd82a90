import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { testApp, type TestApp } from '../helpers/app.js';
import { ReportsRepository } from '../../src/db/reports-repository.js';
import { CHECK_NAMES } from '../../src/analysis/checks/index.js';

const RESULTS = JSON.stringify(Object.fromEntries(CHECK_NAMES.map((n) => [n, { passed: true, importance: 'low', value: null }])));

interface Seed {
  url: string;
  result: number;
  generated_at: string;
}

describe('reports list, projects and account', () => {
  let t: TestApp;
  let key: string;
  let userId: number;
  const seeds: Seed[] = [
    { url: 'https://alpha.example/a', result: 95, generated_at: '2024-01-05T10:00:00.000000Z' },
    { url: 'https://alpha.example/b', result: 90, generated_at: '2024-01-01T10:00:00.000000Z' },
    { url: 'https://www.alpha.example/Sale', result: 89, generated_at: '2024-01-03T10:00:00.000000Z' },
    { url: 'https://beta.example/', result: 50, generated_at: '2024-01-04T10:00:00.000000Z' },
    { url: 'https://beta.example/x', result: 49, generated_at: '2024-01-02T10:00:00.000000Z' },
    { url: 'https://gamma.example/alpha', result: 0, generated_at: '2024-01-06T10:00:00.000000Z' },
  ];
  before(async () => {
    t = await testApp();
    ({ key, id: userId } = await t.account());
    const repo = new ReportsRepository(t.db.handle.db, t.db.handle.engine);
    for (const s of seeds) {
      await repo.create({
        user_id: userId,
        url: s.url,
        project: new URL(s.url).hostname.replace(/^www\./, ''),
        result: s.result,
        results: RESULTS,
        privacy: 1,
        password_hash: null,
        generated_at: s.generated_at,
      });
    }
  });
  after(() => t.close());

  const list = async (query: string) => {
    const res = await t.call(key, { method: 'GET', url: `/api/v1/reports${query}`, headers: { host: 'api.test' } });
    assert.equal(res.statusCode, 200, `${query}: ${res.body.slice(0, 200)}`);
    return res.json();
  };
  const urls = (body: { data: { url: string }[] }) => body.data.map((r) => r.url.replace('https://', ''));

  test('default: newest first, 100 per page, full reports with results, links with the parameters', async () => {
    const body = await list('');
    assert.deepEqual(urls(body), [
      'gamma.example/alpha',
      'beta.example/x',
      'beta.example/',
      'www.alpha.example/Sale',
      'alpha.example/b',
      'alpha.example/a',
    ]);
    assert.deepEqual(Object.keys(body.data[0].results), [...CHECK_NAMES]);
    assert.equal(body.links.first, 'http://api.test/api/v1/reports?sort_by=id&sort=desc&per_page=100&page=1');
    assert.deepEqual([body.meta.total, body.meta.from, body.meta.to, body.status], [6, 1, 6, 200]);
  });

  test('search: case-insensitive substring of the url or the project', async () => {
    assert.deepEqual(urls(await list('?search=ALPHA')), [
      'gamma.example/alpha',
      'www.alpha.example/Sale',
      'alpha.example/b',
      'alpha.example/a',
    ]);
    assert.deepEqual(urls(await list('?search=sale')), ['www.alpha.example/Sale']);
    assert.deepEqual(urls(await list('?search=%25')), []);
  });

  test('search terms are literal text: quotes, operators and punctuation match as written', async () => {
    assert.deepEqual(urls(await list('?search=alpha.example%2Fa')), ['alpha.example/a']);
    assert.deepEqual(urls(await list('?search=EXAMPLE%2FX')), ['beta.example/x']);
    for (const term of ['%22alpha', 'alpha%22', 'NEAR(alpha', 'alpha*', 'alpha%20OR%20beta', '%5E', '-alpha', 'al%25ph']) {
      assert.deepEqual(urls(await list(`?search=${term}`)), [], term);
    }
    assert.deepEqual(urls(await list('?search=GA')), ['gamma.example/alpha'], 'a two-letter term still matches');
  });

  test('project: exact and complete', async () => {
    assert.deepEqual(urls(await list('?project=alpha.example')), [
      'www.alpha.example/Sale',
      'alpha.example/b',
      'alpha.example/a',
    ]);
    assert.deepEqual(urls(await list('?project=alpha')), []);
    assert.deepEqual(urls(await list('?project=ALPHA.example')), []);
  });

  test('result: good ≥ 90, decent 50–89, bad < 50', async () => {
    assert.deepEqual(urls(await list('?result=good')), ['alpha.example/b', 'alpha.example/a']);
    assert.deepEqual(urls(await list('?result=decent')), ['beta.example/', 'www.alpha.example/Sale']);
    assert.deepEqual(urls(await list('?result=bad')), ['gamma.example/alpha', 'beta.example/x']);
  });

  test('sort_by id, generated_at, url and result, both directions', async () => {
    assert.deepEqual(urls(await list('?sort_by=id&sort=asc'))[0], 'alpha.example/a');
    assert.deepEqual(urls(await list('?sort_by=generated_at&sort=asc')), [
      'alpha.example/b',
      'beta.example/x',
      'www.alpha.example/Sale',
      'beta.example/',
      'alpha.example/a',
      'gamma.example/alpha',
    ]);
    assert.deepEqual(urls(await list('?sort_by=url&sort=asc')), [
      'alpha.example/a',
      'alpha.example/b',
      'beta.example/',
      'beta.example/x',
      'gamma.example/alpha',
      'www.alpha.example/Sale',
    ]);
    assert.deepEqual(
      (await list('?sort_by=result&sort=desc')).data.map((r: { result: number }) => r.result),
      [95, 90, 89, 50, 49, 0],
    );
    assert.deepEqual(
      (await list('?sort_by=result&sort=asc')).data.map((r: { result: number }) => r.result),
      [0, 49, 50, 89, 90, 95],
    );
  });

  test('filters combine, and the links carry them in order', async () => {
    const body = await list('?result=decent&search=alpha&project=alpha.example&sort_by=url&sort=asc&per_page=10');
    assert.deepEqual(urls(body), ['www.alpha.example/Sale']);
    assert.equal(
      body.links.first,
      'http://api.test/api/v1/reports?search=alpha&project=alpha.example&result=decent&sort_by=url&sort=asc&per_page=10&page=1',
    );
    assert.deepEqual(urls(await list('?result=good&project=beta.example')), []);
    assert.deepEqual(urls(await list('?result=bad&search=beta&sort_by=generated_at&sort=desc')), ['beta.example/x']);
  });

  test('pagination over the filtered set', async () => {
    const page2 = await list('?per_page=10&page=2');
    assert.deepEqual([page2.data.length, page2.meta.from, page2.meta.to, page2.meta.last_page], [0, null, null, 1]);
    const page1 = await list('?per_page=10&page=abc');
    assert.deepEqual([page1.data.length, page1.meta.current_page, page1.meta.from, page1.meta.to], [6, 1, 1, 6]);
  });

  test('invalid list parameters: 422', async () => {
    const cases: [string, Record<string, string[]>][] = [
      ['?result=great', { result: ['The selected result is invalid.'] }],
      ['?sort_by=created_at', { sort_by: ['The selected sort by is invalid.'] }],
      ['?sort=sideways&per_page=5', { sort: ['The selected sort is invalid.'], per_page: ['The selected per page is invalid.'] }],
      [`?project=${'p'.repeat(256)}`, { project: ['The project must not be greater than 255 characters.'] }],
    ];
    for (const [query, errors] of cases) {
      const res = await t.call(key, { method: 'GET', url: `/api/v1/reports${query}` });
      assert.equal(res.statusCode, 422, query);
      assert.deepEqual(res.json().errors, errors, query);
    }
  });

  test('projects: counts, search, sort, then deleting one removes its reports', async () => {
    const res = await t.call(key, { method: 'GET', url: '/api/v1/projects?sort_by=project&sort=asc' });
    assert.equal(res.statusCode, 200);
    const body = res.json();
    assert.deepEqual(
      body.data.map((p: { project: string; reports_count: number }) => [p.project, p.reports_count]),
      [
        ['alpha.example', 3],
        ['beta.example', 2],
        ['gamma.example', 1],
      ],
    );
    assert.deepEqual(Object.keys(body.data[0]), ['project', 'reports_count', 'created_at', 'updated_at']);
    assert.equal(body.meta.total, 3);
    const searched = (await t.call(key, { method: 'GET', url: '/api/v1/projects?search=BET' })).json();
    assert.deepEqual(
      searched.data.map((p: { project: string }) => p.project),
      ['beta.example'],
    );
    const byCreated = (await t.call(key, { method: 'GET', url: '/api/v1/projects' })).json();
    assert.deepEqual(
      byCreated.data.map((p: { project: string }) => p.project),
      ['gamma.example', 'beta.example', 'alpha.example'],
    );
    assert.equal((await t.call(key, { method: 'GET', url: '/api/v1/projects?sort_by=reports' })).statusCode, 422);

    const account = (await t.call(key, { method: 'GET', url: '/api/v1/account' })).json();
    assert.equal(account.data.reports_count, 6);
    assert.equal(account.data.projects_count, 3);

    const deleted = await t.call(key, { method: 'DELETE', url: '/api/v1/projects/beta.example' });
    assert.deepEqual([deleted.statusCode, deleted.json()], [200, { data: { project: 'beta.example', deleted: 2 }, status: 200 }]);
    assert.equal((await list('?project=beta.example')).meta.total, 0);
    assert.equal((await list('')).meta.total, 4);
    assert.equal((await t.call(key, { method: 'DELETE', url: '/api/v1/projects/beta.example' })).statusCode, 404);
    assert.deepEqual((await t.call(key, { method: 'DELETE', url: '/api/v1/projects/nope' })).json(), {
      message: 'Project not found.',
      status: 404,
    });
  });

  test("account: the key's own account and its counts, nothing secret", async () => {
    const fresh = await t.account('Account.Owner@example.com');
    await t.call(fresh.key, { method: 'POST', url: '/api/v1/websites', form: { domain: 'acct.example' } });
    const res = await t.call(fresh.key, { method: 'GET', url: '/api/v1/account' });
    assert.equal(res.statusCode, 200);
    const body = res.json();
    assert.deepEqual(Object.keys(body.data), [
      'id',
      'email',
      'reports_count',
      'projects_count',
      'websites_count',
      'created_at',
      'updated_at',
    ]);
    assert.deepEqual(
      [body.data.id, body.data.email, body.data.reports_count, body.data.projects_count, body.data.websites_count, body.status],
      [fresh.id, 'account.owner@example.com', 0, 0, 1, 200],
    );
    assert.ok(!res.body.includes('api_key'));
  });
});
