import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { testApp, type TestApp } from '../helpers/app.js';
import { WebsitesRepository } from '../../src/db/websites-repository.js';

const BASE = 'http://localhost:80/api/v1/websites';

describe('websites list', () => {
  let t: TestApp;
  before(async () => {
    t = await testApp();
  });

  /** A new account holding `n` websites site001.example … (ids ascending in that order). */
  async function accountWith(n: number, name = (i: number) => `site${String(i).padStart(3, '0')}.example`) {
    const account = await t.account();
    const repo = new WebsitesRepository(t.db.handle.db);
    for (let i = 1; i <= n; i++) {
      await repo.create({
        user_id: account.id,
        domain: name(i),
        privacy: 1,
        password_hash: null,
        email: null,
        exclude_bots: 1,
        exclude_ips: null,
        exclude_params: null,
      });
    }
    return account;
  }
  const list = (key: string, query = '', headers: Record<string, string> = {}) =>
    t.call(key, { method: 'GET', url: `/api/v1/websites${query}`, headers: { host: 'localhost:80', ...headers } });

  test('0 rows: the empty envelope', async () => {
    const { key } = await accountWith(0);
    const res = await list(key);
    assert.equal(res.statusCode, 200);
    const first = `${BASE}?search_by=domain&sort_by=id&sort=desc&per_page=100&page=1`;
    assert.deepEqual(res.json(), {
      data: [],
      links: { first, last: first, prev: null, next: null },
      meta: {
        current_page: 1,
        from: null,
        last_page: 1,
        links: [
          { url: null, label: '&laquo; Previous', active: false },
          { url: first, label: '1', active: true },
          { url: null, label: 'Next &raquo;', active: false },
        ],
        path: BASE,
        per_page: 100,
        to: null,
        total: 0,
      },
      current_page: 1,
      last_page: 1,
      status: 200,
    });
  });

  test('1 row', async () => {
    const { key } = await accountWith(1);
    const body = (await list(key)).json();
    assert.equal(body.data.length, 1);
    assert.equal(body.data[0].domain, 'site001.example');
    assert.deepEqual([body.meta.from, body.meta.to, body.meta.total, body.meta.last_page], [1, 1, 1, 1]);
  });

  describe('25 rows', () => {
    let key: string;
    before(async () => {
      ({ key } = await accountWith(25));
    });

    test('default order: newest id first, 100 per page', async () => {
      const body = (await list(key)).json();
      assert.equal(body.data.length, 25);
      assert.equal(body.data[0].domain, 'site025.example');
      assert.equal(body.data[24].domain, 'site001.example');
    });

    test('per_page=10, page 2 and 3', async () => {
      const page2 = (await list(key, '?per_page=10&page=2')).json();
      assert.deepEqual(
        page2.data.map((w: { domain: string }) => w.domain.slice(4, 7)),
        ['015', '014', '013', '012', '011', '010', '009', '008', '007', '006'],
      );
      assert.deepEqual([page2.meta.from, page2.meta.to, page2.meta.last_page, page2.meta.per_page], [11, 20, 3, 10]);
      const url = (p: number) => `${BASE}?search_by=domain&sort_by=id&sort=desc&per_page=10&page=${p}`;
      assert.deepEqual(page2.links, { first: url(1), last: url(3), prev: url(1), next: url(3) });
      assert.deepEqual(
        page2.meta.links.map((l: { label: string; active: boolean }) => `${l.label}${l.active ? '*' : ''}`),
        ['&laquo; Previous', '1', '2*', '3', 'Next &raquo;'],
      );
      const page3 = (await list(key, '?per_page=10&page=3')).json();
      assert.equal(page3.data.length, 5);
      assert.equal(page3.links.next, null);
      assert.deepEqual([page3.meta.from, page3.meta.to], [21, 25]);
    });

    test('every allowed per_page value', async () => {
      for (const perPage of [10, 25, 50, 100]) {
        const body = (await list(key, `?per_page=${perPage}`)).json();
        assert.equal(body.meta.per_page, perPage);
        assert.equal(body.data.length, Math.min(perPage, 25));
      }
    });

    test('sort_by domain, asc and desc; sort_by id asc', async () => {
      const asc = (await list(key, '?sort_by=domain&sort=asc&per_page=10')).json();
      assert.equal(asc.data[0].domain, 'site001.example');
      assert.match(asc.links.first, /sort_by=domain&sort=asc&per_page=10&page=1$/);
      const desc = (await list(key, '?sort_by=domain&sort=desc&per_page=10')).json();
      assert.equal(desc.data[0].domain, 'site025.example');
      const idAsc = (await list(key, '?sort_by=id&sort=asc&per_page=10')).json();
      assert.equal(idAsc.data[0].domain, 'site001.example');
    });

    test('search: case-insensitive substring of the domain, carried (encoded) in the links', async () => {
      const body = (await list(key, '?search=SITE02&search_by=domain')).json();
      assert.deepEqual(
        body.data.map((w: { domain: string }) => w.domain),
        ['site025.example', 'site024.example', 'site023.example', 'site022.example', 'site021.example', 'site020.example'],
      );
      assert.equal(body.meta.total, 6);
      assert.equal(body.links.first, `${BASE}?search=SITE02&search_by=domain&sort_by=id&sort=desc&per_page=100&page=1`);
      const spaced = (await list(key, '?search=a%20b%21%27')).json();
      assert.equal(spaced.meta.total, 0);
      assert.match(spaced.links.first, /\?search=a%20b%21%27&search_by=domain&/);
    });

    test('LIKE wildcards in a search are literal', async () => {
      assert.equal((await list(key, '?search=%25')).json().meta.total, 0);
      assert.equal((await list(key, '?search=_')).json().meta.total, 0);
      assert.equal((await list(key, '?search=site0_1')).json().meta.total, 0);
    });

    test('a page past the end: 200, empty data, real total', async () => {
      const body = (await list(key, '?per_page=10&page=7')).json();
      assert.deepEqual(body.data, []);
      assert.deepEqual(
        [body.meta.current_page, body.meta.from, body.meta.to, body.meta.total, body.meta.last_page],
        [7, null, null, 25, 3],
      );
      assert.match(body.links.prev, /page=6$/);
      assert.equal(body.links.next, null);
    });

    test('page=abc, page=0, page=-2 and page=1.5 count as page 1', async () => {
      for (const page of ['abc', '0', '-2', '1.5', '']) {
        const body = (await list(key, `?per_page=10&page=${page}`)).json();
        assert.equal(body.meta.current_page, 1, page);
        assert.equal(body.data[0].domain, 'site025.example');
        assert.match(body.links.first, /page=1$/);
      }
    });

    test('invalid list parameters: 422 naming each', async () => {
      const cases: [string, Record<string, string[]>][] = [
        ['?per_page=7', { per_page: ['The selected per page is invalid.'] }],
        ['?per_page=abc', { per_page: ['The per page must be an integer.', 'The selected per page is invalid.'] }],
        ['?per_page=10.0', { per_page: ['The per page must be an integer.', 'The selected per page is invalid.'] }],
        ['?sort=up', { sort: ['The selected sort is invalid.'] }],
        ['?sort_by=created_at', { sort_by: ['The selected sort by is invalid.'] }],
        ['?sort_by=privacy', { sort_by: ['The selected sort by is invalid.'] }],
        ['?search_by=id', { search_by: ['The selected search by is invalid.'] }],
        ['?sort[]=asc', { sort: ['The selected sort is invalid.'] }],
        [`?search=${'x'.repeat(256)}`, { search: ['The search must not be greater than 255 characters.'] }],
      ];
      for (const [query, errors] of cases) {
        const res = await list(key, query);
        assert.equal(res.statusCode, 422, query);
        assert.deepEqual(res.json().errors, errors, query);
        assert.equal(res.json().status, 422);
      }
    });

    test('empty parameters count as absent (defaults apply)', async () => {
      const body = (await list(key, '?per_page=&sort=&sort_by=&search=&search_by=')).json();
      assert.equal(body.meta.per_page, 100);
      assert.equal(body.links.first, `${BASE}?search_by=domain&sort_by=id&sort=desc&per_page=100&page=1`);
    });
  });

  describe('300 rows', () => {
    let key: string;
    before(async () => {
      ({ key } = await accountWith(300));
    });

    test('30 pages of 10: the window with gaps, on the first, a middle and the last page', async () => {
      const labels = async (page: number) =>
        (await list(key, `?per_page=10&page=${page}`))
          .json()
          .meta.links.map((l: { label: string; active: boolean; url: string | null }) =>
            l.label === '...' ? (l.url === null ? '...' : 'BAD') : `${l.label}${l.active ? '*' : ''}`,
          );
      assert.deepEqual((await labels(1)).slice(1, -1), ['1*', '2', '3', '4', '5', '6', '7', '8', '9', '10', '...', '29', '30']);
      assert.deepEqual((await labels(15)).slice(1, -1), [
        '1',
        '2',
        '...',
        '12',
        '13',
        '14',
        '15*',
        '16',
        '17',
        '18',
        '...',
        '29',
        '30',
      ]);
      assert.deepEqual((await labels(30)).slice(1, -1), [
        '1',
        '2',
        '...',
        '21',
        '22',
        '23',
        '24',
        '25',
        '26',
        '27',
        '28',
        '29',
        '30*',
      ]);
    });

    test('per_page=100: 3 pages; the last page holds ids 100..1', async () => {
      const body = (await list(key, '?page=3')).json();
      assert.equal(body.data.length, 100);
      assert.equal(body.data[0].domain, 'site100.example');
      assert.equal(body.data[99].domain, 'site001.example');
      assert.deepEqual([body.meta.from, body.meta.to, body.meta.total, body.meta.last_page], [201, 300, 300, 3]);
    });

    test('every row appears exactly once across the pages (sorted by domain)', async () => {
      const seen: string[] = [];
      for (let page = 1; page <= 12; page++) {
        seen.push(
          ...(await list(key, `?per_page=25&sort_by=domain&sort=asc&page=${page}`))
            .json()
            .data.map((w: { domain: string }) => w.domain),
        );
      }
      assert.equal(seen.length, 300);
      assert.equal(new Set(seen).size, 300);
      assert.deepEqual(seen, [...seen].sort());
    });
  });

  test('links use the Host header; X-Forwarded-* are ignored unless TRUST_PROXY is set', async () => {
    const { key } = await accountWith(0);
    const forwarded = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'evil.example' };
    const plain = (await list(key, '', forwarded)).json();
    assert.equal(plain.meta.path, 'http://localhost:80/api/v1/websites');
    const trusting = await testApp({ TRUST_PROXY: 'true' });
    try {
      const { key: k2 } = await trusting.account();
      const res = await trusting.call(k2, {
        method: 'GET',
        url: '/api/v1/websites',
        headers: { host: 'internal:8080', ...forwarded },
      });
      assert.equal(res.json().meta.path, 'https://evil.example/api/v1/websites');
    } finally {
      await trusting.close();
    }
  });
});
