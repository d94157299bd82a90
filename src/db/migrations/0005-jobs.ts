// The embedded engine's job queue (jobs/sqlite-queue.ts). On PostgreSQL, pg-boss keeps its
// jobs in a schema of its own and creates it itself.
import type { Kysely, Migration } from 'kysely';

export const name = '0005_jobs';

export function migration(engine: 'sqlite' | 'postgres'): Migration {
  return {
    async up(db: Kysely<any>) {
      if (engine !== 'sqlite') return;
      await db.schema
        .createTable('jobs')
        .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
        .addColumn('type', 'varchar(64)', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('state', 'varchar(16)', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull())
        .addColumn('retry_limit', 'integer', (c) => c.notNull())
        .addColumn('retry_delay', 'integer', (c) => c.notNull())
        .addColumn('retry_backoff', 'integer', (c) => c.notNull())
        .addColumn('run_at', 'bigint', (c) => c.notNull())
        .addColumn('locked_until', 'bigint')
        .addColumn('locked_by', 'varchar(64)')
        .addColumn('last_error', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('jobs_due').on('jobs').columns(['state', 'run_at']).execute();
    },
    async down(db: Kysely<any>) {
      if (engine === 'sqlite') await db.schema.dropTable('jobs').execute();
    },
  };
}
