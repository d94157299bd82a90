// The migrations live one file each in src/db/migrations/, listed in order by its index. A database
// created by the one-object list they replaced (frozen in test/fixtures/migrations-before.ts) must
// see nothing new: no migration runs, no row is added to the migrations table, and its schema and
// data stay as they were. A fresh database gets the same schema from the new files as from the
// old list, and the same data from the same rows (0006, 0007, 0011 and 0013 transform data).
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { join, resolve } from 'node:path';
import { type Kysely, type MigrationProvider, Migrator, sql } from 'kysely';
import { type DatabaseHandle, migrateToLatest } from '../../src/db/connection.js';
import { MIGRATIONS, migrationProvider } from '../../src/db/migrations/index.js';
import { processDatabase, type ProcessDatabase } from '../helpers/database.js';
import { migrationProvider as providerBefore } from '../fixtures/migrations-before.js';

// The source files themselves (the suite may run compiled copies of the tests: npm test runs from the repo root).
const dir = resolve('src/db/migrations');

test('the index lists every file of src/db/migrations/ in name order, each under its file name', () => {
  const files = readdirSync(dir)
    .filter((f) => f !== 'index.ts')
    .sort();
  assert.ok(
    files.every((f) => /^\d{4}-[a-z0-9-]+\.ts$/.test(f)),
    files.join(' '),
  );
  assert.deepEqual(
    MIGRATIONS.map((m) => m.name),
    files.map((f) => f.replace(/\.ts$/, '').replaceAll('-', '_')),
  );
});

test('the names are those the migrations table already holds', async () => {
  for (const engine of ['sqlite', 'postgres'] as const) {
    const before = Object.keys(await providerBefore(engine).getMigrations()).sort();
    assert.deepEqual(
      MIGRATIONS.slice(0, before.length).map((m) => m.name),
      before,
    );
    // Migrations written after the split come after every name the old list had.
    for (const later of MIGRATIONS.slice(before.length)) assert.ok(later.name > before[before.length - 1], later.name);
  }
});

test('no migration imports live code: Kysely alone', () => {
  for (const file of readdirSync(dir).filter((f) => f !== 'index.ts')) {
    const source = readFileSync(join(dir, file), 'utf8');
    const imports = [...source.matchAll(/^import .* from '([^']+)';$/gm)].map((m) => m[1]);
    assert.deepEqual([...new Set(imports)], ['kysely'], file);
  }
});

describe('databases from the old list and from the new files', () => {
  const created: ProcessDatabase[] = [];
  const handles: DatabaseHandle[] = [];
  /** Migrated and seeded by the old list alone. */
  let old: DatabaseHandle;
  let oldSnapshot: Snapshot;
  let oldMigrations: unknown[];

  async function open(): Promise<DatabaseHandle> {
    const database = await processDatabase();
    created.push(database);
    const handle = await database.open();
    handles.push(handle);
    return handle;
  }

  before(async () => {
    old = await open();
    await migrateAndSeed(old, 'old', 'old');
    oldSnapshot = await snapshot(old);
    oldMigrations = await migrationRows(old);
  });
  after(async () => {
    for (const handle of handles) await handle.close().catch(() => {});
    for (const database of created) await database.cleanup();
  });

  test('an existing database migrates with the new files unchanged: nothing runs, no row is added', async () => {
    const split = await splitProvider(old.engine);
    assert.equal(oldMigrations.length, Object.keys(await split.getMigrations()).length);
    const { results, error } = await migrator(old, await currentSchema(old), split).migrateToLatest();
    assert.equal(error, undefined);
    assert.deepEqual(results, []);
    assert.deepEqual(await migrationRows(old), oldMigrations);
    assert.deepEqual(await snapshot(old), oldSnapshot);
  });

  test('a server on such a database runs only the migrations written after the split', async () => {
    const existing = await open();
    await migrateAndSeed(existing, 'old', 'old');
    const rows = await migrationRows(existing);
    const later = MIGRATIONS.slice(rows.length).map((m) => m.name);
    assert.deepEqual(await migrateToLatest(existing), later);
    assert.deepEqual((await migrationRows(existing)).slice(0, rows.length), rows);
  });

  test('a fresh database from the new files has the same schema, and the same rows give the same data', async () => {
    const fresh = await open();
    await migrateAndSeed(fresh, 'new', 'new');
    assert.deepEqual(await snapshot(fresh), oldSnapshot);
    assert.deepEqual(await migrationNames(fresh), await migrationNames(old));
  });

  test('a database part-migrated by the old list finishes with the new files as the old list finished it', async () => {
    const part = await open();
    await migrateAndSeed(part, 'old', 'new');
    assert.deepEqual(await snapshot(part), oldSnapshot);
  });
});

/** The old list (the fixture) or the new files. */
type List = 'old' | 'new';

function provider(list: List, engine: DatabaseHandle['engine']): MigrationProvider {
  return list === 'old' ? providerBefore(engine) : splitProvider(engine);
}

/** The new files that replaced the old list (those written later are left out). */
function splitProvider(engine: DatabaseHandle['engine']): MigrationProvider {
  return {
    async getMigrations() {
      const names = new Set(Object.keys(await providerBefore(engine).getMigrations()));
      const all = await migrationProvider(engine).getMigrations();
      return Object.fromEntries(Object.entries(all).filter(([name]) => names.has(name)));
    },
  };
}

function migrator(handle: DatabaseHandle, schema: string | undefined, provider: MigrationProvider): Migrator {
  return new Migrator({ db: handle.db, provider, ...(schema ? { migrationTableSchema: schema } : {}) });
}

async function currentSchema(handle: DatabaseHandle): Promise<string | undefined> {
  if (handle.engine !== 'postgres') return undefined;
  return (await sql<{ schema: string }>`select current_schema() as schema`.execute(handle.db)).rows[0].schema;
}

/**
 * Migrates in three steps with rows added between them, so the migrations that transform data
 * have some to transform: `firstList` to 0005, `restList` on from there (the last step through
 * the whole list it was given).
 */
async function migrateAndSeed(handle: DatabaseHandle, firstList: List, restList: List): Promise<void> {
  const schema = await currentSchema(handle);
  const first = provider(firstList, handle.engine);
  const rest = provider(restList, handle.engine);
  const db = handle.db as unknown as Kysely<any>;
  const to = async (list: MigrationProvider, name: string) => {
    const { error } = await migrator(handle, schema, list).migrateTo(name);
    assert.equal(error, undefined);
  };
  await to(first, '0005_jobs');
  await seedThrough0005(db, handle.engine);
  await to(rest, '0012_analytics_read_bounds');
  await seedThrough0012(db);
  const { error } = await migrator(handle, schema, rest).migrateToLatest();
  assert.equal(error, undefined);
  // 0014 lets a dimension be as long as a custom property's.
  await db
    .insertInto('analytics_rollups')
    .values({ website_id: 1, dimension: `prop:6:plan_a:${'e'.repeat(40)}`, day: '2026-01-03', value: 'pro', count: 2 })
    .execute();
}

const T = '2026-01-01T00:00:00.000000Z';

async function seedThrough0005(db: Kysely<any>, engine: DatabaseHandle['engine']): Promise<void> {
  await db
    .insertInto('users')
    .values([
      { email: 'a@example.com', api_key_hash: 'a'.repeat(64), created_at: T, updated_at: T },
      { email: 'b@example.com', api_key_hash: 'b'.repeat(64), created_at: T, updated_at: T },
    ])
    .execute();
  await db
    .insertInto('websites')
    .values([
      {
        user_id: 1,
        domain: 'a.example',
        privacy: 1,
        email: 1,
        exclude_bots: 1,
        created_at: T,
        updated_at: '2026-01-02T00:00:00.000000Z',
      },
      {
        user_id: 2,
        domain: 'b.example',
        privacy: 0,
        email: 0,
        exclude_bots: 0,
        exclude_ips: '10.0.0.1',
        created_at: T,
        updated_at: T,
      },
    ])
    .execute();
  const results = JSON.stringify({
    title: { passed: true, importance: 'high', value: 'T' },
    headings: { passed: false, importance: 'high', value: [] },
    'not listable!': { passed: true },
  });
  await db
    .insertInto('reports')
    .values(
      ['https://a.example/', 'https://a.example/x', 'https://b.example/'].map((url, i) => ({
        user_id: i < 2 ? 1 : 2,
        url,
        project: new URL(url).host,
        result: 50 + i,
        results: i === 1 ? 'not json' : results,
        privacy: 1,
        generated_at: T,
        created_at: T,
        updated_at: T,
      })),
    )
    .execute();
  await db.insertInto('settings').values({ key: 'k', value: 'v' }).execute();
  await db
    .insertInto('analytics_salts')
    .values({ day: '2026-01-01', salt: 's'.repeat(64), created_at: T })
    .execute();
  await db
    .insertInto('analytics_events')
    .values({
      website_id: 1,
      created_at: T,
      name: 'pageview',
      page: '/',
      visitor: 'v1',
      browser: 'Firefox',
      os: 'Linux',
      device: 'desktop',
      country: 'DE',
      continent: 'EU',
    })
    .execute();
  await db
    .insertInto('analytics_visitors')
    .values({ website_id: 1, day: '2026-01-01', visitor: 'v1', last_seen: 1, seen: '[]' })
    .execute();
  await db
    .insertInto('analytics_rollups')
    .values([
      { website_id: 1, dimension: 'pageviews', day: '2026-01-01', value: '', count: 3 },
      { website_id: 1, dimension: 'page', day: '2026-01-01', value: '/', count: 2 },
      { website_id: 1, dimension: 'page', day: '2026-01-01', value: '/x', count: 1 },
      { website_id: 2, dimension: 'browser', day: '2026-01-02', value: 'Firefox', count: 1 },
    ])
    .execute();
  if (engine === 'sqlite') {
    await db
      .insertInto('jobs')
      .values({
        id: 'j1',
        type: 'mail.send',
        payload: '{}',
        state: 'queued',
        attempts: 0,
        retry_limit: 3,
        retry_delay: 1,
        retry_backoff: 1,
        run_at: 1,
        created_at: 1,
        updated_at: 1,
      })
      .execute();
  }
}

async function seedThrough0012(db: Kysely<any>): Promise<void> {
  const crawl = (status: string) => ({
    user_id: 1,
    url: 'https://a.example/',
    project: 'a.example',
    status,
    max_pages: 10,
    sitemap: 1,
    slots: 1,
    delay_ms: 0,
    pages_found: 0,
    pages_done: 0,
    pages_failed: 0,
    score_sum: 0,
    scored: 0,
    issues: 0,
    sitemap_found: 0,
    origins: '{}',
    created_at: T,
    updated_at: T,
  });
  await db
    .insertInto('crawls')
    .values([crawl('queued'), crawl('running'), crawl('finished')])
    .execute();
  await db
    .insertInto('mails')
    .values({
      recipient: 'a@example.com',
      subject: 's',
      text: 't',
      html: '<p>t</p>',
      status: 'queued',
      attempts: 0,
      job_queued: 1,
      created_at: T,
      updated_at: T,
    })
    .execute();
  await db
    .insertInto('webhooks')
    .values({
      user_id: 1,
      url: 'https://hook.example/',
      events: 'report.created',
      active: 1,
      secret: 'x',
      created_at: T,
      updated_at: T,
    })
    .execute();
  await db
    .insertInto('sessions')
    .values({ id_hash: 'c'.repeat(64), user_id: 1, csrf_token: 'x', created_at: T, last_seen_at: T, expires_at: T })
    .execute();
  await db
    .insertInto('monitors')
    .values({
      user_id: 1,
      report_id: 1,
      frequency: 'daily',
      alert_drop: 5,
      email: 1,
      next_run_at: T,
      created_at: T,
      updated_at: T,
    })
    .execute();
}

interface Snapshot {
  /** Kysely's introspection: tables, columns, types, nullability, identity. */
  tables: unknown;
  /** The engine's catalogue: indexes, constraints, triggers, storage (the schema's own name left out). */
  catalogue: unknown[];
  /** Every row of every table but the migrations table's, as text, sorted. */
  data: Record<string, string[]>;
}

async function snapshot(handle: DatabaseHandle): Promise<Snapshot> {
  const db = handle.db as unknown as Kysely<any>;
  const tables = (await db.introspection.getTables())
    .filter((t) => !t.name.startsWith('kysely_migration'))
    .map(({ schema: _schema, ...t }) => t)
    .sort((a, b) => a.name.localeCompare(b.name));
  let catalogue: unknown[];
  let names: string[];
  if (handle.engine === 'sqlite') {
    catalogue = (
      await sql<Record<string, unknown>>`select type, name, tbl_name, sql from sqlite_master
        where name not like 'kysely_migration%' order by type, name`.execute(db)
    ).rows;
    names = [
      ...(
        await sql<{ name: string }>`select name from sqlite_master
          where type = 'table' and name not like 'kysely_migration%' order by name`.execute(db)
      ).rows.map((r) => r.name),
    ];
  } else {
    const schema = (await currentSchema(handle))!;
    const own = (text: string) => text.replaceAll(`${schema}.`, '');
    const columns = await sql<Record<string, unknown>>`select table_name, column_name, ordinal_position, data_type,
        character_maximum_length, numeric_precision, is_nullable, column_default
      from information_schema.columns where table_schema = current_schema() and table_name not like 'kysely_migration%'
      order by table_name, ordinal_position`.execute(db);
    const storage = await sql<Record<string, unknown>>`select c.relname, a.attname, a.attstorage
      from pg_attribute a join pg_class c on c.oid = a.attrelid
      where c.relnamespace = current_schema()::regnamespace and c.relkind = 'r' and a.attnum > 0 and not a.attisdropped
        and c.relname not like 'kysely_migration%'
      order by c.relname, a.attnum`.execute(db);
    const indexes = await sql<{ indexname: string; tablename: string; indexdef: string }>`select indexname, tablename, indexdef
      from pg_indexes where schemaname = current_schema() and tablename not like 'kysely_migration%'
      order by indexname`.execute(db);
    const constraints = await sql<{ table: string; conname: string; contype: string; def: string }>`select
        conrelid::regclass::text as table, conname, contype, pg_get_constraintdef(oid) as def
      from pg_constraint where connamespace = current_schema()::regnamespace
        and conrelid::regclass::text not like 'kysely_migration%'
      order by conname`.execute(db);
    const sequences = await sql<Record<string, unknown>>`select sequence_name, data_type from information_schema.sequences
      where sequence_schema = current_schema() order by sequence_name`.execute(db);
    catalogue = [
      columns.rows,
      storage.rows,
      indexes.rows.map((r) => ({ ...r, indexdef: own(r.indexdef) })),
      constraints.rows.map((r) => ({ ...r, table: own(r.table), def: own(r.def) })),
      sequences.rows,
    ];
    names = tables.filter((t) => !t.isView).map((t) => t.name);
  }
  const data: Record<string, string[]> = {};
  for (const name of names) {
    const rows = await db.selectFrom(name).selectAll().execute();
    data[name] = rows.map((r) => JSON.stringify(r)).sort();
  }
  return { tables, catalogue, data };
}

async function migrationRows(handle: DatabaseHandle): Promise<unknown[]> {
  return (await sql`select * from kysely_migration order by name`.execute(handle.db)).rows;
}

async function migrationNames(handle: DatabaseHandle): Promise<string[]> {
  return (await sql<{ name: string }>`select name from kysely_migration order by name`.execute(handle.db)).rows.map(
    (r) => r.name,
  );
}
