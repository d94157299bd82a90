// bench/latency: how fast two things happen whose outcome `npm test` asserts (the tests assert
// what happens, this measures how long it takes; a time is not a test on a shared machine).
//
//   npm run bench -- latency [--rounds N]
//
// 1. cancel: a client closes its connection during POST /api/v1/reports while the analyser reads
//    a page whose body never comes: the time from the disconnect to the page's socket closing,
//    next to the analyser's own timeout (10 s) that would end it otherwise (test/api/reports-cancel).
// 2. redis: GET /api/v1/websites with the rate limit kept in Redis: latency with Redis up, then
//    with the Redis server gone (the limit falls back to process memory), next to no Redis at all
//    (test/api/rate-limit). Needs redis-server; left out without it.
//
// In process (buildApp, inject or a loopback listener), a temporary SQLite database; loopback only.
import { request } from 'node:http';
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { RESULTS } from './paths.js';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { UsersRepository } from '../src/db/users-repository.js';
import { createAccount } from '../src/accounts/accounts.js';
import { testDatabase } from '../test/helpers/database.js';
import { startSite } from '../test/helpers/pages.js';
import { hasRedisServer, startRedis } from '../test/helpers/redis.js';

const roundsArg = process.argv.indexOf('--rounds');
const ROUNDS = roundsArg > 0 ? Number(process.argv[roundsArg + 1]) : 9;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const max = (xs: number[]) => Math.max(...xs);
const ms = (x: number) => `${x.toFixed(1)} ms`;

async function app(env: Record<string, string>) {
  const db = await testDatabase();
  const config = loadConfig({ LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '0', PUBLIC_RATE_LIMIT_PER_MINUTE: '0', ...env });
  const built = await buildApp({ config, database: db.handle });
  await built.ready();
  const { key } = await createAccount(new UsersRepository(db.handle.db), `bench-${Date.now()}@example.com`);
  return {
    app: built,
    key,
    async close() {
      await built.close();
      await db.cleanup();
    },
  };
}

async function cancel(): Promise<string[]> {
  let closed: (() => void) | undefined;
  const site = await startSite({
    '/slow.html': (req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.write('<html><head><title>slow</title>');
      req.socket.on('close', () => closed?.());
    },
  });
  const { app: server, key, close } = await app({ ALLOW_PRIVATE_ADDRESSES: 'true' });
  await server.listen({ host: '127.0.0.1', port: 0 });
  const { port } = server.server.address() as { port: number };
  const times: number[] = [];
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const pageClosed = new Promise<void>((resolve) => (closed = resolve));
      const hits = site.hits('/slow.html');
      const req = request({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/api/v1/reports',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/x-www-form-urlencoded' },
      });
      req.on('error', () => {});
      req.end(`url=${encodeURIComponent(`${site.origin}/slow.html`)}`);
      while (site.hits('/slow.html') === hits) await new Promise((r) => setTimeout(r, 1));
      const started = performance.now();
      req.destroy();
      await pageClosed;
      times.push(performance.now() - started);
    }
  } finally {
    await close();
    await site.close();
  }
  return [
    '## 1. cancel: client disconnect → page socket closed',
    '',
    `${ROUNDS} creates, each cut off once the analyser has requested the page. The analyser's timeout is 10 s.`,
    '',
    '| median | slowest |',
    '| ---: | ---: |',
    `| ${ms(median(times))} | ${ms(max(times))} |`,
  ];
}

async function redis(): Promise<string[]> {
  if (!hasRedisServer) return ['## 2. redis', '', 'Left out: redis-server is not installed.'];
  const N = 200;
  const timeRequests = async (target: { app: Awaited<ReturnType<typeof buildApp>>; key: string }) => {
    const times: number[] = [];
    for (let i = 0; i < N; i++) {
      const started = performance.now();
      const res = await target.app.inject({
        method: 'GET',
        url: '/api/v1/websites',
        headers: { authorization: `Bearer ${target.key}` },
      });
      times.push(performance.now() - started);
      if (res.statusCode !== 200) throw new Error(`status ${res.statusCode}`);
    }
    return times;
  };
  const rows: string[] = [];
  const plain = await app({ RATE_LIMIT_PER_MINUTE: '1000000' });
  try {
    const t = await timeRequests(plain);
    rows.push(`| no Redis (process memory) | ${ms(median(t))} | ${ms(max(t))} |`);
  } finally {
    await plain.close();
  }
  const server = await startRedis();
  const shared = await app({ RATE_LIMIT_PER_MINUTE: '1000000', REDIS_URL: server.url });
  try {
    const up = await timeRequests(shared);
    rows.push(`| Redis up | ${ms(median(up))} | ${ms(max(up))} |`);
    await server.stop();
    const gone = await timeRequests(shared);
    rows.push(`| Redis gone | ${ms(median(gone))} | ${ms(max(gone))} |`);
  } finally {
    await shared.close();
    await server.stop();
  }
  return [
    '## 2. redis: GET /api/v1/websites (inject) with the rate limit in Redis',
    '',
    `${N} sequential requests each; with Redis gone every one must still be served (the limit then counts in process).`,
    '',
    '| Rate limit kept in | median | slowest |',
    '| --- | ---: | ---: |',
    ...rows,
  ];
}

const report = [
  '# Latency: cancelled analyses and a dead Redis',
  '',
  `Node ${process.version}, load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')} at the start, ${new Date().toISOString().slice(0, 10)}.`,
  '',
  ...(await cancel()),
  '',
  ...(await redis()),
  '',
].join('\n');
console.log(report);
mkdirSync(RESULTS, { recursive: true });
writeFileSync(join(RESULTS, 'latency.md'), report);
