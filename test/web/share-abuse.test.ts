// The share pages' password form under attack: parallel guessing, cross-site posts, cookies
// replayed or kept too long, and client addresses behind proxies.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { testApp, type TestApp } from '../helpers/app.js';
import { seedReport } from '../helpers/seed.js';
import { hasRedisServer, startRedis } from '../helpers/redis.js';
import { fixedClock } from '../../src/time.js';
import { COOKIE_MAX_AGE_SECONDS } from '../../src/web/share-access.js';

const cookieOf = (setCookie: string | string[] | undefined) => String([setCookie].flat()[0]).split(';')[0];

function unlocker(t: TestApp) {
  return (url: string, password: string, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      payload: new URLSearchParams({ password }).toString(),
    });
}

/** 50 wrong guesses at once, then the right password: at most the limit may be verified. */
async function parallelGuesses(t: TestApp, userId: number) {
  const report = await seedReport(t.db.handle, userId, { privacy: 2, password: 'the right one' });
  const unlock = unlocker(t);
  const url = `/reports/${report.id}`;
  const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => unlock(url, `guess ${i}`)));
  const statuses = answers.map((a) => a.statusCode);
  assert.equal(statuses.filter((s) => s === 401).length, 5, 'exactly the limit was checked');
  assert.equal(statuses.filter((s) => s === 429).length, 45);
  assert.equal((await unlock(url, 'the right one')).statusCode, 429, 'the window is closed, even to the right password');
}

describe('share-page passwords under attack', () => {
  let t: TestApp;
  let user: { id: number; key: string };
  const clock = fixedClock(Date.parse('2026-11-23T12:00:00Z'));
  before(async () => {
    t = await testApp({}, { clock });
    user = await t.account();
  });
  after(() => t.close());

  test('50 parallel wrong passwords: only the limit gets verified (counted before the slow check)', () =>
    parallelGuesses(t, user.id));

  test('a right password does not use up the budget of wrong ones', async () => {
    const report = await seedReport(t.db.handle, user.id, { privacy: 2, password: 'pw' });
    const unlock = unlocker(t);
    const url = `/reports/${report.id}`;
    for (let i = 0; i < 8; i++) assert.equal((await unlock(url, 'pw')).statusCode, 303);
    for (let i = 0; i < 5; i++) assert.equal((await unlock(url, 'wrong')).statusCode, 401);
    assert.equal((await unlock(url, 'wrong')).statusCode, 429);
  });

  test('unlock cookies differ each time, carry a Max-Age ≤ 30 days, and stop working when they expire', async () => {
    const report = await seedReport(t.db.handle, user.id, { privacy: 2, password: 'pw' });
    const unlock = unlocker(t);
    const url = `/reports/${report.id}`;
    const first = await unlock(url, 'pw');
    const second = await unlock(url, 'pw');
    assert.notEqual(cookieOf(first.headers['set-cookie']), cookieOf(second.headers['set-cookie']));
    const maxAge = Number(/Max-Age=(\d+)/i.exec(String(first.headers['set-cookie']))?.[1]);
    assert.ok(maxAge > 0 && maxAge <= 30 * 86400, `Max-Age ${maxAge}`);
    const cookie = cookieOf(first.headers['set-cookie']);
    const view = () => t.app.inject({ method: 'GET', url, headers: { cookie } });
    assert.ok(!(await view()).body.includes('Password required'));
    clock.advance((COOKIE_MAX_AGE_SECONDS - 60) * 1000);
    assert.ok(!(await view()).body.includes('Password required'), 'still valid just before it expires');
    clock.advance(120 * 1000);
    assert.match((await view()).body, /Password required/, 'an expired cookie opens nothing, even if a browser keeps it');
  });

  test('a cross-site post of the right password is refused (login CSRF) and sets no cookie', async () => {
    const report = await seedReport(t.db.handle, user.id, { privacy: 2, password: 'pw' });
    const unlock = unlocker(t);
    const url = `/reports/${report.id}`;
    const refused: Record<string, string>[] = [
      { origin: 'https://evil.example' },
      { origin: 'null' },
      { 'sec-fetch-site': 'cross-site' },
      { referer: 'https://evil.example/page' },
      { origin: 'http://localhost:80', host: 'localhost:8080' },
    ];
    for (const headers of refused) {
      const res = await unlock(url, 'pw', headers);
      assert.equal(res.statusCode, 403, JSON.stringify(headers));
      assert.equal(res.headers['set-cookie'], undefined);
      assert.match(res.body, /sent from another site/);
    }
    // this site's own form, and clients that are not browsers, still work
    assert.equal((await unlock(url, 'pw', { origin: 'http://localhost:80', host: 'localhost:80' })).statusCode, 303);
    assert.equal(
      (
        await unlock(url, 'pw', {
          referer: 'http://localhost:80/reports/1',
          host: 'localhost:80',
          'sec-fetch-site': 'same-origin',
        })
      ).statusCode,
      303,
    );
    assert.equal((await unlock(url, 'pw')).statusCode, 303);
  });
});

describe('share-page passwords with the attempt counter in Redis', {
  skip: hasRedisServer ? false : 'redis-server is not installed',
}, () => {
  let t: TestApp;
  let redis: Awaited<ReturnType<typeof startRedis>>;
  before(async () => {
    redis = await startRedis();
    t = await testApp({ REDIS_URL: redis.url });
  });
  after(async () => {
    await t.close();
    await redis.stop();
  });

  test('50 parallel wrong passwords: only the limit gets verified', async () => {
    const user = await t.account();
    await parallelGuesses(t, user.id);
  });
});

describe('client addresses behind TRUST_PROXY=N', () => {
  // Three X-Forwarded-For entries: the client claims 6.6.6.6, proxy one saw 1.1.1.1, the
  // proxy next to us saw 2.2.2.2.
  const xff = '6.6.6.6, 1.1.1.1, 2.2.2.2';
  const spoofed = '7.7.7.7, 1.1.1.1, 2.2.2.2';

  async function limitedPerAddress(env: Record<string, string>, same: string[], different: string[]) {
    const t = await testApp(env);
    try {
      const user = await t.account();
      const report = await seedReport(t.db.handle, user.id, { privacy: 2, password: 'pw' });
      const unlock = unlocker(t);
      const url = `/reports/${report.id}`;
      for (let i = 0; i < 5; i++) await unlock(url, 'wrong', { 'x-forwarded-for': xff });
      for (const header of same)
        assert.equal((await unlock(url, 'pw', { 'x-forwarded-for': header })).statusCode, 429, `${header}: same client`);
      for (const header of different)
        assert.equal((await unlock(url, 'pw', { 'x-forwarded-for': header })).statusCode, 303, `${header}: another client`);
      const logged = t.logs.map((l) => JSON.parse(l)).filter((l) => l.req?.remoteAddress);
      return logged.map((l) => l.req.remoteAddress as string);
    } finally {
      await t.close();
    }
  }

  test('N = 1: the right-most entry is the client; what the client wrote further left changes nothing', async () => {
    const seen = await limitedPerAddress({ TRUST_PROXY: '1' }, [spoofed, '2.2.2.2'], ['6.6.6.6, 1.1.1.1, 3.3.3.3']);
    assert.ok(seen.includes('2.2.2.2') && !seen.includes('6.6.6.6') && !seen.includes('7.7.7.7'), seen.join());
  });

  test('N = 2: the second entry from the right is the client', async () => {
    const seen = await limitedPerAddress({ TRUST_PROXY: '2' }, [spoofed, '1.1.1.1, 9.9.9.9'], ['6.6.6.6, 3.3.3.3, 2.2.2.2']);
    assert.ok(seen.includes('1.1.1.1') && !seen.includes('6.6.6.6'), seen.join());
  });

  test('true means one proxy, not every hop', async () => {
    const seen = await limitedPerAddress({ TRUST_PROXY: 'true' }, [spoofed], ['6.6.6.6, 1.1.1.1, 3.3.3.3']);
    assert.ok(seen.includes('2.2.2.2') && !seen.includes('6.6.6.6'), seen.join());
  });

  test('fewer entries than N: the left-most one', async () => {
    const seen = await limitedPerAddress({ TRUST_PROXY: '5' }, [], ['5.5.5.5']);
    assert.ok(seen.includes('6.6.6.6') && seen.includes('5.5.5.5'), seen.join());
  });

  test('off: the socket address, whatever the header says', async () => {
    const seen = await limitedPerAddress({}, [spoofed, '3.3.3.3'], []);
    assert.ok(
      seen.every((a) => a === '127.0.0.1'),
      seen.join(),
    );
  });
});
