// kill -9 during collection: `rankscope serve` as a process, events sent by 20 clients at once,
// SIGKILL while batches are being written, a restart on the same database. Every event that
// was answered 202 must be stored and counted, and nothing counted twice (the events, the
// visitor rows and the rollups commit in one transaction: docs/analytics.md, group commit).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { DatabaseHandle } from '../../src/db/connection.js';
import { type ProcessDatabase, processDatabase } from '../helpers/database.js';
import { type RunningServer, startServer } from '../helpers/spawn.js';

const SENDERS = 20;
/** SIGKILL once this many events have been acknowledged (the senders keep sending meanwhile). */
const KILL_AFTER = 300;
const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';

describe('durability of acknowledged events', () => {
  let database: ProcessDatabase;
  let server: RunningServer | undefined;
  let handle: DatabaseHandle | undefined;
  const env = () => ({ DATABASE_URL: database.databaseUrl, EVENT_RATE_LIMIT: '0', TRUST_PROXY: '1', LOG_LEVEL: 'warn' });

  before(async () => {
    database = await processDatabase();
  });
  after(async () => {
    await server?.stop('SIGKILL');
    await handle?.close();
    await database.cleanup();
  });

  test('kill -9 mid-stream: every 202 is stored and counted after a restart, none twice', { timeout: 60_000 }, async (t) => {
    server = await startServer(env());
    const key = /API key, shown only this once:\n(rk_\S+)\n/.exec(server.output())?.[1];
    assert.ok(key, server.output());
    const created = await fetch(`http://127.0.0.1:${server.port}/api/v1/websites`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'domain=durable.example',
    });
    assert.equal(created.status, 201, await created.clone().text());
    const websiteId = ((await created.json()) as { data: { id: number } }).data.id;

    // Each event has a page of its own, so each one can be found; each sender is one visitor.
    const sent = (port: number, page: string, sender: number) =>
      fetch(`http://127.0.0.1:${port}/api/event`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': CHROME, 'x-forwarded-for': `198.51.100.${sender + 1}` },
        body: JSON.stringify({ n: 'pageview', u: `https://durable.example${page}`, i: websiteId }),
      });
    const acknowledged: string[] = [];
    const attempted = new Set<string>();
    let failed = 0;
    let killed = false;
    const running = server;
    const sender = async (s: number) => {
      for (let i = 0; ; i++) {
        const page = `/s${s}/e${i}`;
        attempted.add(page);
        try {
          const res = await sent(running.port, page, s);
          const body = await res.text();
          assert.equal(res.status, 202, `${body}\n${running.output().slice(-3000)}`);
          assert.equal(body, 'ok');
          acknowledged.push(page);
        } catch (error) {
          if (!killed) throw error;
          failed++; // the connection died with the server: not acknowledged, may or may not be stored
          return;
        }
        if (acknowledged.length >= KILL_AFTER && !killed) {
          killed = true;
          running.child.kill('SIGKILL');
        }
      }
    };
    await Promise.all(Array.from({ length: SENDERS }, (_, s) => sender(s)));
    assert.equal(await running.exited, null, 'killed by the signal');
    assert.equal(running.child.signalCode, 'SIGKILL');
    assert.ok(acknowledged.length >= KILL_AFTER);
    assert.equal(failed, SENDERS, 'every sender stopped on a dead connection');

    // The restart recovers the database (SQLite's WAL, PostgreSQL's own) and collects again.
    server = await startServer(env());
    assert.ok(!server.output().includes('rk_'), 'the same database: no new first account');
    const afterRestart = await sent(server.port, '/after-restart', 0);
    assert.equal(afterRestart.status, 202);
    acknowledged.push('/after-restart');
    attempted.add('/after-restart');

    handle = await database.open();
    const db = handle.db;
    const raw = new Map<string, number>();
    for (const row of await db
      .selectFrom('analytics_events')
      .select(['page', (eb) => eb.fn.countAll<number>().as('n')])
      .where('website_id', '=', websiteId)
      .where('name', '=', 'pageview')
      .groupBy('page')
      .execute())
      raw.set(row.page, Number(row.n));
    const rolled = async (dimension: string) =>
      db
        .selectFrom('analytics_rollups')
        .select(['value', (eb) => eb.fn.sum<number>('count').as('n')])
        .where('website_id', '=', websiteId)
        .where('dimension', '=', dimension)
        .groupBy('value')
        .execute();
    const pages = new Map((await rolled('page')).map((r) => [r.value, Number(r.n)]));
    const rawTotal = [...raw.values()].reduce((a, b) => a + b, 0);

    t.diagnostic(`${acknowledged.length} acknowledged, ${rawTotal} stored, ${attempted.size} sent`);
    const missing = acknowledged.filter((page) => raw.get(page) !== 1);
    assert.deepEqual(missing, [], 'every acknowledged event is stored, once');
    assert.deepEqual(
      [...raw].filter(([page, n]) => n !== 1 || !attempted.has(page)),
      [],
      'no event stored twice, none that was not sent',
    );
    assert.deepEqual(
      acknowledged.filter((page) => pages.get(page) !== 1),
      [],
      'every acknowledged event is counted in its page rollup',
    );
    assert.deepEqual(new Map([...pages].sort()), new Map([...raw].sort()), 'page rollups count exactly the stored events');
    const pageviews = (await rolled('pageviews')).reduce((n, r) => n + Number(r.n), 0);
    assert.equal(pageviews, rawTotal, 'the pageviews rollup counts each stored event once');
    assert.ok(pageviews >= acknowledged.length);
    // The same visitor on both sides of the crash: counted once (its visitor row committed with its events).
    const visitors = (await rolled('visitors')).reduce((n, r) => n + Number(r.n), 0);
    const distinct = await db
      .selectFrom('analytics_events')
      .select((eb) => eb.fn.count<number>('visitor').distinct().as('n'))
      .where('website_id', '=', websiteId)
      .executeTakeFirstOrThrow();
    assert.equal(visitors, Number(distinct.n));
    assert.ok(visitors <= SENDERS);
  });
});
