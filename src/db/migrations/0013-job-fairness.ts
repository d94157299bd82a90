// Shared fairly: jobs carry their account (the SQLite queue's column; pg-boss keeps it in
// the job's data), so accounts take turns at each kind's slots; mails know their account,
// for MAIL_PER_HOUR; crawls count the sitemap URLs past their cap; an account's crawls by
// status, for MAX_RUNNING_CRAWLS.
import type { Kysely, Migration } from 'kysely';

export const name = '0013_job_fairness';

export function migration(engine: 'sqlite' | 'postgres'): Migration {
  return {
    async up(db: Kysely<any>) {
      if (engine === 'sqlite') {
        await db.schema.alterTable('jobs').addColumn('account', 'integer').execute();
        await db.schema.createIndex('jobs_account_due').on('jobs').columns(['state', 'account', 'run_at']).execute();
      }
      await db.schema
        .alterTable('mails')
        .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .execute();
      await db.schema.createIndex('mails_user_sent').on('mails').columns(['user_id', 'status', 'sent_at']).execute();
      await db.schema
        .alterTable('crawls')
        .addColumn('sitemap_urls_unkept', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      // 1 once a running crawl's start has queued its page workers (until then a start job may
      // take it over). Crawls from before ran their start already.
      await db.schema
        .alterTable('crawls')
        .addColumn('workers_queued', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.updateTable('crawls').set({ workers_queued: 1 }).where('status', '!=', 'queued').execute();
      await db.schema.createIndex('crawls_user_status').on('crawls').columns(['user_id', 'status', 'id']).execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropIndex('crawls_user_status').execute();
      await db.schema.alterTable('crawls').dropColumn('workers_queued').execute();
      await db.schema.alterTable('crawls').dropColumn('sitemap_urls_unkept').execute();
      await db.schema.dropIndex('mails_user_sent').execute();
      await db.schema.alterTable('mails').dropColumn('user_id').execute();
      if (engine === 'sqlite') {
        await db.schema.dropIndex('jobs_account_due').execute();
        await db.schema.alterTable('jobs').dropColumn('account').execute();
      }
    },
  };
}
