// A fresh, migrated database per test file: a temporary SQLite file, or, when
// TEST_DATABASE_URL is set, a schema of its own on that PostgreSQL (so runs never collide).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { dropSchema, migrateToLatest, openDatabase, type DatabaseHandle } from '../../src/db/connection.js';

export interface TestDatabase {
  handle: DatabaseHandle;
  /** The URL (and schema) another process or instance can open the same database with. */
  url: string;
  schema?: string;
  cleanup(): Promise<void>;
}

export const usingPostgres = Boolean(process.env.TEST_DATABASE_URL);

export async function testDatabase(): Promise<TestDatabase> {
  const pgUrl = process.env.TEST_DATABASE_URL;
  if (pgUrl) {
    const schema = `t_${process.pid}_${randomBytes(4).toString('hex')}`;
    const handle = await openDatabase(pgUrl, { schema, poolSize: 5 });
    try {
      await migrateToLatest(handle);
    } catch (error) {
      await handle.close();
      await dropSchema(pgUrl, schema);
      throw error;
    }
    return {
      handle,
      url: pgUrl,
      schema,
      cleanup: async () => {
        await handle.close().catch(() => {}); // a test may have closed it already
        await dropSchema(pgUrl, schema);
      },
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'rankscope-test-'));
  const url = `sqlite:${join(dir, 'test.db')}`;
  const handle = await openDatabase(url);
  await migrateToLatest(handle);
  return {
    handle,
    url,
    cleanup: async () => {
      await handle.close().catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface ProcessDatabase {
  /** DATABASE_URL for a `rankscope serve` child (PostgreSQL: the schema through search_path). */
  databaseUrl: string;
  /** Opens the same database in this process (to look at what the child stored). */
  open(): Promise<DatabaseHandle>;
  cleanup(): Promise<void>;
}

/**
 * An empty database for child processes: a temporary SQLite file, or, with TEST_DATABASE_URL,
 * a new schema (created here: a search_path naming a missing schema leaves nowhere to create
 * the tables) that the child migrates.
 */
export async function processDatabase(): Promise<ProcessDatabase> {
  const pgUrl = process.env.TEST_DATABASE_URL;
  if (pgUrl) {
    const schema = `p_${process.pid}_${randomBytes(4).toString('hex')}`;
    const url = new URL(pgUrl);
    url.searchParams.set('options', `-c search_path=${schema}`);
    const created = await openDatabase(pgUrl, { schema, poolSize: 2 });
    await created.close();
    return {
      databaseUrl: url.toString(),
      open: () => openDatabase(pgUrl, { schema, poolSize: 2 }),
      cleanup: () => dropSchema(pgUrl, schema),
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'rankscope-proc-'));
  const databaseUrl = `sqlite:${join(dir, 'db.sqlite')}`;
  return {
    databaseUrl,
    open: () => openDatabase(databaseUrl),
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  };
}
