// Sign-in, sessions and CSRF (docs/dashboard.md).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { testApp, type TestApp } from '../helpers/app.js';
import { dashboardClient, givePassword, sessionsOf, signedInClient, TEST_PASSWORD } from '../helpers/dashboard.js';

describe('dashboard sign-in and sessions', () => {
  let t: TestApp;
  before(async () => {
    t = await testApp();
  });
  after(async () => t.close());

  test('an /app page without a session redirects (303) to /login, naming the page to come back to', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/app/account' });
    assert.equal(res.statusCode, 303);
    assert.equal(res.headers.location, '/login?next=%2Fapp%2Faccount');
    const post = await t.app.inject({ method: 'POST', url: '/app/account/key', payload: {} });
    assert.equal(post.statusCode, 303);
    assert.equal(post.headers.location, '/login');
  });

  test('sign in: the session cookie is HttpOnly and SameSite=Lax; the stored id is a hash; next is followed on this site only', async () => {
    const account = await t.account();
    await givePassword(t, account.id);
    const client = dashboardClient(t, account);
    const page = await client.get('/login?next=/app/account');
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /<h1[^>]*>Sign in<\/h1>/);
    const res = await client.post('/login', {
      email: account.email.toUpperCase(),
      password: TEST_PASSWORD,
      next: '/app/account',
      _token: '',
    });
    assert.equal(res.statusCode, 303);
    assert.equal(res.headers.location, '/app/account');
    const cookie = res.cookies.find((c) => c.name === 'rankscope_session');
    assert.ok(cookie);
    assert.equal(cookie.httpOnly, true);
    assert.equal(cookie.sameSite, 'Lax');
    assert.equal(cookie.secure, undefined, 'plain http: not Secure');
    const rows = await t.db.handle.db.selectFrom('sessions').selectAll().where('user_id', '=', account.id).execute();
    assert.equal(rows.length, 1);
    assert.notEqual(rows[0].id_hash, cookie.value);
    assert.match(rows[0].id_hash, /^[0-9a-f]{64}$/);
    const elsewhere = await client.post('/login', {
      email: account.email,
      password: TEST_PASSWORD,
      next: '//evil.example/app',
      _token: '',
    });
    assert.equal(elsewhere.headers.location, '/app/reports');
    const over = await t.app.inject({
      method: 'POST',
      url: '/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-proto': 'https' },
      payload: new URLSearchParams({ email: account.email, password: TEST_PASSWORD }).toString(),
    });
    assert.equal(over.statusCode, 303);
  });

  test('a wrong password or an unknown account: 401 with the same message, and no session', async () => {
    const account = await t.account();
    await givePassword(t, account.id);
    const client = dashboardClient(t, account);
    for (const [email, password] of [
      [account.email, 'wrong password'],
      ['nobody@example.com', TEST_PASSWORD],
      [account.email, ''],
    ]) {
      const res = await client.post('/login', { email, password, _token: '' });
      assert.equal(res.statusCode, 401);
      assert.match(res.body, /These credentials do not match our records\./);
      assert.equal(
        res.cookies.find((c) => c.name === 'rankscope_session'),
        undefined,
      );
    }
    assert.equal(await sessionsOf(t).countForUser(account.id), 0);
  });

  test('an account without a password cannot sign in', async () => {
    const account = await t.account();
    const res = await dashboardClient(t, account).post('/login', { email: account.email, password: '', _token: '' });
    assert.equal(res.statusCode, 401);
  });

  test('a sign-in form posted from another site is refused (login CSRF)', async () => {
    const account = await t.account();
    await givePassword(t, account.id);
    const res = await dashboardClient(t, account).post(
      '/login',
      { email: account.email, password: TEST_PASSWORD, _token: '' },
      { 'sec-fetch-site': 'cross-site' },
    );
    assert.equal(res.statusCode, 403);
    assert.equal(await sessionsOf(t).countForUser(account.id), 0);
  });

  test('CSRF: a form without the token, with another token or from another site is refused, and changes nothing', async () => {
    const client = await signedInClient(t);
    const before = (await t.users.findById(client.account.id))!.api_key_hash;
    for (const [fields, headers] of [
      [{ _token: '' }, {}],
      [{ _token: 'x'.repeat(client.csrf.length) }, {}],
      [{}, { 'sec-fetch-site': 'cross-site' }],
      [{}, { 'sec-fetch-site': undefined, origin: 'https://evil.example' }],
    ] as const) {
      const res = await client.post('/app/account/key', { ...fields }, { ...headers });
      assert.equal(res.statusCode, 403, JSON.stringify([fields, headers]));
      assert.match(res.body, /Form refused/);
    }
    assert.equal((await t.users.findById(client.account.id))!.api_key_hash, before);
    const ok = await client.post('/app/account/key');
    assert.equal(ok.statusCode, 200);
    assert.notEqual((await t.users.findById(client.account.id))!.api_key_hash, before);
  });

  test('rotating the API key shows the new key once; it works and the old one does not', async () => {
    const client = await signedInClient(t);
    const res = await client.post('/app/account/key');
    const key = /<code class="secret" id="new-key">(rk_[^<]+)<\/code>/.exec(res.body)?.[1];
    assert.ok(key, 'the new key on the page');
    assert.equal(res.headers['cache-control'], 'no-store');
    assert.equal((await t.call(key, { method: 'GET', url: '/api/v1/account' })).statusCode, 200);
    assert.equal((await t.call(client.account.key, { method: 'GET', url: '/api/v1/account' })).statusCode, 401);
    const again = await client.get('/app/account');
    assert.doesNotMatch(again.body, /rk_/);
  });

  test('sign-out ends the session: its cookie opens nothing afterwards', async () => {
    const client = await signedInClient(t);
    const cookie = client.cookies.get('rankscope_session')!;
    const res = await client.post('/logout');
    assert.equal(res.statusCode, 303);
    assert.equal(res.headers.location, '/login');
    const replay = await t.app.inject({ method: 'GET', url: '/app/account', headers: { cookie: `rankscope_session=${cookie}` } });
    assert.equal(replay.statusCode, 303);
    assert.equal(await sessionsOf(t).countForUser(client.account.id), 0);
  });

  test('a password change revokes every session, signs this browser in again, and the new password works', async () => {
    const client = await signedInClient(t);
    const other = dashboardClient(t, client.account);
    await other.post('/login', { email: client.account.email, password: TEST_PASSWORD, _token: '' });
    assert.equal((await other.get('/app/account')).statusCode, 200);

    const mismatch = await client.post('/app/account/password', {
      current_password: TEST_PASSWORD,
      password: 'new password 1',
      password_confirmation: 'other',
    });
    assert.equal(mismatch.statusCode, 422);
    assert.match(mismatch.body, /aria-invalid="true"/);
    const wrong = await client.post('/app/account/password', {
      current_password: 'nope',
      password: 'new password 1',
      password_confirmation: 'new password 1',
    });
    assert.equal(wrong.statusCode, 422);
    assert.match(wrong.body, /The current password is incorrect\./);
    const short = await client.post('/app/account/password', {
      current_password: TEST_PASSWORD,
      password: 'short',
      password_confirmation: 'short',
    });
    assert.equal(short.statusCode, 422);
    assert.match(short.body, /at least 8 characters/);

    const res = await client.post('/app/account/password', {
      current_password: TEST_PASSWORD,
      password: 'new password 1',
      password_confirmation: 'new password 1',
    });
    assert.equal(res.statusCode, 303);
    assert.equal((await other.get('/app/account')).statusCode, 303, 'the other browser is signed out');
    const page = await client.get('/app/account');
    assert.equal(page.statusCode, 200, 'this browser has a new session');
    assert.match(page.body, /Password changed\./);
    assert.equal(await sessionsOf(t).countForUser(client.account.id), 1);
    const fresh = dashboardClient(t, client.account);
    assert.equal(
      (await fresh.post('/login', { email: client.account.email, password: TEST_PASSWORD, _token: '' })).statusCode,
      401,
    );
    assert.equal(
      (await fresh.post('/login', { email: client.account.email, password: 'new password 1', _token: '' })).statusCode,
      303,
    );
  });

  test('the in-process API credential cannot be forged from outside', async () => {
    const account = await t.account();
    for (const authorization of [
      `Internal x.${account.id}`,
      `Internal .${account.id}`,
      'Internal ',
      `Internal ${'a'.repeat(43)}.${account.id}`,
    ]) {
      const res = await t.app.inject({ method: 'GET', url: '/api/v1/account', headers: { authorization } });
      assert.equal(res.statusCode, 401, authorization);
    }
  });
});

describe('sign-in limits (only failures count)', () => {
  let t: TestApp;
  before(async () => {
    t = await testApp({ TRUST_PROXY: '1' });
  });
  after(async () => t.close());

  test('after 5 failures for one account: 429 with Retry-After, even with the right password; other accounts are unaffected', async () => {
    const account = await t.account();
    await givePassword(t, account.id);
    const client = dashboardClient(t, account);
    // Successes do not count: sign in three times first.
    for (let i = 0; i < 3; i++)
      assert.equal((await client.post('/login', { email: account.email, password: TEST_PASSWORD, _token: '' })).statusCode, 303);
    for (let i = 0; i < 5; i++)
      assert.equal((await client.post('/login', { email: account.email, password: `wrong ${i}`, _token: '' })).statusCode, 401);
    const res = await client.post('/login', { email: account.email, password: TEST_PASSWORD, _token: '' });
    assert.equal(res.statusCode, 429);
    assert.match(res.body, /Too many sign-in attempts, try again later\./);
    const retry = Number(res.headers['retry-after']);
    assert.ok(retry > 800 && retry <= 900, `Retry-After ${retry}`);
    const other = await t.account();
    await givePassword(t, other.id);
    assert.equal(
      (await dashboardClient(t, other).post('/login', { email: other.email, password: TEST_PASSWORD, _token: '' })).statusCode,
      303,
    );
  });

  test('after 20 failures from one address (over many accounts): 429 for that address only', async () => {
    const victim = await t.account();
    await givePassword(t, victim.id);
    const client = dashboardClient(t, victim);
    const from = { 'x-forwarded-for': '203.0.113.9' };
    for (let i = 0; i < 20; i++) {
      const res = await client.post('/login', { email: `guess${i}@example.com`, password: 'x', _token: '' }, from);
      assert.equal(res.statusCode, 401, `attempt ${i + 1}`);
    }
    assert.equal(
      (await client.post('/login', { email: victim.email, password: TEST_PASSWORD, _token: '' }, from)).statusCode,
      429,
    );
  });
});

describe('the API rate limit', () => {
  let t: TestApp;
  before(async () => {
    t = await testApp({ RATE_LIMIT_PER_MINUTE: '2' });
  });
  after(async () => t.close());

  test('counts API clients, not the calls a dashboard page makes for its account', async () => {
    const client = await signedInClient(t);
    for (let i = 0; i < 6; i++) assert.equal((await client.get('/app/reports')).statusCode, 200, `page ${i + 1}`);
    const answers = [];
    for (let i = 0; i < 3; i++)
      answers.push((await t.call(client.account.key, { method: 'GET', url: '/api/v1/reports' })).statusCode);
    assert.deepEqual(answers, [200, 200, 429]);
  });
});
