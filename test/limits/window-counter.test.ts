// Fixed-window counters with Redis, in process memory, and switching between the two mid-window:
// a limit must never be exceeded by hits counted partly in each (issue: the share-page password
// limit let a sixth guess through when Redis became ready in the middle of a burst).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import { WindowCounter } from '../../src/limits/window-counter.js';
import { hasRedisServer, startRedis } from '../helpers/redis.js';

const warnings: unknown[] = [];
const log = { warn: (...args: unknown[]) => warnings.push(args) } as unknown as FastifyBaseLogger;

const counts = async (counter: WindowCounter, key: string, n: number) => {
  const seen: number[] = [];
  for (let i = 0; i < n; i++) seen.push((await counter.incr(key, 60_000)).count);
  return seen;
};

describe('a window counter without Redis', () => {
  test('counts hits per key in a window, takes one back, peeks without counting', async () => {
    const counter = new WindowCounter(null, log);
    assert.deepEqual(await counts(counter, 'a', 3), [1, 2, 3]);
    assert.deepEqual(await counts(counter, 'b', 1), [1]);
    assert.equal((await counter.decr('a')).count, 2);
    assert.equal((await counter.peek('a')).count, 2);
    assert.equal((await counter.peek('unknown')).count, 0);
    const hit = await counter.incr('a', 60_000);
    assert.equal(hit.count, 3);
    assert.ok(hit.ttl > 59_000 && hit.ttl <= 60_000, String(hit.ttl));
  });
});

describe('a window counter switching between Redis and memory', {
  skip: hasRedisServer ? false : 'redis-server is not installed',
}, () => {
  let redis: Awaited<ReturnType<typeof startRedis>>;
  before(async () => {
    redis = await startRedis();
  });
  after(() => redis.stop());

  test('hits counted here before Redis was ready are added to its count', async () => {
    const client = new Redis(redis.url, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0 });
    const counter = new WindowCounter(client, log);
    try {
      assert.deepEqual(await counts(counter, 'start', 3), [1, 2, 3], 'not connected yet: counted in memory');
      await client.connect();
      assert.deepEqual(await counts(counter, 'start', 2), [4, 5], 'Redis holds 1 and 2, plus the 3 counted here');
      assert.equal(await client.get('rankscope:start'), '2', 'Redis itself counted only its own hits');
      assert.equal((await counter.decr('start')).count, 4);
      assert.equal((await counter.peek('start')).count, 4);
      assert.deepEqual(await counts(counter, 'other', 2), [1, 2], 'another key is not affected');
    } finally {
      client.disconnect();
    }
  });

  test('Redis gone mid-window: counting goes on from its last count', async () => {
    const other = await startRedis();
    const client = new Redis(other.url, { enableOfflineQueue: false, maxRetriesPerRequest: 0, retryStrategy: () => null });
    client.on('error', () => {});
    const counter = new WindowCounter(client, log);
    try {
      await new Promise((resolve) => client.once('ready', resolve));
      assert.deepEqual(await counts(counter, 'gone', 3), [1, 2, 3]);
      await other.stop();
      while (client.status === 'ready') await new Promise((resolve) => setTimeout(resolve, 10));
      assert.deepEqual(await counts(counter, 'gone', 2), [4, 5], 'in memory now, after the 3 Redis counted');
      assert.ok(warnings.length > 0, 'the switch is logged');
    } finally {
      client.disconnect();
      await other.stop();
    }
  });
});
