// Site audits (src/crawl/): a crawl, its frontier and pages (one row per URL found: the
// queue lives here, not in memory, so a crawl resumes after a restart and instances share
// it), the URLs its sitemaps list, and the site-level issues found when it finishes.
import type { ColumnDefinitionBuilder, Kysely, Migration } from 'kysely';

export const name = '0009_crawls';

export function migration(engine: 'sqlite' | 'postgres'): Migration {
  const idType = engine === 'postgres' ? 'serial' : 'integer';
  const id = (c: ColumnDefinitionBuilder): ColumnDefinitionBuilder =>
    engine === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement();
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('crawls')
        .addColumn('id', idType, id)
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('url', 'varchar(2048)', (c) => c.notNull())
        .addColumn('project', 'varchar(255)', (c) => c.notNull())
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('max_pages', 'integer', (c) => c.notNull())
        .addColumn('sitemap', 'integer', (c) => c.notNull())
        .addColumn('slots', 'integer', (c) => c.notNull())
        .addColumn('delay_ms', 'integer', (c) => c.notNull())
        .addColumn('pages_found', 'integer', (c) => c.notNull())
        .addColumn('pages_done', 'integer', (c) => c.notNull())
        .addColumn('pages_failed', 'integer', (c) => c.notNull())
        .addColumn('score_sum', 'integer', (c) => c.notNull())
        .addColumn('scored', 'integer', (c) => c.notNull())
        .addColumn('issues', 'integer', (c) => c.notNull())
        .addColumn('sitemap_found', 'integer', (c) => c.notNull())
        .addColumn('origins', 'text', (c) => c.notNull())
        .addColumn('error', 'varchar(1000)')
        .addColumn('deadline_ms', 'bigint')
        .addColumn('started_at', 'varchar(32)')
        .addColumn('finished_at', 'varchar(32)')
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('crawls_user_id').on('crawls').columns(['user_id', 'id']).execute();
      await db.schema
        .createTable('crawl_pages')
        .addColumn('id', idType, id)
        .addColumn('crawl_id', 'integer', (c) => c.notNull().references('crawls.id').onDelete('cascade'))
        .addColumn('url', 'varchar(2048)', (c) => c.notNull())
        .addColumn('state', 'varchar(16)', (c) => c.notNull())
        .addColumn('priority', 'integer', (c) => c.notNull())
        .addColumn('depth', 'integer')
        .addColumn('lease_ms', 'bigint')
        .addColumn('status_code', 'integer')
        .addColumn('redirect_to', 'varchar(2048)')
        .addColumn('report_id', 'integer')
        .addColumn('result', 'integer')
        .addColumn('in_sitemap', 'integer', (c) => c.notNull())
        .addColumn('indexable', 'integer', (c) => c.notNull())
        .addColumn('robots_disallowed', 'integer', (c) => c.notNull())
        .addColumn('html', 'integer', (c) => c.notNull())
        .addColumn('noindex', 'integer', (c) => c.notNull())
        .addColumn('mixed_content', 'integer', (c) => c.notNull())
        .addColumn('title', 'varchar(1000)')
        .addColumn('description', 'varchar(2000)')
        .addColumn('canonical', 'varchar(2048)')
        .addColumn('inlinks', 'integer', (c) => c.notNull())
        .addColumn('linked_from', 'text', (c) => c.notNull())
        .addColumn('error', 'varchar(1000)')
        .execute();
      await db.schema.createIndex('crawl_pages_url').on('crawl_pages').columns(['crawl_id', 'url']).unique().execute();
      // The frontier: the next queued page by priority (depth), then discovery order.
      await db.schema
        .createIndex('crawl_pages_frontier')
        .on('crawl_pages')
        .columns(['crawl_id', 'state', 'priority', 'id'])
        .execute();
      await db.schema
        .createTable('crawl_sitemap_urls')
        .addColumn('crawl_id', 'integer', (c) => c.notNull().references('crawls.id').onDelete('cascade'))
        .addColumn('url', 'varchar(2048)', (c) => c.notNull())
        .addPrimaryKeyConstraint('crawl_sitemap_urls_pk', ['crawl_id', 'url'])
        .execute();
      await db.schema
        .createTable('crawl_issues')
        .addColumn('id', idType, id)
        .addColumn('crawl_id', 'integer', (c) => c.notNull().references('crawls.id').onDelete('cascade'))
        .addColumn('type', 'varchar(64)', (c) => c.notNull())
        .addColumn('severity', 'varchar(8)', (c) => c.notNull())
        .addColumn('url', 'varchar(2048)', (c) => c.notNull())
        .addColumn('detail', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('crawl_issues_crawl').on('crawl_issues').columns(['crawl_id', 'id']).execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('crawl_issues').execute();
      await db.schema.dropTable('crawl_sitemap_urls').execute();
      await db.schema.dropTable('crawl_pages').execute();
      await db.schema.dropTable('crawls').execute();
    },
  };
}
