// Rendered crawls (docs/rendering.md): whether a crawl loads each HTML page in Chromium, finds
// its links in the rendered DOM and compares it with the raw HTML (`render`). Every crawl stored
// before read the raw HTML: 0.
import type { Kysely, Migration } from 'kysely';

export const name = '0018_crawl_render';

export function migration(_engine: 'sqlite' | 'postgres'): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('crawls')
        .addColumn('render', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.alterTable('crawls').dropColumn('render').execute();
    },
  };
}
