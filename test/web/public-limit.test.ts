// The public pages' abuse limit (PUBLIC_RATE_LIMIT_PER_MINUTE): share pages of reports and
// websites and /login count against one budget per client address a minute; past it, 429 with
// Retry-After. The address follows TRUST_PROXY; an IPv6 client counts by its /64; Redis shares
// the count between instances.
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { addressKey } from '../../src/limits/address-key.js';
import { STYLESHEET_PATH } from '../../src/render/index.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { hasRedisServer, startRedis } from '../helpers/redis.js';
import { seedReport } from '../helpers/seed.js';

const LIMIT = 5;

function assertLimited(res: { statusCode: number; headers: Record<string, unknown>; body: string }) {
  assert.equal(res.statusCode, 429, res.body.slice(0, 200));
  const retryAfter = Number(res.headers['retry-after']);
  assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60, `Retry-After ${res.headers['retry-after']}`);
  assert.match(String(res.headers['content-type']), /^text\/html/);
  assert.match(res.body, /<h1 id="page-title">Too many requests<\/h1>/);
}

describe(`public pages: ${LIMIT} requests a minute per client address`, () => {
  let t: TestApp;
  let reportPath: string;
  let websitePath: string;
  let key: string;

  before(async () => {
    t = await testApp({ PUBLIC_RATE_LIMIT_PER_MINUTE: String(LIMIT), TRUST_PROXY: '1' });
    const account = await t.account();
    key = account.key;
    const report = await seedReport(t.db.handle, account.id, { privacy: 0 });
    reportPath = `/reports/${report.id}`;
    const website = await t.call(key, {
      method: 'POST',
      url: '/api/v1/websites',
      form: { domain: 'limit.example', privacy: '0' },
    });
    assert.equal(website.statusCode, 201, website.body);
    websitePath = `/websites/${website.json().data.id}`;
  });

  const from = (address: string, method: 'GET' | 'POST', url: string) =>
    t.app.inject({
      method,
      url,
      headers: {
        'x-forwarded-for': address,
        ...(method === 'POST' ? { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' } : {}),
      },
      ...(method === 'POST' ? { payload: 'email=nobody%40example.com&password=wrong' } : {}),
    });

  test('share pages and /login share one budget; past it 429 with Retry-After, for that address only', async () => {
    const address = '198.51.100.7';
    const answers = [
      await from(address, 'GET', reportPath),
      await from(address, 'GET', websitePath),
      await from(address, 'GET', '/login'),
      await from(address, 'POST', '/login'),
      await from(address, 'GET', reportPath),
    ];
    assert.deepEqual(
      answers.map((a) => a.statusCode),
      [200, 200, 200, 401, 200],
    );
    for (const [method, url] of [
      ['GET', reportPath],
      ['GET', websitePath],
      ['GET', '/login'],
      ['POST', '/login'],
      ['POST', reportPath],
    ] as const) {
      assertLimited(await from(address, method, url));
    }
    assert.equal((await from('198.51.100.8', 'GET', reportPath)).statusCode, 200, 'another address has its own budget');
  });

  test('the API, the stylesheet and unknown paths do not count', async () => {
    const address = '198.51.100.20';
    for (let i = 0; i < LIMIT; i++) assert.equal((await from(address, 'GET', reportPath)).statusCode, 200);
    const api = await t.app.inject({
      method: 'GET',
      url: '/api/v1/reports',
      headers: { authorization: `Bearer ${key}`, 'x-forwarded-for': address },
    });
    assert.equal(api.statusCode, 200);
    assert.equal((await from(address, 'GET', STYLESHEET_PATH)).statusCode, 200);
    assert.equal((await from(address, 'GET', '/no-such-page')).statusCode, 404);
    assertLimited(await from(address, 'GET', reportPath));
  });

  test('an IPv6 client counts by its /64', async () => {
    const sameNetwork = [
      '2001:db8:1:2::1',
      '2001:db8:1:2::2',
      '2001:db8:1:2:ffff:ffff:ffff:ffff',
      '2001:db8:1:2::a',
      '2001:db8:1:2::b',
    ];
    for (const address of sameNetwork) assert.equal((await from(address, 'GET', reportPath)).statusCode, 200, address);
    assertLimited(await from('2001:db8:1:2:1234::99', 'GET', reportPath));
    assert.equal((await from('2001:db8:1:3::1', 'GET', reportPath)).statusCode, 200, 'the next /64 is another client');
  });

  test('the address is the one TRUST_PROXY names, like every limit', async () => {
    // Spoofed entries on the left are not the client: the right-most (one trusted proxy) is.
    for (let i = 0; i < LIMIT; i++) {
      const res = await from(`10.0.0.${i}, 203.0.113.50`, 'GET', reportPath);
      assert.equal(res.statusCode, 200);
    }
    assertLimited(await from('10.9.9.9, 203.0.113.50', 'GET', reportPath));
  });
});

test('client keys: IPv4 as it is, IPv4-mapped IPv6 as IPv4, IPv6 by its /64', () => {
  assert.equal(addressKey('203.0.113.9'), '203.0.113.9');
  assert.equal(addressKey('::ffff:203.0.113.9'), '203.0.113.9');
  assert.equal(addressKey('2001:db8:1:2::1'), addressKey('2001:DB8:1:2:ffff::9'));
  assert.notEqual(addressKey('2001:db8:1:2::1'), addressKey('2001:db8:1:3::1'));
});

test('PUBLIC_RATE_LIMIT_PER_MINUTE=0 turns it off; the default is 120', async () => {
  assert.equal(loadConfig({}).publicRateLimitPerMinute, 120);
  const t = await testApp({ PUBLIC_RATE_LIMIT_PER_MINUTE: '0' });
  try {
    for (let i = 0; i < 130; i++) assert.equal((await t.app.inject({ method: 'GET', url: '/login' })).statusCode, 200);
  } finally {
    await t.close();
  }
});

describe('public pages: the budget is shared through Redis', {
  skip: hasRedisServer ? false : 'redis-server is not installed',
}, () => {
  test('two instances count one window for an address', async () => {
    const redis = await startRedis();
    const first = await testApp({ PUBLIC_RATE_LIMIT_PER_MINUTE: '4', TRUST_PROXY: '1', REDIS_URL: redis.url });
    let second: FastifyInstance | undefined;
    try {
      second = await buildApp({ config: first.config, database: first.db.handle });
      const get = (app: FastifyInstance) =>
        app.inject({ method: 'GET', url: '/login', headers: { 'x-forwarded-for': '192.0.2.44' } });
      const statuses = [];
      for (const app of [first.app, second, first.app, second, first.app, second]) statuses.push((await get(app)).statusCode);
      assert.deepEqual(statuses, [200, 200, 200, 200, 429, 429]);
    } finally {
      await second?.close();
      await first.close();
      await redis.stop();
    }
  });
});
