// Several instances on one database (docs/analytics.md: stateless instances share PostgreSQL):
// two applications, each with its own connections, writer and caches, receive the same
// visitors' pageviews alternately and at once. They count every event once, agree on who is
// the same visitor (one salt per day, from the database) and on where each visit began.
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { createAccount } from '../../src/accounts/accounts.js';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { AnalyticsRepository } from '../../src/db/analytics-repository.js';
import { type DatabaseHandle, openDatabase } from '../../src/db/connection.js';
import { UsersRepository } from '../../src/db/users-repository.js';
import { StatsService } from '../../src/tracking/stats-service.js';
import { fixedClock } from '../../src/time.js';
import { type ProcessDatabase, processDatabase, type TestDatabase, testDatabase } from '../helpers/database.js';
import { type RunningServer, startServer } from '../helpers/spawn.js';

const DAY = '2026-03-10';
const AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
];
/** Distinct visitors: the same address with another browser, and the same browser at another address. */
const CLIENTS = [
  { ip: '8.8.8.8', ua: AGENTS[0] },
  { ip: '8.8.8.8', ua: AGENTS[1] },
  { ip: '1.1.1.1', ua: AGENTS[0] },
  { ip: '81.2.69.160', ua: AGENTS[2] },
  { ip: '2001:db8::7', ua: AGENTS[1] },
  { ip: '9.9.9.9', ua: AGENTS[2] },
];
/** Pageviews per client within its first visit, after the landing one. */
const BROWSING = 24;

describe('two instances on one database', () => {
  // With a fraction of a millisecond, as the system clock has.
  const clock = fixedClock(Date.parse(`${DAY}T09:15:00Z`) + 0.375);
  let db: TestDatabase;
  let second: DatabaseHandle;
  let instances: FastifyInstance[];
  let websiteId: number;

  before(async () => {
    db = await testDatabase();
    // Its own connections, as another process would have (PostgreSQL: the same schema).
    second = await openDatabase(db.url, db.schema ? { schema: db.schema, poolSize: 5 } : {});
    const config = loadConfig({ RATE_LIMIT_PER_MINUTE: '0', EVENT_RATE_LIMIT: '0', TRUST_PROXY: '1', LOG_LEVEL: 'warn' });
    const logStream = new Writable({ write: (_chunk, _enc, done) => done() });
    instances = [
      await buildApp({ config, database: db.handle, clock, logStream }),
      await buildApp({ config, database: second, clock, logStream }),
    ];
    for (const app of instances) await app.ready();
    ({ key } = await createAccount(new UsersRepository(db.handle.db), 'instances@example.com'));
    const created = await instances[1].inject({
      method: 'POST',
      url: '/api/v1/websites',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'domain=shared.example',
    });
    assert.equal(created.statusCode, 201, created.body);
    websiteId = created.json().data.id;
  });
  let key: string;
  after(async () => {
    for (const app of instances ?? []) await app.close();
    await second?.close();
    await db.cleanup();
  });

  const send = async (instance: number, client: (typeof CLIENTS)[number], page: string) => {
    const res = await instances[instance].inject({
      method: 'POST',
      url: '/api/event',
      headers: { 'content-type': 'application/json', 'user-agent': client.ua, 'x-forwarded-for': client.ip },
      payload: JSON.stringify({ n: 'pageview', u: `https://shared.example${page}`, i: websiteId }),
    });
    assert.equal(res.statusCode, 202, res.body);
    assert.equal(res.headers['x-event-dropped'], undefined);
  };

  test('alternating and concurrent pageviews are counted once, with one visitor per client and one salt', async () => {
    // A visit each, begun on /landing-0..2, half the clients on each instance, all at once
    // (both instances want the day's salt at the same moment).
    await Promise.all(CLIENTS.map((client, c) => send(c % 2, client, `/landing-${c % 3}`)));
    // Browsing within that visit, every client alternating between the instances, all at once.
    clock.advance(10 * 60 * 1000);
    await Promise.all(
      CLIENTS.flatMap((client) => Array.from({ length: BROWSING }, (_, i) => send(i % 2, client, `/docs/${i % 5}`))),
    );
    // Back after more than 30 minutes: a new visit, on /return, its two pageviews on both instances at once.
    clock.advance(31 * 60 * 1000);
    await Promise.all(CLIENTS.flatMap((client) => [send(0, client, '/return'), send(1, client, '/return')]));
    const sent = CLIENTS.length * (1 + BROWSING + 2);

    const stats = new StatsService(new AnalyticsRepository(db.handle.db, db.handle.engine, clock));
    const query = (name: 'pageviews' | 'visitors' | 'landing_page' | 'page' | 'browser') =>
      stats.query({ websiteId, name, from: DAY, to: DAY });
    assert.deepEqual((await query('pageviews')).rows, [{ value: DAY, count: sent }]);
    assert.deepEqual((await query('visitors')).rows, [{ value: DAY, count: CLIENTS.length }]);
    assert.deepEqual(
      (await query('landing_page')).rows,
      [
        { value: '/return', count: 6 },
        { value: '/landing-0', count: 2 },
        { value: '/landing-1', count: 2 },
        { value: '/landing-2', count: 2 },
      ],
      'one landing page per visit: the first, whichever instance stored it',
    );
    const pages = await query('page');
    assert.equal(
      pages.rows.reduce((n, r) => n + r.count, 0),
      sent,
    );
    assert.deepEqual(
      pages.rows.find((r) => r.value === '/return'),
      { value: '/return', count: 2 * CLIENTS.length },
    );
    assert.deepEqual(
      (await query('browser')).rows,
      [
        { value: 'Chrome', count: 2 },
        { value: 'Mobile Safari', count: 2 },
        { value: 'Safari', count: 2 },
      ],
      'each visitor counted once under its browser',
    );

    const events = await db.handle.db
      .selectFrom('analytics_events')
      .select(['visitor', (eb) => eb.fn.countAll<number>().as('n')])
      .where('website_id', '=', websiteId)
      .groupBy('visitor')
      .execute();
    assert.deepEqual(
      events.map((e) => Number(e.n)),
      CLIENTS.map(() => 1 + BROWSING + 2),
      'one visitor id per client, from both instances: the same salt',
    );
    const salts = await db.handle.db.selectFrom('analytics_salts').select('day').execute();
    assert.deepEqual(salts, [{ day: DAY }]);
    const visitorRows = await db.handle.db
      .selectFrom('analytics_visitors')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('website_id', '=', websiteId)
      .executeTakeFirstOrThrow();
    assert.equal(Number(visitorRows.n), CLIENTS.length);
  });

  test('a website deleted on one instance while another holds it: its events are not stored, the rest of the batch is', async () => {
    const api = (instance: number, method: 'POST' | 'DELETE', url: string, payload?: string) =>
      instances[instance].inject({
        method,
        url,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/x-www-form-urlencoded' },
        payload,
      });
    const created = await api(1, 'POST', '/api/v1/websites', 'domain=gone.example');
    assert.equal(created.statusCode, 201, created.body);
    const goneId: number = created.json().data.id;
    const event = (website: number, host: string, page: string) =>
      instances[0].inject({
        method: 'POST',
        url: '/api/event',
        headers: { 'content-type': 'application/json', 'user-agent': AGENTS[0], 'x-forwarded-for': '8.8.4.4' },
        payload: JSON.stringify({ n: 'pageview', u: `https://${host}${page}`, i: website }),
      });
    assert.equal((await event(goneId, 'gone.example', '/first')).statusCode, 202); // instance 0 now holds the website
    assert.equal((await api(1, 'DELETE', `/api/v1/websites/${goneId}`)).statusCode, 200);

    // Sent together, so they share a batch on instance 0.
    const answers = await Promise.all([
      event(goneId, 'gone.example', '/after-delete'),
      event(websiteId, 'shared.example', '/kept'),
      event(goneId, 'gone.example', '/after-delete-2'),
    ]);
    assert.deepEqual(
      answers.map((a) => a.statusCode),
      [202, 202, 202],
    );
    const pages = await db.handle.db
      .selectFrom('analytics_events')
      .select(['website_id', 'page'])
      .where('page', 'in', ['/first', '/after-delete', '/after-delete-2', '/kept'])
      .execute();
    assert.deepEqual(
      pages,
      [{ website_id: websiteId, page: '/kept' }],
      'the deleted website has nothing; the other website’s event is stored',
    );
  });
});

describe('two `rankscope serve` processes on one database', () => {
  let database: ProcessDatabase;
  const servers: RunningServer[] = [];
  let handle: DatabaseHandle | undefined;

  before(async () => {
    database = await processDatabase();
  });
  after(async () => {
    for (const server of servers) await server.stop();
    await handle?.close();
    await database.cleanup();
  });

  test('events sent to both at once are all stored and counted once (SQLite: one file, two writers)', {
    timeout: 60_000,
  }, async () => {
    const env = { DATABASE_URL: database.databaseUrl, EVENT_RATE_LIMIT: '0', TRUST_PROXY: '1', LOG_LEVEL: 'warn' };
    // One after the other: the first creates the account (and prints its key), the second finds it.
    servers.push(await startServer(env));
    servers.push(await startServer(env));
    const key = /API key, shown only this once:\n(rk_\S+)\n/.exec(servers[0].output())?.[1];
    assert.ok(key, servers[0].output());
    const created = await fetch(`http://127.0.0.1:${servers[1].port}/api/v1/websites`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'domain=two.example',
    });
    assert.equal(created.status, 201);
    const id = ((await created.json()) as { data: { id: number } }).data.id;

    const perClient = 40;
    const answers = await Promise.all(
      CLIENTS.flatMap((client) =>
        Array.from({ length: perClient }, (_, i) =>
          fetch(`http://127.0.0.1:${servers[i % 2].port}/api/event`, {
            method: 'POST',
            headers: { 'content-type': 'text/plain', 'user-agent': client.ua, 'x-forwarded-for': client.ip },
            body: JSON.stringify({ n: 'pageview', u: `https://two.example/p${i % 7}`, i: id }),
          }).then(async (res) => `${res.status} ${await res.text()}`),
        ),
      ),
    );
    const sent = CLIENTS.length * perClient;
    assert.deepEqual(
      answers.filter((a) => a !== '202 ok'),
      [],
      'every event acknowledged',
    );

    handle = await database.open();
    const rolled = await handle.db
      .selectFrom('analytics_rollups')
      .select(['dimension', (eb) => eb.fn.sum<number>('count').as('n')])
      .where('website_id', '=', id)
      .where('dimension', 'in', ['pageviews', 'visitors'])
      .groupBy('dimension')
      .execute();
    const total = (dimension: string) => Number(rolled.find((r) => r.dimension === dimension)?.n ?? 0);
    const stored = await handle.db
      .selectFrom('analytics_events')
      .select([(eb) => eb.fn.countAll<number>().as('n'), (eb) => eb.fn.count<number>('visitor').distinct().as('visitors')])
      .where('website_id', '=', id)
      .executeTakeFirstOrThrow();
    assert.equal(Number(stored.n), sent);
    assert.equal(total('pageviews'), sent);
    assert.equal(total('visitors'), Number(stored.visitors), 'each visitor counted once a day');
    const days = (await handle.db.selectFrom('analytics_salts').select('day').execute()).length;
    assert.ok(Number(stored.visitors) >= CLIENTS.length && Number(stored.visitors) <= CLIENTS.length * days);
  });
});
