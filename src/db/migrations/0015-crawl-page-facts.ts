// The site-audit catalogue (docs/audit-issues.md): per crawled page, what its issue types
// need (facts: bounded JSON, with the MinHash signature), the time to the response's headers,
// and the visible text deflated (pages of 100+ words only), read for the exact Jaccard of
// near-duplicate candidates alone.
import type { Kysely, Migration } from 'kysely';

export const name = '0015_crawl_page_facts';

export function migration(engine: 'sqlite' | 'postgres'): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('crawl_pages').addColumn('facts', 'text').execute();
      await db.schema.alterTable('crawl_pages').addColumn('response_ms', 'integer').execute();
      await db.schema
        .alterTable('crawl_pages')
        .addColumn('page_text', engine === 'postgres' ? 'bytea' : 'blob')
        .execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.alterTable('crawl_pages').dropColumn('page_text').execute();
      await db.schema.alterTable('crawl_pages').dropColumn('response_ms').execute();
      await db.schema.alterTable('crawl_pages').dropColumn('facts').execute();
    },
  };
}
