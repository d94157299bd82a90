// Links to other hosts, images and hreflang targets a crawl checks (docs/external-links.md): one
// row per URL and kind, checked once per URL under a lease like a page; the crawl says whether
// to check them (`external`), counts the checks begun against CRAWL_MAX_EXTERNAL, and how many
// URLs were left unchecked.
import type { ColumnDefinitionBuilder, Kysely, Migration } from 'kysely';

export const name = '0016_crawl_links';

export function migration(engine: 'sqlite' | 'postgres'): Migration {
  const idType = engine === 'postgres' ? 'serial' : 'integer';
  const id = (c: ColumnDefinitionBuilder): ColumnDefinitionBuilder =>
    engine === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement();
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('crawls')
        .addColumn('external', 'integer', (c) => c.notNull().defaultTo(1))
        .execute();
      await db.schema
        .alterTable('crawls')
        .addColumn('external_checks', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable('crawls')
        .addColumn('external_unchecked', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .createTable('crawl_links')
        .addColumn('id', idType, id)
        .addColumn('crawl_id', 'integer', (c) => c.notNull().references('crawls.id').onDelete('cascade'))
        .addColumn('url', 'varchar(2048)', (c) => c.notNull())
        .addColumn('kind', 'varchar(16)', (c) => c.notNull())
        .addColumn('host', 'varchar(255)', (c) => c.notNull())
        .addColumn('state', 'varchar(16)', (c) => c.notNull())
        .addColumn('lease_ms', 'bigint')
        .addColumn('status_code', 'integer')
        .addColumn('final_status', 'integer')
        .addColumn('final_url', 'varchar(2048)')
        .addColumn('error', 'varchar(1000)')
        .addColumn('bytes', 'bigint')
        .addColumn('pages', 'integer', (c) => c.notNull())
        .addColumn('linked_from', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('crawl_links_url').on('crawl_links').columns(['crawl_id', 'url', 'kind']).unique().execute();
      // The next URL to check: queued rows in discovery order; and the checks under way by host.
      await db.schema.createIndex('crawl_links_queue').on('crawl_links').columns(['crawl_id', 'state', 'id']).execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('crawl_links').execute();
      await db.schema.alterTable('crawls').dropColumn('external_unchecked').execute();
      await db.schema.alterTable('crawls').dropColumn('external_checks').execute();
      await db.schema.alterTable('crawls').dropColumn('external').execute();
    },
  };
}
