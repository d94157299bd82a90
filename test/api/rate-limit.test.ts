import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { testApp, type TestApp } from '../helpers/app.js';
import { Redis } from 'ioredis';
import { hasRedisServer, startRedis } from '../helpers/redis.js';
import { until } from '../helpers/wait.js';

describe('rate limiting (RATE_LIMIT_PER_MINUTE=3)', () => {
  let t: TestApp;
  before(async () => {
    t = await testApp({ RATE_LIMIT_PER_MINUTE: '3' });
  });

  test('Laravel headers on every authenticated response, then 429 Too Many Attempts.', async () => {
    const { key } = await t.account();
    const seen: [number, string | undefined, string | undefined][] = [];
    for (const url of ['/api/v1/websites', '/api/v1/websites/999', '/api/v1/websites?per_page=7']) {
      const res = await t.call(key, { method: 'GET', url });
      seen.push([res.statusCode, res.headers['x-ratelimit-limit'] as string, res.headers['x-ratelimit-remaining'] as string]);
    }
    // a 404 and a 422 count and carry the headers too
    assert.deepEqual(seen, [
      [200, '3', '2'],
      [404, '3', '1'],
      [422, '3', '0'],
    ]);
    const limited = await t.call(key, { method: 'GET', url: '/api/v1/websites' });
    assert.equal(limited.statusCode, 429);
    assert.deepEqual(limited.json(), { message: 'Too Many Attempts.', status: 429 });
    assert.equal(limited.headers['x-ratelimit-limit'], '3');
    assert.equal(limited.headers['x-ratelimit-remaining'], '0');
    const retryAfter = Number(limited.headers['retry-after']);
    assert.ok(retryAfter >= 1 && retryAfter <= 60, String(retryAfter));
    const reset = Number(limited.headers['x-ratelimit-reset']);
    assert.ok(Math.abs(reset - (Math.floor(Date.now() / 1000) + retryAfter)) <= 2, 'X-RateLimit-Reset is an epoch time');
  });

  test('a 401 carries no rate-limit headers and does not count; accounts are counted apart', async () => {
    const a = await t.account();
    const b = await t.account();
    for (let i = 0; i < 5; i++) {
      const res = await t.app.inject({ method: 'GET', url: '/api/v1/websites', headers: { authorization: 'Bearer nope' } });
      assert.equal(res.statusCode, 401);
      assert.equal(res.headers['x-ratelimit-remaining'], undefined);
    }
    for (let i = 0; i < 3; i++) assert.equal((await t.call(a.key, { method: 'GET', url: '/api/v1/websites' })).statusCode, 200);
    assert.equal((await t.call(a.key, { method: 'GET', url: '/api/v1/websites' })).statusCode, 429);
    const other = await t.call(b.key, { method: 'GET', url: '/api/v1/websites' });
    assert.equal(other.statusCode, 200);
    assert.equal(other.headers['x-ratelimit-remaining'], '2');
  });

  test('RATE_LIMIT_PER_MINUTE=0 turns it off', async () => {
    const off = await testApp({ RATE_LIMIT_PER_MINUTE: '0' });
    try {
      const { key } = await off.account();
      for (let i = 0; i < 10; i++) {
        const res = await off.call(key, { method: 'GET', url: '/api/v1/websites' });
        assert.equal(res.statusCode, 200);
        assert.equal(res.headers['x-ratelimit-limit'], undefined);
      }
    } finally {
      await off.close();
    }
  });
});

describe('rate limiting shared through Redis', { skip: hasRedisServer ? false : 'redis-server is not installed' }, () => {
  test('two instances share one window; with Redis gone they keep serving and log a warning', async () => {
    const redis = await startRedis();
    const first = await testApp({ RATE_LIMIT_PER_MINUTE: '4', REDIS_URL: redis.url });
    // the second instance shares the first's database so the same key works on both
    const { buildApp } = await import('../../src/app.js');
    const second = await buildApp({ config: first.config, database: first.db.handle });
    try {
      const { key } = await first.account();
      // both instances' clients connected (buildApp waits for its own, 2 s at most): the
      // server lists them beside the probe asking
      const probe = new Redis(redis.url);
      try {
        await until(
          async () =>
            String(await probe.client('LIST'))
              .trim()
              .split('\n').length >= 3,
          {
            what: 'both instances to connect to Redis',
          },
        );
      } finally {
        probe.disconnect();
      }
      const headers = { authorization: `Bearer ${key}` };
      const remaining: string[] = [];
      for (const app of [first.app, second, first.app, second]) {
        const res = await app.inject({ method: 'GET', url: '/api/v1/websites', headers });
        assert.equal(res.statusCode, 200);
        remaining.push(res.headers['x-ratelimit-remaining'] as string);
      }
      assert.deepEqual(remaining, ['3', '2', '1', '0'], 'one window across both instances');
      assert.equal((await second.inject({ method: 'GET', url: '/api/v1/websites', headers })).statusCode, 429);

      await redis.stop();
      const fresh = await first.account();
      // each request is served at once, never queued for Redis: bench/latency.ts measures how fast
      for (let i = 0; i < 3; i++) {
        const res = await first.app.inject({
          method: 'GET',
          url: '/api/v1/websites',
          headers: { authorization: `Bearer ${fresh.key}` },
        });
        assert.equal(res.statusCode, 200, 'served while Redis is down');
        assert.equal(res.headers['x-ratelimit-limit'], '4');
      }
      assert.ok(
        first.logs.some((l) => l.includes('"level":40') && l.includes('Redis unavailable')),
        'a warning is logged',
      );
    } finally {
      await second.close();
      await first.close();
      await redis.stop();
    }
  });
});
