// The analytics write thread (db/analytics-write-thread.ts) on a real SQLite file: it stores and
// counts exactly what the repository's own record() does, an event the database refuses fails
// alone (the rest of its batch is stored), and close() waits for the batches already sent.
// SQLite only (the thread is never used on PostgreSQL), so it runs on a file of its own in both
// suites.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createAccount } from '../../src/accounts/accounts.js';
import { AnalyticsRepository } from '../../src/db/analytics-repository.js';
import { AnalyticsWriteThread, analyticsEventStore } from '../../src/db/analytics-write-thread.js';
import { type DatabaseHandle, migrateToLatest, openDatabase } from '../../src/db/connection.js';
import { UsersRepository } from '../../src/db/users-repository.js';
import { WebsitesRepository } from '../../src/db/websites-repository.js';
import { SAMPLE_FIELDS } from '../../src/model/dimensions.js';
import type { StoredEvent } from '../../src/model/rollup.js';
import { systemClock } from '../../src/time.js';
import { refuseEventsWithPage } from '../helpers/refusing-trigger.js';

const event = (websiteId: number, visitor: string, page: string, name = 'pageview'): StoredEvent => ({
  ...SAMPLE_FIELDS,
  websiteId,
  at: Date.UTC(2026, 10, 26, 9, 30),
  createdAt: '2026-11-26 09:30:00.000000',
  day: '2026-11-26',
  hour: '09',
  name,
  page,
  visitor,
  referrer: 'news.example',
  source: null,
  campaign: null,
  browser: 'Firefox',
  os: 'Linux',
  device: 'desktop',
  country: 'DE',
  continent: 'EU',
  city: null,
  language: 'de',
  resolution: '1920x1080',
  props: name === 'pageview' ? null : '{"plan":"pro"}',
});

describe('the analytics write thread', () => {
  let dir: string;
  let handle: DatabaseHandle;
  let repo: AnalyticsRepository;
  let threaded: number;
  let compared: number;
  let inProcess: number;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rankscope-write-thread-'));
    handle = await openDatabase(`sqlite:${join(dir, 'db.sqlite')}`);
    await migrateToLatest(handle);
    repo = new AnalyticsRepository(handle.db, handle.engine, systemClock);
    const { user } = await createAccount(new UsersRepository(handle.db), 'thread@example.com');
    const websites = new WebsitesRepository(handle.db);
    const site = (domain: string) =>
      websites.create({
        user_id: user.id,
        domain,
        privacy: 1,
        password_hash: null,
        email: null,
        exclude_bots: 0,
        exclude_ips: null,
        exclude_params: null,
      });
    threaded = (await site('thread.example')).id;
    compared = (await site('compared.example')).id;
    inProcess = (await site('process.example')).id;
  });
  after(async () => {
    await handle.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const rollups = async (websiteId: number) =>
    (
      await handle.db
        .selectFrom('analytics_rollups')
        .select(['dimension', 'day', 'value', 'count'])
        .where('website_id', '=', websiteId)
        .orderBy('dimension')
        .orderBy('value')
        .execute()
    ).map((r) => `${r.dimension} ${r.day} ${r.value} ${Number(r.count)}`);

  test('a SQLite file gets the thread; the store answers only once the rows are readable here', async () => {
    const store = analyticsEventStore(handle, repo);
    assert.ok(store instanceof AnalyticsWriteThread);
    try {
      await store.record([event(threaded, 'v1', '/'), event(threaded, 'v1', '/pricing'), event(threaded, 'v2', '/')]);
      assert.equal(await repo.countEvents(threaded), 3);
    } finally {
      await store.close();
    }
  });

  test('it counts exactly what record() in process counts, batch after batch', async () => {
    const store = new AnalyticsWriteThread(join(dir, 'db.sqlite'));
    const batches = (websiteId: number) => [
      [event(websiteId, 'a', '/'), event(websiteId, 'b', '/docs'), event(websiteId, 'a', '/docs')],
      [event(websiteId, 'a', '/pricing'), event(websiteId, 'c', '/'), event(websiteId, 'b', '/', 'signup')],
      [event(websiteId, 'c', '/docs')],
    ];
    try {
      // Sent together, not awaited one by one: the thread commits them in the order sent.
      await Promise.all(batches(compared).map((b) => store.record(b)));
    } finally {
      await store.close();
    }
    for (const b of batches(inProcess)) await repo.record(b);
    const expected = await rollups(inProcess);
    // Checked by hand against the counting rules (docs/api.md#stats): 6 pageviews by 3 visitors, 1 custom event,
    // a landing page per visitor ('/docs' for b, '/' for a and c).
    for (const row of [
      'pageviews 2026-11-26  6',
      'visitors 2026-11-26  3',
      'event 2026-11-26 signup 1',
      'landing_page 2026-11-26 / 2',
      'landing_page 2026-11-26 /docs 1',
      'page 2026-11-26 /docs 3',
    ])
      assert.ok(expected.includes(row), `${row} in ${expected.join(', ')}`);
    assert.deepEqual(await rollups(compared), expected);
    assert.equal(await repo.countEvents(compared), 7);
  });

  test('an event the database refuses fails alone, with the reason; the rest of its batch is stored and counted', async () => {
    await refuseEventsWithPage(handle, '/refused');
    const store = new AnalyticsWriteThread(join(dir, 'db.sqlite'));
    const before = await repo.countEvents(threaded);
    const broken = { ...event(threaded, 'x', '/broken'), page: null } as unknown as StoredEvent;
    try {
      const failures = await store.record([
        event(threaded, 'x', '/fine'),
        event(threaded, 'x', '/refused'),
        event(threaded, 'y', '/fine-too'),
        broken,
        event(threaded, 'z', '/fine-as-well'),
      ]);
      assert.deepEqual(
        failures.map((f) => [f.index, f.error.message]),
        [
          [1, 'refused by the test trigger'],
          [3, 'NOT NULL constraint failed: analytics_events.page'],
        ],
      );
      assert.equal(await repo.countEvents(threaded), before + 3, 'the three others are stored');
      const pages = await handle.db
        .selectFrom('analytics_rollups')
        .select('value')
        .where('website_id', '=', threaded)
        .where('dimension', '=', 'page')
        .where('value', 'in', ['/fine', '/refused', '/fine-too', '/broken', '/fine-as-well'])
        .orderBy('value')
        .execute();
      assert.deepEqual(
        pages.map((r) => r.value),
        ['/fine', '/fine-as-well', '/fine-too'],
        'and counted, the refused ones not',
      );
      assert.deepEqual(await store.record([event(threaded, 'y', '/after')]), []);
      assert.equal(await repo.countEvents(threaded), before + 4);
    } finally {
      await store.close();
    }
  });

  test('warmUp starts the thread once; a warmed store that never wrote closes cleanly', async () => {
    const idle = new AnalyticsWriteThread(join(dir, 'db.sqlite'));
    idle.warmUp();
    idle.warmUp();
    await idle.close();
    const warmed = new AnalyticsWriteThread(join(dir, 'db.sqlite'));
    warmed.warmUp();
    const before = await repo.countEvents(threaded);
    try {
      await warmed.record([event(threaded, 'w', '/warm')]);
      assert.equal(await repo.countEvents(threaded), before + 1);
    } finally {
      await warmed.close();
    }
    warmed.warmUp(); // closed: starts nothing
    await assert.rejects(warmed.record([event(threaded, 'w', '/late')]), /closed/);
  });

  test('close waits for every batch already sent; afterwards record is refused', async () => {
    const store = new AnalyticsWriteThread(join(dir, 'db.sqlite'));
    const before = await repo.countEvents(threaded);
    const sent = [1, 2, 3, 4, 5].map((i) => store.record([event(threaded, `z${i}`, `/close/${i}`)]));
    await store.close();
    await Promise.all(sent);
    assert.equal(await repo.countEvents(threaded), before + 5);
    await assert.rejects(store.record([event(threaded, 'late', '/')]), /closed/);
  });
});
