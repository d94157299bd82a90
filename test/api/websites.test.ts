import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { fixedClock } from '../../src/time.js';
import { testApp, type TestApp } from '../helpers/app.js';

/** Time moves only when a test moves it (no sleeping to make a timestamp change). */
const clock = fixedClock(Date.parse('2026-01-01T00:00:00Z'));

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

describe('websites API', () => {
  let t: TestApp;
  let key: string;
  before(async () => {
    t = await testApp({}, { clock });
    ({ key } = await t.account());
  });
  after(() => t.close());

  const create = (form: Record<string, string>) => t.call(key, { method: 'POST', url: '/api/v1/websites', form });

  test('create with only a domain: 201, every field with its default, in the spec order', async () => {
    const res = await create({ domain: 'defaults.example' });
    assert.equal(res.statusCode, 201);
    const body = res.json();
    assert.deepEqual(Object.keys(body), ['data', 'status']);
    assert.equal(body.status, 201);
    const w = body.data;
    assert.deepEqual(Object.keys(w), [
      'id',
      'domain',
      'privacy',
      'email',
      'password',
      'exclude_bots',
      'exclude_ips',
      'exclude_params',
      'created_at',
      'updated_at',
    ]);
    assert.equal(typeof w.id, 'number');
    assert.equal(w.domain, 'defaults.example');
    assert.equal(w.privacy, 1);
    assert.equal(w.email, null);
    assert.equal(w.password, false);
    assert.equal(w.exclude_bots, 1);
    assert.equal(w.exclude_ips, null);
    assert.equal(w.exclude_params, null);
    assert.match(w.created_at, TIMESTAMP);
    assert.equal(w.updated_at, w.created_at);
  });

  test('create with every parameter', async () => {
    const res = await create({
      domain: 'https://WWW.Every-Field.example/some/page?x=1',
      privacy: '2',
      password: 'correct horse',
      email: '1',
      exclude_bots: '0',
      exclude_ips: '203.0.113.7\n  \n2001:DB8::/32\n198.51.100.0/24\n203.0.113.7',
      exclude_params: 'utm_source\nfbclid\n',
    });
    assert.equal(res.statusCode, 201);
    const w = res.json().data;
    assert.equal(w.domain, 'www.every-field.example');
    assert.equal(w.privacy, 2);
    assert.equal(w.password, true);
    assert.equal(w.email, 1);
    assert.equal(w.exclude_bots, 0);
    assert.equal(w.exclude_ips, '203.0.113.7\n2001:db8::/32\n198.51.100.0/24');
    assert.equal(w.exclude_params, 'utm_source\nfbclid');
    assert.ok(!JSON.stringify(res.json()).includes('correct horse'));
  });

  test('create accepts JSON bodies too, and IDN domains become punycode', async () => {
    const res = await t.call(key, {
      method: 'POST',
      url: '/api/v1/websites',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ domain: 'bücher.example', privacy: 0, email: 0 }),
    });
    assert.equal(res.statusCode, 201);
    assert.deepEqual([res.json().data.domain, res.json().data.privacy, res.json().data.email], ['xn--bcher-kva.example', 0, 0]);
  });

  test('show answers the website; unknown and non-integer ids answer 404', async () => {
    const id = (await create({ domain: 'show.example' })).json().data.id;
    const res = await t.call(key, { method: 'GET', url: `/api/v1/websites/${id}` });
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().status, 200);
    assert.equal(res.json().data.domain, 'show.example');
    for (const bad of ['999999', 'abc', '1.5', '-1', '0', '1e3', '99999999999999999999', '%20']) {
      const r = await t.call(key, { method: 'GET', url: `/api/v1/websites/${bad}` });
      assert.equal(r.statusCode, 404, bad);
      assert.deepEqual(r.json(), { message: 'Website not found.', status: 404 });
    }
  });

  describe('validation failures answer 422 in the API error shape and change nothing', () => {
    const cases: [string, Record<string, string>, Record<string, string[]>][] = [
      ['missing domain', {}, { domain: ['The domain field is required.'] }],
      ['blank domain', { domain: '   ' }, { domain: ['The domain field is required.'] }],
      ['invalid domain', { domain: 'not a domain' }, { domain: ['The domain must be a valid domain name.'] }],
      ['IP with a zone as domain', { domain: 'fe80::1%eth0' }, { domain: ['The domain must be a valid domain name.'] }],
      ['out-of-range IPv4 as domain', { domain: '10.0.0.256' }, { domain: ['The domain must be a valid domain name.'] }],
      [
        'too long domain',
        { domain: `${'a'.repeat(300)}.com` },
        { domain: ['The domain must not be greater than 255 characters.'] },
      ],
      [
        'privacy 2 without password',
        { domain: 'p2.example', privacy: '2' },
        { password: ['The password field is required when privacy is 2.'] },
      ],
      ['privacy out of range', { domain: 'p.example', privacy: '3' }, { privacy: ['The selected privacy is invalid.'] }],
      [
        'privacy not an integer',
        { domain: 'p.example', privacy: '1.0' },
        { privacy: ['The privacy must be an integer.', 'The selected privacy is invalid.'] },
      ],
      ['email out of range', { domain: 'e.example', email: '2' }, { email: ['The selected email is invalid.'] }],
      [
        'exclude_bots text',
        { domain: 'e.example', exclude_bots: 'yes' },
        { exclude_bots: ['The exclude bots must be an integer.', 'The selected exclude bots is invalid.'] },
      ],
      [
        'password too long',
        { domain: 'pw.example', privacy: '2', password: 'x'.repeat(129) },
        { password: ['The password must not be greater than 128 characters.'] },
      ],
      [
        'bad exclude_ips',
        { domain: 'ip.example', exclude_ips: '1.2.3.4\n1.2.3.999' },
        { exclude_ips: ['The exclude ips field contains an invalid IP address or range: 1.2.3.999.'] },
      ],
      [
        'bad CIDR',
        { domain: 'ip.example', exclude_ips: '10.0.0.0/40' },
        { exclude_ips: ['The exclude ips field contains an invalid IP address or range: 10.0.0.0/40.'] },
      ],
      [
        'bad exclude_params',
        { domain: 'pa.example', exclude_params: 'a b' },
        { exclude_params: ['The exclude params field contains an invalid parameter name: a b.'] },
      ],
    ];
    for (const [name, form, errors] of cases) {
      test(name, async () => {
        const before = (await t.call(key, { method: 'GET', url: '/api/v1/websites' })).json().meta.total;
        const res = await create(form);
        assert.equal(res.statusCode, 422);
        const body = res.json();
        assert.deepEqual(Object.keys(body), ['message', 'errors', 'status']);
        assert.deepEqual(body.errors, errors);
        assert.equal(body.status, 422);
        const all = Object.values(errors).flat();
        assert.equal(
          body.message,
          all.length > 1 ? `${all[0]} (and ${all.length - 1} more error${all.length > 2 ? 's' : ''})` : all[0],
        );
        const afterCount = (await t.call(key, { method: 'GET', url: '/api/v1/websites' })).json().meta.total;
        assert.equal(afterCount, before);
      });
    }

    test('several fields at once: all reported, in rule order, with the summary', async () => {
      const res = await create({ privacy: '9', exclude_ips: 'nope' });
      assert.equal(res.statusCode, 422);
      assert.deepEqual(res.json(), {
        message: 'The domain field is required. (and 2 more errors)',
        errors: {
          domain: ['The domain field is required.'],
          privacy: ['The selected privacy is invalid.'],
          exclude_ips: ['The exclude ips field contains an invalid IP address or range: nope.'],
        },
        status: 422,
      });
    });

    test('rules the schema cannot say answer in the same 422 as its own errors, fields in schema order', async () => {
      assert.equal((await create({ domain: 'taken.example' })).statusCode, 201);
      const res = await create({ exclude_ips: 'nope', privacy: '2', domain: 'taken.example' });
      assert.equal(res.statusCode, 422);
      assert.deepEqual(res.json(), {
        message: 'The domain has already been taken. (and 2 more errors)',
        errors: {
          domain: ['The domain has already been taken.'],
          password: ['The password field is required when privacy is 2.'],
          exclude_ips: ['The exclude ips field contains an invalid IP address or range: nope.'],
        },
        status: 422,
      });
    });

    test('a duplicate domain, however written', async () => {
      assert.equal((await create({ domain: 'dup.example' })).statusCode, 201);
      for (const again of ['dup.example', 'DUP.example', 'https://dup.example/page']) {
        const res = await create({ domain: again });
        assert.equal(res.statusCode, 422, again);
        assert.deepEqual(res.json().errors, { domain: ['The domain has already been taken.'] });
      }
    });
  });

  describe('update (PUT and PATCH, query string or form body)', () => {
    test('PUT with parameters in the query string, as the spec examples do', async () => {
      const id = (await create({ domain: 'upd-query.example' })).json().data.id;
      const res = await t.call(key, { method: 'PUT', url: `/api/v1/websites/${id}?privacy=0&email=1&exclude_bots=0` });
      assert.equal(res.statusCode, 200);
      const w = res.json().data;
      assert.deepEqual([w.privacy, w.email, w.exclude_bots, w.domain], [0, 1, 0, 'upd-query.example']);
      assert.equal(res.json().status, 200);
    });

    test('PATCH with a form body; the body wins over the query string', async () => {
      const id = (await create({ domain: 'upd-form.example' })).json().data.id;
      const res = await t.call(key, { method: 'PATCH', url: `/api/v1/websites/${id}?privacy=1`, form: { privacy: '0' } });
      assert.equal(res.json().data.privacy, 0);
    });

    test('only the given fields change; updated_at moves, created_at stays; domain is not updatable', async () => {
      const created = (await create({ domain: 'partial.example', email: '1', exclude_ips: '1.1.1.1' })).json().data;
      clock.advance(1000);
      const res = await t.call(key, {
        method: 'PUT',
        url: `/api/v1/websites/${created.id}`,
        form: { exclude_bots: '0', domain: 'other.example' },
      });
      const w = res.json().data;
      assert.equal(w.exclude_bots, 0);
      assert.equal(w.email, 1);
      assert.equal(w.exclude_ips, '1.1.1.1');
      assert.equal(w.domain, 'partial.example');
      assert.equal(w.created_at, created.created_at);
      assert.ok(w.updated_at > created.updated_at);
    });

    test('an empty exclude list clears it', async () => {
      const id = (await create({ domain: 'clear.example', exclude_ips: '1.1.1.1', exclude_params: 'a' })).json().data.id;
      const w = (await t.call(key, { method: 'PUT', url: `/api/v1/websites/${id}?exclude_ips=&exclude_params=` })).json().data;
      assert.equal(w.exclude_ips, null);
      assert.equal(w.exclude_params, null);
    });

    test('privacy and password: required for 2 when none is set, kept while 2, cleared when leaving 2', async () => {
      const id = (await create({ domain: 'privacy.example' })).json().data.id;
      const url = `/api/v1/websites/${id}`;
      let res = await t.call(key, { method: 'PUT', url: `${url}?privacy=2` });
      assert.equal(res.statusCode, 422);
      assert.deepEqual(res.json().errors, { password: ['The password field is required when privacy is 2.'] });
      res = await t.call(key, { method: 'PUT', url, form: { privacy: '2', password: 'first' } });
      assert.deepEqual([res.json().data.privacy, res.json().data.password], [2, true]);
      res = await t.call(key, { method: 'PUT', url, form: { email: '0' } });
      assert.deepEqual([res.json().data.privacy, res.json().data.password], [2, true]);
      res = await t.call(key, { method: 'PUT', url, form: { privacy: '2' } }); // still has one: fine
      assert.equal(res.statusCode, 200);
      res = await t.call(key, { method: 'PUT', url, form: { privacy: '0', password: 'ignored' } });
      assert.deepEqual([res.json().data.privacy, res.json().data.password], [0, false]);
      res = await t.call(key, { method: 'PUT', url, form: { privacy: '2' } }); // cleared: needed again
      assert.equal(res.statusCode, 422);
    });

    test('a password alone is ignored unless privacy is 2', async () => {
      const id = (await create({ domain: 'pwonly.example' })).json().data.id;
      const res = await t.call(key, { method: 'PUT', url: `/api/v1/websites/${id}`, form: { password: 'x' } });
      assert.deepEqual([res.json().data.privacy, res.json().data.password], [1, false]);
    });

    test('invalid update values: 422, nothing changed', async () => {
      const id = (await create({ domain: 'badupd.example' })).json().data.id;
      const res = await t.call(key, { method: 'PUT', url: `/api/v1/websites/${id}?privacy=x&exclude_ips=1.2.3.4/99` });
      assert.equal(res.statusCode, 422);
      assert.deepEqual(Object.keys(res.json().errors), ['privacy', 'exclude_ips']);
      const w = (await t.call(key, { method: 'GET', url: `/api/v1/websites/${id}` })).json().data;
      assert.deepEqual([w.privacy, w.exclude_ips], [1, null]);
    });

    test('update of an unknown id is 404 before validation', async () => {
      const res = await t.call(key, { method: 'PUT', url: '/api/v1/websites/424242?privacy=9' });
      assert.equal(res.statusCode, 404);
      assert.deepEqual(res.json(), { message: 'Website not found.', status: 404 });
    });

    test("update of a malformed or another account's id is 404 before validation too", async () => {
      const theirs = (await create({ domain: 'theirs.example' })).json().data.id;
      const other = await t.account();
      for (const id of ['abc', '0', '1.5', String(theirs)]) {
        const res = await t.call(other.key, {
          method: 'PATCH',
          url: `/api/v1/websites/${id}?privacy=9`,
          form: { exclude_ips: 'nope' },
        });
        assert.deepEqual([res.statusCode, res.json()], [404, { message: 'Website not found.', status: 404 }], id);
      }
    });
  });

  test('delete answers {data: {id}}, then the id is gone', async () => {
    const id = (await create({ domain: 'delete.example' })).json().data.id;
    const res = await t.call(key, { method: 'DELETE', url: `/api/v1/websites/${id}` });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { data: { id }, status: 200 });
    assert.equal((await t.call(key, { method: 'GET', url: `/api/v1/websites/${id}` })).statusCode, 404);
    assert.equal((await t.call(key, { method: 'DELETE', url: `/api/v1/websites/${id}` })).statusCode, 404);
    // the domain is free again
    assert.equal((await create({ domain: 'delete.example' })).statusCode, 201);
  });
});
