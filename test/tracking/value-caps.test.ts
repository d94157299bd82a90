// Bounded cardinality, as GA4's "(other)" row: each dimension keeps at most ANALYTICS_MAX_VALUES
// distinct values per website and UTC day; the events past it count in every total and under
// `(other)`, so values sent from the internet cannot grow the rollups without end. Runs on SQLite
// (the write thread) and, with TEST_DATABASE_URL, on PostgreSQL (record() in process).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Migrator, sql } from 'kysely';
import { createAccount } from '../../src/accounts/accounts.js';
import { AnalyticsRepository } from '../../src/db/analytics-repository.js';
import { type DatabaseHandle, dropSchema, migrateToLatest, openDatabase } from '../../src/db/connection.js';
import { migrationProvider } from '../../src/db/migrations/index.js';
import { UsersRepository } from '../../src/db/users-repository.js';
import { WebsitesRepository } from '../../src/db/websites-repository.js';
import { SAMPLE_FIELDS } from '../../src/model/dimensions.js';
import type { StoredEvent } from '../../src/model/rollup.js';
import { fixedClock, systemClock } from '../../src/time.js';
import { type TestApp, testApp } from '../helpers/app.js';
import { type TestDatabase, testDatabase } from '../helpers/database.js';

const AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  'Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Edg/124.0.2478.51',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 OPR/109.0.0.0',
];
const LANGUAGES = ['en-US', 'de', 'fr', 'es', 'ja'];
const SCREENS = [
  [1920, 1080],
  [1366, 768],
  [390, 844],
  [1440, 900],
  [2560, 1440],
];
const MAX = 3;

describe(`ANALYTICS_MAX_VALUES=${MAX}: the values past the cap count under (other)`, () => {
  let t: TestApp;
  let key: string;
  let id: number;
  const clock = fixedClock(Date.parse('2026-03-10T09:00:00Z'));

  /** Visitor i: its own address, browser, language, screen, referrer and campaign; page /p{i}. */
  const visit = (i: number, extra: Record<string, unknown> = {}) =>
    t.app.inject({
      method: 'POST',
      url: '/api/event',
      headers: { 'content-type': 'application/json', 'user-agent': AGENTS[i % 5], 'x-forwarded-for': `198.51.100.${i + 1}` },
      payload: JSON.stringify({
        n: 'pageview',
        u: `https://caps.example/p${i}?utm_source=source${i}&utm_campaign=campaign${i}`,
        i: id,
        r: `https://referrer${i}.example/`,
        l: LANGUAGES[i % 5],
        sw: SCREENS[i % 5][0],
        sh: SCREENS[i % 5][1],
        ...extra,
      }),
    });
  const stats = async (name: string, day: string) => {
    const res = await t.call(key, { method: 'GET', url: `/api/v1/stats/${id}?name=${name}&from=${day}&to=${day}&per_page=100` });
    assert.equal(res.statusCode, 200, res.body);
    return (res.json().data as { value: string; count: number }[]).map((r) => `${r.value}=${r.count}`).sort();
  };

  before(async () => {
    t = await testApp({ TRUST_PROXY: '1', EVENT_RATE_LIMIT: '0', ANALYTICS_MAX_VALUES: String(MAX) }, { clock });
    ({ key } = await t.account());
    const created = await t.call(key, { method: 'POST', url: '/api/v1/websites', form: { domain: 'caps.example' } });
    assert.equal(created.statusCode, 201, created.body);
    id = created.json().data.id;
  });
  after(() => t.close());

  test('each dimension keeps the first values of the day; the rest count under (other), in every total; a new day starts afresh', async () => {
    // Five visitors, one an hour, each with values of its own in every dimension.
    for (let i = 0; i < 5; i++) {
      clock.set(Date.parse(`2026-03-10T${String(9 + i).padStart(2, '0')}:00:00Z`));
      assert.equal((await visit(i)).statusCode, 202);
    }
    // A value kept goes on counting past the cap; a new one goes on under (other).
    clock.set(Date.parse('2026-03-10T14:00:00Z'));
    assert.equal((await visit(0, { u: 'https://caps.example/p0' })).statusCode, 202);
    assert.equal((await visit(5, { u: 'https://caps.example/p5' })).statusCode, 202);
    for (const name of ['Signup', 'Download', 'Share', 'Search', 'Buy']) {
      const res = await visit(0, { n: name, u: 'https://caps.example/p0' });
      assert.equal(res.statusCode, 202);
    }
    const day = '2026-03-10';

    assert.deepEqual(await stats('pageviews', day), [`${day}=7`], 'every pageview counts in the total');
    assert.deepEqual(await stats('visitors', day), [`${day}=6`]);
    assert.deepEqual(await stats('page', day), ['(other)=3', '/p0=2', '/p1=1', '/p2=1']);
    // Visitor 0's second visit (five hours later) lands on /p0 again.
    assert.deepEqual(await stats('landing_page', day), ['(other)=3', '/p0=2', '/p1=1', '/p2=1']);
    assert.deepEqual(await stats('referrer', day), [
      '(other)=3',
      'referrer0.example=1',
      'referrer1.example=1',
      'referrer2.example=1',
    ]);
    // Without utm_source the 14:00 visits' source is their referrer: two more values past the cap.
    assert.deepEqual(await stats('source', day), ['(other)=4', 'source0=1', 'source1=1', 'source2=1']);
    assert.deepEqual(await stats('campaign', day), ['(other)=2', 'campaign0=1', 'campaign1=1', 'campaign2=1']);
    assert.deepEqual(await stats('event', day), ['(other)=2', 'Download=1', 'Share=1', 'Signup=1']);
    // Visitor 5 shares visitor 0's language, screen and browser: values kept, so counted under them.
    assert.deepEqual(await stats('language', day), ['(other)=2', 'de=1', 'en-US=2', 'fr=1']);
    assert.deepEqual(await stats('resolution', day), ['(other)=2', '1366x768=1', '1920x1080=2', '390x844=1']);
    assert.deepEqual(await stats('browser', day), ['(other)=2', 'Chrome=2', 'Firefox=1', 'Safari=1']);
    // The series are not capped: one row per hour that had traffic.
    assert.deepEqual(
      (await stats('pageviews_hours', day)).filter((row) => !row.endsWith('=0')),
      ['09=1', '10=1', '11=1', '12=1', '13=1', '14=2'],
    );

    const rows = await t.db.handle.db
      .selectFrom('analytics_rollups')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('website_id', '=', id)
      .where('dimension', '=', 'page')
      .executeTakeFirstOrThrow();
    assert.equal(Number(rows.n), MAX + 1, 'at most MAX values and (other) are stored');

    // A new UTC day keeps new values again.
    clock.set(Date.parse('2026-03-11T08:00:00Z'));
    for (const i of [7, 8]) assert.equal((await visit(i)).statusCode, 202);
    assert.deepEqual(await stats('page', '2026-03-11'), ['/p7=1', '/p8=1']);
  });

  test('ANALYTICS_MAX_VALUES must be a whole number of at least 1: the start is refused naming it', async () => {
    const { loadConfig } = await import('../../src/config.js');
    for (const bad of ['0', '-1', 'lots', '1.5']) {
      assert.throws(() => loadConfig({ ANALYTICS_MAX_VALUES: bad }), /ANALYTICS_MAX_VALUES must be/, bad);
    }
    assert.equal(loadConfig({}).analytics.maxValues, 10_000);
  });
});

const event = (websiteId: number, page: string, visitor: string, day = '2026-03-10'): StoredEvent => ({
  ...SAMPLE_FIELDS,
  websiteId,
  at: Date.parse(`${day}T10:00:00Z`),
  createdAt: `${day}T10:00:00.000000Z`,
  day,
  hour: '10',
  name: 'pageview',
  page,
  visitor,
  referrer: null,
  source: null,
  campaign: null,
  browser: 'Firefox',
  os: 'Linux',
  device: 'desktop',
  country: 'DE',
  continent: 'EU',
  city: null,
  language: null,
  resolution: null,
  props: null,
});

async function site(handle: DatabaseHandle, domain: string): Promise<number> {
  const { user } = await createAccount(new UsersRepository(handle.db), `${domain}@example.com`);
  const website = await new WebsitesRepository(handle.db).create({
    user_id: user.id,
    domain,
    privacy: 1,
    password_hash: null,
    email: null,
    exclude_bots: 0,
    exclude_ips: null,
    exclude_params: null,
  });
  return website.id;
}

const pageRows = async (handle: DatabaseHandle, websiteId: number, dimension = 'page') =>
  (
    await handle.db
      .selectFrom('analytics_rollups')
      .select(['value', 'count'])
      .where('website_id', '=', websiteId)
      .where('dimension', '=', dimension)
      .execute()
  )
    .map((r) => `${r.value}=${Number(r.count)}`)
    .sort();

describe('the cap inside one batch, and over a database from before it', () => {
  let db: TestDatabase;
  before(async () => {
    db = await testDatabase();
  });
  after(() => db.cleanup());

  test('a batch with more new values than room keeps them in the order they came, and folds the rest into one row', async () => {
    const id = await site(db.handle, 'batch.example');
    const repo = new AnalyticsRepository(db.handle.db, db.handle.engine, systemClock, 2);
    assert.deepEqual(await repo.record([event(id, '/z', 'a'), event(id, '/a', 'b')]), []);
    const failures = await repo.record([
      event(id, '/a', 'c'),
      event(id, '/y', 'd'),
      event(id, '/b', 'e'),
      event(id, '/y', 'f'),
      event(id, '/(other)', 'g'),
      event(id, '/z', 'h'),
      // Custom events: a client's own "(other)" and the folded names are one row.
      { ...event(id, '/', 'i'), name: 'Signup' },
      { ...event(id, '/', 'i'), name: 'Share' },
      { ...event(id, '/', 'i'), name: 'Buy' },
      { ...event(id, '/', 'i'), name: '(other)' },
      { ...event(id, '/', 'i'), name: 'Buy' },
    ]);
    assert.deepEqual(failures, []);
    assert.deepEqual(await pageRows(db.handle, id), ['(other)=4', '/a=2', '/z=2']);
    assert.deepEqual(await pageRows(db.handle, id, 'event'), ['(other)=3', 'Share=1', 'Signup=1']);
  });

  test('custom properties: each key keeps its own values; a key past the cap counts under (other) and stores no values', async () => {
    const id = await site(db.handle, 'props.example');
    const repo = new AnalyticsRepository(db.handle.db, db.handle.engine, systemClock, 2);
    const withProps = (visitor: string, props: Record<string, string | number>, name = 'pageview'): StoredEvent => ({
      ...event(id, '/', visitor),
      name,
      props: JSON.stringify(props),
    });
    // The longest key and event name there are: a dimension of 193 characters.
    const longKey = 'k'.repeat(64);
    const longName = 'n'.repeat(120);
    assert.deepEqual(await repo.record([withProps('a', { plan: 'pro' }), withProps('b', { [longKey]: 'v' }, longName)]), []);
    assert.deepEqual(
      await repo.record([
        withProps('c', { extra: 'x', plan: 'team' }), // a third key: (other); plan's second value is kept
        withProps('d', { plan: 'free' }), // plan's third value: (other)
        withProps('e', { more: 'y' }), // a fourth key: (other)
        withProps('f', { plan: 'pro' }),
        withProps('g', { '(other)': 'sent' }), // a client's own key "(other)" is that key's row
      ]),
      [],
    );
    assert.deepEqual(await pageRows(db.handle, id, 'prop_key'), ['(other)=3', `${longKey}=1`, 'plan=4']);
    assert.deepEqual(await pageRows(db.handle, id, 'prop:4:plan'), ['(other)=1', 'pro=2', 'team=1']);
    assert.deepEqual(await pageRows(db.handle, id, 'prop:4:plan:pageview'), ['(other)=1', 'pro=2', 'team=1']);
    assert.deepEqual(await pageRows(db.handle, id, `prop:64:${longKey}:${longName}`), ['v=1']);
    const dimensions = await db.handle.db
      .selectFrom('analytics_rollups')
      .select('dimension')
      .distinct()
      .where('website_id', '=', id)
      .where('dimension', 'like', 'prop:%')
      .execute();
    assert.ok(
      !dimensions.some((d) => d.dimension.startsWith('prop:5:extra') || d.dimension.startsWith('prop:4:more')),
      'no values of a key past the cap',
    );
  });

  test('a database migrated with rollups already stored counts their values against the cap', async () => {
    const old = await freshDatabase();
    try {
      const schema = db.handle.engine === 'postgres' ? await currentSchema(old.handle) : undefined;
      const migrator = new Migrator({
        db: old.handle.db,
        provider: migrationProvider(old.handle.engine),
        ...(schema ? { migrationTableSchema: schema } : {}),
      });
      const { error } = await migrator.migrateTo('0010_dashboard_sessions');
      assert.equal(error, undefined);
      const id = await site(old.handle, 'before.example');
      await old.handle.db
        .insertInto('analytics_rollups')
        .values([
          { website_id: id, dimension: 'page', day: '2026-03-10', value: '/kept-1', count: 4 },
          { website_id: id, dimension: 'page', day: '2026-03-10', value: '/kept-2', count: 1 },
          { website_id: id, dimension: 'pageviews', day: '2026-03-10', value: '', count: 5 },
        ])
        .execute();
      await migrateToLatest(old.handle);
      const repo = new AnalyticsRepository(old.handle.db, old.handle.engine, systemClock, 2);
      await repo.record([event(id, '/new', 'a'), event(id, '/kept-1', 'b')]);
      assert.deepEqual(await pageRows(old.handle, id), ['(other)=1', '/kept-1=5', '/kept-2=1']);
    } finally {
      await old.cleanup();
    }
  });
});

async function currentSchema(handle: DatabaseHandle): Promise<string> {
  return (await sql<{ schema: string }>`select current_schema() as schema`.execute(handle.db)).rows[0].schema;
}

/** An empty database (no migration run) of the engine the suite runs on. */
async function freshDatabase(): Promise<{ handle: DatabaseHandle; cleanup(): Promise<void> }> {
  const pgUrl = process.env.TEST_DATABASE_URL;
  if (pgUrl) {
    const schema = `t_${process.pid}_${randomBytes(4).toString('hex')}`;
    const handle = await openDatabase(pgUrl, { schema, poolSize: 2 });
    return {
      handle,
      cleanup: async () => {
        await handle.close();
        await dropSchema(pgUrl, schema);
      },
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'rankscope-caps-'));
  const handle = await openDatabase(`sqlite:${join(dir, 'old.db')}`);
  return {
    handle,
    cleanup: async () => {
      await handle.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
