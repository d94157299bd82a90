import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { fixedClock } from '../../src/time.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { goodPage, startSite, type PageSite } from '../helpers/pages.js';
import { CHECK_NAMES } from '../../src/analysis/checks/index.js';
import { SPEC_IMPORTANCE as IMPORTANCE } from '../helpers/spec-checks.js';

/** Time moves only when a test moves it (no sleeping to make a timestamp change). */
const clock = fixedClock(Date.parse('2026-01-01T00:00:00Z'));

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

/** The score (docs/checks.md §1): round(100 × Σ weight of passed ÷ Σ weight), weights 10/5/0, halves up. */
function expectedScore(results: Record<string, { passed: boolean; importance: string }>): number {
  const weight = { high: 10, medium: 5, low: 0 } as Record<string, number>;
  let passed = 0;
  let all = 0;
  for (const check of Object.values(results)) {
    all += weight[check.importance];
    if (check.passed) passed += weight[check.importance];
  }
  return Math.floor((100 * passed) / all + 0.5);
}

describe('reports API: create, show, update, delete', () => {
  let t: TestApp;
  let site: PageSite;
  let key: string;
  before(async () => {
    t = await testApp({ ALLOW_PRIVATE_ADDRESSES: 'true' }, { clock });
    ({ key } = await t.account());
    site = await startSite({
      '/good.html': goodPage(),
      '/plain.html': '<html><body><p>Hello</p></body></html>',
      '/moved': (_req, res) => {
        res.writeHead(301, { location: '/good.html' });
        res.end();
      },
      '/image.png': (_req, res) => {
        res.writeHead(200, { 'content-type': 'image/png' });
        res.end(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
      },
      '/robots.txt': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('User-agent: *\nDisallow: /private/\n');
      },
    });
  });
  after(async () => {
    await t.close();
    await site.close();
  });

  const create = (form: Record<string, string>) => t.call(key, { method: 'POST', url: '/api/v1/reports', form });
  const count = async () => (await t.call(key, { method: 'GET', url: '/api/v1/reports' })).json().meta.total as number;

  test('create: 201 with the full report, every field of spec 2.1 and every check in order', async () => {
    const res = await create({ url: `${site.origin}/moved` });
    assert.equal(res.statusCode, 201, res.body);
    const body = res.json();
    assert.deepEqual(Object.keys(body), ['data', 'status']);
    assert.equal(body.status, 201);
    const r = body.data;
    assert.deepEqual(Object.keys(r), [
      'id',
      'url',
      'project',
      'result',
      'results',
      'privacy',
      'password',
      'rendered',
      'generated_at',
      'created_at',
      'updated_at',
    ]);
    assert.equal(r.url, `${site.origin}/good.html`, 'the final URL after the redirect');
    assert.equal(r.project, '127.0.0.1');
    assert.equal(r.privacy, 1);
    assert.equal(r.password, false);
    assert.equal(r.rendered, false, 'not rendered unless render=1');
    for (const field of ['generated_at', 'created_at', 'updated_at']) assert.match(r[field], TIMESTAMP, field);
    assert.deepEqual(Object.keys(r.results), [...CHECK_NAMES]);
    for (const [name, check] of Object.entries(r.results) as [string, Record<string, unknown>][]) {
      assert.equal(typeof check.passed, 'boolean', name);
      assert.equal(check.importance, IMPORTANCE[name], name);
      assert.ok('value' in check, name);
      if (check.passed) assert.equal(check.errors, undefined, `${name}: no errors on a pass`);
      else if (check.errors !== undefined) assert.equal(Object.keys(check.errors as object).length, 1, `${name}: one error key`);
    }
    assert.equal(Number.isInteger(r.result), true);
    assert.equal(r.result, expectedScore(r.results));
    // facts about the page the analyser must have seen
    assert.equal(r.results.title.value, 'Blue widgets for sale');
    assert.equal(r.results.title.passed, true);
    assert.equal(r.results.language.value, 'en');
    assert.equal(r.results.https_encryption.passed, false);
    assert.deepEqual(r.results.https_encryption.errors, { missing: 'https' });
    assert.equal(r.results.robots.passed, true);
    assert.equal(r.results['404_page'].passed, true);

    const shown = await t.call(key, { method: 'GET', url: `/api/v1/reports/${r.id}` });
    assert.equal(shown.statusCode, 200);
    assert.deepEqual(shown.json(), { data: r, status: 200 });
  });

  test('a bare host gets https://; privacy and password on create', async () => {
    const res = await create({ url: `${site.origin.replace('http://', '')}/good.html` });
    // https to a plain-HTTP port fails the TLS handshake: the reason is reported on url
    assert.equal(res.statusCode, 422);
    assert.equal(res.json().errors.url.length, 1);

    const protectedReport = await create({ url: `${site.origin}/plain.html`, privacy: '2', password: 'pw-123' });
    assert.equal(protectedReport.statusCode, 201);
    assert.deepEqual([protectedReport.json().data.privacy, protectedReport.json().data.password], [2, true]);
    assert.ok(!protectedReport.body.includes('pw-123'));
  });

  describe('failures answer 422 with errors.url and store nothing', () => {
    test('a page that redirects to an address longer than 2,048 characters', async () => {
      const long = `/${'a'.repeat(15_000)}`;
      site.set('/far', (_req, res) => {
        res.writeHead(302, { location: long });
        res.end();
      });
      site.set(long, goodPage());
      const before = await count();
      const res = await create({ url: `${site.origin}/far` });
      assert.equal(res.statusCode, 422, res.body.slice(0, 300));
      const message = 'The page redirects to an address longer than 2,048 characters.';
      assert.deepEqual(res.json(), { message, errors: { url: [message] }, status: 422 });
      assert.equal(site.hits(long), 0, 'the long address was never requested');
      assert.equal(await count(), before);
    });

    const cases: [string, () => Record<string, string>, RegExp][] = [
      ['missing url', () => ({}), /^The url field is required\.$/],
      ['not a URL', () => ({ url: 'http://' }), /^The url must be a valid URL\.$/],
      ['another scheme', () => ({ url: 'ftp://example.com/' }), /^The url must be a valid URL\.$/],
      ['javascript:', () => ({ url: 'javascript:alert(1)' }), /^The url must be a valid URL\.$/],
      ['too long', () => ({ url: `${site.origin}/${'a'.repeat(2100)}` }), /^The url must not be greater than 2048 characters\.$/],
      ['credentials', () => ({ url: 'http://user:pw@example.com/' }), /user name or password/],
      ['unreachable (connection refused)', () => ({ url: 'http://127.0.0.1:1/' }), /refused/i],
      ['not HTML', () => ({ url: `${site.origin}/image.png` }), /not HTML \(image\/png\)/],
      ['a 404 page', () => ({ url: `${site.origin}/missing.html` }), /404/],
      ['privacy 2 without a password', () => ({ url: `${site.origin}/good.html`, privacy: '2' }), /password field is required/],
    ];
    for (const [name, form, message] of cases) {
      test(name, async () => {
        const before = await count();
        const res = await create(form());
        assert.equal(res.statusCode, 422, res.body);
        const body = res.json();
        assert.deepEqual(Object.keys(body), ['message', 'errors', 'status']);
        const [field] = Object.keys(body.errors);
        assert.match(body.errors[field][0], message);
        assert.equal(body.message, body.errors[field][0]);
        assert.equal(await count(), before);
      });
    }

    test('a private address is refused when the guard is on, without fetching it', async () => {
      const guarded = await testApp(); // ALLOW_PRIVATE_ADDRESSES unset
      try {
        const account = await guarded.account();
        const hitsBefore = site.hits('/good.html');
        const res = await guarded.call(account.key, {
          method: 'POST',
          url: '/api/v1/reports',
          form: { url: `${site.origin}/good.html` },
        });
        assert.equal(res.statusCode, 422);
        assert.match(res.json().errors.url[0], /private or reserved network/);
        assert.equal(site.hits('/good.html'), hitsBefore, 'the page was never requested');
        const list = await guarded.call(account.key, { method: 'GET', url: '/api/v1/reports' });
        assert.equal(list.json().meta.total, 0);
      } finally {
        await guarded.close();
      }
    });
  });

  test('update: privacy and password, as query string or form, PUT or PATCH', async () => {
    const id = (await create({ url: `${site.origin}/good.html` })).json().data.id;
    const url = `/api/v1/reports/${id}`;
    let res = await t.call(key, { method: 'PUT', url: `${url}?privacy=0` });
    assert.equal(res.statusCode, 200);
    assert.deepEqual([res.json().data.privacy, res.json().data.password, res.json().status], [0, false, 200]);
    res = await t.call(key, { method: 'PATCH', url, form: { privacy: '2' } });
    assert.equal(res.statusCode, 422);
    assert.deepEqual(res.json().errors, { password: ['The password field is required when privacy is 2.'] });
    res = await t.call(key, { method: 'PATCH', url, form: { privacy: '2', password: 'secret' } });
    assert.deepEqual([res.json().data.privacy, res.json().data.password], [2, true]);
    res = await t.call(key, { method: 'PUT', url: `${url}?privacy=1` });
    assert.deepEqual([res.json().data.privacy, res.json().data.password], [1, false]);
    res = await t.call(key, { method: 'PUT', url: `${url}?privacy=7&results=yes` });
    assert.equal(res.statusCode, 422);
    assert.deepEqual(res.json().errors, {
      privacy: ['The selected privacy is invalid.'],
      results: ['The results field must be true or false.'],
    });
  });

  test('results=1 re-runs the analysis and refreshes result, results and generated_at only', async () => {
    site.set('/changing.html', '<html><head><title>Changing page</title></head><body><p>short</p></body></html>');
    const created = (await create({ url: `${site.origin}/changing.html` })).json().data;
    site.set('/changing.html', goodPage('Changing page about widgets'));
    clock.advance(1000);
    const untouched = (await t.call(key, { method: 'PUT', url: `/api/v1/reports/${created.id}?results=0` })).json().data;
    assert.equal(untouched.generated_at, created.generated_at);
    assert.deepEqual(untouched.results, created.results);
    const res = await t.call(key, { method: 'PUT', url: `/api/v1/reports/${created.id}?results=1` });
    assert.equal(res.statusCode, 200, res.body);
    const updated = res.json().data;
    assert.ok(updated.result > created.result, `${updated.result} > ${created.result}`);
    assert.equal(updated.results.title.value, 'Changing page about widgets');
    assert.ok(updated.generated_at > created.generated_at);
    assert.equal(updated.created_at, created.created_at);
    assert.equal(updated.url, created.url);
    assert.equal(updated.id, created.id);

    // a page that has since disappeared: 422 on url, and the report keeps its results
    site.set('/changing.html', (_req, res2) => {
      res2.writeHead(500);
      res2.end();
    });
    const failed = await t.call(key, { method: 'PUT', url: `/api/v1/reports/${created.id}?results=1&privacy=0` });
    assert.equal(failed.statusCode, 422);
    assert.ok(failed.json().errors.url);
    const after = (await t.call(key, { method: 'GET', url: `/api/v1/reports/${created.id}` })).json().data;
    assert.deepEqual([after.result, after.privacy, after.generated_at], [updated.result, updated.privacy, updated.generated_at]);
  });

  test('delete: {data: {id}}; afterwards 404', async () => {
    const id = (await create({ url: `${site.origin}/plain.html` })).json().data.id;
    const res = await t.call(key, { method: 'DELETE', url: `/api/v1/reports/${id}` });
    assert.deepEqual([res.statusCode, res.json()], [200, { data: { id }, status: 200 }]);
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      const again = await t.call(key, { method, url: `/api/v1/reports/${id}` });
      assert.equal(again.statusCode, 404);
      assert.deepEqual(again.json(), { message: 'Report not found.', status: 404 });
    }
  });

  test('update of an unknown or malformed id is 404 before validation', async () => {
    for (const id of ['987654', 'abc', '0']) {
      const res = await t.call(key, { method: 'PUT', url: `/api/v1/reports/${id}?privacy=9&results=maybe` });
      assert.deepEqual([res.statusCode, res.json()], [404, { message: 'Report not found.', status: 404 }], id);
    }
  });

  test('unknown and malformed ids answer 404', async () => {
    for (const id of ['987654', 'abc', '1.0', '-3', '0']) {
      const res = await t.call(key, { method: 'GET', url: `/api/v1/reports/${id}` });
      assert.equal(res.statusCode, 404, id);
      assert.deepEqual(res.json(), { message: 'Report not found.', status: 404 });
    }
  });

  test('account isolation: another account cannot see, change or delete a report', async () => {
    const mine = (await create({ url: `${site.origin}/plain.html` })).json().data.id;
    const other = await t.account();
    for (const [method, url] of [
      ['GET', `/api/v1/reports/${mine}`],
      ['PUT', `/api/v1/reports/${mine}?privacy=0`],
      ['PATCH', `/api/v1/reports/${mine}?results=1`],
      ['DELETE', `/api/v1/reports/${mine}`],
    ] as const) {
      const res = await t.call(other.key, { method, url });
      assert.equal(res.statusCode, 404, `${method} ${url}`);
    }
    assert.equal((await t.call(other.key, { method: 'GET', url: '/api/v1/reports' })).json().meta.total, 0);
    assert.equal((await t.call(other.key, { method: 'GET', url: '/api/v1/projects' })).json().meta.total, 0);
    assert.equal((await t.call(other.key, { method: 'DELETE', url: '/api/v1/projects/127.0.0.1' })).statusCode, 404);
    assert.equal((await t.call(key, { method: 'GET', url: `/api/v1/reports/${mine}` })).statusCode, 200);
  });
});
