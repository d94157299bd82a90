// Opens the database named by DATABASE_URL: `sqlite:<file>` (default, embedded) or
// `postgres://…` (many stateless instances may share one PostgreSQL).
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect, sql } from 'kysely';
import { CurrentSchemaPostgresDialect } from './current-schema-introspector.js';
import type { Database, DatabaseEngine } from './schema.js';
import { migrationProvider } from './migrations/index.js';

export type { DatabaseEngine } from './schema.js';

export interface DatabaseHandle {
  db: Kysely<Database>;
  engine: DatabaseEngine;
  /** The DATABASE_URL it was opened with (pg-boss opens its own connections from it). */
  url: string;
  close(): Promise<void>;
}

export interface OpenOptions {
  poolSize?: number;
  /** PostgreSQL only: the schema to use (created if missing). Tests run each in their own. */
  schema?: string;
  /**
   * SQLite only: `lean` keeps a 16 MB page cache and no memory map, for a one-off command whose
   * resident size matters more than repeated reads (the crawl CLI), and checkpoints its write-ahead
   * log less often; the server keeps `default`.
   */
  memory?: 'default' | 'lean';
}

export function engineOf(url: string): DatabaseEngine {
  if (/^postgres(ql)?:\/\//i.test(url)) return 'postgres';
  if (/^sqlite:/i.test(url)) return 'sqlite';
  throw new Error(`DATABASE_URL must start with sqlite: or postgres://, got "${url.replace(/\/\/[^@/]*@/, '//***@')}"`);
}

export function sqliteFileOf(url: string): string {
  const path = url.replace(/^sqlite:(\/\/)?/i, '');
  if (path === '') throw new Error('DATABASE_URL sqlite: needs a file path (or :memory:)');
  return path;
}

export async function openDatabase(url: string, options: OpenOptions = {}): Promise<DatabaseHandle> {
  const engine = engineOf(url);
  if (engine === 'sqlite') {
    const sqlite = openSqliteFile(sqliteFileOf(url), options.memory ?? 'default');
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
    sqliteDatabases.set(db, sqlite);
    return { db, engine, url, close: () => db.destroy() };
  }

  // The PostgreSQL driver loads only for a PostgreSQL URL (the embedded default never needs it).
  const { default: pg } = await import('pg');
  const schema = options.schema;
  if (schema !== undefined && !/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`invalid schema name ${schema}`);
  if (schema) {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await admin.query(`create schema if not exists ${schema}`);
    } finally {
      await admin.end();
    }
  }
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  // An idle client's error (server restart) must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  const db = new Kysely<Database>({ dialect: new CurrentSchemaPostgresDialect({ pool }) });
  return { db, engine, url, close: () => db.destroy() };
}

/**
 * A SQLite file opened and configured as every connection to it must be (created owner-only
 * when missing). openDatabase uses it, and so does the analytics write thread, which keeps a
 * connection of its own.
 */
export function openSqliteFile(file: string, memory: 'default' | 'lean' = 'default'): SQLite.Database {
  if (file !== ':memory:') createPrivateFile(file);
  const sqlite = new SQLite(file);
  // WAL lets readers run beside the writer; the busy timeout rides out another connection's write lock.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('synchronous = NORMAL');
  // Reports carry ~30 KB of results each: read them through a memory map and a larger page cache.
  const lean = memory === 'lean';
  sqlite.pragma(lean ? 'mmap_size = 0' : 'mmap_size = 268435456');
  sqlite.pragma(lean ? 'cache_size = -16384' : 'cache_size = -65536');
  // A burst of small transactions (a crawl's pages) checkpoints its WAL every 4,000 pages (16 MB)
  // rather than every 1,000: fewer copies into the database file, the same durability.
  if (lean) sqlite.pragma('wal_autocheckpoint = 4000');
  return sqlite;
}

/** The better-sqlite3 database behind each SQLite Kysely handle opened here. */
const sqliteDatabases = new WeakMap<Kysely<Database>, SQLite.Database>();

/**
 * The better-sqlite3 database under a SQLite handle from openDatabase (undefined for PostgreSQL
 * or any other handle), for the few paths that run prepared statements synchronously. Use it
 * only inside `db.connection().execute(…)`: that holds Kysely's one connection, so no Kysely
 * transaction is open on it meanwhile.
 */
export function sqliteDatabaseOf(db: Kysely<Database>): SQLite.Database | undefined {
  return sqliteDatabases.get(db);
}

/**
 * The database holds key hashes and password hashes: a new file is created readable by its
 * owner only (0600, whatever the umask). SQLite gives its -wal and -shm files the same mode.
 */
function createPrivateFile(file: string): void {
  mkdirSync(dirname(resolve(file)), { recursive: true });
  try {
    closeSync(openSync(file, 'wx', 0o600));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}

/**
 * Kysely prepares a statement for every query; SQLite's prepare costs more than running a
 * small lookup, so statements are kept by their SQL text (bounded; Kysely never streams here,
 * so a cached statement is never busy when reused).
 */
function withStatementCache(sqlite: SQLite.Database, max = 500) {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string): SQLite.Statement {
      let statement = cache.get(sql);
      if (statement === undefined) {
        statement = sqlite.prepare(sql);
        if (cache.size >= max) cache.delete(cache.keys().next().value!);
        cache.set(sql, statement);
      }
      return statement;
    },
  };
}

export async function migrateToLatest(handle: DatabaseHandle): Promise<string[]> {
  // Kysely looks for its bookkeeping tables in every schema unless told which: name the
  // connection's own, so databases in neighbouring schemas never mix (and the dialect's
  // introspector reads that schema only: current-schema-introspector.ts).
  const schema =
    handle.engine === 'postgres'
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(handle.db)).rows[0].schema
      : undefined;
  const migrator = new Migrator({
    db: handle.db,
    provider: migrationProvider(handle.engine),
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/**
 * Keeps the query planner's statistics current: SQLite's `PRAGMA optimize` re-analyses the
 * tables that changed enough to matter (without statistics it may, for instance, walk the
 * generated_at index across every report to find one project's). PostgreSQL's autovacuum
 * does this by itself.
 */
export async function refreshStatistics(handle: DatabaseHandle): Promise<void> {
  if (handle.engine === 'sqlite') await sql`pragma optimize=0x10002`.execute(handle.db);
}

/** Used by tests and the health check: a trivial round trip. */
export async function ping(db: Kysely<Database>): Promise<void> {
  await sql`select 1`.execute(db);
}

export async function dropSchema(url: string, schema: string): Promise<void> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    // The schema's pg-boss jobs live beside it (jobs/pg-boss-queue.ts).
    await client.query(`drop schema if exists ${schema} cascade`);
    await client.query(`drop schema if exists ${schema}_jobs cascade`);
  } finally {
    await client.end();
  }
}

export { sql };
