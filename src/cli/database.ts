// The database for one command: opened, migrated, closed when the command is done.
import type { AppConfig } from '../config.js';
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../db/connection.js';

export async function withDatabase<T>(
  config: AppConfig,
  work: (db: DatabaseHandle, applied: string[]) => Promise<T>,
): Promise<T> {
  const database = await openDatabase(config.databaseUrl, { poolSize: config.databasePoolSize });
  try {
    const applied = await migrateToLatest(database);
    return await work(database, applied);
  } finally {
    await database.close();
  }
}
