// Stepping a test through retry backoff without sleeping: the embedded queue keeps time by the
// injected clock, so moving the clock makes a retry due; pg-boss keeps it in PostgreSQL, so there
// the waiting jobs (retries, and jobs sent to start after a moment of the test's clock, which
// PostgreSQL's clock has not reached) are made due in its table; nothing else about them changes.
import { sql } from 'kysely';
import type { Clock } from '../../src/time.js';
import type { TestDatabase } from './database.js';

export async function makeRetriesDue(db: TestDatabase, clock: Clock & { advance(ms: number): void }, ms: number): Promise<void> {
  clock.advance(ms);
  if (db.handle.engine !== 'postgres') return;
  if (!db.schema || !/^[a-z_][a-z0-9_]*$/.test(db.schema)) throw new Error('a PostgreSQL test database has a schema of its own');
  await sql`update ${sql.raw(`${db.schema}_jobs.job`)} set start_after = now() - interval '1 second' where state in ('created', 'retry') and start_after > now()`.execute(
    db.handle.db,
  );
}

/** The PostgreSQL test database as a DATABASE_URL (its schema through search_path); SQLite's as it is. */
export function databaseUrlOf(db: TestDatabase): string {
  if (!db.schema) return db.url;
  const url = new URL(db.url);
  url.searchParams.set('options', `-c search_path=${db.schema}`);
  return url.toString();
}
