// Rendering with a browser (docs/rendering.md): whether a report's latest analysis ran its
// checks on the DOM Chromium built (`rendered`), and whether a monitor's runs ask for that
// (`render`). Everything stored before was analysed from the raw HTML: 0.
import type { Kysely, Migration } from 'kysely';

export const name = '0017_rendering';

export function migration(_engine: 'sqlite' | 'postgres'): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('reports')
        .addColumn('rendered', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable('monitors')
        .addColumn('render', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.alterTable('monitors').dropColumn('render').execute();
      await db.schema.alterTable('reports').dropColumn('rendered').execute();
    },
  };
}
