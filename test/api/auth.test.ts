import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { testApp, type TestApp } from '../helpers/app.js';
import { rotateKey, createAccount } from '../../src/accounts/accounts.js';
import { hashApiKey } from '../../src/accounts/api-keys.js';

describe('API keys and account isolation', () => {
  let t: TestApp;
  before(async () => {
    t = await testApp();
  });

  test('missing, malformed and unknown keys answer 401 Unauthenticated. on every route', async () => {
    const { key } = await t.account();
    const routes: [string, string][] = [
      ['GET', '/api/v1/websites'],
      ['POST', '/api/v1/websites'],
      ['GET', '/api/v1/websites/1'],
      ['PUT', '/api/v1/websites/1'],
      ['PATCH', '/api/v1/websites/1'],
      ['DELETE', '/api/v1/websites/1'],
    ];
    const headers: Record<string, string>[] = [
      {},
      { authorization: '' },
      { authorization: 'Bearer' },
      { authorization: `Basic ${key}` },
      { authorization: `Bearer ${key}x` },
      { authorization: `Bearer ${key.slice(0, -1)}` },
      { authorization: `Bearer ${hashApiKey(key)}` }, // the stored hash is not a key
      { authorization: `Bearer ${'a'.repeat(5000)}` },
    ];
    for (const [method, url] of routes) {
      for (const h of headers) {
        const res = await t.app.inject({ method: method as 'GET', url, headers: h });
        assert.equal(res.statusCode, 401, `${method} ${url} ${JSON.stringify(h).slice(0, 40)}`);
        assert.deepEqual(res.json(), { message: 'Unauthenticated.', status: 401 });
        assert.equal(res.headers['x-ratelimit-limit'], undefined);
      }
    }
  });

  test('the scheme is case-insensitive and surrounding spaces are tolerated', async () => {
    const { key } = await t.account();
    for (const value of [`Bearer ${key}`, `bearer ${key}`, `Bearer   ${key}  `]) {
      const res = await t.app.inject({ method: 'GET', url: '/api/v1/websites', headers: { authorization: value } });
      assert.equal(res.statusCode, 200, value);
    }
  });

  test("each account sees and changes only its own websites; another account's id is a 404", async () => {
    const alice = await t.account();
    const bob = await t.account();
    const created = await t.call(alice.key, { method: 'POST', url: '/api/v1/websites', form: { domain: 'shared-name.example' } });
    const id = created.json().data.id;
    // Bob may register the same domain: uniqueness is per account.
    assert.equal(
      (await t.call(bob.key, { method: 'POST', url: '/api/v1/websites', form: { domain: 'shared-name.example' } })).statusCode,
      201,
    );

    for (const [method, extra] of [
      ['GET', {}],
      ['PUT', { form: { privacy: '0' } }],
      ['PATCH', { form: { privacy: '0' } }],
      ['DELETE', {}],
    ] as const) {
      const res = await t.call(bob.key, { method, url: `/api/v1/websites/${id}`, ...extra });
      assert.equal(res.statusCode, 404, method);
      assert.deepEqual(res.json(), { message: 'Website not found.', status: 404 });
    }
    const bobsList = (await t.call(bob.key, { method: 'GET', url: '/api/v1/websites' })).json();
    assert.equal(bobsList.meta.total, 1);
    assert.notEqual(bobsList.data[0].id, id);
    const alices = (await t.call(alice.key, { method: 'GET', url: `/api/v1/websites/${id}` })).json().data;
    assert.equal(alices.privacy, 1, "Bob's update did not reach Alice's website");
  });

  test('key rotation: the new key works at once and the old one stops working', async () => {
    const account = await t.account();
    assert.equal((await t.call(account.key, { method: 'GET', url: '/api/v1/websites' })).statusCode, 200);
    const newKey = await rotateKey(t.users, account.email);
    assert.notEqual(newKey, account.key);
    assert.equal((await t.call(account.key, { method: 'GET', url: '/api/v1/websites' })).statusCode, 401);
    assert.equal((await t.call(newKey, { method: 'GET', url: '/api/v1/websites' })).statusCode, 200);
    await assert.rejects(rotateKey(t.users, 'nobody@example.com'), /no account/);
  });

  test('keys: 32 random bytes, stored only as SHA-256', async () => {
    const { user, key } = await createAccount(t.users, 'stored-hash@example.com');
    assert.match(key, /^rk_[A-Za-z0-9_-]{43}$/);
    assert.equal(Buffer.from(key.slice(3), 'base64url').length, 32);
    assert.equal(user.api_key_hash, hashApiKey(key));
    const row = await t.db.handle.db.selectFrom('users').selectAll().where('id', '=', user.id).executeTakeFirstOrThrow();
    assert.ok(!Object.values(row).some((v) => String(v).includes(key)));
  });

  test('no password, key or hash appears in any response or log line', async () => {
    const { key } = await t.account();
    const password = 'S3cret-Pa55word-xyz';
    const created = await t.call(key, {
      method: 'POST',
      url: '/api/v1/websites',
      form: { domain: 'secrets.example', privacy: '2', password },
    });
    const id = created.json().data.id;
    const responses = [
      created,
      await t.call(key, { method: 'PUT', url: `/api/v1/websites/${id}?privacy=2&password=${password}` }),
      await t.call(key, { method: 'PATCH', url: `/api/v1/websites/${id}`, form: { privacy: '2', password } }),
      await t.call(key, { method: 'GET', url: `/api/v1/websites/${id}` }),
      await t.call(key, { method: 'GET', url: '/api/v1/websites' }),
      await t.call(key, { method: 'POST', url: '/api/v1/websites', form: { domain: 'x', password } }), // a 422
      await t.app.inject({ method: 'GET', url: `/api/v1/websites?api_token=${key}`, headers: { cookie: `s=${password}` } }),
    ];
    const row = await t.db.handle.db
      .selectFrom('websites')
      .select('password_hash')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    assert.match(row.password_hash!, /^\$argon2id\$/);
    const keyHash = hashApiKey(key);
    const secrets = [password, key, keyHash, row.password_hash!, row.password_hash!.split('$').pop()!];
    const logText = t.logs.join('');
    assert.ok(logText.includes('request completed'), 'requests are logged');
    assert.ok(logText.includes('[REDACTED]'), 'the query-string password was redacted');
    for (const secret of secrets) {
      for (const res of responses) assert.ok(!res.body.includes(secret), `response leaks ${secret.slice(0, 6)}…`);
      assert.ok(!logText.includes(secret), `log leaks ${secret.slice(0, 6)}…`);
    }
  });
});
